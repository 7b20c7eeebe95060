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

from typing import Collection, NamedTuple, Sequence

from . import primiera as primiera_rules
from .cards import Card, HandError, mask_of
from .deal import deal_plan
from .declarations import Declaration, Seats, score_declarations
from .primiera import COUNT_ORDER, PrimieraResult, SidePrimiera, strict_leader
from .rulesets import Rules
from .said import Joined, Said, Versus, joined, said
from .tally import (
    PIVA,
    Tally,
    check_piles,
    check_sweeps,
    check_tallies,
    primiera_cards_of,
    suit_values,
    tally_mask,
)

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
    "grande": ("Grande", "King, Queen and Jack of the bonus suit: 5"),
    "piccola": ("Piccola", "Ace, 2 and 3 of the bonus suit: 3, one more a card in sequence"),
}

# Escoba's points by its own names (RULES §12): what the JSON API calls them where a side's
# points are listed, and what the rules' own sentences call them (a claim's certain points).
ESCOBA_ITEMS = {
    "carte": ("cartas", "Cartas"), "denari": ("oros", "Oros"), "settebello": ("velo", "Velo"),
    "primiera": ("setenta", "Setenta"), "scope": ("escobas", "Escobas"),
}


def point_name(item: str, rules: Rules) -> str:
    """An item as these rules name it: Escoba's 'oros' for 'denari', else the item itself.

    >>> from companion.rules.rulesets import rules_for
    >>> point_name("denari", rules_for("escoba")), point_name("denari", rules_for("classica"))
    ('oros', 'denari')
    """
    return ESCOBA_ITEMS[item][0] if rules.preset == "escoba" and item in ESCOBA_ITEMS else item


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


def score_piles(piles: Sequence[Sequence[Card]], sweeps: Sequence[int], rules: Rules,
                declarations: Sequence[Declaration] = (),
                names: Sequence[str] | None = None, per_side: int | None = None) -> HandScore:
    """Score a hand from the cards in each side's pile and the sweeps each side made.
    ``per_side``: the players of each side, for a hand being entered, whose declarations are
    checked against the table's deals (None: a stored hand, taken as it was)."""
    names = tuple(names) if names else default_names(len(piles))
    masks = [mask_of(pile) for pile in piles]
    check_piles(piles, rules, masks)
    check_sweeps(sweeps, [len(pile) for pile in piles], names, rules.preset == "escoba")
    result = primiera_rules.decide(
        [primiera_rules.primiera_of_mask(mask, rules.primiera) for mask in masks],
        rules.primiera, rules.missing_suit)
    tallies = [tally_mask(mask, count, rules, side == result.winner)
               for side, (mask, count) in enumerate(zip(masks, sweeps))]
    return _score(tallies, rules, result, declarations, names, per_side)


def score_tallies(tallies: Sequence[Tally], rules: Rules,
                  declarations: Sequence[Declaration] = (),
                  names: Sequence[str] | None = None, per_side: int | None = None) -> HandScore:
    """Score a hand from counts the players entered; impossible counts are refused."""
    names = tuple(names) if names else default_names(len(tallies))
    check_tallies(tallies, rules, names)
    return _score(list(tallies), rules, _entered_primiera(tallies, rules, names), declarations,
                  names, per_side)


# What a line of a hand still being entered says of an item whose figures are not all in.
NOT_YET = said("not entered yet")


def score_so_far(tallies: Sequence[Tally], rules: Rules, waiting: Collection[str],
                 declarations: Sequence[Declaration] = (),
                 names: Sequence[str] | None = None, per_side: int | None = None) -> HandScore:
    """The score of a hand by counts still being entered: what is entered is checked against
    the rest that is entered (``check_tallies(partial=True)``), and each item in ``waiting``
    (its figures not all entered yet: "carte", "settebello", "primiera"...) gives nobody a
    point yet, its line saying so. A refusal here is a real contradiction, never a count not
    entered yet."""
    names = tuple(names) if names else default_names(len(tallies))
    check_tallies(tallies, rules, names, partial=True)
    n = len(tallies)
    if "primiera" in waiting:
        primiera = PrimieraResult(None, tuple(SidePrimiera({}, None) for _ in tallies), NOT_YET)
    else:
        primiera = _entered_primiera(tallies, rules, names)
    entered = [t._replace(cards=t.cards or 0, coins=t.coins or 0) for t in tallies]
    hand = _score(entered, rules, primiera, declarations, names, per_side)
    lines = tuple(Line(line.item, (0,) * n, NOT_YET) if line.item in waiting else line
                  for line in hand.lines)
    return hand._replace(lines=lines)


