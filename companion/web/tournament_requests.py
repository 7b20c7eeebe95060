"""What a request about a tournament's entrants may say, described once: a late entrant (the
organiser's page and ``POST /api/v1/tournaments/<id>/entrants``), an entrant withdrawn or
brought back. Whether the tournament may
take one now, and whether its name is another's, is the tournament's to say
(``tournaments.entrants``); this checks the request's own shape, in the players' words.

>>> LateEntrant.read({"entrant": " Zoe "}).entrant, LateEntrant.read({"entrant": "Zoe"}).points_per_missed_round
(' Zoe ', 0)
>>> LateEntrant.read({"entrant": "Zoe", "points_per_missed_round": 3})
Traceback (most recent call last):
...
companion.web.requests.Refused: points_per_missed_round must be 0, 1 (a draw's) or 2 (a win's)
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, SkipValidation, WithJsonSchema, model_validator

from ..names import NAME_MAX
from ..rules.said import said
from .requests import NAME_SCHEMA, Name, Request, refuse

PAIR_FORM = '{"name": ..., "players": [two names]}'
PAIR_SCHEMA = {"type": "object", "required": ["name", "players"], "properties": {
    "name": NAME_SCHEMA, "players": {"type": "array", "items": NAME_SCHEMA, "minItems": 2, "maxItems": 2}}}
MISSED_POINTS = (0, 1, 2)


class Pair(Request):
    name: Name
    players: Annotated[list[Name], Field(min_length=2, max_length=2)]


def _entrant(value: Any) -> Any:
    """A name, or a pair of two names: refused in words otherwise."""
    if isinstance(value, str):
        return value
    if (isinstance(value, dict) and isinstance(value.get("name"), str)
            and isinstance(value.get("players"), list) and len(value["players"]) == 2
            and all(isinstance(p, str) for p in value["players"])):
        return value
    refuse(said("each entrant is a name, or a pair {form}", form=PAIR_FORM))


def _points(value: Any) -> Any:
    if type(value) is not int or value not in MISSED_POINTS:
        refuse(said("points_per_missed_round must be 0, 1 (a draw's) or 2 (a win's)"))
    return value


class EntrantChange(Request):
    """An entrant withdrawn or brought back (the organiser's page, ``POST
    /api/v1/tournaments/<id>/entrants/<n>/withdraw`` and ``.../reinstate``): by number, and, if
    given, the name the asker read beside it. Before round 1 withdrawing takes an entrant off the
    list and those after move up a number: a page or a program that read the list before then
    would otherwise change the next entrant.

    >>> EntrantChange.read({}).name, EntrantChange.read({"name": "Carla"}).name
    (None, 'Carla')
    """

    name: Annotated[Name | None, Field(
        description="the entrant's name as read beside the number: if entrant n is no longer "
                    "they (the list changed meanwhile), nothing changes (409)")] = None


class LateEntrant(Request):
    """An entrant added to a tournament: a player's name, or a pair ``{"name", "players"}`` as
    the other entrants are; and the match points they are given for each round played before
    they join (a Swiss), nothing unless said."""

    entrant: Annotated[Name | Pair, BeforeValidator(_entrant), Field(
        description=f"a player's name (1 to {NAME_MAX} characters), or a pair {PAIR_FORM}, as "
                    "the tournament's other entrants are")]
    points_per_missed_round: Annotated[
        int, SkipValidation, BeforeValidator(_points),
        WithJsonSchema({"type": "integer", "enum": list(MISSED_POINTS)})] = Field(
        0, description="the match points for each round played before they join: 0 (none), "
                       "1 (a draw's) or 2 (a win's)")

    @model_validator(mode="before")
    @classmethod
    def _an_entrant(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("entrant") is None:
            refuse(said("give the entrant: a name, or a pair {form}", form=PAIR_FORM))
        return data

    def given(self) -> str | dict[str, Any]:
        """The entrant as the tournament's service takes it."""
        if isinstance(self.entrant, Pair):
            return {"name": self.entrant.name, "players": list(self.entrant.players)}
        return self.entrant
