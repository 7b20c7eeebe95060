"""The score of one finished hand (RULES §2 to §5), from the cards of each pile or from counts.

Both ways meet in a ``Tally`` per side: ``score_piles`` counts the piles (and decides the
primiera from the cards), ``score_tallies`` checks counts the players entered. Each point goes to
the one side strictly ahead of every other; a tie at the top gives it to nobody.

>>> from companion.rules.cards import parse_cards, deck
>>> from companion.rules.rulesets import rules_for
>>> first = parse_cards(["7d", "7c", "7s", "6b", "1d", "2d", "3d"])   # primiera 81 v 75
>>> second = [card for card in deck() if card not in first]
>>> hand = score_piles([first, second], [1, 0], rules_for("classica"))
>>> hand.totals
(3, 2)
>>> [(line.item, line.winner) for line in hand.lines]
[('carte', 1), ('denari', 1), ('settebello', 0), ('primiera', 0), ('scope', 0)]
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple, Sequence

from . import primiera as primiera_rules
from . import cards
from .cards import (BIT, SUIT_BITS, SUIT_SHIFT, Card, HandError, deck_mask, deck_set,
                    full_deck, mask_of, value_mask)
from .declarations import Declaration, score_declarations
from .primiera import COUNT_ORDER, PrimieraResult, strict_leader
from .rulesets import Rules
from .said import Joined, Said, Suit, Versus, joined, said, said_n

PIVA = Card(2, "b")
# The counts a primiera by counting asks for, as the refusals name them.
_COUNTED = {"sevens": said("sevens"), "sixes": said("sixes"), "aces": said("aces")}

# How each item is called at the table, and what it means in English.
ITEMS = {
    "carte": ("Carte", "most cards"),
    "denari": ("Denari", "most cards of the bonus suit"),
    "settebello": ("Settebello", "the 7 of the bonus suit"),
    "primiera": ("Primiera", "best card of each suit"),
    "scope": ("Scope", "one point a sweep"),
    "re_bello": ("Re Bello", "the King of the bonus suit"),
    "napola": ("Napola", "the bonus suit in sequence from the Ace"),
    "scalette": ("Scalette", "bonus-suit sequences from the Ace up or the King down"),
    "piva": ("Piva", "the 2 of bastoni: minus 5"),
    "declarations": ("Bazzica", "three-card declarations"),
}


class Tally(NamedTuple):
    """What one side captured, as counts. ``napola`` is the length of its run of bonus-suit
    cards from the Ace upwards (the Napola, or the scaletta bassa), ``scaletta_alta`` of its run
    from the King downwards. ``sevens``, ``sixes`` and ``aces`` are None when not entered.
    ``primiera`` marks the side that won the primiera where the counts cannot decide it."""

    cards: int
    coins: int
    settebello: bool = False
    re_bello: bool = False
    sweeps: int = 0
    sevens: int | None = None
    sixes: int | None = None
    aces: int | None = None
    napola: int = 0
    scaletta_alta: int = 0
    piva: bool = False
    primiera: bool = False


class Line(NamedTuple):
    """One item of the breakdown: the points it gives each side and the figures compared."""

    item: str
    points: tuple[int, ...]
    why: Said | Joined

    @property
    def winner(self) -> int | None:
        scorers = [side for side, points in enumerate(self.points) if points]
        return scorers[0] if len(scorers) == 1 else None


class HandScore(NamedTuple):
    rules: Rules
    names: tuple[str, ...]
    tallies: tuple[Tally, ...]
    primiera: PrimieraResult
    lines: tuple[Line, ...]
    outright: int | None = None     # the side whose Napoleone or Scala wins the match
    outright_reason: str | None = None

    def points(self, side: int) -> dict[str, int]:
        return {line.item: line.points[side] for line in self.lines}

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(line.points[side] for line in self.lines)
                     for side in range(len(self.tallies)))


def default_names(n_sides: int) -> tuple[str, ...]:
    return tuple(f"side {i + 1}" for i in range(n_sides))


def suit_values(rules: Rules) -> tuple[int, ...]:
    """The values of one suit in this deck, in order (no 2 in Scopa Corse's 36 cards)."""
    return cards.suit_values(rules.deck)


@cache
def _runs(pattern: int, size: int) -> tuple[int, int]:
    """The runs of one suit's cards held (a 10-bit pattern) from the Ace up and from the King
    down, in this deck's order: (Napola or scaletta bassa, scaletta alta)."""
    held = [pattern >> (value - 1) & 1 for value in cards.suit_values(size)]
    low = held.index(0) if 0 in held else len(held)
    high = held[::-1].index(0) if 0 in held else len(held)
    return low, high


_SEVENS, _SIXES, _ACES = value_mask(7), value_mask(6), value_mask(1)


def tally_mask(mask: int, sweeps: int, rules: Rules, won_primiera: bool = False) -> Tally:
    """Count one side's pile, given as its bit set (``cards.mask_of``)."""
    coins = (mask >> SUIT_SHIFT[rules.bonus_suit]) & SUIT_BITS
    low, high = _runs(coins, rules.deck)
    return Tally(mask.bit_count(), coins.bit_count(), bool(coins & 1 << 6), bool(coins & 1 << 9),
                 sweeps, (mask & _SEVENS).bit_count(), (mask & _SIXES).bit_count(),
                 (mask & _ACES).bit_count(), low, high, bool(mask & BIT[PIVA]), won_primiera)


def check_sides(n_sides: int) -> None:
    if not 2 <= n_sides <= 4:
        raise HandError(said("a match has 2, 3 or 4 sides"))


def check_piles(piles: Sequence[Sequence[Card]], rules: Rules,
                masks: Sequence[int] | None = None) -> None:
    """The piles must partition the deck: every card in exactly one pile (RULES §2)."""
    check_sides(len(piles))
    if masks is None:
        masks = [mask_of(pile) for pile in piles]
    union = 0
    for mask in masks:
        union |= mask
    # Every card once: no carries inside a pile, no overlap between piles, the whole deck.
    if union == deck_mask(rules.deck) and sum(map(len, piles)) == union.bit_count() \
            and all(mask.bit_count() == len(pile) for mask, pile in zip(masks, piles)):
        return
    # Something is wrong: find the first problem and say it.
    full = deck_set(rules.deck)
    where: dict[Card, int] = {}
    for side, pile in enumerate(piles):
        for card in pile:
            if card not in full:
                raise HandError(said("{card} is not in the {deck}-card deck", card=card, deck=rules.deck))
            if card in where:
                other = where[card]
                if other == side:
                    raise HandError(said("{card} is entered twice in pile {pile}", card=card, pile=side + 1))
                if len(piles) == 2:
                    raise HandError(said("{card} is in both piles", card=card))
                raise HandError(said("{card} is in pile {first} and pile {second}", card=card,
                                     first=other + 1, second=side + 1))
            where[card] = side
    missing = [card for card in full_deck(rules.deck) if card not in where]
    if missing:
        if len(missing) > 8:
            raise HandError(said("{n} cards are in no pile: {cards} ... (every card ends the hand "
                                 "in some pile)", n=len(missing), cards=missing[:8]))
        raise HandError(said_n("{n} card is in no pile: {cards} (every card ends the hand in "
                               "some pile)", "{n} cards are in no pile: {cards} (every card ends "
                               "the hand in some pile)", len(missing), cards=missing))


def check_sweeps(sweeps: Sequence[int], cards: Sequence[int], names: Sequence[str]) -> None:
    if len(sweeps) != len(cards):
        raise HandError(said("give one sweep count per side ({sides}), not {given}",
                             sides=len(cards), given=len(sweeps)))
    for side, (count, taken) in enumerate(zip(sweeps, cards)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise HandError(said("the sweeps of {name} must be a whole number, 0 or more",
                                 name=names[side]))
        # A sweep takes the played card and at least one from the table.
        if 2 * count > taken:
            raise HandError(said_n("{name} cannot have made {n} sweep: {taken} taken, and a "
                                   "sweep takes at least 2 cards",
                                   "{name} cannot have made {n} sweeps: {taken} taken, and "
                                   "each sweep takes at least 2 cards", count, name=names[side],
                                   taken=said_n("{n} card", "{n} cards", taken)))


def score_piles(piles: Sequence[Sequence[Card]], sweeps: Sequence[int], rules: Rules,
                declarations: Sequence[Declaration] = (),
                names: Sequence[str] | None = None) -> HandScore:
    """Score a hand from the cards in each side's pile and the sweeps each side made."""
    names = tuple(names) if names else default_names(len(piles))
    masks = [mask_of(pile) for pile in piles]
    check_piles(piles, rules, masks)
    check_sweeps(sweeps, [len(pile) for pile in piles], names)
    result = primiera_rules.decide(
        [primiera_rules.primiera_of_mask(mask, rules.primiera) for mask in masks],
        rules.primiera, rules.missing_suit)
    tallies = [tally_mask(mask, count, rules, side == result.winner)
               for side, (mask, count) in enumerate(zip(masks, sweeps))]
    return _score(tallies, rules, result, declarations, names)


def score_tallies(tallies: Sequence[Tally], rules: Rules,
                  declarations: Sequence[Declaration] = (),
                  names: Sequence[str] | None = None) -> HandScore:
    """Score a hand from counts the players entered; impossible counts are refused."""
    names = tuple(names) if names else default_names(len(tallies))
    check_tallies(tallies, rules, names)
    order = COUNT_ORDER.get(rules.primiera, ())
    counts = []
    for tally in tallies:
        known = {7: tally.sevens, 6: tally.sixes, 1: tally.aces}
        entered = []
        for key in order:
            if known.get(key) is None:
                break
            entered.append(known[key])
        counts.append(tuple(entered))
    result = primiera_rules.decide_entered(counts, [t.primiera for t in tallies],
                                           rules.primiera, names)
    return _score(list(tallies), rules, result, declarations, names)


def check_tallies(tallies: Sequence[Tally], rules: Rules, names: Sequence[str]) -> None:
    """Refuse counts that no real hand could give."""
    check_sides(len(tallies))
    suit = len(suit_values(rules))
    coins = Suit(rules.bonus_suit)

    def whole(value, what: Said, side: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise HandError(said("{what} of {name} must be a whole number, 0 or more",
                                 what=what, name=names[side]))
        return value

    for side, t in enumerate(tallies):
        whole(t.cards, said("the cards"), side)
        whole(t.coins, said("the {suit}", suit=coins), side)
        if t.coins > t.cards:
            raise HandError(said("{name} cannot have {coins} {suit} in {cards} cards",
                                 name=names[side], coins=t.coins, suit=coins, cards=t.cards))
    total_cards = sum(t.cards for t in tallies)
    if total_cards != rules.deck:
        raise HandError(said("the cards add up to {total}, not {deck}: every card ends the hand "
                             "in some pile", total=total_cards, deck=rules.deck))
    total_coins = sum(t.coins for t in tallies)
    if total_coins != suit:
        raise HandError(said("the {suit} add up to {total}, not {count}", suit=coins,
                             total=total_coins, count=suit))
    check_sweeps([t.sweeps for t in tallies], [t.cards for t in tallies], names)

    holders = [side for side, t in enumerate(tallies) if t.settebello]
    if len(holders) != 1:
        raise HandError(said("exactly one side has the settebello") if not holders
                        else said("only one side can have the settebello"))
    holders = [side for side, t in enumerate(tallies) if t.re_bello]
    if len(holders) > 1 or (rules.re_bello and not holders):
        raise HandError(said("exactly one side has the Re Bello"))
    holders = [side for side, t in enumerate(tallies) if t.piva]
    if holders and rules.deck != 40:
        raise HandError(said("the {deck}-card deck has no 2 of bastoni: nobody holds the Piva",
                             deck=rules.deck))
    if len(holders) > 1 or (rules.piva and rules.deck == 40 and not holders):
        raise HandError(said("exactly one side has the Piva (the 2 of bastoni)"))

    for field, problem in (
            ("napola", said("only one side can hold a sequence of {suit} from the Ace", suit=coins)),
            ("scaletta_alta", said("only one side can hold a sequence of {suit} from the King",
                                   suit=coins))):
        if sum(1 for t in tallies if getattr(t, field)) > 1:
            raise HandError(problem)

    needed = {"sevens-sixes": ("sevens", "sixes"), "count-down": ("sevens", "sixes", "aces")}
    for field in ("sevens", "sixes", "aces"):
        values = [getattr(t, field) for t in tallies]
        what = _COUNTED[field]
        if all(v is None for v in values):
            if field in needed.get(rules.primiera, ()):
                raise HandError(said("enter each side's {what}: they decide the primiera", what=what))
            continue
        if any(v is None for v in values):
            raise HandError(said("enter the {what} of every side, or of none", what=what))
        for side, value in enumerate(values):
            whole(value, said("the {what}", what=what), side)
        if sum(values) != 4:
            raise HandError(said("the {what} add up to {total}, not 4", what=what, total=sum(values)))

    for side, t in enumerate(tallies):
        known = [t.sevens or 0, t.sixes or 0, t.aces or 0]
        if sum(known) > t.cards:
            raise HandError(said("{name} cannot have {count} sevens, sixes and aces in {cards} "
                                 "cards", name=names[side], count=sum(known), cards=t.cards))
        if t.settebello and t.sevens == 0:
            raise HandError(said("{name} has the settebello, so at least one seven", name=names[side]))
        low = whole(t.napola, said("the Napola"), side)
        high = whole(t.scaletta_alta, said("the scaletta alta"), side)
        for length, what in ((low, said("a sequence from the Ace")),
                             (high, said("a sequence from the King"))):
            if length > suit:
                raise HandError(said("{what} cannot be longer than the {count} {suit}", what=what,
                                     count=suit, suit=coins))
        if low == suit or high == suit:
            if t.coins != suit:
                raise HandError(said("{name} has the whole suit only with all {count} {suit}",
                                     name=names[side], count=suit, suit=coins))
        elif low + high >= suit:
            raise HandError(said("{name}'s sequences from the Ace ({low}) and the King ({high}) "
                                 "would overlap", name=names[side], low=low, high=high))
        implied = set(range(low)) | {suit - 1 - i for i in range(high)}
        values = suit_values(rules)
        if values.index(7) in implied and not t.settebello:
            raise HandError(said("{name}'s sequence of {suit} includes the settebello",
                                 name=names[side], suit=coins))
        if rules.re_bello and high and not t.re_bello:
            raise HandError(said("{name}'s sequence from the King includes the Re Bello",
                                 name=names[side]))
        if t.settebello:
            implied.add(values.index(7))
        if t.re_bello:
            implied.add(values.index(10))
        if len(implied) > t.coins:
            raise HandError(said("{name} holds more {suit} (in sequences, settebello, Re Bello) "
                                 "than the {coins} entered", name=names[side], suit=coins,
                                 coins=t.coins))
        if t.piva and t.cards == 0:
            raise HandError(said("{name} has no cards, so not the Piva", name=names[side]))


def _points_to(winner: int | None, n: int, amount: int = 1) -> tuple[int, ...]:
    points = [0] * n
    if winner is not None:
        points[winner] = amount
    return tuple(points)


def _versus(figures: Sequence) -> Said:
    """"22 v 18": the figures compared, one per side."""
    return said("{figures}", figures=Versus(tuple(figures)))


def _most(item: str, figures: list[int], n: int) -> Line:
    winner = strict_leader(figures)
    if winner is None:
        return Line(item, (0,) * n, said("{figures}: tie, no point", figures=Versus(tuple(figures))))
    return Line(item, _points_to(winner, n), _versus(figures))


def _holder(item: str, flags: Sequence[bool], card: Card, names: Sequence[str]) -> Line:
    holder = flags.index(True) if True in flags else None
    why = (said("{name} has the {card}", name=names[holder], card=card) if holder is not None
           else said("nobody has the {card}", card=card))
    return Line(item, _points_to(holder, len(flags)), why)


def _napola(tallies: Sequence[Tally], rules: Rules, names: Sequence[str], suit: int) -> Line:
    cap = 6 if rules.napola == "to-six" else suit - 1
    points, told = [], []
    for side, t in enumerate(tallies):
        length = t.napola if t.napola >= 3 else 0
        points.append(min(length, cap))
        if length > cap:
            told.append(said("{name} has {length} in sequence from the Ace, counted as {cap}",
                             name=names[side], length=length, cap=cap))
        elif length:
            told.append(said("{name} has {length} in sequence from the Ace", name=names[side],
                             length=length))
    return Line("napola", tuple(points), joined(told, said("no Napola (Ace, 2, 3 at least)")))


def _scalette(tallies: Sequence[Tally], names: Sequence[str], suit: int) -> Line:
    # Bassa: A-2-3 scores 3, one more a card up to the Cavallo; alta: Re-Cavallo-Fante scores 5,
    # one more a card down to the 2. A side can hold both.
    points, told = [], []
    for side, t in enumerate(tallies):
        bassa = min(t.napola, suit - 1) if t.napola >= 3 else 0
        alta = 5 + min(t.scaletta_alta, suit - 1) - 3 if t.scaletta_alta >= 3 else 0
        points.append(bassa + alta)
        if bassa:
            told.append(said("{name} scaletta bassa of {length}: {points}", name=names[side],
                             length=min(t.napola, suit - 1), points=bassa))
        if alta:
            told.append(said("{name} scaletta alta of {length}: {points}", name=names[side],
                             length=min(t.scaletta_alta, suit - 1), points=alta))
    return Line("scalette", tuple(points), joined(told, said("no scaletta")))


def _score(tallies: list[Tally], rules: Rules, result: PrimieraResult,
           declarations: Sequence[Declaration], names: Sequence[str]) -> HandScore:
    n = len(tallies)
    suit = len(suit_values(rules))
    bonus = rules.bonus_suit
    lines = [
        _most("carte", [t.cards for t in tallies], n),
        _most("denari", [t.coins for t in tallies], n),
        _holder("settebello", [t.settebello for t in tallies], Card(7, bonus), names),
        Line("primiera", _points_to(result.winner, n), result.reason),
        Line("scope", tuple(t.sweeps for t in tallies), _versus([t.sweeps for t in tallies])),
    ]
    if rules.re_bello:
        lines.append(_holder("re_bello", [t.re_bello for t in tallies], Card(10, bonus), names))
    if rules.napola != "off":
        lines.append(_napola(tallies, rules, names, suit))
    if rules.scalette:
        lines.append(_scalette(tallies, names, suit))
    if rules.piva:
        holder = _holder("piva", [t.piva for t in tallies], PIVA, names)
        lines.append(Line("piva", tuple(-5 * p for p in holder.points), holder.why))
    if rules.declarations != "off":
        points, told = score_declarations(declarations, rules.declarations, names)
        lines.append(Line("declarations", tuple(points), joined(told, said("no declarations"))))
    elif declarations:
        raise HandError(said("these rules have no declarations (Bazzica or Sbarazzina)"))

    outright = outright_reason = None
    for side, t in enumerate(tallies):
        if rules.napola == "to-horse" and t.napola == suit:
            outright, outright_reason = side, "Napoleone"
        if rules.scalette and t.coins == suit:
            outright, outright_reason = side, "Scala"
    return HandScore(rules, tuple(names), tuple(tallies), result, tuple(lines),
                     outright, outright_reason)