def _entered_primiera(tallies: Sequence[Tally], rules: Rules, names: Sequence[str]) -> PrimieraResult:
    """The primiera of a hand by counts: worked out from each side's best cards where the
    referee's tool gave them (the side marked must be the one they give it to), else from the
    counts entered and the side the players marked."""
    best = primiera_cards_of(tallies, rules, names)
    marked = [t.primiera for t in tallies]
    setenta = rules.preset == "escoba"          # RULES §12: Escoba's primiera is its setenta
    if best is not None:
        worked = primiera_rules.decide_piles(best, rules.primiera, rules.missing_suit)
        if sum(marked) > 1:
            raise HandError(said("only one side can win the setenta") if setenta
                            else said("only one side can win the primiera"))
        flagged = marked.index(True) if any(marked) else None
        if flagged != worked.winner:
            nobody = said("nobody")
            winner = nobody if worked.winner is None else names[worked.winner]
            marked_for = nobody if flagged is None else names[flagged]
            raise HandError(said("the best cards give the setenta to {winner}, not {marked}",
                                 winner=winner, marked=marked_for) if setenta else
                            said("the best cards give the primiera to {winner}, not {marked}",
                                 winner=winner, marked=marked_for))
        return worked._replace(reason=said("{why}, worked out by the referee", why=worked.reason))
    order = COUNT_ORDER.get(rules.primiera, ())
    counts = []
    for tally in tallies:
        known: dict[int | str, int | None] = {7: tally.sevens, 6: tally.sixes, 1: tally.aces}
        entered = []
        for key in order:
            count = known.get(key)
            if count is None:
                break
            entered.append(count)
        counts.append(tuple(entered))
    # While a hand is entered, a count may be in for some sides only: compare what all have.
    depth = min(len(c) for c in counts)
    return primiera_rules.decide_entered([c[:depth] for c in counts], marked, rules.primiera, names,
                                         setenta)


def _points_to(winner: int | None, n: int, amount: int = 1) -> tuple[int, ...]:
    points = [0] * n
    if winner is not None:
        points[winner] = amount
    return tuple(points)


def _versus(figures: Sequence) -> Said:
    """"22 v 18": the figures compared, one per side."""
    return said("{figures}", figures=Versus(tuple(figures)))


def _most(item: str, figures: list[int | None], n: int) -> Line:
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
    # Limits are cards, not counts (RULES §10): "to-six" goes as far as the 6, "to-horse" as far
    # as the Cavallo, so with 36 cards (no 2) A-3-4-5-6 is the longest to-six run: 5 points.
    last = 6 if rules.napola == "to-six" else 9
    cap = sum(1 for value in suit_values(rules) if value <= last)
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


# The piccola runs from the Ace as far as the 6 (RULES §11): it never reaches the grande's cards.
PICCOLA_MOST = 6


def _grande_piccola(tallies: Sequence[Tally], names: Sequence[str]) -> tuple[Line, Line]:
    # Cirulla: the grande is King, Queen and Jack of the bonus suit (5 points); the piccola Ace,
    # 2 and 3 (3 points), one more for each next card in sequence up to the 6 (RULES §11).
    grande = [5 if t.scaletta_alta >= 3 else 0 for t in tallies]
    runs = [t.napola if t.napola >= 3 else 0 for t in tallies]
    piccola = [min(run, PICCOLA_MOST) for run in runs]
    big = [said("{name} has the grande", name=names[side]) for side, p in enumerate(grande) if p]
    small = [said("{name} piccola of {length}: {points}", name=names[side], length=p, points=p)
             if p == run else
             said("{name} has {length} in sequence from the Ace: the piccola counts {points}",
                  name=names[side], length=run, points=p)
             for side, (p, run) in enumerate(zip(piccola, runs)) if p]
    return (Line("grande", tuple(grande), joined(big, said("no grande (King, Queen, Jack)"))),
            Line("piccola", tuple(piccola), joined(small, said("no piccola (Ace, 2, 3)"))))


def _score(tallies: list[Tally], rules: Rules, result: PrimieraResult,
           declarations: Sequence[Declaration], names: Sequence[str],
           per_side: int | None = None) -> HandScore:
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
    if rules.grande_piccola:
        lines.extend(_grande_piccola(tallies, names))
    if rules.declarations != "off":
        seats = None if per_side is None else Seats(
            per_side, len(deal_plan(rules, n * per_side).hands))
        points, told = score_declarations(declarations, rules.declarations, names, rules.matta, seats)
        # Cirulla's players make accusi, not declarations: its breakdown says so (issue 42)
        none = said("no accusi") if rules.declarations == "cirulla" else said("no declarations")
        lines.append(Line("declarations", tuple(points), joined(told, none)))
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
