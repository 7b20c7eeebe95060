"""The OpenAPI document's change log (store.changes): every change to a match's hands, when, by
which phone and what the hand was before; the organiser's undo of any of them."""

from __future__ import annotations

from typing import Any, Callable

from ..store.reads import KINDS

NULLABLE_INT = {"type": "integer", "nullable": True}
CHANGE = {"type": "object", "required": ["id", "at", "kind", "hand", "by", "what", "was", "before", "undoes"],
          "properties": {
    "id": {"type": "integer", "description": "the change's number in the log, for good"},
    "at": {"type": "string", "format": "date-time", "description": "when (the server's clock, UTC)"},
    "kind": {"type": "string", "enum": list(KINDS),
             "description": "saved, claim (a chiamarsi fuori recorded), changed, replaced (a "
                           "conflict's choice), deleted, restored (a delete's Undo), undone (the "
                           "organiser's undo of change `undoes`)"},
    "hand": {"type": "object", "required": ["id", "number"], "properties": {
        "id": {"type": "integer"}, "number": {"type": "integer", "description": "its place in the match then"}}},
    "by": {"type": "object", "required": ["phone", "organiser", "api", "label"], "properties": {
        "phone": {**NULLABLE_INT, "description": "the phone's number in this match, in the order phones "
                                                 "first changed it (a program that keeps no cookie: one "
                                                 "per address); null when unknown"},
        "organiser": {"type": "boolean"}, "api": {"type": "boolean", "description": "through this API"},
        "label": {"type": "string", "description": "in words: 'phone 3', 'the organiser'"}}},
    "what": {"type": "string", "description": "the change in words"},
    "was": {"type": "string", "description": "the hand before it, in words"},
    "before": {"type": "object", "nullable": True, "required": ["entry", "points", "deleted"],
               "description": "the hand before the change; null when it was not there (saved, claim)",
               "properties": {"entry": {"type": "object"}, "deleted": {"type": "boolean"},
                              "points": {"type": "array", "items": {"type": "integer"}, "nullable": True,
                                         "description": "each side's points (null for a claim)"}}},
    "undoes": {**NULLABLE_INT, "description": "the change an undo put back"}}}
SCHEMAS = {
    "Change": CHANGE,
    "Changes": {"type": "object", "required": ["changes", "next"], "properties": {
        "changes": {"type": "array", "items": {"$ref": "#/components/schemas/Change"}},
        "next": {"type": "string", "nullable": True, "description": "the next (older) page, if any"}}},
    "ChangeUndone": {"type": "object", "required": ["undone", "change", "match"], "properties": {
        "undone": {"type": "integer"},
        "change": {"allOf": [{"$ref": "#/components/schemas/Change"}], "nullable": True,
                   "description": "the undo, a change of the log itself; null when the hand was "
                                  "already as it was before the change (sent twice)"},
        "match": {"$ref": "#/components/schemas/Match"}}}}


def change_paths(match_id: dict[str, Any], organiser: dict[str, Any], ok: Callable[..., Any],
                 error: Any, write_errors: dict[str, Any]) -> dict[str, Any]:
    change_id = {"name": "change_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    return {
        "/api/v1/matches/{match_id}/changes": {"get": {
            "summary": "The match's changes, newest first, a page at a time: who changed which hand, "
                       "when, and what it was before",
            "parameters": [match_id,
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}},
                           {"name": "before", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1}}],
            "responses": {"200": ok("Changes"), "400": error, "404": error}}},
        "/api/v1/matches/{match_id}/changes/{change_id}/undo": {"post": {
            "summary": "Put the change's hand back as it was before it, whatever was done since (the "
                       "undo is a change of the log itself). The organiser only (X-Scopa-Organiser).",
            "parameters": [match_id, change_id, organiser],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}},
                            "description": "{} (nothing is read: the JSON is what a form cannot send)"},
            "responses": {"200": ok("ChangeUndone", "undone"), **write_errors}}}}
