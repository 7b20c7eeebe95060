"""What the JSON API answers, one pydantic model per answer: every answer is built as its model
(``answers.py``, the api views) and sent as the model dumps it (``answers.sent``), and the OpenAPI
document's answers' schemas are generated from the same models (``openapi_models.components``),
as its requests' are from the requests' models, so nothing in the document is written twice.

A model is strict and closed (``additionalProperties: false``): a key given to it that it does
not declare, a value of another type (a count as text, a float for a whole number), a field
left out, fails where the answer is built, and the type checker sees the fields of each
constructor. The fields are declared in the order the answer gives them (jsonify keeps the
order: ``app.json.sort_keys`` is off). A field without a default is one every answer has
(``required``); ``| None`` is ``null`` where there is nothing to give. The suite still checks
every answer its API tests see against the document as served (tests/conftest.py's
``answers_as_documented``, tests/api/test_openapi_answers.py)."""

from __future__ import annotations

from typing import Annotated, Any, Callable

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, WithJsonSchema
from pydantic_core import core_schema

from ..web.requests import CARDS_SCHEMA

# A list of cards as the requests take them (written <value><suit>).
Cards = Annotated[list[str], Field(json_schema_extra=lambda schema: schema.update(CARDS_SCHEMA))]
# A figure that may be whole or have a half (a primiera of 5.5, a head-to-head split): kept as
# given, 76 written 76 (a float field would write the int it is given as 76.0).
Number = Annotated[int | float, WithJsonSchema({"type": "number"})]


class Closed(BaseModel):
    """An answer's object with these keys and no other, each of its type (strict: no text read
    as a number, no 0 as false)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Error(Closed):
    """refused: the reason in words"""

    error: str


class Side(Closed):
    """One side's hand: its counts as the rules read them, and the points each item gave it."""

    cards: int | None
    coins: int | None
    settebello: bool
    re_bello: bool
    sevens: int | None
    sixes: int | None
    aces: int | None
    napola: int
    scaletta_alta: int
    piva: bool
    sweeps: int
    primiera_value: Number | None
    primiera_cards: list[str] | None = Field(description="the side's best card of each suit, "
                                                         "where the hand's cards give them")
    points: dict[str, int] = Field(description="one entry per item in force (carte, denari, settebello, "
                                               "primiera, scope...); Escoba names its own: cartas, oros, "
                                               "velo, setenta, escobas")
    total: int


class Line(Closed):
    """One point of a hand: who took it and why."""

    item: str = Field(description="as a side's points name it")
    label: str
    points: list[int]
    winner: int | None
    why: str


class Outright(Closed):
    """The whole match won by the hand (a Napoleone, a Scala)."""

    side: int
    reason: str


class Score(Closed):
    """A finished hand scored."""

    sides: list[Side]
    breakdown: list[Line]
    outright: Outright | None
    rules: dict[str, Any]


class Capture(Closed):
    cards: Cards
    sweep: bool
    reason: str


class Captures(Closed):
    """One page of the captures (``limit`` of them, from page ``page``): ``count`` counts them
    all, ``after`` those after this page."""

    captures: list[Capture]
    count: int = Field(ge=0)
    after: int = Field(ge=0)
    may_place: bool
    reasons: list[str]


class Deal(Closed):
    void: bool
    reason: str
    # Cirulla's deal_scope: a first table adding up to 15 gives the dealer 1 scopa, 30 two, and
    # under 15-30-low 9 or less three.
    scope: int = Field(description="the scope the first table gives the dealer (under Escoba, its escobas)")


class Claim(Closed):
    holds: bool
    certain: dict[str, int]
    certain_total: int
    why: str


class Variant(Closed):
    title: str
    description: str = Field(description="who plays it, the deck, the goal and what sets it apart, in "
                                         "the language of Accept-Language (en, it, fr, es)")
    rules: dict[str, Any]


class Variants(Closed):
    variants: dict[str, Variant]
    items: list[str]


class Outcome(Closed):
    over: bool
    winner: int | None
    reason: str
    double: bool
    text: str


class SideNamed(Closed):
    name: str
    players: list[str]


class NextHand(Closed):
    number: int
    dealer: str
    plays_first: str


RATED = Field(description="false: the organiser left the match out of the ratings (and so of the "
                          "chances to win); it still counts in the records")


class MatchFields(Closed):
    """What a match says of itself, in a list and alone (``answers.match_summary``)."""

    id: int
    created: str
    version: int
    sides: list[SideNamed]
    rules: dict[str, Any]
    pin: bool
    totals: list[int]
    hands: Any              # here in the answer's order; each answer's own (a count, the hands)
    outcome: Outcome
    rated: bool = RATED
    next_hand: NextHand | None


class Match(MatchFields):
    hands: int = Field(description="hands recorded")


class Entry(BaseModel):
    """The hand as it was entered (its cards, or its counts), as stored."""

    model_config = ConfigDict(extra="allow", strict=True)
    mode: str


class _AsStored:
    """An entry checked as ``Entry`` (and so described by it) but sent as the dict stored: its
    keys in the store's order (an API's hand with declarations stores them before its mode),
    which a model would put its own fields first in."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        def checked(entry: Any, as_entry: Callable[[Any], Any]) -> Any:
            as_entry(entry)
            return entry
        return core_schema.no_info_wrap_validator_function(checked, handler.generate_schema(Entry),
                                                           serialization=core_schema.simple_ser_schema("dict"))


StoredEntry = Annotated[dict[str, Any], _AsStored]


class Hand(Closed):
    id: int = Field(description="the hand's id, for good")
    number: int = Field(description="its place in the order of play")
    version: int
    entry: StoredEntry
    points: list[int]
    totals_after: list[int]
    breakdown: list[Line] | None = Field(description="null for a claim")


class MatchWithHands(MatchFields):
    hands: list[Hand] = Field(description="in the order they were played, a page at a time")
    hands_next: str | None = Field(description="the page of the hands after these (the same limit), or "
                                               "null when these are the last")


class Matches(Closed):
    matches: list[Match]
    next: str | None = Field(description="the next page, if any")


class HandSaved(Closed):
    hand: Hand
    match: Match


class Problem(Closed):
    """refused: the reason, and the hand in the way as it is now"""

    error: str
    hand: Hand
    match: Match


class HandDeleted(Closed):
    deleted: int
    match: Match
