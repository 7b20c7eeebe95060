"""How the primiera is decided (RULES §3), in one place.

A side's primiera is its best card in each suit, valued on a scale; or, under the two counting
methods, its count of sevens, then sixes, and so on.

>>> from companion.rules.cards import parse_cards
>>> primiera_of(parse_cards(["7c", "7d", "6b", "1s"]), "standard").value   # seed 004
76
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple, Sequence

from .cards import SUIT_BITS, SUIT_SHIFT, SUITS, Card, HandError, mask_of, value_mask
from .said import Joined, Said, Suit, Versus, said

Number = int | float

SCALES: dict[str, dict[int, Number]] = {
    "standard": {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10},
    "half": {7: 7, 6: 6, 1: 5.5, 5: 5, 4: 4, 3: 3, 2: 2, 8: 0.5, 9: 0.5, 10: 0.5},
    "hurrikan": {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 8, 9: 9, 10: 10},
    "no-figures": {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 0, 9: 0, 10: 0},
}

# The counting methods compare counts of ranks in this order; "figures" counts 8, 9 and 10.
# "sevens" is Escoba's setenta as most tables count it (RULES §12, melele: "más sietes"): a tie
# in sevens gives nobody the point.
COUNT_ORDER: dict[str, tuple[int | str, ...]] = {
    "sevens-sixes": (7, 6),
    "count-down": (7, 6, 1, 5, 4, 3, 2, "figures"),
    "sevens": (7,),
}
COUNT_WORDS = {7: said("sevens"), 6: said("sixes"), 1: said("aces"), 5: said("fives"),
               4: said("fours"), 3: said("threes"), 2: said("twos"), "figures": said("figures")}


def clean_number(value: Number) -> Number:
    """5.5 stays 5.5, 76.0 becomes 76: the half scale makes halves, the others whole numbers."""
    return int(value) if float(value).is_integer() else value


class SidePrimiera(NamedTuple):
    """One side's primiera: its best card per suit and their total on a scale, or its counts.

    ``best`` is empty and ``value`` None under a counting method (and when only tallies were
    entered); ``counts`` holds the counts in the method's order."""

    best: dict[str, Card]
    value: Number | None
    counts: tuple[int, ...] = ()

    @property
    def has_all_suits(self) -> bool:
        return len(self.best) == 4

    def describe(self, scale: str) -> Said | str:
        """'7d 21 + 6c 18 + 1s 16 + 10b 10 = 65', the figures a player checks."""
        if not self.best:
            return ""
        values = SCALES[scale]
        parts = Joined(tuple(said("{card} {value}", card=card, value=clean_number(values[card.value]))
                             for suit in SUITS if (card := self.best.get(suit))), " + ")
        assert self.value is not None, "a side with best cards has their total"
        missing = [Suit(suit) for suit in SUITS if suit not in self.best]
        if missing:
            return said("{cards} = {total} (no {suits})", cards=parts,
                        total=clean_number(self.value), suits=missing)
        return said("{cards} = {total}", cards=parts, total=clean_number(self.value))


class PrimieraResult(NamedTuple):
    winner: int | None
    sides: tuple[SidePrimiera, ...]
    reason: Said | Joined


def best_card(cards: Sequence[Card], method: str) -> Card | None:
    """The card a suit gives the primiera: highest on the scale; among figures of equal worth,
    the highest (only the card shown changes, never the total)."""
    scale = SCALES[method]
    return max(cards, key=lambda card: (scale[card.value], card.value), default=None)


@cache
def _best_by_pattern(method: str) -> dict[str, list[tuple[Card, Number] | None]]:
    """For each suit, the best card and its worth for every one of the 1,024 sets of that
    suit's cards a pile can hold: decided once per scale, then looked up."""
    table = {}
    for suit in SUITS:
        entries: list[tuple[Card, Number] | None] = []
        for pattern in range(SUIT_BITS + 1):
            card = best_card([Card(v, suit) for v in range(1, 11) if pattern >> (v - 1) & 1], method)
            entries.append(None if card is None else (card, SCALES[method][card.value]))
        table[suit] = entries
    return table


