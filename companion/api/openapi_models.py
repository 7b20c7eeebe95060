"""The OpenAPI document's schemas (OpenAPI 3.1, whose schemas are JSON Schema 2020-12, as
pydantic writes it): every request's, generated from the model that validates it
(``web/requests.py``, ``hand_requests.py``, ``question_requests.py``,
``tournament_requests.py``), and every answer's from the model it is built as
(``answer_models.py`` and its kin), so the document cannot say otherwise.

A bridge of our own rather than a library's (apiflask, flask-openapi3, spectree would each take
over the routes and their errors): pydantic writes each model's JSON Schema, the models it refers
to become components of their own, and pydantic's titles (the field names again) are left out.

>>> merged({"Hand": {"type": "object"}}, {"Hand": {"type": "string"}})
Traceback (most recent call last):
...
ValueError: two schemas named Hand
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ..web.hand_requests import HandChange, HandIn, ScoreRequest
from ..web.match_requests import NewMatch
from ..web.question_requests import CapturesAsked, ClaimAsked, DealAsked, Rated
from ..web.requests import NoBody
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
    if "default" in out and out["default"] is None and not _takes_null(out):
        del out["default"]      # left out, the field is not sent: not a null the schema takes
    return out


def _takes_null(schema: dict[str, Any]) -> bool:
    """Whether a schema takes null: of its types, or of a union's branches (one of no type,
    a reference, is taken as not)."""
    kinds = schema.get("type")
    if kinds is not None:
        return "null" in kinds
    return any(_takes_null(branch) for branch in schema.get("anyOf", []) if "type" in branch or "anyOf" in branch)


def components(*models: type[BaseModel]) -> dict[str, Any]:
    """The models' schemas, and those they refer to, as the document's components."""
    found: dict[str, Any] = {}
    for model in models:
        schema = model.model_json_schema(ref_template=REF)
        for name, referred in schema.pop("$defs", {}).items():
            found[name] = untitled(referred)
        found[model.__name__] = untitled(schema)
    return found


def merged(*parts: dict[str, Any]) -> dict[str, Any]:
    """The components of each part together; two models of one name (a request's and an
    answer's) would be one component: refused."""
    found: dict[str, Any] = {}
    for part in parts:
        for name, schema in part.items():
            if found.setdefault(name, schema) != schema:
                raise ValueError(f"two schemas named {name}")
    return found


REQUESTS = components(NewMatch, HandIn, HandChange, ScoreRequest, CapturesAsked, DealAsked, ClaimAsked,
                      Rated, NewTournament, LateEntrant, EntrantChange, NoBody)
