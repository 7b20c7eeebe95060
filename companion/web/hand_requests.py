"""A hand as a request says it: its cards or its counts and its declarations, as the JSON API
records one (``HandIn``), changes one (``HandChange``) and scores one (``ScoreRequest``, ``POST
/api/v1/score``). The hand form of the pages hands the table's service the same value these
make: the entry as the store keeps it and its ``HandScore`` (``scored``). See ``requests``.
"""

from __future__ import annotations

from typing import Annotated, Any, Self, get_type_hints

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    SkipValidation,
    create_model,
    model_validator,
)

from .. import rules, store
from ..matches import Match, score_entry
from ..names import TEAM_NAME_MAX, name_fits
from ..rules import HandScore, parse_cards, score_piles, score_tallies
from ..rules.said import said
from .requests import Cards, Name, Request, RulesAsked, as_list, refuse

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


def _counts() -> dict[str, Any]:
    """A tally's fields as the rules engine's ``Tally`` has them (one list of counts: one added
    there is in the document too), but ``cards`` and ``coins`` always sent (None only while the
    pages' form is being filled) and the referee's ``primiera_cards`` described."""
    hints, defaults = get_type_hints(rules.Tally), rules.Tally._field_defaults
    fields: dict[str, Any] = {name: (hint, defaults.get(name, ...)) for name, hint in hints.items()}
    fields.update(cards=(int, ...), coins=(int, ...), primiera_cards=(Cards | None, Field(None, description=(
        "the side's best card of each suit, where the referee's primiera tool worked it out (then the "
        "primiera is decided from them, and marked on the side they give it to); absent or null: "
        "marked by the players"))))
    return fields


# One side's counts (checked by ``tally_of`` and the rules engine: the model is the document's).
Tally = create_model("Tally", __base__=Request, **_counts())


def tally_of(entry: Any, side: int) -> rules.Tally:
    """One side's counts, checked field by field."""
    if not isinstance(entry, dict):
        refuse(said("tally {number} must be an object of counts", number=side + 1))
    unknown = set(entry) - set(rules.Tally._fields)
    if unknown:
        refuse(said("{field} is not a count; the counts are {fields}",
                    field=sorted(unknown)[0], fields=", ".join(rules.Tally._fields)))
    for field in ("cards", "coins"):
        if field not in entry:
            refuse(said("tally {number} needs {field}", number=side + 1, field=field))
    for field in ("settebello", "re_bello", "piva", "primiera"):
        if field in entry and not isinstance(entry[field], bool):
            refuse(said("{name} must be true or false", name=field))
    best = entry.get("primiera_cards")
    if best is not None:        # the referee's best cards, written as the pages store them
        entry = {**entry, "primiera_cards": [str(card) for card in parse_cards(
            best, said("the primiera cards of tally {number}", number=side + 1))]}
    return rules.Tally(**entry)


def _tallies(value: Any) -> list[rules.Tally]:
    return [tally_of(entry, side) for side, entry in enumerate(as_list(value, "tallies"))]


def piles_and_sweeps(piles: Any, sweeps: Any, sweeps_sent: bool) -> tuple[list[list], list]:
    """Each side's cards and sweeps (no sweeps sent: none; sent as null: refused)."""
    piles = [parse_cards(pile, said("pile {number}", number=side + 1))
             for side, pile in enumerate(as_list(piles, "piles"))]
    sweeps = sweeps if sweeps_sent else [0] * len(piles)
    if not isinstance(sweeps, list):
        refuse(said("sweeps must be a list with one count per side"))
    return piles, sweeps


