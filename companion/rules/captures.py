"""The capture referee (RULES §7): what a played card may take from the table.

>>> from companion.rules.cards import parse_card, parse_cards
>>> ruling = legal_captures(parse_cards(["3c", "5d", "5s", "8b"]), parse_card("10c"), "standard")
>>> [[str(c) for c in capture.cards] for capture in ruling.captures]   # seed 000: a Re takes both 5s
[['5d', '5s']]
>>> ruling.may_place
False
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Sequence

from .cards import Card, CardError, HandError, deck_set
from .deal import deal_plan
from .rulesets import Rules
from .said import Said, said, said_n

ACE_RULES = ("asso-pigliatutto", "scopa-d-assi", "quindici-3")


class Capture(NamedTuple):
    cards: tuple[Card, ...]   # the table cards taken, in table order
    sweep: bool
    reason: Said | str


class Ruling(NamedTuple):
    captures: tuple[Capture, ...]
    may_place: bool
    reasons: tuple[Said, ...]


def _sets(table: Sequence[Card], total: int, smallest: int, largest: int) -> Iterator[tuple[Card, ...]]:
    """Every set of table cards (kept in table order) whose values add up to ``total``."""
    order = sorted(range(len(table)), key=lambda i: table[i].value)
    chosen: list[int] = []

    def walk(start: int, remaining: int) -> Iterator[tuple[Card, ...]]:
        if remaining == 0:
            if len(chosen) >= smallest:
                yield tuple(table[i] for i in sorted(chosen))
            return
        if len(chosen) == largest:
            return
        for position in range(start, len(order)):
            card = table[order[position]]
            if card.value > remaining:
                break  # sorted by value: every later card is too big as well
            chosen.append(order[position])
            yield from walk(position + 1, remaining - card.value)
            chosen.pop()

    if total > 0:
        yield from walk(0, total)


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
                   last_play: bool = False, ace_takes_itself: bool = False) -> Ruling:
    """Every legal capture of ``played`` on ``table`` under a capture rule, whether each is a
    sweep, whether the card may be placed instead, and the reasons in words."""
    if isinstance(rule, Rules):
        ace_takes_itself = rule.ace_takes_itself
        check_table(table, played, rule.deck)
        rule = rule.capture
    value = played.value
    reasons: list[Said] = []

    if value == 1 and rule in ACE_RULES:
        options = _ace(table, rule, ace_takes_itself, reasons)
    elif rule == "quindici-1":
        options = [(s, _sum_words(s, played)) for s in _sets(table, 15 - value, 1, 40)]
        reasons.append(said("only cards that make 15 with the played card may be taken"))
    elif rule in ("quindici-2", "quindici-3"):
        options = [((c,), said("equal value")) for c in table if c.value == value]
        options += [(s, _sum_words(s)) for s in _sets(table, value, 2, 40)]
        options += [(s, _sum_words(s, played)) for s in _sets(table, 15 - value, 1, 40)]
        if options:
            reasons.append(said("a card of equal value, a set adding up to it, or a set making 15 "
                           "with it: free choice"))
    else:
        options = _standard(table, played, rule, reasons)

    captures = []
    for cards, why in sorted(options, key=lambda option: len(option[0])):
        clears = bool(table) and len(cards) == len(table)
        sweep = clears and not last_play and not (rule == "scopa-d-assi" and value == 1)
        captures.append(Capture(tuple(cards), sweep, why))
    if any(bool(table) and len(c.cards) == len(table) for c in captures):
        if last_play:
            reasons.append(said("the last card of the hand never makes a sweep"))
        elif rule == "scopa-d-assi" and value == 1:
            reasons.append(said("in Scopa d'Assi taking the table with an Ace is not a sweep"))

    if not captures:
        may_place = True
        if table:
            reasons.append(said("nothing on the table can be taken with a {value}: the card is placed",
                                value=value))
        else:
            reasons.append(said("the table is empty: the card is placed"))
    elif rule == "corse":
        may_place = True
        reasons.append(said("in Scopa Corse capturing is never compulsory"))
    else:
        may_place = False
        reasons.append(said("a card that can capture must capture"))
    return Ruling(tuple(captures), may_place, tuple(reasons))


def _standard(table: Sequence[Card], played: Card, rule: str,
              reasons: list[Said]) -> list[tuple[tuple[Card, ...], Said | str]]:
    value = played.value
    singles = [((card,), said("equal value")) for card in table if card.value == value]
    if singles:
        if next(_sets(table, value, 2, 40), None):
            reasons.append(said("a single card of equal value must be taken before a sum"))
        return singles
    if rule == "fewest":
        sets = list(_sets(table, value, 2, 2))
        if next(_sets(table, value, 3, 40), None):
            reasons.append(said("only sets of two cards may be taken"))
    else:
        sets = list(_sets(table, value, 2, 40))
        if rule == "fewest-any" and sets:
            fewest = min(len(s) for s in sets)
            if any(len(s) > fewest for s in sets):
                reasons.append(said("only the fewest cards possible may be taken"))
            sets = [s for s in sets if len(s) == fewest]
    return [(s, _sum_words(s)) for s in sets]


def _ace(table: Sequence[Card], rule: str, takes_itself: bool,
         reasons: list[Said]) -> list[tuple[tuple[Card, ...], Said | str]]:
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


class DealCheck(NamedTuple):
    void: bool
    reason: Said | str


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
    if rules.void_deal == "off":
        return DealCheck(False, said("these rules never void a deal"))
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
