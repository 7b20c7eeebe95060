"""The OpenAPI document's requests, generated from the models that check them
(``web/requests.py``, ``web/hand_requests.py``, ``web/tournament_requests.py``): a new match, a
hand, a hand's change, a hand to score, a tournament's late entrant.

A bridge of our own rather than a library's (apiflask, flask-openapi3, spectree would each take
over the routes and their errors): pydantic writes each model's JSON Schema, and this writes it
in the dialect of the document's OpenAPI 3.0, which its clients and schemathesis read: a value
that may be null is ``nullable``, a single allowed value an ``enum``, the models a request
refers to are components of their own, and pydantic's titles (the field names again) are left
out.

>>> as_openapi({"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": "Aces"})
{'type': 'integer', 'nullable': True}
>>> as_openapi({"const": "random", "type": "string"})
{'type': 'string', 'enum': ['random']}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..web.hand_requests import HandChange, HandIn, ScoreRequest
from ..web.requests import NewMatch
from ..web.tournament_requests import EntrantChange, LateEntrant

REF = "#/components/schemas/{model}"


def as_openapi(schema: Any) -> Any:
    """A JSON Schema (pydantic's, draft 2020-12) as OpenAPI 3.0 writes it."""
    if isinstance(schema, list):
        return [as_openapi(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: as_openapi(value) for key, value in schema.items()
           if key != "title" and not (key == "default" and value is None)}
    if "properties" in schema:      # field names, never keywords: "title" may be one
        out["properties"] = {name: as_openapi(value) for name, value in schema["properties"].items()}
    if "const" in out:
        out["enum"] = [out.pop("const")]
    kinds = out.get("anyOf")
    if kinds and {"type": "null"} in kinds:
        rest = [kind for kind in kinds if kind != {"type": "null"}]
        del out["anyOf"]
        if len(rest) == 1 and "$ref" not in rest[0]:
            out = {**rest[0], **out}
        else:
            out["anyOf"] = rest
        out["nullable"] = True
    if "anyOf" in out and "nullable" not in out and all("$ref" not in kind for kind in out["anyOf"]):
        out["oneOf"] = out.pop("anyOf")     # the kinds never overlap: one seat, or "random"
    return out


def components(*models: type[BaseModel]) -> dict[str, Any]:
    """The models' schemas, and those they refer to, as the document's components."""
    found: dict[str, Any] = {}
    for model in models:
        schema = model.model_json_schema(ref_template=REF)
        for name, referred in schema.pop("$defs", {}).items():
            found[name] = as_openapi(referred)
        found[model.__name__] = as_openapi(schema)
    return found


REQUESTS = components(NewMatch, HandIn, HandChange, ScoreRequest, LateEntrant, EntrantChange)
