"""A hand as a request says it: its cards or its counts and its declarations, as the JSON API
records one (``HandIn``), changes one (``HandChange``) and scores one (``ScoreRequest``, ``POST
/api/v1/score``); the piles of a chiamarsi fuori (``question_requests.ClaimAsked``) are read as
a hand's. The hand form of the pages hands the table's service the same value these make: the
entry as the store keeps it and its ``HandScore`` (``scored``). See ``requests``.

Each is a model that validates: a pile is a list of card names, a count a whole number from 0,
a holder true or false, a side's counts an object with no other keys (``Tally``). Its refusals
are worded by ``web.refusals`` in the words the rules engine gives the same mistake ("the cards
of Anna must be a whole number, 0 or more"), by the sides and rules of the match the hand is
read for (the validation's context: ``{"match": match}``), else of the request itself. What no
type can say, a hand that cannot be (a card in two piles, counts that do not add up), the rules
engine refuses when it scores the hand (``scored``).

>>> HandEntry.read({"piles": [["7d"], ["1d"]]}).sweeps
[0, 0]
>>> HandEntry.read({"tallies": [{"cards": 20, "coins": "5"}]})
Traceback (most recent call last):
...
companion.web.requests.Refused: the denari of side 1 must be a whole number, 0 or more
"""

from __future__ import annotations

from typing import Annotated, Any, Self, Sequence

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from .. import rules
from ..matches import Match, score_entry
from ..names import TEAM_NAME_MAX, name_fits
from ..rules import HandScore, Rules, parse_cards, rules_for, score_piles, score_tallies
from ..rules.said import said
from ..rules.scoring import default_names
from ..rules.tally import count_refused
from ..store import reads as store
from .requests import NAME_SCHEMA, Cards, LeftOut, Request, RulesAsked, card_words, refuse

DECLARATION_FORM = '{"side": 0, "deal": 1, "cards": [three cards]}'


def _declared_cards(cards: list[str]) -> list[str]:
    parse_cards(cards, said("a declaration"))
    return cards


class Declaration(Request):
    """A Bazzica or Sbarazzina declaration: three cards shown by a side after a deal."""

    side: int
    deal: int = 1
    cards: Annotated[Cards, AfterValidator(_declared_cards)]

    def declared(self) -> rules.Declaration:
        return rules.Declaration(self.side, self.deal, tuple(parse_cards(self.cards)))


# The words for a hand's declarations refused by their shape (their cards by the rules engine).
DECLARATIONS_SAID = {
    ("declarations",): said("{key} must be a list", key="declarations"),
    ("declarations", "*"): said("each declaration is {form}", form=DECLARATION_FORM),
    ("declarations", "*", "cards"): said("{what} must be a list of cards", what=said("a declaration")),
}


# -- The sides a hand's refusals name ------------------------------------------------------


def sides_sent(data: Any) -> int:
    """How many sides a hand's data gives (its counts' or its piles'), as far as it can be
    read: a refusal's words count them ("names must be a list of 2 names")."""
    sides = data.get("tallies", data.get("piles")) if isinstance(data, dict) else None
    return len(sides) if isinstance(sides, list) else 2


def _table(data: Any, context: Any) -> tuple[Rules, Sequence[Any]]:
    """The rules and the sides' names a hand's refusal is worded by: the match's it is read for
    (the context ``{"match": ...}``), else the request's own, as far as they read (the sides
    unnamed: "side 1")."""
    if isinstance(context, dict) and "match" in context:
        return context["match"].rules, context["match"].names
    data = data if isinstance(data, dict) else {}
    try:
        asked = RulesAsked.model_validate({k: data[k] for k in ("variant", "options") if k in data}).rules
    except ValidationError:
        asked = rules_for("classica")
    names = data.get("names")
    if isinstance(names, list) and len(names) == sides_sent(data) and all(isinstance(n, str) for n in names):
        return asked, names
    return asked, (context or {}).get("unnamed", default_names)(sides_sent(data))


