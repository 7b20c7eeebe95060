"""What one side captured in a hand, counted (a ``Tally``), and the checks that refuse a hand
that cannot be: piles that are not the deck, sweeps that cannot have been made, counts that do
not add up (RULES §2, §4).
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple, Sequence

from . import cards
from .cards import (
    BIT,
    SUIT_BITS,
    SUIT_SHIFT,
    Card,
    HandError,
    deck_mask,
    deck_set,
    full_deck,
    mask_of,
    parse_cards,
    value_mask,
)
from .primiera import COUNT_ORDER
from .rulesets import Rules
from .said import Said, Suit, said, said_n

PIVA = Card(2, "b")


# The counts a primiera by counting asks for, as the refusals name them.
_COUNTED = {"sevens": said("sevens"), "sixes": said("sixes"), "aces": said("aces")}


class Tally(NamedTuple):
    """What one side captured, as counts. ``napola`` is the length of its run of bonus-suit
    cards from the Ace upwards (the Napola, or the scaletta bassa), ``scaletta_alta`` of its run
    from the King downwards. ``sevens``, ``sixes`` and ``aces`` are None when not entered.
    ``primiera`` marks the side that won the primiera where the counts cannot decide it;
    ``primiera_cards``, the side's best card of each suit where the referee's tool worked the
    primiera out from them (None: the players marked the winner themselves). ``cards`` and
    ``coins`` are None only while a hand is still being entered (``check_tallies(partial=True)``)."""

    cards: int | None
    coins: int | None
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
    primiera_cards: Sequence[str] | None = None


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


def bonus_suit(rules: Rules) -> Suit:
    """The bonus suit as the rules' sentences name it: in the Spanish pack by its own name,
    *oros*, in every language and in the API (RULES §12); else as the page's pack names it."""
    return Suit(rules.bonus_suit, "spanish" if rules.pack == "spanish" else None)


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


def sweeps_refused(name: str, escoba: bool = False) -> Said:
    """A side's sweeps that are not a whole number from 0, in words (Escoba's escobas)."""
    if escoba:
        return said("the escobas of {name} must be a whole number, 0 or more", name=name)
    return said("the sweeps of {name} must be a whole number, 0 or more", name=name)


def count_refused(field: str, name: str, rules: Rules) -> Said:
    """A count of a ``Tally`` (``cards``, ``coins``, ``sevens``...) that is not a whole number
    from 0, in words: "the cards of Anna must be a whole number, 0 or more"; the sweeps as
    ``sweeps_refused`` says them."""
    if field == "sweeps":
        return sweeps_refused(name, rules.preset == "escoba")
    what = {"cards": said("the cards"), "coins": said("the {suit}", suit=bonus_suit(rules)),
            "napola": said("the Napola"), "scaletta_alta": said("the scaletta alta")}.get(field)
    if what is None:
        what = said("the {what}", what=_COUNTED[field])
    return said("{what} of {name} must be a whole number, 0 or more", what=what, name=name)