def primiera_of(pile: Sequence[Card], method: str) -> SidePrimiera:
    """The primiera a pile makes under a method of RULES §3."""
    return primiera_of_mask(mask_of(pile), method)


def primiera_of_mask(mask: int, method: str) -> SidePrimiera:
    """``primiera_of`` for a pile given as its bit set (see ``cards.mask_of``)."""
    if method in COUNT_ORDER:
        return SidePrimiera({}, None, count_ranks(mask, COUNT_ORDER[method]))
    table = _best_by_pattern(method)
    best: dict[str, Card] = {}
    total: Number = 0
    for suit, shift in SUIT_SHIFT.items():
        entry = table[suit][(mask >> shift) & SUIT_BITS]
        if entry is not None:
            best[suit], worth = entry
            total += worth
    return SidePrimiera(best, clean_number(total))


_RANK_MASKS: dict[int | str, int] = {value: value_mask(value) for value in range(1, 11)}
_RANK_MASKS["figures"] = _RANK_MASKS[8] | _RANK_MASKS[9] | _RANK_MASKS[10]


def count_ranks(mask: int, order: Sequence[int | str]) -> tuple[int, ...]:
    """How many cards of each rank in ``order`` a pile (as a bit set) holds."""
    return tuple((mask & _RANK_MASKS[key]).bit_count() for key in order)


def strict_leader(scores: Sequence[Number | None]) -> int | None:
    """The one side strictly ahead of every other, or None on a tie at the top (RULES §2).

    A side whose score is None is not competing for the point.

    >>> strict_leader([22, 18]), strict_leader([20, 20]), strict_leader([9, None, 7])
    (0, None, 0)
    """
    present = [score for score in scores if score is not None]
    if not present:
        return None
    top = max(present)
    return scores.index(top) if present.count(top) == 1 else None


def decide(sides: Sequence[SidePrimiera], method: str, missing_suit: str) -> PrimieraResult:
    """Who wins the primiera, and why in words."""
    sides = tuple(sides)
    if method in COUNT_ORDER:
        return _decide_by_counts(sides, method)
    complete = [i for i, side in enumerate(sides) if side.has_all_suits]
    if missing_suit == "zero":
        contenders = list(range(len(sides)))
        rule = said("missing suits count 0")
    elif missing_suit == "void":
        contenders = complete
        rule = said("a side without all four suits cannot win it")
    else:  # "loses"
        contenders = complete or list(range(len(sides)))
        rule = (said("a side with all four suits beats any side without") if complete
                else said("no side has all four suits, so the best cards of the suits held are "
                          "compared"))
    totals = Versus(tuple(side.value for side in sides))
    if not contenders:
        return PrimieraResult(None, sides, said("{totals}: no side has all four suits, so nobody "
                                                "scores it", totals=totals))
    winner = strict_leader([side.value if i in contenders else None for i, side in enumerate(sides)])
    whole = len(complete) == len(sides)
    if winner is None:
        why = (said("{totals}: tie, no point", totals=totals) if whole
               else said("{totals}: tie, no point ({rule})", totals=totals, rule=rule))
    else:
        why = (said("{totals}", totals=totals) if whole
               else said("{totals} ({rule})", totals=totals, rule=rule))
    return PrimieraResult(winner, sides, why)


def _compare_counts(sides: tuple[SidePrimiera, ...], method: str) -> tuple[int | None, Joined]:
    """The side ahead on the counts (None on a tie), and the counts compared."""
    contenders = list(range(len(sides)))
    told = []
    # From tallies only the first few counts may be known: compare as far as they go.
    for position, key in enumerate(COUNT_ORDER[method][:len(sides[0].counts)]):
        counts = {i: sides[i].counts[position] for i in contenders}
        told.append(said("{what} {figures}", what=COUNT_WORDS[key],
                         figures=Versus(tuple(counts[i] for i in contenders))))
        top = max(counts.values())
        contenders = [i for i in contenders if counts[i] == top]
        if len(contenders) == 1:
            return contenders[0], Joined(tuple(told))
    return None, Joined(tuple(told))


