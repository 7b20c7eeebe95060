"""What a variant's page shows beside its words, worked out by the rules engine from the
variant's rule items: the deals, the capture examples, the primiera's scale, the coin sequences,
the declarations. Plain Python: no Flask (the plain-Python contract in pyproject.toml).

A page built from these can never disagree with the scoring: each example is the engine's own
answer (``legal_captures``, ``primiera_of``, ``score_piles``, ``judge``) for the rules shown.

>>> from companion.rules import rules_for
>>> example = captures(rules_for("classica"))[0]
>>> [" ".join(map(str, capture.cards)) for capture in example.ruling.captures]
['1c 7c', '3s 5b', '1c 3s 4d']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from ..rules.captures import DealCheck, Ruling, check_deal, legal_captures
from ..rules.cards import Card, deck, parse_cards, suit_values
from ..rules.deal import DealPlan, deal_plan
from ..rules.declarations import MATTA, judge
from ..rules.describe import Runs, declarations, description, differences, glance, piva, runs
from ..rules.primiera import COUNT_ORDER, COUNT_WORDS, SCALES, primiera_of
from ..rules.rulesets import Rules, seatings_of
from ..rules.said import Said
from ..rules.scoring import score_piles

# The tables the examples are played on, and the card played. None of them holds a two, so each
# is dealt from Scopa Corse's 36 cards as well.
SUMS = ("1c 3s 4d 5b 7c", "8d")           # 003's example: 5+3, 4+3+A or 7+A
SINGLE = ("3c 5d 5s 8b", "8d")            # 000's example: the Jack takes the Jack, not 5+3
FEWEST = ("1c 3s 4d 5b", "9c")            # 4+5 or A+3+5: the fewest cards is two
FIFTEEN = ("1c 3s 4d 7b", "4c")           # 003's Scopa di Quindici: 4+7 or A+3+7 make 15
ACE = ("3c 5d 7s 10b", "1d")              # an Ace on a table without Aces
ACE_ON_ACE = ("1c 5d 7s", "1d")           # an Ace with an Ace on the table
EMPTY = ("", "1d")                        # an Ace on the empty table
PLACE = ("3c 4d 6s", "7b")                # 3+4 may be taken, or the 7 placed
NOT_EQUAL = ("3s 5d 7c", "7b")            # Escoba: 5+3 makes 15 with the 7; the 7 is not taken
SWEEP = ("2c 5s", "8d")                   # Escoba: the sota makes 15 with both, an escoba
# Cirulla (RULES §11): a 7 on a table with a 7 takes that 7, or 3+5 making 15, never 3+4; an
# Ace on an Ace takes it, or the whole table where it makes 15 (1+1+3+10).
SEVEN_ON_SEVEN = ("3c 4s 5d 7b", "7d")
ACE_MAKING_15 = ("1c 3s 10b", "1d")

EXAMPLES = {
    "standard": (SUMS, SINGLE),
    "fewest": (SUMS, SINGLE),
    "fewest-any": (FEWEST, SINGLE),
    "quindici-1": (FIFTEEN,),
    "quindici-2": (FIFTEEN,),
    "quindici-3": (FIFTEEN, ACE, ACE_ON_ACE),
    "asso-pigliatutto": (SUMS, ACE, ACE_ON_ACE, EMPTY),
    "scopa-d-assi": (SUMS, ACE, ACE_ON_ACE, EMPTY),
    "corse": (PLACE, SINGLE),
    "escoba": (FIFTEEN, NOT_EQUAL, SWEEP),
    "cirulla": (SEVEN_ON_SEVEN, ACE, ACE_MAKING_15, EMPTY),
}

# The primiera's scale is shown from the best card down.
SCALE_ORDER = (7, 6, 1, 5, 4, 3, 2, 8, 9, 10)
# 004's worked example: 7 of cups, 7 of coins, 6 of clubs, Ace of swords = 76.
PRIMIERA_EXAMPLE = ("7c", "7d", "6b", "1s")


class Example(NamedTuple):
    """A card played on a table, and every capture the engine allows."""

    table: tuple[Card, ...]
    played: Card
    ruling: Ruling


def captures(rules: Rules) -> list[Example]:
    """The worked capture examples of the rules' capture rule."""
    found = []
    for table, played in EXAMPLES[rules.capture]:
        cards = tuple(parse_cards(table.split()))
        card = parse_cards([played])[0]
        found.append(Example(cards, card, legal_captures(cards, card, rules)))
    return found


# The players at the table of each seating the new match form names.
TABLE_OF = {"2": 2, "3": 3, "4": 4, "2x2": 4, "2x3": 6}


def deals(rules: Rules, players: int | None = None) -> list[tuple[int, DealPlan]]:
    """The deals of a hand at each table the variant seats (or at ``players``, a match's)."""
    if players is None:
        layouts = seatings_of(rules) or ("2", "3", "4", "2x3")
        tables = tuple(sorted({TABLE_OF[layout] for layout in layouts}))
    else:
        tables = (players,)
    return [(count, deal_plan(rules, count)) for count in tables]


def scale(rules: Rules) -> list[tuple[int, Any]]:
    """The primiera's points for each value in this deck, best first; empty under a method
    that counts sevens and sixes instead."""
    if rules.primiera not in SCALES:
        return []
    points = SCALES[rules.primiera]
    return [(value, points[value]) for value in SCALE_ORDER if value in suit_values(rules.deck)]


def counted(rules: Rules) -> list[Said]:
    """What a counting method compares, in order (sevens, then sixes...)."""
    return [COUNT_WORDS[key] for key in COUNT_ORDER.get(rules.primiera, ())]


