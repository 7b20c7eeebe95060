"""A new match as a request says it (the page's form, ``NewMatchForm``, and ``POST
/api/v1/matches``): its rules (``requests.RulesAsked``), its players or two teams, who deals
first, its edit PIN; validated once (see ``requests``).

>>> NewMatch.read({"players": ["Anna", " Bruno "], "first_dealer": 1}).sides()
[{'name': 'Anna', 'players': ['Anna']}, {'name': 'Bruno', 'players': ['Bruno']}]
>>> NewMatch.read({"players": ["Anna", "x" * 25]})
Traceback (most recent call last):
...
companion.web.requests.Refused: A name has at most 24 characters: shorten this one
>>> [(r.at, str(r.said)) for r in NewMatch.check({"players": ["Anna", "anna"], "pin": "12"})[1]]
[(('players',), 'Two players have the same name: the score would be unclear'), (('pin',), 'A PIN is 6 to 8 digits from 0 to 9')]
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, Field, model_validator

from ..names import (
    NAME_REFUSED,
    PIN_MAX,
    PIN_MIN,
    PIN_PATTERN,
    PIN_REFUSED,
    TEAMS_ALIKE,
    names_clash,
    team_name,
    tidy,
)
from ..rules import ScopaError
from ..rules.rulesets import check_seating
from ..rules.said import said
from .requests import (
    Request,
    RulesAsked,
    Seat,
    TeamName,
    _all_named,
    named_all,
    refuse,
    rules_readable,
)

# -- A new match ---------------------------------------------------------------------------

TEAM_FORM = '{"name": ..., "players": [2 or 3 names]}'


def _seats_in(data: Any) -> int:
    """The seats a new match's data asks for, as far as it can be read (for a refusal's words)."""
    if isinstance(data, dict):
        if isinstance(data.get("players"), list):
            return len(data["players"])
        if isinstance(data.get("teams"), list):
            return sum(len(t["players"]) for t in data["teams"]
                       if isinstance(t, dict) and isinstance(t.get("players"), list))
    return 2


def _same_size(teams: list[Team]) -> list[Team]:
    if len(teams[0].players) != len(teams[1].players):
        refuse(said("the two teams must have 2 or 3 players each"))
    return teams


def _teams_named(teams: list[Team]) -> list[Team]:
    """Every seat named, no two players alike, and two teams not alike, as the page asks."""
    seats = [p for team in teams for p in team.players]
    named_all(seats, len(seats))
    if names_clash([team.named() for team in teams]):
        refuse(TEAMS_ALIKE)
    return teams


class Team(Request):
    name: Annotated[TeamName | None, Field(description='left out: the team is named after its players, '
                                                       '"Anna & Carla"')] = None
    players: Annotated[list[Seat], Field(min_length=2, max_length=3, json_schema_extra={"uniqueItems": True})]

    def named(self) -> str:
        """Its name as given, else its players' ("Anna & Carla"), as on the page."""
        return team_name(self.players) if self.name is None else self.name


def _dealer_refused(data: Any, *_: Any) -> Any:
    return said("Choose one of the {count} players to deal first", count=_seats_in(data))


class NewMatch(RulesAsked):
    """A new match: its rules, its players (or two teams), who deals first, its edit PIN."""

    said_for = {
        ("players",): said("players must be a list of 2 to 4 names"),
        ("players", "*"): NAME_REFUSED,
        ("teams",): said("teams must be two objects {form}", form=TEAM_FORM),
        ("teams", "*", "players"): said("the two teams must have 2 or 3 players each"),
        ("teams", "*", "players", "*"): NAME_REFUSED,
        ("teams", "*", "name"): said("a team's name is text, or left out: {form}",
                                     form='{"name": ..., "players": [...]}'),
        ("first_dealer",): _dealer_refused,
        ("pin",): PIN_REFUSED,
    }

    players: Annotated[list[Seat], Field(min_length=2, max_length=4, json_schema_extra={"uniqueItems": True},
                                         description="2 to 4 players, no two with the same name"),
                       AfterValidator(_all_named)] | None = None
    teams: Annotated[list[Team], Field(min_length=2, max_length=2),
                     AfterValidator(_same_size), AfterValidator(_teams_named)] | None = None
    first_dealer: Annotated[int, Field(ge=0, le=5)] | Literal["random"] = Field(
        "random", description="a seat from 0, or random")
    pin: Annotated[str, Field(pattern=f"^{PIN_PATTERN}$")] | None = Field(
        None, description=f"{PIN_MIN} to {PIN_MAX} digits")

    @model_validator(mode="before")
    @classmethod
    def _players_or_teams(cls, data: Any) -> Any:
        """Players or teams, not both (the rules refused come first: then this is not said)."""
        if (isinstance(data, dict) and (data.get("players") is None) == (data.get("teams") is None)
                and rules_readable(data)):
            refuse(said('give "players" (2 to 4 names) or "teams" (two teams of 2 or 3)'))
        return data

    @model_validator(mode="after")
    def _seated(self) -> Self:
        """The seating the variant needs, then a dealer in a seat."""
        sides = self.sides()
        try:
            check_seating(self.rules, len(sides), len(sides[0]["players"]))
        except ScopaError as refusal:
            refuse(refusal.args[0], ("players",))
        if self.first_dealer != "random" and not self.first_dealer < self.seats:
            refuse(said("Choose one of the {count} players to deal first", count=self.seats),
                   ("first_dealer",))
        return self

    def sides(self) -> list[dict[str, Any]]:
        """The sides as the store keeps them, every name tidied."""
        if self.players is not None:
            return [{"name": tidy(name), "players": [tidy(name)]} for name in self.players]
        return [{"name": tidy(team.named()), "players": [tidy(p) for p in team.players]}
                for team in self.teams or []]

    @property
    def seats(self) -> int:
        return sum(len(side["players"]) for side in self.sides())

    def dealer(self) -> int:
        """The seat dealing first: as asked, or drawn."""
        return random.randrange(self.seats) if self.first_dealer == "random" else self.first_dealer
