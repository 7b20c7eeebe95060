"""The OpenAPI document's change log (store.changes): every change to a match's hands, when, by
which phone and what the hand was before; the organiser's undo of any of them. The answers'
models, and the paths beside them."""

from __future__ import annotations

from typing import Any, Callable

from pydantic import Field

from ..store.reads import KINDS
from .answer_models import Closed, Entry, Match


class ChangedHand(Closed):
    id: int
    number: int = Field(description="its place in the match then")


class ChangedBy(Closed):
    phone: int | None = Field(description="the phone's number in this match, in the order phones first "
                                           "changed it (a program that keeps no cookie: one per address); "
                                           "null when unknown")
    organiser: bool
    api: bool = Field(description="through this API")
    label: str = Field(description="in words: 'phone 3', 'the organiser'")


class HandBefore(Closed):
    """the hand before the change"""

    entry: Entry
    deleted: bool
    points: list[int] | None = Field(description="each side's points (null for a claim)")


class Change(Closed):
    """One change of a match's log (``answers.change_json``)."""

    id: int = Field(description="the change's number in the log, for good")
    at: str = Field(description="when (the server's clock, UTC)", json_schema_extra={"format": "date-time"})
    kind: str = Field(description="saved, claim (a chiamarsi fuori recorded), changed, replaced (a "
                                  "conflict's choice), deleted, restored (a delete's Undo), undone (the "
                                  "organiser's undo of change `undoes`)",
                      json_schema_extra={"enum": list(KINDS)})
    hand: ChangedHand
    by: ChangedBy
    what: str = Field(description="the change in words")
    was: str = Field(description="the hand before it, in words")
    before: HandBefore | None = Field(description="the hand before the change; null when it was not there "
                                              "(saved, claim)")
    undoes: int | None = Field(description="the change an undo put back")


class Changes(Closed):
    changes: list[Change]
    next: str | None = Field(description="the next (older) page, if any")


class ChangeUndone(Closed):
    undone: int
    change: Change | None = Field(description="the undo, a change of the log itself; null when the hand "
                                              "was already as it was before the change (sent twice)")
    match: Match


def change_paths(match_id: dict[str, Any], organiser: dict[str, Any], ok: Callable[..., Any],
                 error: Any, write_errors: dict[str, Any], query: list[dict[str, Any]]) -> dict[str, Any]:
    change_id = {"name": "change_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    return {
        "/api/v1/matches/{match_id}/changes": {"get": {
            "summary": "The match's changes, newest first, a page at a time: who changed which hand, "
                       "when, and what it was before",
            "parameters": [match_id, *query],
            "responses": {"200": ok("Changes"), "400": error, "404": error}}},
        "/api/v1/matches/{match_id}/changes/{change_id}/undo": {"post": {
            "summary": "Put the change's hand back as it was before it, whatever was done since (the "
                       "undo is a change of the log itself). The organiser only (X-Scopa-Organiser).",
            "parameters": [match_id, change_id, organiser],
            "requestBody": {"required": False, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NoBody"}}},
                "description": "{} or nothing (no key is taken: the JSON's Content-Type is what a form cannot send)"},
            "responses": {"200": ok("ChangeUndone", "undone"), **write_errors}}}}