def primiera_example(rules: Rules) -> Said | str:
    """004's four cards valued on the rules' scale ("... = 76"); nothing under a counting method."""
    if rules.primiera not in SCALES:
        return ""
    return primiera_of(parse_cards(list(PRIMIERA_EXAMPLE)), rules.primiera).describe(rules.primiera)


def run_cards(rules: Rules) -> dict[str, list[Card]]:
    """The bonus suit's cards in order, and the runs the page draws: the shortest from the Ace,
    the shortest from the King."""
    suit = [Card(value, rules.bonus_suit) for value in suit_values(rules.deck)]
    return {"suit": suit, "low": suit[:3], "high": suit[:-4:-1]}


# Cirulla's first tables (docs/rules.md §11): 15 and 30 give the dealer scope, the matta
# makes 15, and two Aces void the deal; its declarations, the matta's among them.
DEAL_TABLES = ("2d 3c 4s 6b", "10d 10c 4s 6b", "7c 2d 3s 4b", "1d 1c 5s 8b")
LOW_TABLE = "2c 2s 3b 1d"           # 9 or less: three scope under 15-30-low (issue 42's table)
CIRULLA_DECLARED = ("1d 2c 5s", "6d 6c 6s", "9d 9b 7c", "2s 3b 7c")


class Cirulla(NamedTuple):
    """The figures and examples of Cirulla's own points, each the engine's answer."""

    grande: int                   # what King, Queen and Jack of the bonus suit score
    piccola: int                  # what Ace, 2 and 3 score
    piccola_longer: int           # ... with the 4 as well
    piccola_most: int             # ... with the whole suit: as far as the 6
    tables: list[tuple[tuple[Card, ...], DealCheck]]
    declared: list[tuple[tuple[Card, ...], str, int]]


def _side_points(held: list[Card], rules: Rules, item: str) -> int:
    rest = [card for card in deck(rules.deck) if card not in held]
    return score_piles([held, rest], [0, 0], rules).points(0).get(item, 0)


def cirulla(rules: Rules) -> Cirulla | None:
    """Cirulla's grande, piccola, first tables and declarations, as this match's rules score
    them (None for the rules of another game)."""
    if rules.preset == "escoba" or not (rules.grande_piccola or rules.deal_scope != "off"
                                        or rules.declarations == "cirulla"):
        return None
    suit = [Card(value, rules.bonus_suit) for value in suit_values(rules.deck)]
    dealt = set(deck(rules.deck))               # a 36-card deck has no twos to show
    shown_tables = DEAL_TABLES + ((LOW_TABLE,) if rules.deal_scope == "15-30-low" else ())
    tables = [table for table in (tuple(parse_cards(shown.split())) for shown in shown_tables)
              if dealt.issuperset(table) and (rules.matta or MATTA not in table)
              and deal_plan(rules, 2).table]           # Scopone deals no first table to check
    declared = []
    if rules.declarations == "cirulla":
        for shown in CIRULLA_DECLARED:
            cards = tuple(parse_cards(shown.split()))
            if dealt.issuperset(cards) and (rules.matta or MATTA not in cards):
                declared.append((cards, *judge(cards, "cirulla", rules.matta)[:2]))
    return Cirulla(_side_points(suit[-3:], rules, "grande"), _side_points(suit[:3], rules, "piccola"),
                   _side_points(suit[:4], rules, "piccola"), _side_points(suit, rules, "piccola"),
                   [(table, check_deal(table, rules)) for table in tables], declared)


# Escoba's first tables (docs/rules.md §12): 15 gives the dealer an escoba, 30 two, whether or
# not the cards split into two fifteens (10, 10, 9 and 1 do not); 11 gives nothing.
ESCOBA_TABLES = ("2d 3c 4s 6b", "7d 8c 10s 5b", "10d 10c 9s 1b", "1d 2c 3s 5b")


def escoba_tables(rules: Rules) -> list[tuple[tuple[Card, ...], DealCheck]]:
    """Escoba's first tables and what each gives the dealer, the engine's own check_deal (none
    for other rules)."""
    if rules.preset != "escoba" or rules.deal_scope in (False, "off"):
        return []
    tables = [tuple(parse_cards(shown.split())) for shown in ESCOBA_TABLES]
    return [(table, check_deal(table, rules)) for table in tables]


class Facts(NamedTuple):
    """Everything a variant's page shows that the engine works out."""

    description: Said
    glance: Said
    differences: list[Said]
    deals: list[tuple[int, DealPlan]]
    captures: list[Example]
    scale: list[tuple[int, Any]]
    counted: list[Said]
    primiera_example: Said | str
    runs: Runs | None
    run_cards: dict[str, list[Card]]
    declarations: list
    piva: int
    lowest: int                 # the lowest value after the Ace: 2, or 3 without the twos
    cirulla: Cirulla | None = None
    escoba_tables: list[tuple[tuple[Card, ...], DealCheck]] = []


# Worked out once for each set of rules: the /rules page scored sample piles for all eighteen
# variants at every request (about 20 ms of its 30, 68 ms under bench_guest's load, issue 41).
# Facts are the rules' own, in no language (Said, worded when a page draws them), so one copy
# serves every language; a match's rules, changed or not, are few.
@lru_cache(maxsize=256)
def facts(rules: Rules, players: int | None = None) -> Facts:
    """What a rules page shows of ``rules`` (for ``players`` seated, if a match's)."""
    return Facts(description(rules), glance(rules), differences(rules), deals(rules, players),
                 captures(rules), scale(rules), counted(rules), primiera_example(rules), runs(rules),
                 run_cards(rules), declarations(rules), piva(rules), suit_values(rules.deck)[1],
                 cirulla(rules), escoba_tables(rules))
