"""Two phones recorded the same hand: what differs between the hand recorded and this phone's
(issue 35). The conflict screen names the items whose points or figures differ, and the cards
that lie in another side's pile; when nothing differs, the hand is the very same and it is
recorded once, without asking.

Plain Python over the rules' scores: no Flask, no store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules import Card
from ..rules.cards import parse_card
from ..rules.scoring import HandScore, Line


@dataclass(frozen=True)
class Difference:
    """One item of the hand scored otherwise: its line in the hand recorded and in this
    phone's (None where that hand has no such line)."""

    item: str
    saved: Line | None
    yours: Line | None


def differences(saved: HandScore, yours: HandScore) -> list[Difference]:
    """The items whose points or figures differ, in the breakdown's order.

    >>> from companion.rules import Rules, Tally
    >>> from companion.rules.scoring import score_tallies
    >>> rules = Rules()
    >>> a = score_tallies([Tally(22, 6, True, sweeps=1, primiera=True), Tally(18, 4)], rules)
    >>> b = score_tallies([Tally(22, 6, True, primiera=True), Tally(18, 4, sweeps=2)], rules)
    >>> [d.item for d in differences(a, b)], differences(a, a)
    (['scope'], [])
    """
    theirs = {line.item: line for line in saved.lines}
    mine = {line.item: line for line in yours.lines}
    order = [line.item for line in saved.lines] + [item for item in mine if item not in theirs]
    return [Difference(item, theirs.get(item), mine.get(item)) for item in order
            if _shown(theirs.get(item)) != _shown(mine.get(item))]


def _shown(line: Line | None) -> tuple[Any, ...] | None:
    return None if line is None else (line.points, line.why)


def moved_cards(saved: dict[str, Any], yours: dict[str, Any]) -> list[Card]:
    """The cards in one side's pile in the hand recorded and in another's in this phone's, when
    both were entered by cards (none otherwise), in the deck's order."""
    if "piles" not in saved or "piles" not in yours or saved.get("mode") == "claim":
        return []
    theirs, mine = _pile_of(saved["piles"]), _pile_of(yours["piles"])
    return sorted((parse_card(code) for code in theirs.keys() | mine.keys()
                   if theirs.get(code) != mine.get(code)), key=_deck_order)


def _pile_of(piles: list[list[str]]) -> dict[str, int]:
    return {code.strip().lower(): side for side, pile in enumerate(piles) for code in pile}


def _deck_order(card: Card) -> tuple[int, int]:
    return "dcsb".find(card.suit), card.value          # as the card grid lists them


def same_hand(saved: HandScore, yours: HandScore, saved_entry: dict[str, Any],
              your_entry: dict[str, Any]) -> bool:
    """Whether the two phones entered the very same hand: every item alike (points and
    figures), the same outright win, and no card in another pile."""
    return (not differences(saved, yours) and saved.outright == yours.outright
            and not moved_cards(saved_entry, your_entry))