def _named(names: Sequence[Any], side: int) -> Any:
    """Side ``side``'s name (one past the sides sent: as an unnamed side is named)."""
    return names[side] if side < len(names) else default_names(side + 1)[side]


# -- Piles and sweeps ----------------------------------------------------------------------

# A count: a whole number from 0 (a bool is not one).
Count = Annotated[int, Field(ge=0)]


def _piles_read(piles: list[list[str]]) -> list[list[str]]:
    """Each side's cards, read by the rules engine ("pile 2") and written as the store keeps
    them."""
    return [[str(card) for card in parse_cards(pile, said("pile {number}", number=side + 1))]
            for side, pile in enumerate(piles)]


def _piles_words(data: Any, path: tuple[str | int, ...], *_: Any) -> Any:
    if len(path) == 1:
        return said("{key} must be a list", key="piles")
    if len(path) == 2:
        return said("{what} must be a list of cards", what=said("pile {number}", number=int(path[1]) + 1))
    return card_words(data, path)


def _sweeps_words(data: Any, path: tuple[str | int, ...], kind: str, context: Any) -> Any:
    if len(path) == 1:
        return said("sweeps must be a list with one count per side")
    table_rules, names = _table(data, context)
    return count_refused("sweeps", _named(names, int(path[1])), table_rules)


Piles = Annotated[list[Cards], AfterValidator(_piles_read)]
# The words for piles and sweeps refused by their shape (a card named twice by the rules engine).
PILES_SAID: dict[tuple[str, ...], Any] = {("piles",): _piles_words, ("sweeps",): _sweeps_words}


def sweeps_of(sweeps: list[int] | None, sides: int, sent: bool) -> list[int]:
    """The sweeps of a hand by cards: as sent, else none for each side (sent as null: refused
    as not a list, by its type)."""
    return sweeps if sent and sweeps is not None else [0] * sides


# -- Counts --------------------------------------------------------------------------------

HOLDS = ("settebello", "re_bello", "piva", "primiera")


class Tally(Request):
    """One side's counts, as the rules engine's ``rules.Tally`` has them (the same fields, in
    its order: tests/api/test_hand_requests.py), ``cards`` and ``coins`` always sent, and the
    referee's ``primiera_cards`` described. Closed: a key that is not a count is refused."""

    cards: Count
    coins: Count
    settebello: bool = False
    re_bello: bool = False
    sweeps: Count = 0
    sevens: Count | None = None
    sixes: Count | None = None
    aces: Count | None = None
    napola: Count = 0
    scaletta_alta: Count = 0
    piva: bool = False
    primiera: bool = False
    primiera_cards: Cards | None = Field(None, description=(
        "the side's best card of each suit, where the referee's primiera tool worked it out (then the "
        "primiera is decided from them, and marked on the side they give it to); absent or null: "
        "marked by the players"))

    def counted(self) -> rules.Tally:
        return rules.Tally(**self.model_dump())


def _best_cards_read(tallies: list[Tally]) -> list[Tally]:
    """Each side's best cards for the primiera, read by the rules engine ("the primiera cards
    of tally 1") and written as the pages store them."""
    for side, tally in enumerate(tallies):
        if tally.primiera_cards is not None:
            tally.primiera_cards = [str(card) for card in parse_cards(
                tally.primiera_cards, said("the primiera cards of tally {number}", number=side + 1))]
    return tallies


def _tally_words(data: Any, path: tuple[str | int, ...], kind: str, context: Any) -> Any:
    """A side's counts refused, in the words the rules engine gives them."""
    side = int(path[1])
    if len(path) == 2:
        return said("tally {number} must be an object of counts", number=side + 1)
    field = str(path[2])
    if kind == "extra_forbidden":
        return said("{field} is not a count; the counts are {fields}", field=field,
                    fields=", ".join(rules.Tally._fields))
    if kind == "missing":
        return said("tally {number} needs {field}", number=side + 1, field=field)
    if field in HOLDS:
        return said("{name} must be true or false", name=field)
    if field == "primiera_cards":
        return card_words(data, path) if len(path) > 3 else said(
            "{what} must be a list of cards", what=said("the primiera cards of tally {number}", number=side + 1))
    table_rules, names = _table(data, context)
    return count_refused(field, _named(names, side), table_rules)


