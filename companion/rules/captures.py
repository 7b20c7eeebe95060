"""The capture referee (RULES §7): what a played card may take from the table.

>>> from companion.rules.cards import parse_card, parse_cards
>>> ruling = legal_captures(parse_cards(["3c", "5d", "5s", "8b"]), parse_card("10c"), "standard")
>>> [[str(c) for c in capture.cards] for capture in ruling.captures]   # seed 000: a Re takes both 5s
[['5d', '5s']]
>>> ruling.may_place
False
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .cards import Card, CardError, HandError, deck_set
from .deal import deal_plan
from .declarations import MATTA
from .rulesets import Rules
from .said import Said, said, said_n

ACE_RULES = ("asso-pigliatutto", "scopa-d-assi", "quindici-3")


PAGE = 20          # the captures a ruling lists at once; the rest are counted
LONGEST_PAGE = 100  # the most a caller may ask to be listed at once


class Capture(NamedTuple):
    cards: tuple[Card, ...]   # the table cards taken, in table order
    sweep: bool
    reason: Said | str


class Ruling(NamedTuple):
    captures: tuple[Capture, ...]   # one page of the legal captures, the ``first`` on
    may_place: bool
    reasons: tuple[Said, ...]
    # every legal capture, listed or not (the field hides tuple.count, which no caller uses)
    count: int  # type: ignore[assignment]
    first: int                      # the place of ``captures[0]`` among them, from 0

    @property
    def after(self) -> int:
        """The legal captures after this page."""
        return max(self.count - self.first - len(self.captures), 0)


Option = tuple[tuple[Card, ...], "Said | str"]


class _Listed:
    """Options known one by one (an Ace's, a card of equal value)."""

    def __init__(self, options: Sequence[Option]):
        self.options = options

    def count(self, size: int) -> int:
        return sum(1 for cards, _ in self.options if len(cards) == size)

    def nth(self, size: int, index: int) -> Option:
        return [option for option in self.options if len(option[0]) == size][index]


class _Sums:
    """The sets of table cards whose values add up to ``total``, of ``smallest`` to ``largest``
    cards. They are counted, never listed: a table of 39 cards holds thousands of sets making 15
    (RULES §7, quindici), so the sets of each size are counted by a subset-sum count (``ways``:
    at most 40 x 15 x 15 counts, each worked out once), and the n-th set of a size (in the
    order a search by value would find them) is read from those counts. Only the sets a page
    shows are ever built."""

    def __init__(self, table: Sequence[Card], total: int, smallest: int, largest: int,
                 plus: Card | None = None):
        self.table, self.total, self.smallest, self.plus = table, total, smallest, plus
        self.order = sorted(range(len(table)), key=lambda i: table[i].value)
        self.values = [table[i].value for i in self.order]
        # every card is worth at least 1: a set has at most ``total`` cards
        self.largest = min(largest, len(table), total) if total > 0 else -1
        self.known: dict[tuple[int, int, int], int] = {}

    def ways(self, start: int, size: int, remaining: int) -> int:
        """The sets of ``size`` cards among ``order[start:]`` whose values add up to
        ``remaining``, each count worked out once."""
        if size == 0:
            return 1 if remaining == 0 else 0
        values = self.values
        # sorted by value: ``size`` cards from here are worth at least ``size`` times this one
        if len(values) - start < size or values[start] * size > remaining:
            return 0
        key = (start, size, remaining)
        found = self.known.get(key)
        if found is None:
            found = (self.ways(start + 1, size, remaining)
                     + self.ways(start + 1, size - 1, remaining - values[start]))
            self.known[key] = found
        return found

    def count(self, size: int) -> int:
        if self.total <= 0 or not self.smallest <= size <= self.largest:
            return 0
        return self.ways(0, size, self.total)

    def nth(self, size: int, index: int) -> Option:
        chosen, remaining, position = [], self.total, 0
        while size:
            value = self.values[position]
            with_it = self.ways(position + 1, size - 1, remaining - value) if value <= remaining else 0
            if index < with_it:
                chosen.append(self.order[position])
                remaining, size = remaining - value, size - 1
            else:
                index -= with_it
            position += 1
        cards = tuple(self.table[i] for i in sorted(chosen))
        return cards, _sum_words(cards, self.plus)

    def any(self, smallest: int = 0) -> bool:
        return any(self.count(size) for size in range(max(smallest, self.smallest), self.largest + 1))


def _sum_words(cards: Sequence[Card], plus: Card | None = None) -> str:
    values = [c.value for c in cards] + ([plus.value] if plus else [])
    return " + ".join(str(v) for v in values) + f" = {sum(values)}"


def check_table(table: Sequence[Card], played: Card, deck_size: int = 40) -> None:
    full = deck_set(deck_size)
    for card in [*table, played]:
        if card not in full:
            raise CardError(said("{card} is not in the {deck}-card deck", card=card, deck=deck_size))
    if len(set(table)) != len(table):
        raise CardError(said("a card is on the table twice"))
    if played in table:
        raise CardError(said("{card} cannot be both on the table and played", card=played))


def legal_captures(table: Sequence[Card], played: Card, rule: str | Rules,
                   last_play: bool = False, ace_takes_itself: bool = False, *,
                   first: int = 0, limit: int = PAGE) -> Ruling:
    """The legal captures of ``played`` on ``table`` under a capture rule (fewest cards first),
    whether each is a sweep, whether the card may be placed instead, and the reasons in words.
    Only ``limit`` captures (at most ``LONGEST_PAGE``) are listed, from the ``first``; the
    ruling counts them all."""
    if isinstance(rule, Rules):
        ace_takes_itself = rule.ace_takes_itself
        check_table(table, played, rule.deck)
        rule = rule.capture
    value = played.value
    reasons: list[Said] = []

    families: list[_Listed | _Sums]
    if value == 1 and rule in ACE_RULES:
        families = [_Listed(_ace(table, rule, ace_takes_itself, reasons))]
    elif rule == "cirulla":
        families = _cirulla(table, played, reasons)
    elif rule in ("quindici-1", "escoba"):
        families = [_Sums(table, 15 - value, 1, 40, played)]
        reasons.append(said("only cards that make 15 with the played card may be taken"))
    elif rule in ("quindici-2", "quindici-3"):
        families = [_Listed([((c,), said("equal value")) for c in table if c.value == value]),
                    _Sums(table, value, 2, 40), _Sums(table, 15 - value, 1, 40, played)]
        if any(family.count(size) for family in families for size in range(len(table) + 1)):
            reasons.append(said("a card of equal value, a set adding up to it, or a set making 15 "
                           "with it: free choice"))
    else:
        families = _standard(table, played, rule, reasons)

    count, listed = _page(families, len(table), max(first, 0), min(max(limit, 0), LONGEST_PAGE))
    captures = []
    # RULES §12: in Escoba the last card of the hand sweeps too (no source excepts it).
    last_sweeps = rule == "escoba"
    for cards, why in listed:
        clears = bool(table) and len(cards) == len(table)
        sweep = (clears and (last_sweeps or not last_play)
                 and not (rule == "scopa-d-assi" and value == 1))
        captures.append(Capture(tuple(cards), sweep, why))
    if table and any(family.count(len(table)) for family in families):
        if last_play and last_sweeps:
            reasons.append(said("in Escoba clearing the table with the last card of the hand is "
                                "an escoba too"))
        elif last_play:
            reasons.append(said("the last card of the hand never makes a sweep"))
        elif rule == "scopa-d-assi" and value == 1:
            # Said of the rule, not of one game: Sbarazzina and Piva take their Ace from it.
            reasons.append(said("taking the whole table with an Ace is never a scopa"))

    if not count:
        may_place = True
        if table:
            reasons.append(said("nothing on the table can be taken with a {value}: the card is placed",
                                value=value))
        else:
            reasons.append(said("the table is empty: the card is placed"))
    elif rule == "corse":
        may_place = True
        reasons.append(said("capturing is never compulsory"))
    elif rule == "escoba":
        may_place = True
        reasons.append(said("in Escoba capturing is never compulsory: you may also lay the card"))
    else:
        may_place = False
        reasons.append(said("a card that can capture must capture"))
    return Ruling(tuple(captures), may_place, tuple(reasons), count, max(first, 0))


def _page(families: list[_Listed | _Sums], most: int, first: int, limit: int) -> tuple[int, list[Option]]:
    """How many options the families hold, and ``limit`` of them from the ``first``: the fewest
    cards first, then family by family, each in its own order."""
    count, page = 0, list[Option]()
    for size in range(most + 1):
        for family in families:
            here = family.count(size)
            for index in range(max(first - count, 0), here):
                if len(page) == limit:
                    break
                page.append(family.nth(size, index))
            count += here
    return count, page


def _standard(table: Sequence[Card], played: Card, rule: str,
              reasons: list[Said]) -> list[_Listed | _Sums]:
    value = played.value
    singles = [((card,), said("equal value")) for card in table if card.value == value]
    if singles:
        if _Sums(table, value, 2, 40).any():
            reasons.append(said("a single card of equal value must be taken before a sum"))
        return [_Listed(singles)]
    if rule == "fewest":
        if _Sums(table, value, 3, 40).any():
            reasons.append(said("only sets of two cards may be taken"))
        return [_Sums(table, value, 2, 2)]
    sets = _Sums(table, value, 2, 40)
    if rule == "fewest-any":
        sizes = [size for size in range(2, sets.largest + 1) if sets.count(size)]
        if len(sizes) > 1:
            reasons.append(said("only the fewest cards possible may be taken"))
        if sizes:
            return [_Sums(table, value, sizes[0], sizes[0])]
    return [sets]


def _ace(table: Sequence[Card], rule: str, takes_itself: bool,
         reasons: list[Said]) -> list[Option]:
    if not table:
        if rule == "scopa-d-assi" and takes_itself:
            reasons.append(said("an Ace played on the empty table takes itself"))
            return [((), said("the Ace takes itself"))]
        reasons.append(said("an Ace cannot take itself: on the empty table it stays"))
        return []
    aces = [card for card in table if card.value == 1]
    if aces:
        reasons.append(said("with an Ace on the table, the Ace played takes only that Ace"))
        return [((ace,), said("equal value")) for ace in aces]
    reasons.append(said("an Ace takes the whole table when no Ace is on it"))
    return [(tuple(table), said("the Ace takes the whole table"))]


def _cirulla(table: Sequence[Card], played: Card, reasons: list[Said]) -> list[_Listed | _Sums]:
    """Cirulla (RULES §11): a card of equal value, a set adding up to the card (only when no
    single card of its value lies there), or a set making 15 with it, at the player's choice.
    The Ace, with no Ace on the table, takes it all; with one, that Ace or a set making 15."""
    value = played.value
    singles = [((card,), said("equal value")) for card in table if card.value == value]
    fifteen = _Sums(table, 15 - value, 1, 40, played)
    if value == 1 and not singles:
        if not table:
            reasons.append(said("an Ace cannot take itself: on the empty table it stays"))
            return []
        reasons.append(said("an Ace takes the whole table when no Ace is on it"))
        return [_Listed([(tuple(table), said("the Ace takes the whole table"))])]
    if value == 1:
        reasons.append(said("with an Ace on the table, the Ace played takes that Ace or cards "
                            "making 15 with it, never the whole table otherwise"))
        return [_Listed(singles), fifteen]
    if singles:
        if _Sums(table, value, 2, 40).any():
            reasons.append(said("a single card of equal value must be taken before a sum"))
        if fifteen.any():
            reasons.append(said("the card of equal value, or a set making 15 with it: free choice"))
        return [_Listed(singles), fifteen]
    families: list[_Listed | _Sums] = [_Sums(table, value, 2, 40), fifteen]
    if any(family.count(size) for family in families for size in range(len(table) + 1)):
        reasons.append(said("a card of equal value, a set adding up to it, or a set making 15 "
                            "with it: free choice"))
    return families


class DealCheck(NamedTuple):
    void: bool
    reason: Said | str
    scope: int = 0          # the dealer's scope from the first table (Cirulla's 15, 30, 9 or less)


def check_deal(table: Sequence[Card], rules: Rules) -> DealCheck:
    """Whether the first table cards void the deal (RULES §7), and why. The check takes exactly
    the cards of the first table (RULES §10): a variant that deals none (Scopone) has nothing
    to check."""
    first = deal_plan(rules, 2).table
    if not first:
        raise HandError(said("Scopone deals every card to the players: there is no first table"))
    full = deck_set(rules.deck)
    for card in table:
        if card not in full:
            raise CardError(said("{card} is not in the {deck}-card deck", card=card, deck=rules.deck))
    if len(set(table)) != len(table):
        raise CardError(said("a card is on the table twice"))
    if len(table) != first:
        raise HandError(said_n("the first table is {first} cards: {count} card was given",
                               "the first table is {first} cards: {count} cards were given",
                               len(table), first=first, count=len(table)))
    counts: dict[int, int] = {}
    for card in table:
        counts[card.value] = counts.get(card.value, 0) + 1
    kings = counts.get(10, 0)
    if rules.void_deal == "two-aces" and counts.get(1, 0) >= 2:
        return DealCheck(True, said("{count} Aces among the first table cards: deal again",
                                    count=counts[1]))
    unscored = None
    if rules.deal_scope != "off":
        escoba = rules.preset == "escoba"
        scoring = _deal_scope(table, rules.matta, rules.deal_scope == "15-30-low", escoba)
        if scoring:
            return scoring
        if escoba:      # Escoba never voids a deal: say why no escoba, not only that
            unscored = DealCheck(False, said("the table adds up to {total}, not 15 or 30: no "
                                             "escoba for the dealer, the deal stands",
                                             total=sum(card.value for card in table)))
    if rules.void_deal == "two-aces":
        return DealCheck(False, said("fewer than two Aces on the table: the deal stands"))
    if rules.void_deal == "off":
        return unscored or DealCheck(False, said("these rules never void a deal"))
    if rules.void_deal == "equal":
        value, most = max(counts.items(), key=lambda kv: kv[1], default=(0, 0))
        if most >= 3:
            return DealCheck(True, said("{count} cards of value {value} on the table: deal again",
                                        count=most, value=value))
        return DealCheck(False, said("no three cards of one value: the deal stands"))
    if kings >= 3:
        return DealCheck(True, said("{count} Kings on the table make a sweep impossible: deal "
                                    "again", count=kings))
    if rules.void_deal == "aces" and counts.get(1):
        return DealCheck(True, said("an Ace among the first table cards: deal again"))
    return DealCheck(False, said("the deal stands"))


def _deal_scope(table: Sequence[Card], matta: bool, low: bool, escoba: bool = False) -> DealCheck | None:
    """Four table cards adding up to 15 give the dealer one scopa, 30 two, and (``low``, Cirulla's
    15-30-low reading, RULES §11) 9 or less three; the matta (7 of cups) among them counts as
    whatever value gives the dealer most. Escoba's first table is counted the same way (RULES
    §12: "adding up to 15 ... as one escoba, 30 (two fifteens) as two"), and named in its words
    (``escoba``): the sum decides, whether or not the cards split into two fifteens."""
    wild = matta and MATTA in table
    rest = sum(card.value for card in table if not (wild and card == MATTA))
    totals = [rest + value for value in range(1, 11)] if wild else [rest]
    scoring = [(3, total) for total in totals if low and total <= 9]
    scoring += [(scope, total) for total, scope in ((30, 2), (15, 1)) if total in totals]
    if not scoring:
        return None
    scope, total = max(scoring)
    if escoba and not wild:
        return DealCheck(False, said_n("the table adds up to {total}: the dealer takes it and "
                                       "scores {n} escoba",
                                       "the table adds up to {total}: the dealer takes it and "
                                       "scores {n} escobas", scope, total=total), scope)
    if scope == 3:
        why = (said("with the matta the table adds up to {total}, no more than 9", total=total) if wild
               else said("the table adds up to {total}, no more than 9", total=total))
    else:
        why = (said("the matta makes the table {total}", total=total) if wild
               else said("the table adds up to {total}", total=total))
    return DealCheck(False, said_n("{why}: the dealer takes it and scores {n} scopa",
                                   "{why}: the dealer takes it and scores {n} scope", scope, why=why), scope)