def check_sweeps(sweeps: Sequence[int], cards: Sequence[int | None], names: Sequence[str],
                 escoba: bool = False) -> None:
    """Each side's sweeps, a whole number that the cards it took allow (not checked against
    cards not entered yet: None); ``escoba``: said as Escoba's escobas (RULES §12)."""
    if len(sweeps) != len(cards):
        raise HandError(said("give one sweep count per side ({sides}), not {given}",
                             sides=len(cards), given=len(sweeps)))
    for side, (count, taken) in enumerate(zip(sweeps, cards)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise HandError(sweeps_refused(names[side], escoba))
        # A sweep takes the played card and at least one from the table.
        if taken is not None and 2 * count > taken and escoba:
            raise HandError(said_n("{name} cannot have made {n} escoba: {taken} taken, and an "
                                   "escoba takes at least 2 cards",
                                   "{name} cannot have made {n} escobas: {taken} taken, and "
                                   "each escoba takes at least 2 cards", count, name=names[side],
                                   taken=said_n("{n} card", "{n} cards", taken)))
        if taken is not None and 2 * count > taken:
            raise HandError(said_n("{name} cannot have made {n} sweep: {taken} taken, and a "
                                   "sweep takes at least 2 cards",
                                   "{name} cannot have made {n} sweeps: {taken} taken, and "
                                   "each sweep takes at least 2 cards", count, name=names[side],
                                   taken=said_n("{n} card", "{n} cards", taken)))


def check_tallies(tallies: Sequence[Tally], rules: Rules, names: Sequence[str],
                  partial: bool = False) -> None:
    """Refuse counts that no real hand could give.

    ``partial``: a hand still being entered. A count not entered yet (None) and a card nobody
    holds yet are awaited, not refused: only what is entered is checked against the rest that
    is entered, so whatever is refused is a real contradiction."""
    check_sides(len(tallies))
    suit = len(suit_values(rules))
    coins = bonus_suit(rules)
    escoba = rules.preset == "escoba"       # RULES §12: the velo, escobas, the setenta

    def whole(value: Any, field: str, side: int) -> int | None:
        if value is None and partial:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise HandError(count_refused(field, names[side], rules))
        return value

    for side, t in enumerate(tallies):
        whole(t.cards, "cards", side)
        whole(t.coins, "coins", side)
        if t.coins is not None and t.cards is not None and t.coins > t.cards:
            raise HandError(said("{name} cannot have {coins} {suit} in {cards} cards",
                                 name=names[side], coins=t.coins, suit=coins, cards=t.cards))
    taken = [t.cards for t in tallies]
    cards = [count for count in taken if count is not None]
    if len(cards) == len(taken) and sum(cards) != rules.deck:
        raise HandError(said("the cards add up to {total}, not {deck}: every card ends the hand "
                             "in some pile", total=sum(cards), deck=rules.deck))
    bonus = [t.coins for t in tallies if t.coins is not None]
    if len(bonus) == len(tallies) and sum(bonus) != suit:
        raise HandError(said("the {suit} add up to {total}, not {count}", suit=coins,
                             total=sum(bonus), count=suit))
    check_sweeps([t.sweeps for t in tallies], taken, names, escoba)

    # Who holds each single card; while a hand is entered, nobody yet is awaited.
    holders = [side for side, t in enumerate(tallies) if t.settebello]
    if len(holders) > 1 or not (holders or partial):
        if escoba:
            raise HandError(said("exactly one side has the velo") if not holders
                            else said("only one side can have the velo"))
        raise HandError(said("exactly one side has the settebello") if not holders
                        else said("only one side can have the settebello"))
    holders = [side for side, t in enumerate(tallies) if t.re_bello]
    if len(holders) > 1 or (rules.re_bello and not holders and not partial):
        raise HandError(said("exactly one side has the Re Bello"))
    holders = [side for side, t in enumerate(tallies) if t.piva]
    if holders and rules.deck != 40:
        raise HandError(said("the {deck}-card deck has no 2 of bastoni: nobody holds the Piva",
                             deck=rules.deck))
    if len(holders) > 1 or (rules.piva and rules.deck == 40 and not holders and not partial):
        raise HandError(said("exactly one side has the Piva (the 2 of bastoni)"))

    for field, problem in (
            ("napola", said("only one side can hold a sequence of {suit} from the Ace", suit=coins)),
            ("scaletta_alta", said("only one side can hold a sequence of {suit} from the King",
                                   suit=coins))):
        if sum(1 for t in tallies if getattr(t, field)) > 1:
            raise HandError(problem)

    needed = {"sevens-sixes": ("sevens", "sixes"), "count-down": ("sevens", "sixes", "aces"),
              "sevens": ("sevens",)}
    for field in ("sevens", "sixes", "aces"):
        values = [getattr(t, field) for t in tallies]
        what = _COUNTED[field]
        if all(v is None for v in values):
            if field in needed.get(rules.primiera, ()) and not partial:
                raise HandError(said("enter each side's {what}: they decide the setenta", what=what)
                                if escoba else
                                said("enter each side's {what}: they decide the primiera", what=what))
            continue
        if any(v is None for v in values):
            if partial:
                continue
            raise HandError(said("enter the {what} of every side, or of none", what=what))
        for side, value in enumerate(values):
            whole(value, field, side)
        if sum(values) != 4:
            raise HandError(said("the {what} add up to {total}, not 4", what=what, total=sum(values)))

    for side, t in enumerate(tallies):
        known = [t.sevens or 0, t.sixes or 0, t.aces or 0]
        if t.cards is not None and sum(known) > t.cards:
            if t.sixes is None and t.aces is None:      # only the sevens asked (the setenta)
                raise HandError(said("{name} cannot have {count} sevens in {cards} cards",
                                     name=names[side], count=sum(known), cards=t.cards))
            raise HandError(said("{name} cannot have {count} sevens, sixes and aces in {cards} "
                                 "cards", name=names[side], count=sum(known), cards=t.cards))
        # The bonus suit's 7 (the settebello, Escoba's velo) is the one card both a coin and a
        # seven: a side's cards hold its coins and its other sevens.
        if (t.cards is not None and t.coins is not None and t.sevens is not None
                and t.coins + t.sevens - t.settebello > t.cards):
            raise HandError(said("{name}'s {suit} ({coins}) and sevens ({sevens}) are more than the "
                                 "cards ({cards}): only the {card} is both", name=names[side],
                                 suit=coins, coins=t.coins, sevens=t.sevens, cards=t.cards,
                                 card=Card(7, rules.bonus_suit)))
        if t.settebello and t.sevens == 0:
            raise HandError(said("{name} has the velo, so at least one seven", name=names[side])
                            if escoba else
                            said("{name} has the settebello, so at least one seven", name=names[side]))
        # never None: a Tally's runs are 0 when it holds none
        low = whole(t.napola, "napola", side) or 0
        high = whole(t.scaletta_alta, "scaletta_alta", side) or 0
        for length, what in ((low, said("a sequence from the Ace")),
                             (high, said("a sequence from the King"))):
            if length > suit:
                raise HandError(said("{what} cannot be longer than the {count} {suit}", what=what,
                                     count=suit, suit=coins))
        if low == suit or high == suit:
            if t.coins is not None and t.coins != suit:
                raise HandError(said("{name} has the whole suit only with all {count} {suit}",
                                     name=names[side], count=suit, suit=coins))
        elif low + high >= suit:
            raise HandError(said("{name}'s sequences from the Ace ({low}) and the King ({high}) "
                                 "would overlap", name=names[side], low=low, high=high))
        implied = set(range(low)) | {suit - 1 - i for i in range(high)}
        ranks = suit_values(rules)
        if ranks.index(7) in implied and not t.settebello:
            raise HandError(said("{name}'s sequence of {suit} includes the settebello",
                                 name=names[side], suit=coins))
        if rules.re_bello and high and not t.re_bello:
            raise HandError(said("{name}'s sequence from the King includes the Re Bello",
                                 name=names[side]))
        if t.settebello:
            implied.add(ranks.index(7))
        if t.re_bello:
            implied.add(ranks.index(10))
        if t.coins is not None and len(implied) > t.coins and escoba and implied == {ranks.index(7)}:
            raise HandError(said("{name} holds more {suit} (the velo among them) than the {coins} "
                                 "entered", name=names[side], suit=coins, coins=t.coins))
        if t.coins is not None and len(implied) > t.coins:
            raise HandError(said("{name} holds more {suit} (in sequences, settebello, Re Bello) "
                                 "than the {coins} entered", name=names[side], suit=coins,
                                 coins=t.coins))
        if t.piva and t.cards == 0:
            raise HandError(said("{name} has no cards, so not the Piva", name=names[side]))


def primiera_cards_of(tallies: Sequence[Tally], rules: Rules,
                      names: Sequence[str]) -> list[list[Card]] | None:
    """The best cards the referee's tool worked the primiera out from, each side's, read and
    checked (None when the players marked the winner themselves): every side's or none, only
    where the primiera is worth points card by card, at most one card a suit, a card in one
    side only."""
    given = [t.primiera_cards for t in tallies]
    chosen = [cards for cards in given if cards is not None]
    if not chosen:
        return None
    if len(chosen) < len(given):
        raise HandError(said("give the best cards for the primiera of every side, or of none"))
    if rules.primiera in COUNT_ORDER:
        raise HandError(said("under these rules the counts decide the primiera, not its best cards"))
    full, best = deck_set(rules.deck), []
    seen: dict[Card, int] = {}
    for side, codes in enumerate(chosen):
        pile = parse_cards(codes, said("the best cards of {name}", name=names[side]))
        for card in pile:
            if card not in full:
                raise HandError(said("{card} is not in the {deck}-card deck", card=card, deck=rules.deck))
            if card in seen:
                raise HandError(said("{card} is entered for both {first} and {second}", card=card,
                                     first=names[seen[card]], second=names[side]))
            seen[card] = side
        if len({card.suit for card in pile}) < len(pile):
            raise HandError(said("{name} has one best card in each suit for the primiera, not two",
                                 name=names[side]))
        best.append(pile)
    return best
