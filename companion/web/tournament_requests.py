"""What a request about a tournament may say, described once: a new tournament (``POST
/api/v1/tournaments``, and the organiser's page through ``tournaments.service.create``), a late
entrant (the organiser's page and ``POST /api/v1/tournaments/<id>/entrants``), an entrant
withdrawn or brought back. Whether the tournament may
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

from typing import Annotated, Any, Literal, Self, get_args

from pydantic import (
    AfterValidator,
    Discriminator,
    Field,
    Tag,
    WithJsonSchema,
    model_validator,
)

from ..names import NAME_MAX, PIN_PATTERN, PIN_REFUSED, TOURNAMENT_NAME_MAX, tidy
from ..rules import Rules
from ..rules.rulesets import PRESETS, Variant
from ..rules.said import said
from ..tournament_facts import ENTRANTS_MOST, FORMATS, Format
from .requests import NAME_SCHEMA, OPTIONS, OPTIONS_SAID, Name, Options, Request, fits, refuse, rules_asked

PAIR_FORM = '{"name": ..., "players": [two names]}'
MISSED_POINTS = (0, 1, 2)


# A name as an entrant's: text (anything else is not an entrant, in the entrant's words).
EntrantName = Annotated[str, AfterValidator(fits), WithJsonSchema(NAME_SCHEMA)]


class Pair(Request):
    name: EntrantName
    players: Annotated[list[EntrantName], Field(min_length=2, max_length=2)]


def _name_or_pair(value: Any) -> str | None:
    """Which an entrant is: a name (text), a pair (an object), or neither (None: refused)."""
    return "str" if isinstance(value, str) else "Pair" if isinstance(value, dict) else None


def _entrant_words(data: Any, path: tuple[str | int, ...], kind: str, *_: Any) -> Any:
    if path == ("entrant",) and (kind == "missing" or data.get("entrant") is None):
        return said("give the entrant: a name, or a pair {form}", form=PAIR_FORM)
    return said("each entrant is a name, or a pair {form}", form=PAIR_FORM)


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


# An entrant as the tournament's room takes it, its shape checked here: its name and its players
# (a player's own name alone, or a pair's two).
Given = tuple[str, list[str]]


def given(entrant: str | Pair) -> Given:
    return (entrant, [entrant]) if isinstance(entrant, str) else (entrant.name, list(entrant.players))


# An entrant: a player's name, or a pair; anything else refused in the entrant's words.
Entrant = Annotated[Annotated[EntrantName, Tag("str")] | Annotated[Pair, Tag("Pair")], Discriminator(_name_or_pair)]


class LateEntrant(Request):
    """An entrant added to a tournament: a player's name, or a pair ``{"name", "players"}`` as
    the other entrants are; and the match points they are given for each round played before
    they join (a Swiss), nothing unless said."""

    said_for = {
        ("entrant",): _entrant_words,
        ("points_per_missed_round",): said("points_per_missed_round must be 0, 1 (a draw's) or 2 (a win's)"),
    }

    entrant: Annotated[
        Entrant,
        Field(description=f"a player's name (1 to {NAME_MAX} characters), or a pair {PAIR_FORM}, as "
                          "the tournament's other entrants are")]
    points_per_missed_round: Annotated[int, Field(ge=0, le=max(MISSED_POINTS))] = Field(
        0, description="the match points for each round played before they join: 0 (none), "
                       "1 (a draw's) or 2 (a win's)")

    def given(self) -> Given:
        """The entrant as the tournament's service takes it."""
        return given(self.entrant)


# -- A new tournament ----------------------------------------------------------------------

# The seedings a tournament may have (service.SEEDINGS); its formats and most entrants are the
# room's too, in companion.tournament_facts.
Seeding = Literal["order", "draw", "rating"]
SEEDINGS: tuple[str, ...] = get_args(Seeding)


def _tournament_name(name: str) -> str:
    if not 0 < len(tidy(name)) <= TOURNAMENT_NAME_MAX:
        refuse(said("a tournament needs a name of 1 to {most} characters", most=TOURNAMENT_NAME_MAX))
    return name


def _rounds_refused(data: Any, *_: Any) -> Any:
    count = len(data["entrants"]) if isinstance(data, dict) and isinstance(data.get("entrants"), list) else 2
    return said("a Swiss tournament of {n} entrants has 1 to {most} rounds", n=count, most=count - 1)


class NewTournament(Request):
    """A tournament to make: its name, format, rules and entrants (players, or pairs: the room
    checks them together, ``tournaments.entrants``), a Swiss's rounds, the seeding, its PIN."""

    said_for = {
        ("name",): said("a tournament needs a name of 1 to {most} characters", most=TOURNAMENT_NAME_MAX),
        ("format",): said("format must be one of: {names}", names=", ".join(FORMATS)),
        ("variant",): said("variant must be one of: {names}", names=", ".join(PRESETS)),
        **OPTIONS_SAID,
        ("entrants",): said("entrants must be a list of 2 to {most} names or pairs", most=ENTRANTS_MOST),
        ("entrants", "*"): said("each entrant is a name, or a pair {form}", form=PAIR_FORM),
        ("rounds",): _rounds_refused,
        ("seeding",): said('seeding must be "order", "draw" or "rating"'),
        ("pin",): PIN_REFUSED,
    }

    name: Annotated[str, AfterValidator(_tournament_name),
                    Field(json_schema_extra={"minLength": 1, "maxLength": TOURNAMENT_NAME_MAX})]
    format: Format
    variant: Variant = "classica"
    # Before, anything but an object (5, [1]) was taken as no rule item changed: refused now, as
    # a new match refuses it.
    options: Options = OPTIONS
    entrants: Annotated[list[Entrant],
                        Field(min_length=2, max_length=ENTRANTS_MOST,
                              description="players, or pairs of players (all one or the other); for "
                                          "a knockout, in seed order")]
    rounds: Annotated[int, Field(ge=1, description="a Swiss's rounds (fewer than the entrants)")] | None = None
    seeding: Seeding | None = Field(
        None, description="the seeds: in the order written, drawn (a knockout's bracket), or by rating "
                          "(the highest first, entrants without one last); left out, by rating when "
                          "every entrant has one, else in the order written")
    pin: Annotated[str, Field(pattern=f"^{PIN_PATTERN}$")] | None = None

    @model_validator(mode="after")
    def _swiss_rounds(self) -> Self:
        """A Swiss's rounds, fewer than its entrants (left out: enough to tell them apart)."""
        if self.format == "swiss":
            if self.rounds is None:
                self.rounds = max(1, (len(self.entrants) - 1).bit_length())
            if not self.rounds < len(self.entrants):
                refuse(_rounds_refused({"entrants": self.entrants}), ("rounds",))
        else:
            self.rounds = None
        return self

    @property
    def rules(self) -> Rules:
        return rules_asked(self.variant, self.options)

    def given(self) -> list[Given]:
        """The entrants as the room's entrants_from takes them."""
        return [given(entrant) for entrant in self.entrants]