def _decide_by_counts(sides: tuple[SidePrimiera, ...], method: str) -> PrimieraResult:
    winner, compared = _compare_counts(sides, method)
    if winner is not None:
        return PrimieraResult(winner, sides, compared)
    return PrimieraResult(None, sides, said("{compared}: tie, no point", compared=compared))


def decide_piles(piles: Sequence[Sequence[Card]], method: str, missing_suit: str) -> PrimieraResult:
    return decide([primiera_of(pile, method) for pile in piles], method, missing_suit)


def decide_entered(counts: Sequence[tuple[int, ...]], marked: Sequence[bool], method: str,
                   names: Sequence[str], setenta: bool = False) -> PrimieraResult:
    """The primiera when only counts were entered, not cards.

    Under a counting method the counts entered (sevens, sixes and, for count-down, aces) decide
    as far as they go; past them, and under any scale (which needs the cards themselves), the
    side the players marked as winning it takes the point, and nobody when none is marked.
    ``setenta``: a refusal calls it Escoba's setenta (RULES §12)."""
    if sum(marked) > 1:
        raise HandError(said("only one side can win the setenta") if setenta
                        else said("only one side can win the primiera"))
    flagged = marked.index(True) if any(marked) else None
    sides = tuple(SidePrimiera({}, None, tuple(c)) for c in counts)
    if method in COUNT_ORDER:
        by_counts = _decide_by_counts(sides, method)
        if by_counts.winner is not None:
            if flagged is not None and flagged != by_counts.winner:
                wrong = (said("the counts give the setenta to {winner}, not {marked}",
                              winner=names[by_counts.winner], marked=names[flagged]) if setenta
                         else said("the counts give the primiera to {winner}, not {marked}",
                                   winner=names[by_counts.winner], marked=names[flagged]))
                raise HandError(wrong)
            return by_counts
        if len(counts[0]) == len(COUNT_ORDER[method]):
            if flagged is not None:     # every count that decides was entered, and they tie
                words = [COUNT_WORDS[key] for key in COUNT_ORDER[method]]
                counted = words[0]
                for word in words[1:]:
                    counted = said("{first} and {second}", first=counted, second=word)
                raise HandError(said("the {counted} tie: nobody wins the setenta, so no side can "
                                     "be marked as winning it", counted=counted) if setenta else
                                said("the {counted} tie: nobody wins the primiera, so no side can "
                                     "be marked as winning it", counted=counted))
            return by_counts
        _, compared = _compare_counts(sides, method)
        if flagged is None:
            return PrimieraResult(None, sides, said("{compared}: tie so far, and nobody was marked "
                                                    "as winning it", compared=compared))
        return PrimieraResult(flagged, sides, said("{compared}: tie so far, marked for {name}",
                                                   compared=compared, name=names[flagged]))
    if flagged is None:
        return PrimieraResult(None, sides, said("nobody was marked as winning it"))
    return PrimieraResult(flagged, sides, said("marked for {name} by the players", name=names[flagged]))


def overtaking_cards(piles: Sequence[Sequence[Card]], side: int, method: str, missing_suit: str,
                     deck_cards: Sequence[Card]) -> list[tuple[Card, Number | None]]:
    """The single cards, not in any pile yet, that would win ``side`` the primiera if it took
    them, with the primiera value each would give: "a 7 of spade would give 82"."""
    taken = {card for pile in piles for card in pile}
    found = []
    for card in deck_cards:
        if card in taken:
            continue
        trial = [list(pile) + ([card] if i == side else []) for i, pile in enumerate(piles)]
        result = decide_piles(trial, method, missing_suit)
        if result.winner == side:
            found.append((card, result.sides[side].value))
    return found