TALLIES_SAID: dict[tuple[str, ...], Any] = {("tallies",): said("{key} must be a list", key="tallies"),
                                            ("tallies", "*"): _tally_words}


# -- The sides' names ----------------------------------------------------------------------


def _side_name(name: str) -> str:
    """A side's name as a match keeps it: a team named after its players reaches TEAM_NAME_MAX."""
    if not name_fits(name, TEAM_NAME_MAX):
        refuse(said("every name must be 1 to {most} characters", most=TEAM_NAME_MAX))
    return name


SideName = Annotated[str, AfterValidator(_side_name), WithJsonSchema({**NAME_SCHEMA, "maxLength": TEAM_NAME_MAX})]


def names_words(data: Any, *_: Any) -> Any:
    return said("names must be a list of {n} names of 1 to {most} characters", n=sides_sent(data),
                most=TEAM_NAME_MAX)


def one_name_a_side(names: list[str] | None, sides: int) -> tuple[str, ...] | None:
    """The sides' names, if given: one per side (each already a name a match takes)."""
    if names is not None and len(names) != sides:
        refuse(said("names must be a list of {n} names of 1 to {most} characters", n=sides, most=TEAM_NAME_MAX),
               ("names",))
    return None if names is None else tuple(names)


# -- A hand --------------------------------------------------------------------------------


