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

from typing import Annotated, Any

from pydantic import AfterValidator, Field

from ..rules import ScopaError, parse_card, parse_cards
from ..rules.captures import LONGEST_PAGE, PAGE
from ..rules.said import said
from .hand_requests import DECLARATIONS_SAID, Declaration, names_of, piles_and_sweeps
from .requests import CARDS_SCHEMA, Request, RulesAsked

PAGES_MOST = 1_000_000


def _at(data: Any, path: tuple[str | int, ...]) -> Any:
    """The value a request's data holds at ``path`` (None where it holds none)."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def card_words(data: Any, path: tuple[str | int, ...], kind: str) -> Any:
    """The rules engine's words for a card that is not one, as sent."""
    try:
        parse_card(_at(data, path))
    except ScopaError as refusal:
        return refusal.args[0]
    return None


def _table(cards: list[str]) -> list[str]:
    parse_cards(cards, said("the table"))
    return cards


def _card(text: str) -> str:
    parse_card(text)
    return text


Table = Annotated[list[str], AfterValidator(_table), Field(json_schema_extra=CARDS_SCHEMA)]


def _played_words(data: Any, path: tuple[str | int, ...], kind: str) -> Any:
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


class ClaimAsked(RulesAsked):
    """A chiamarsi fuori: each side's cards so far (and sweeps), the totals before the hand, who
    claims; the sides named or not, the declarations made. The piles, the sweeps and the names
    are read as a hand's are (``hand_requests``), one per side."""

    said_for = {
        ("claimer",): said("claimer must be the number of the claiming side, from 0"),
        ("totals",): said("totals must be a list of whole numbers, one per side"),
        **DECLARATIONS_SAID,
    }

    # Read with the sweeps and the names, whose words count the sides (``piles_and_sweeps``,
    # ``names_of``): typed here for the document.
    piles: Any = Field(None, json_schema_extra={"type": "array", "items": CARDS_SCHEMA})
    sweeps: Any = Field(None, json_schema_extra={"type": "array", "items": {"type": "integer"}})
    totals: list[int] | None = None
    claimer: int
    names: Any = Field(None, json_schema_extra={"type": "array", "items": {"type": "string"}})
    declarations: list[Declaration] | None = None

    def read_piles(self, sent: dict[str, Any]) -> tuple[list[list], list, tuple[Any, ...] | None]:
        """Each side's cards and sweeps, and the sides' names if given, refused in words."""
        piles, sweeps = piles_and_sweeps(self.piles, self.sweeps, "sweeps" in sent)
        return piles, sweeps, names_of(self.names, len(piles))


class Rated(Request):
    """A match counted in the players' ratings, or left out."""

    said_for = {("rated",): said('say "rated": true or false')}

    rated: bool = Field(description="false: left out of the ratings (and so of the chances to win)")
