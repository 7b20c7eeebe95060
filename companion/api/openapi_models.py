"""The OpenAPI document's schemas (OpenAPI 3.1, whose schemas are JSON Schema 2020-12, as
pydantic writes it): every request's, generated from the model that validates it
(``web/requests.py``, ``hand_requests.py``, ``question_requests.py``,
``tournament_requests.py``), so the document cannot say otherwise; and the answers', written by
hand beside their endpoints, read here in 3.1's words (``as_31``).

A bridge of our own rather than a library's (apiflask, flask-openapi3, spectree would each take
over the routes and their errors): pydantic writes each model's JSON Schema, the models it refers
to become components of their own, and pydantic's titles (the field names again) are left out.

>>> as_31({"type": "integer", "nullable": True, "description": "aces"})
{'type': ['integer', 'null'], 'description': 'aces'}
>>> as_31({"allOf": [{"$ref": "#/components/schemas/Change"}], "nullable": True})
{'anyOf': [{'allOf': [{'$ref': '#/components/schemas/Change'}]}, {'type': 'null'}]}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..web.hand_requests import HandChange, HandIn, ScoreRequest
from ..web.question_requests import CapturesAsked, ClaimAsked, DealAsked, Rated
from ..web.requests import NewMatch
from ..web.tournament_requests import EntrantChange, LateEntrant, NewTournament

REF = "#/components/schemas/{model}"


def untitled(schema: Any) -> Any:
    """A schema without pydantic's titles (a property named "title" kept)."""
    if isinstance(schema, list):
        return [untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: untitled(value) for key, value in schema.items() if key != "title"}
    if "properties" in schema:
        out["properties"] = {name: untitled(value) for name, value in schema["properties"].items()}
    kinds = out.get("type")
    if "default" in out and out["default"] is None and kinds and "null" not in kinds:
        del out["default"]      # left out, the field is not sent: not a null the schema takes
    return out


def as_31(schema: Any) -> Any:
    """A schema written in OpenAPI 3.0's words (``nullable``) as 3.1 writes it: a type that may
    be null is ``[type, "null"]``, anything else that may be is one of it or null."""
    if isinstance(schema, list):
        return [as_31(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: as_31(value) for key, value in schema.items() if key != "nullable"}
    if "properties" in schema:
        out["properties"] = {name: as_31(value) for name, value in schema["properties"].items()}
    if not schema.get("nullable"):
        return out
    if isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
        return out
    described = {key: out.pop(key) for key in ("description", "default") if key in out}
    return {"anyOf": [out, {"type": "null"}], **described}


def components(*models: type[BaseModel]) -> dict[str, Any]:
    """The models' schemas, and those they refer to, as the document's components."""
    found: dict[str, Any] = {}
    for model in models:
        schema = model.model_json_schema(ref_template=REF)
        for name, referred in schema.pop("$defs", {}).items():
            found[name] = untitled(referred)
        found[model.__name__] = untitled(schema)
    return found


REQUESTS = components(NewMatch, HandIn, HandChange, ScoreRequest, CapturesAsked, DealAsked, ClaimAsked,
                      Rated, NewTournament, LateEntrant, EntrantChange)