def _digits(value: Any) -> Any:
    """A version as a header or a query string writes it ("3"), as its number."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return store.number_from(value)
    return value


# A hand's number, a version: a whole number from 1 to the store's largest id.
Whole = Annotated[int, Field(ge=1, le=store.MAX_ID)]
# The same, as a header, a query string or a page's post writes it ("3"); a body's JSON says a number.
Version = Annotated[Whole, BeforeValidator(_digits)]


def _whole_from_1(field: str) -> Any:
    return said("{field} must be a whole number from 1", field=field)


def per_side(match: Match) -> int:
    """The players of each side of a match (one, or a team's two or three): a hand entered
    for it has its declarations checked against that table's deals."""
    return len(match.seats) // len(match.sides)


class HandEntry(Request):
    """A hand's cards (``piles``, ``sweeps``) or counts (``tallies``), and its declarations:
    counts when ``tallies`` is sent, else cards. Read it with ``{"match": match}`` as its
    context, for its refusals to name the match's sides."""

    said_for = {**DECLARATIONS_SAID, **PILES_SAID, **TALLIES_SAID}
    # The document says the rule across the fields that a body without either breaks.
    model_config = ConfigDict(json_schema_extra={"anyOf": [{"required": ["piles"]}, {"required": ["tallies"]}]})

    declarations: list[Declaration] | None = None
    # None only where not sent: the other way of entering the hand.
    piles: Annotated[Piles | None, LeftOut()] = Field(
        None, description="each side's cards, for a hand by cards")
    sweeps: Annotated[list[Count] | None, LeftOut()] = Field(
        None, description="each side's sweeps (scope), for a hand by cards; left out: none")
    tallies: Annotated[Annotated[list[Tally], AfterValidator(_best_cards_read)] | None, LeftOut()] = Field(
        None, description="each side's counts, for a hand by counts")

    @model_validator(mode="before")
    @classmethod
    def _cards_or_counts(cls, data: Any) -> Any:
        """Counts when ``tallies`` is sent, else cards (a rule across the fields): the other
        way's fields are not read, and a hand by cards without ``piles`` is refused as piles that
        are not a list."""
        if not isinstance(data, dict):
            return data
        if "tallies" in data:
            return {key: value for key, value in data.items() if key not in ("piles", "sweeps")}
        return data if "piles" in data else {**data, "piles": None}

    @model_validator(mode="after")
    def _sides(self) -> Self:
        if self.tallies is None and self.piles is not None:     # a hand by cards (piles were sent)
            self.sweeps = sweeps_of(self.sweeps, len(self.piles), "sweeps" in self.model_fields_set)
        self._said()
        return self

    def _said(self) -> None:
        """What a request adds to the hand, checked once its sides are read."""

    @property
    def sides(self) -> int:
        return len(self.tallies) if self.tallies is not None else len(self.by_cards()[0])

    def by_cards(self) -> tuple[list[list[str]], list[int]]:
        """The piles and the sweeps of a hand by cards (a hand read has its counts, or both)."""
        if self.piles is None or self.sweeps is None:
            raise TypeError("a hand by counts has no piles")
        return self.piles, self.sweeps

    def counts(self) -> list[rules.Tally]:
        """The counts, as the rules engine takes them."""
        return [tally.counted() for tally in self.tallies or ()]

    def entry(self) -> dict[str, Any]:
        """The hand written as the pages store it (no primiera_cards where the players marked
        it)."""
        entry: dict[str, Any] = {}
        if self.declarations:
            entry["declarations"] = [{"side": d.side, "deal": d.deal,
                                      "cards": [str(c) for c in d.declared().cards]}
                                     for d in self.declarations]
        if self.tallies is not None:
            entry.update(mode="tallies", tallies=[{k: v for k, v in t.model_dump().items()
                                                   if not (k == "primiera_cards" and v is None)}
                                                  for t in self.tallies])
        else:
            entry.update(mode="piles", piles=self.piles, sweeps=self.sweeps)
        return entry

    def scored(self, match: Match) -> tuple[dict[str, Any], HandScore]:
        """The entry as the match's store keeps it, and its score under the match's rules (a
        hand that cannot be is refused by the rules, in words)."""
        if self.sides != len(match.sides):
            refuse(said("this match has {n} sides, not {count}", n=len(match.sides), count=self.sides))
        entry = self.entry()
        return entry, score_entry(entry, match.rules, match.names, per_side=per_side(match))

    def declared(self) -> list[rules.Declaration]:
        return [d.declared() for d in self.declarations or ()]


class HandIn(HandEntry):
    """A hand recorded through the API."""

    said_for = {("number",): _whole_from_1("number")}

    number: Whole | None = Field(
        None, description="the hand this records: 409 if another was recorded there meanwhile")


class MadeFrom(Request):
    """The version a hand's change or delete was made from as the query says it (``?version=3``:
    digits, as a query writes them), where neither an If-Match header nor the body says it."""

    said_for = {("version",): _whole_from_1("version")}

    version: Version | None = None


class HandChange(HandEntry):
    """A hand's new entry, from the version it was made from (``version``: a number, as the
    document says, not "3"; or If-Match, which the view reads)."""

    said_for = {("version",): _whole_from_1("version")}

    version: Whole | None = Field(None, description="the version this was made from (or If-Match)")


class ScoreRequest(HandEntry, RulesAsked):
    """A hand to score under some rules, the sides named or not (nothing is stored)."""

    said_for = {("names",): names_words,
                ("players_per_side",): said("players_per_side is 1, or 2 or 3 for two teams")}

    names: list[SideName] | None = None
    players_per_side: Annotated[int, Field(ge=1, le=3)] = Field(1, description=(
        "the players of each side: 1, or 2 or 3 for two teams; the declarations are checked "
        "against the deals of that table (Cirulla: one accuso a player a deal)"))

    def _said(self) -> None:
        """A name for each side; teams only of two sides."""
        one_name_a_side(self.names, self.sides)
        if self.players_per_side > 1 and self.sides != 2:
            refuse(said("players_per_side is 1, or 2 or 3 for two teams"), ("players_per_side",))

    def score(self) -> HandScore:
        per_side, names = self.players_per_side, one_name_a_side(self.names, self.sides)
        if self.tallies is not None:
            return score_tallies(self.counts(), self.rules, self.declared(), names, per_side)
        piles, sweeps = self.by_cards()
        return score_piles([parse_cards(pile) for pile in piles], sweeps, self.rules,
                           self.declared(), names, per_side)
