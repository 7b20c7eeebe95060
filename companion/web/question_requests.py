"""The questions a request asks the rules engine, described once (``POST /api/v1/captures``,
``/deal``, ``/claim``), and a match left out of the ratings or counted again (``PUT
/api/v1/matches/<id>/rated``). Like ``requests``: pydantic models whose JSON Schema is the
OpenAPI document's, refused in the words of ``web.refusals``; the cards read by the rules engine,
in its words.

>>> CapturesAsked.read({"table": ["1d", "2c"], "played": "3s"}).limit
20
>>> CapturesAsked.read({"table": ["1d", "2c"], "played": "3s", "limit": 0})
Traceback (most recent call last):
...
companion.web.requests.Refused: limit must be a whole number from 1 to 100
>>> CapturesAsked.read({"table": ["1d", "2c"]})
Traceback (most recent call last):
...
companion.web.requests.Refused: say which card is played (played)
"""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import AfterValidator, Field, model_validator

from ..rules import Card, parse_card, parse_cards
from ..rules.captures import LONGEST_PAGE, PAGE
from ..rules.said import said
from .hand_requests import (
    DECLARATIONS_SAID,
    PILES_SAID,
    Count,
    Declaration,
    Piles,
    SideName,
    names_words,
    one_name_a_side,
    sweeps_of,
)
from .requests import CARDS_SCHEMA, LeftOut, Request, RulesAsked, card_words

PAGES_MOST = 1_000_000


def _table(cards: list[str]) -> list[str]:
    parse_cards(cards, said("the table"))
    return cards


def _card(text: str) -> str:
    parse_card(text)
    return text


Table = Annotated[list[str], AfterValidator(_table), Field(json_schema_extra=CARDS_SCHEMA)]


def _played_words(data: Any, path: tuple[str | int, ...], kind: str, *_: Any) -> Any:
    return said("say which card is played (played)") if kind == "missing" else card_words(data, path, kind)


class CapturesAsked(RulesAsked):
    """What the card played may capture from the table: a page of the captures (``limit`` of
    them, from page ``page``)."""

    said_for = {
        ("table",): said("{key} must be a list", key="table"),
        ("table", "*"): card_words,
        ("played",): _played_words,
        ("last_play",): said("{name} must be true or false", name="last_play"),
        ("limit",): said("{name} must be a whole number from 1 to {most}", name="limit", most=LONGEST_PAGE),
        ("page",): said("{name} must be a whole number from 1 to {most}", name="page", most=PAGES_MOST),
    }

    table: Table
    played: Annotated[str, AfterValidator(_card)]
    last_play: bool = False
    limit: Annotated[int, Field(ge=1, le=LONGEST_PAGE)] = PAGE
    page: Annotated[int, Field(ge=1, le=PAGES_MOST)] = 1


class DealAsked(RulesAsked):
    """The first table of a deal (RULES §10: four cards; Scopone, which deals none, is refused by
    the rules engine, which counts them)."""

    said_for = {("table",): said("{key} must be a list", key="table"), ("table", "*"): card_words}

    table: Annotated[Table, Field(json_schema_extra={"minItems": 4, "maxItems": 4})]


def unnamed(sides: int) -> tuple[Any, ...]:
    """The sides of a chiamarsi fuori sent without names, as its words name them: "side 1"."""
    return tuple(said("side {number}", number=i + 1) for i in range(sides))


def _claim_sweeps_words(data: Any, path: tuple[str | int, ...], kind: str, *_: Any) -> Any:
    return PILES_SAID[("sweeps",)](data, path, kind, {"unnamed": unnamed})


class ClaimAsked(RulesAsked):
    """A chiamarsi fuori: each side's cards so far (and sweeps), the totals before the hand, who
    claims; the sides named or not, the declarations made. The piles, the sweeps and the names
    are a hand's (``hand_requests``), one per side."""

    said_for = {
        **PILES_SAID,
        ("sweeps",): _claim_sweeps_words,
        ("claimer",): said("claimer must be the number of the claiming side, from 0"),
        ("totals",): said("totals must be a list of whole numbers, one per side"),
        ("names",): names_words,
        **DECLARATIONS_SAID,
    }

    piles: Piles = Field(description="each side's cards so far")
    # None only where not sent (a default is not validated): then none for each side (``_sides``).
    sweeps: Annotated[list[Count] | None, LeftOut()] = Field(
        None, description="each side's sweeps so far; left out: none")
    totals: list[int] | None = None
    claimer: int
    names: list[SideName] | None = None
    declarations: list[Declaration] | None = None

    @model_validator(mode="after")
    def _sides(self) -> Self:
        """A name for each side, if named."""
        one_name_a_side(self.names, len(self.piles))
        return self

    def swept(self) -> list[int]:
        """The sweeps, none for each side unless sent."""
        return sweeps_of(self.sweeps, len(self.piles), "sweeps" in self.model_fields_set)

    def cards(self) -> list[list[Card]]:
        return [parse_cards(pile) for pile in self.piles]

    def sides_named(self) -> tuple[Any, ...]:
        """The sides' names as given, else as its words name them ("side 1")."""
        return tuple(self.names) if self.names is not None else unnamed(len(self.piles))


class Rated(Request):
    """A match counted in the players' ratings, or left out."""

    said_for = {("rated",): said('say "rated": true or false')}

    rated: bool = Field(description="false: left out of the ratings (and so of the chances to win)")
