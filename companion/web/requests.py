"""What a request may say, described once: a new match (the page's form and ``POST
/api/v1/matches``) here, a hand as the JSON API takes it and a hand to score (``POST
/api/v1/score``) in ``hand_requests``.

Each is a pydantic model. Its annotations are the request's JSON Schema, from which the
OpenAPI document is generated (``api/openapi_models.py``); its validators check what it says
and refuse in the players' words (a ``ScopaError`` whose message is a ``Said``: 400 at the
API), reading ``names.py`` for names and PINs and the rules engine for the rules and the
cards. What the rules engine checks itself when it scores (a count that is not a whole number,
a sweep too many) is left to it, in its words: such a field is typed for the document only
(``SkipValidation``). ``read`` validates a dict (the API's JSON, the form's data) and raises
the first refusal, in the order the request is read: the rules, then the sides or the cards.

>>> NewMatch.read({"players": ["Anna", " Bruno "], "first_dealer": 1}).sides()
[{'name': 'Anna', 'players': ['Anna']}, {'name': 'Bruno', 'players': ['Bruno']}]
>>> NewMatch.read({"players": ["Anna", "x" * 25]})
Traceback (most recent call last):
...
companion.web.requests.Refused: every name must be 1 to 24 characters
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal, NoReturn, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SkipValidation,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from ..names import (
    NAME_MAX,
    NAME_REFUSED,
    PIN_MAX,
    PIN_MIN,
    PIN_PATTERN,
    PIN_REFUSED,
    name_fits,
    names_clash,
    team_name,
    tidy,
    valid_pin,
)
from ..rules import ScopaError, rules_for
from ..rules.rulesets import ITEMS, PRESETS, Rules, check_seating
from ..rules.said import said


class Refused(ScopaError):
    """A request that is not of its shape, said in words (400 at the API)."""


def refuse(message: Any) -> NoReturn:
    raise Refused(message)


class Request(BaseModel):
    """A request's model: ``read`` it from a dict; unknown keys are ignored."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    @classmethod
    def read(cls, data: dict[str, Any]) -> Self:
        """The request, checked; the first refusal (a ScopaError) raised as it is."""
        try:
            return cls.model_validate(data)
        except ValidationError as failure:
            raise first_refusal(failure) from None


def first_refusal(failure: ValidationError) -> Exception:
    """The first of a validation's refusals, as the validator said it."""
    for error in failure.errors():
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, ScopaError):
            return cause
    # Every check raises in words: a plain pydantic error here is a check missing above.
    error = failure.errors()[0]
    return Refused(f"{'.'.join(map(str, error['loc']))}: {error['msg']}")


# -- Names, PINs, cards: the rules of names.py and the rules engine ------------------------

NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": NAME_MAX, "pattern": "\\S"}
# The digits a client should send, as the pages ask for them (names.PIN_PATTERN).
PIN_SCHEMA = {"type": "string", "pattern": f"^{PIN_PATTERN}$"}
CARDS_SCHEMA = {"type": "array", "items": {"type": "string"}, "description": "cards such as 7d, 10b"}


def fits(name: Any) -> str:
    if not name_fits(name):
        refuse(NAME_REFUSED)
    return name


def _all_different(names: list[str] | None) -> list[str] | None:
    """No two names one player: the same, or one that reads as the other (whom it looks like)."""
    clash = names_clash(names) if names is not None else None
    if clash:
        refuse(clash)
    return names


# A name of 1 to NAME_MAX characters once tidied (names.name_fits); kept as sent.
Name = Annotated[str, SkipValidation, BeforeValidator(fits), WithJsonSchema(NAME_SCHEMA)]
Cards = Annotated[list[str], SkipValidation, WithJsonSchema(CARDS_SCHEMA)]


def as_list(value: Any, key: str) -> list:
    if not isinstance(value, list):
        refuse(said("{key} must be a list", key=key))
    return value


# -- The rules asked for -------------------------------------------------------------------


def rules_read(data: Any) -> Any:
    """A request whose rules were read: refused (in words) if they cannot be."""
    if isinstance(data, dict):
        rules_for(data.get("variant", "classica"), data.get("options") or {})
    return data