def _digits(value: Any) -> Any:
    """A version as a header or a query string writes it ("3"), as its number."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return store.number_from(value)
    return value


# A hand's number, a version: a whole number from 1 to the store's largest id.
Whole = Annotated[int, Field(ge=1, le=store.MAX_ID)]
Version = Annotated[Whole, BeforeValidator(_digits)]


def _whole_from_1(field: str) -> Any:
    return said("{field} must be a whole number from 1", field=field)


def per_side(match: Match) -> int:
    """The players of each side of a match (one, or a team's two or three): a hand entered
    for it has its declarations checked against that table's deals."""
    return len(match.seats) // len(match.sides)


class HandEntry(Request):
    """A hand's cards (``piles``, ``sweeps``) or counts (``tallies``), and its declarations:
    counts when ``tallies`` is sent, else cards."""

    said_for = DECLARATIONS_SAID

    declarations: list[Declaration] | None = None
    piles: SkipValidation[list[Cards]] = None     # null is refused: not a list
    sweeps: SkipValidation[list[int]] = None      # left out: none; null is refused
    tallies: Annotated[SkipValidation[list[Tally]], BeforeValidator(_tallies)] = None

    @model_validator(mode="after")
    def _cards(self) -> Self:
        if "tallies" not in self.model_fields_set:
            self.piles, self.sweeps = piles_and_sweeps(self.piles, self.sweeps,
                                                       "sweeps" in self.model_fields_set)
        self._said()
        return self

    def _said(self) -> None:
        """What a request adds to the hand, checked once its cards are read."""

    @property
    def sides(self) -> int:
        return len(self.tallies if self.tallies is not None else self.piles)

    def entry(self) -> dict[str, Any]:
        """The hand written as the pages store it (no primiera_cards where the players marked
        it)."""
        entry: dict[str, Any] = {}
        if self.declarations:
            entry["declarations"] = [{"side": d.side, "deal": d.deal,
                                      "cards": [str(c) for c in d.declared().cards]}
                                     for d in self.declarations]
        if self.tallies is not None:
            entry.update(mode="tallies", tallies=[{k: v for k, v in t._asdict().items()
                                                   if not (k == "primiera_cards" and v is None)}
                                                  for t in self.tallies])
        else:
            entry.update(mode="piles", piles=[[str(c) for c in pile] for pile in self.piles],
                         sweeps=self.sweeps)
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
    """The version a hand's change or delete was made from: ``version`` in the body or the
    query (digits, as a query writes them), where no If-Match header says it."""

    said_for = {("version",): _whole_from_1("version")}

    version: Version | None = Field(None, description="the version this was made from (or If-Match)")


class HandChange(HandEntry, MadeFrom):
    """A hand's new entry, from the version it was made from (``version``, or If-Match)."""


def names_of(value: Any, n: int) -> tuple[str, ...] | None:
    """The sides' names, if given: one per side, each a name as a match takes it."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n or not all(isinstance(x, str) for x in value):
        refuse(said("names must be a list of {n} names of 1 to {most} characters", n=n, most=TEAM_NAME_MAX))
    # A side's name as a match keeps it: a team named after its players reaches TEAM_NAME_MAX.
    if not all(name_fits(name, TEAM_NAME_MAX) for name in value):
        refuse(said("every name must be 1 to {most} characters", most=TEAM_NAME_MAX))
    return tuple(value)


class ScoreRequest(HandEntry, RulesAsked):
    """A hand to score under some rules, the sides named or not (nothing is stored)."""

    names: SkipValidation[list[Name] | None] = None
    players_per_side: SkipValidation[Annotated[int, Field(ge=1, le=3)]] = Field(1, description=(
        "the players of each side: 1, or 2 or 3 for two teams; the declarations are checked "
        "against the deals of that table (Cirulla: one accuso a player a deal)"))

    def _said(self) -> None:
        self.names = names_of(self.names, self.sides)
        per_side = self.players_per_side
        if isinstance(per_side, bool) or per_side not in (1, 2, 3) or (per_side > 1 and self.sides != 2):
            refuse(said("players_per_side is 1, or 2 or 3 for two teams"))

    def score(self) -> HandScore:
        per_side = self.players_per_side
        if self.tallies is not None:
            return score_tallies(self.tallies, self.rules, self.declared(), self.names, per_side)
        return score_piles(self.piles, self.sweeps, self.rules, self.declared(), self.names, per_side)
