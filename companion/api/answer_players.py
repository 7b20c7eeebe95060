"""The players' answers (api.players): a player's record, as companion.stats lists its figures
(a figure without its words here fails at import), with their rating; one player's with the
head-to-head and a page of their rating history."""

from __future__ import annotations

from typing import Any

from pydantic import Field, create_model

from ..stats import EXTREMES, RECORD
from .answer_models import Closed
from .openapi_ratings import RATING_HISTORY, Rating, RatingPoint

# What each count counts. A team's figures count for each of its players.
_COUNTED = {
    "id": "", "name": "",
    "matches": "finished matches played", "won": "finished matches their side won",
    "drawn": "finished matches that ended level", "playing": "matches still in play",
    "hands": "hands counted, in every match", "points": "the sum of their side's hand totals",
    "sweeps": "scope made by their side", "carte": "hands in which their side took carte",
    "denari": "hands in which their side took denari",
    "settebello": "hands in which their side took the settebello",
    "primiera": "hands in which their side took the primiera",
    "re_bello": "hands in which their side took the Re Bello",
    "napola": "hands in which their side scored a napola",
    "declarations": "hands in which their side scored declarations",
    "best": "their side's best hand, in points", "worst": "their side's worst hand, in points"}


def _figure(name: str) -> tuple[Any, Any]:
    kind: Any = {"id": int, "name": str}.get(name, int | None if name in EXTREMES else int)
    return (kind, Field(description=_COUNTED[name]) if _COUNTED[name] else ...)


# The record's figures in companion.stats' order, then the rating's (the order of the answer).
_FIELDS: dict[str, Any] = {**{name: _figure(name) for name in RECORD},
                           **{name: (field.annotation, field) for name, field in Rating.model_fields.items()}}
Player = create_model("Player", __base__=Closed, __doc__="A player's record and rating.", **_FIELDS)


class Players(Closed):
    players: list[Player]  # type: ignore[valid-type]
    next: str | None = Field(description="the next page, if any")


class HeadToHead(Closed):
    id: int
    name: str
    matches: int = Field(description="finished matches against them")
    won: int = Field(description="of those, won by the player's side")
    lost: int = Field(description="won by the opponent's side")
    drawn: int


class HandAt(Closed):
    match: int
    points: int


class PlayerRecord(Player):  # type: ignore[valid-type, misc]
    """A player's record, with the head-to-head against each opponent."""

    rating_history: list[RatingPoint] = RATING_HISTORY
    rating_history_next: str | None = Field(description="the page of the points before these (the same "
                                                        "limit), or null when these are the first")
    head_to_head: list[HeadToHead]
    best_hand: HandAt | None
    worst_hand: HandAt | None
    last_matches: list[int] = Field(description="the ids of their last 10 matches, newest first")