class RulesAsked(Request):
    """A variant (Scopa classica unless said) and the rule items it changes; the rules engine
    checks both (``rules``)."""

    variant: SkipValidation[Literal[tuple(PRESETS)]] = "classica"   # type: ignore[valid-type]
    options: SkipValidation[dict[str, Any] | None] = Field(
        None, json_schema_extra={"description": f"rule items to change: {', '.join(ITEMS)}"})

    @model_validator(mode="before")
    @classmethod
    def _rules_first(cls, data: Any) -> Any:
        """The rules are read first: a refusal of them comes before any other."""
        return rules_read(data)

    @property
    def rules(self) -> Rules:
        return rules_for(self.variant, self.options or {})


# -- A new match ---------------------------------------------------------------------------


def _players(value: Any) -> Any:
    if value is not None and (not isinstance(value, list) or not 2 <= len(value) <= 4):
        refuse(said("players must be a list of 2 to 4 names"))
    return value


def _teams(value: Any) -> Any:
    if value is None:
        return value
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(t, dict) for t in value):
        refuse(said('teams must be two objects {form}', form='{"name": ..., "players": [2 or 3 names]}'))
    sizes = [len(t["players"]) if isinstance(t.get("players"), list) else 0 for t in value]
    if sizes[0] != sizes[1] or sizes[0] not in (2, 3):
        refuse(said("the two teams must have 2 or 3 players each"))
    if not all(t.get("name") is None or isinstance(t["name"], str) for t in value):
        refuse(said("a team's name is text, or left out: {form}", form='{"name": ..., "players": [...]}'))
    return value


def _teams_different(teams: list[Team] | None) -> list[Team] | None:
    """No two players alike, and two teams not alike, as the page asks."""
    if teams is not None:
        _all_different([p for team in teams for p in team.players])
        _all_different([team.named() for team in teams])
    return teams


class Team(Request):
    name: Annotated[Name | None, Field(description='left out: the team is named after its players, '
                                                   '"Anna & Carla"')] = None
    players: Annotated[list[Name], Field(min_length=2, max_length=3, json_schema_extra={"uniqueItems": True})]

    def named(self) -> str:
        """Its name as given, else its players' ("Anna & Carla"), as on the page."""
        return team_name(self.players) if self.name is None else self.name


class NewMatch(RulesAsked):
    """A new match: its rules, its players (or two teams), who deals first, its edit PIN."""

    players: Annotated[Annotated[list[Name], Field(min_length=2, max_length=4)] | None,
                       BeforeValidator(_players), AfterValidator(_all_different),
                       Field(json_schema_extra={"uniqueItems": True},
                             description="2 to 4 players, no two with the same name")] = None
    teams: Annotated[Annotated[list[Team], Field(min_length=2, max_length=2)] | None,
                     BeforeValidator(_teams), AfterValidator(_teams_different)] = None
    first_dealer: SkipValidation[Annotated[int, Field(ge=0, le=5)] | Literal["random"]] = Field(
        "random", description="a seat from 0, or random")
    pin: SkipValidation[Annotated[str, WithJsonSchema(PIN_SCHEMA)] | None] = Field(
        None, description=f"{PIN_MIN} to {PIN_MAX} digits")

    @model_validator(mode="before")
    @classmethod
    def _players_or_teams(cls, data: Any) -> Any:
        # pydantic runs a subclass's "before" check ahead of its base's: the rules first still.
        data = rules_read(data)
        if isinstance(data, dict) and (data.get("players") is None) == (data.get("teams") is None):
            refuse(said('give "players" (2 to 4 names) or "teams" (two teams of 2 or 3)'))
        return data

    @model_validator(mode="after")
    def _seated(self) -> Self:
        """The seating the variant needs, a dealer in a seat, a PIN of digits: in that order."""
        sides = self.sides()
        check_seating(self.rules, len(sides), len(sides[0]["players"]))
        dealer = self.first_dealer
        if dealer != "random" and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < self.seats):
            refuse(said('first_dealer must be a seat from 0 to {last}, or "random"', last=self.seats - 1))
        if self.pin is not None and not valid_pin(self.pin):
            refuse(PIN_REFUSED)
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
