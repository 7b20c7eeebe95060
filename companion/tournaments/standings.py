"""A tournament's standings from its results, ranked as chess arbiters rank them (plain Python).

Match points first: a win 2, a draw 1, a loss 0, a bye a win. Entrants level on points are then
told apart by an ordered list of tie-breaks, chosen for each format after FIDE's tie-break
regulations (Handbook C.07) and the lists FIDE recommended for each kind of tournament (C.02,
13.16), which the Italian federation's opens follow:

* Swiss: the opponents' points without the lowest (Buchholz Cut-1), the opponents' points
  (Buchholz), head-to-head, the points difference, the points scored, the entry order;
* round robin: head-to-head, the beaten opponents' points (Sonneborn-Berger), the points
  difference, the points scored, the entry order;
* knockout: the match points are the round reached; then the points difference, the points
  scored, the entry order (entrants level there never met).

As C.07 (4.2) applies them, each tie-break ranks only the entrants that all those before it left
level. Head-to-head counts the games among exactly the entrants still level, and decides only if
every two of them have met (C.07, 6.2: with Marta and Carla level who never played each other,
it says nothing, and the next tie-break decides); where it leaves some of them level, it is
applied again among those (6.2), and two who met twice count the average of their games
(6.1.2). The last tie-break is the order the organiser typed the entrants in, so no two rows are
ever level.

A round an entrant did not play is an ``Unplayed``. For the Buchholz and the Sonneborn-Berger
(C.07, art. 16): an entrant's own unplayed round counts as a game against an opponent with the
entrant's own points, at most a draw a round (16.4.2), or for a forfeit win no stronger than the
opponent who withdrew (16.4.1); a withdrawn entrant counts, for those who met them, as drawing
every round they were not paired in after leaving (16.3.2), the table they left a loss (16.3.1); the Cut-1 leaves out one of the entrant's own chosen
absences (a round missed before joining, or after withdrawing) rather than a real opponent, where
there is one (16.5).

>>> rows = standings(["Anna", "Bruno"], [("Anna", "Bruno", 11, 7, "Bruno")])
>>> [(row.entrant, row.match_points, row.decided_by) for row in rows]
[('Bruno', 2, None), ('Anna', 0, 'points')]
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Generic, TypeVar

WIN_POINTS = 2
DRAW_POINTS = 1

# An entrant: whatever names one (the model's index in its entry list, a test's name).
E = TypeVar("E", bound=Hashable)

Game = tuple[E, E, int, int, E | None]   # a, b, scored_a, scored_b, winner

# Every tie-break in the order of FIDE's lists; each format's own order below.
TIE_BREAKS = ("points", "buchholz_cut1", "buchholz", "head_to_head", "sonneborn_berger",
              "difference", "scored", "entry_order")
ORDERS = {
    "swiss": ("points", "buchholz_cut1", "buchholz", "head_to_head", "difference", "scored",
              "entry_order"),
    "round-robin": ("points", "head_to_head", "sonneborn_berger", "difference", "scored",
                    "entry_order"),
    "knockout": ("points", "difference", "scored", "entry_order"),
}

# What a round without a game is, and whether it counts as a game won (a bye; a forfeit win, the
# opponent having withdrawn) or was the entrant's own choice (C.07, 16.1: a round missed before
# joining, or after withdrawing).
UNPLAYED = {"bye": "won", "walkover": "won", "missed": "chosen", "left": "chosen", "withdrawn": "chosen"}


@dataclass(frozen=True)
class Unplayed(Generic[E]):
    """A round ``entrant`` did not play, and the match points it gave them.

    ``kind``: "bye" (the pairing's bye: a win), "walkover" (a forfeit win: the opponent,
    ``opponent``, withdrew before their game was played), "missed" (a late entrant's round before
    joining: the points the organiser gave for it), "left" (the table the entrant withdrew from
    before it was played: a forfeit loss), "withdrawn" (a round after withdrawing, not paired).
    """

    entrant: E
    round: int
    kind: str = "bye"
    points: int = WIN_POINTS
    opponent: E | None = None


@dataclass
class Row(Generic[E]):
    """One entrant's line in the standings.

    ``buchholz`` and ``buchholz_cut1`` are None outside a Swiss, ``sonneborn_berger`` outside a
    round robin; ``head_to_head`` is the entrant's points against the others level with them,
    where head-to-head applied (every two of them met), else None. ``decided_by`` names the
    criterion that put this row below the row above it (one of TIE_BREAKS), None for the first
    row. ``tie_break`` is what the pages say of it: ``decided_by`` where a tie-break, not the
    match points, put this row below the one above after one of the two has played; None
    otherwise (before any game every row is below the one above by its entry order alone, which
    tells nothing).
    """

    entrant: E
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    scored: int = 0
    conceded: int = 0
    difference: int = 0
    buchholz: int | None = None
    buchholz_cut1: int | None = None
    sonneborn_berger: int | None = None
    head_to_head: Fraction | None = None
    withdrawn: bool = False
    decided_by: str | None = None
    tie_break: str | None = None


def standings(entrants: Sequence[E], games: Sequence[Game[E]],
              unplayed: Sequence[Unplayed[E] | tuple[E, int]] = (), *, format: str = "round-robin",
              rounds: int | None = None, withdrawn: Collection[E] = ()) -> list[Row[E]]:
    """The standings, best first, from finished games and unplayed rounds.

    ``entrants`` in the order typed (the last tie-break); ``games`` as ``(a, b, scored_a,
    scored_b, winner)``, ``winner`` None for a draw; ``unplayed`` the rounds without a game (a
    pair ``(entrant, round)`` is a bye); ``format`` picks the tie-breaks (ORDERS); ``rounds``,
    the rounds played so far, bounds an unplayed round's worth in the Buchholz (by default the
    most any entrant has behind them); ``withdrawn`` marks rows.

    A bye or a walkover counts as a game won (2 match points, ``played``, ``won`` and ``byes``)
    and adds no points scored or conceded; any other unplayed round gives its points only.
    """
    if format not in ORDERS:
        raise ValueError(f"no such format: {format!r}")
    rows = {e: Row(e, withdrawn=e in withdrawn) for e in entrants}
    met: dict[frozenset[E], list[Game[E]]] = {}
    faced: dict[E, list[tuple[E, int]]] = {e: [] for e in entrants}   # opponent, points
    absent: dict[E, list[Unplayed[E]]] = {e: [] for e in entrants}
    for game in games:
        _count_game(rows, game)
        a, b, _, _, winner = game
        met.setdefault(frozenset((a, b)), []).append(game)
        for me, other in ((a, b), (b, a)):
            faced[me].append((other, _points(me, winner)))
    for given in unplayed:
        absence = given if isinstance(given, Unplayed) else Unplayed(*given)
        _count_unplayed(rows, absence)
        absent[absence.entrant].append(absence)
    for row in rows.values():
        row.difference = row.scored - row.conceded
    if rounds is None:
        rounds = max((len(faced[e]) + len(absent[e]) for e in entrants), default=0)
    # An opponent's points as the others see them: a withdrawn entrant draws each round after
    # leaving (C.07, 16.3.2).
    seen = {e: rows[e].match_points + DRAW_POINTS * sum(a.kind == "withdrawn" for a in absent[e])
            for e in entrants}
    for e, row in rows.items():
        def dummy(absence: Unplayed[E]) -> int:
            """An unplayed round, for the entrant's own tie-breaks: an opponent as strong as
            they are, no stronger than the one who withdrew from a forfeit (16.4.1), else at
            most a draw a round (16.4.2)."""
            if absence.kind == "walkover" and absence.opponent in seen:
                return min(row.match_points, seen[absence.opponent])
            return min(row.match_points, DRAW_POINTS * rounds)

        if format == "swiss":
            values = [seen[o] for o, _ in faced[e]] + [dummy(a) for a in absent[e]]
            chosen = [dummy(a) for a in absent[e] if UNPLAYED[a.kind] == "chosen"]
            row.buchholz = sum(values)
            row.buchholz_cut1 = row.buchholz - min(chosen or values or [0])
        if format == "round-robin":
            # A forfeit win counts as a win over an opponent no stronger than the one who
            # withdrew, as the win of whoever beat them before; a round robin's one bye each
            # adds nothing: every entrant has the same.
            row.sonneborn_berger = (sum(seen[o] * points for o, points in faced[e])
                                    + sum(dummy(a) * a.points for a in absent[e] if a.kind == "walkover"))
    ranked = _Ranking(rows, met).ranked(list(entrants), ORDERS[format])
    ordered = [rows[e] for e, _ in ranked]
    for (_, decided), row in zip(ranked, ordered):
        row.decided_by = decided
    for above, row in zip(ordered, ordered[1:]):
        if row.decided_by != "points" and (above.played or row.played):
            row.tie_break = row.decided_by
    return ordered


def _points(me: E, winner: E | None) -> int:
    return DRAW_POINTS if winner is None else WIN_POINTS if winner == me else 0


def _count_game(rows: dict[E, Row[E]], game: Game[E]) -> None:
    a, b, scored_a, scored_b, winner = game
    if a == b or a not in rows or b not in rows or winner not in (a, b, None):
        raise ValueError(f"not a game between two entrants: {(a, b, winner)!r}")
    for me, mine, theirs in ((a, scored_a, scored_b), (b, scored_b, scored_a)):
        row = rows[me]
        row.played += 1
        row.scored += mine
        row.conceded += theirs
        row.match_points += _points(me, winner)
        if winner is None:
            row.drawn += 1
        elif winner == me:
            row.won += 1
        else:
            row.lost += 1


def _count_unplayed(rows: dict[E, Row[E]], absence: Unplayed[E]) -> None:
    if absence.entrant not in rows:
        raise ValueError(f"an unplayed round for {absence.entrant!r}, who is not an entrant")
    if (absence.kind not in UNPLAYED or isinstance(absence.points, bool) or absence.points < 0
            or absence.opponent is not None and (absence.opponent not in rows or absence.opponent == absence.entrant)):
        raise ValueError(f"not an unplayed round: {absence!r}")
    row = rows[absence.entrant]
    row.match_points += absence.points
    if UNPLAYED[absence.kind] == "won":
        row.played += 1
        row.won += 1
        row.byes += 1


class _Ranking(Generic[E]):
    """The entrants' rows ranked by a format's criteria (ORDERS)."""

    def __init__(self, rows: dict[E, Row[E]], met: dict[frozenset[E], list[Game[E]]]):
        self.rows, self.met = rows, met
        self.typed = {e: i for i, e in enumerate(rows)}

    def ranked(self, group: list[E], order: Sequence[str],
               start: int = 0) -> list[tuple[E, str | None]]:
        """``group`` ranked by ``order[start:]``: each entrant with the criterion that put it
        below the one above (None for the first). A criterion that tells the group apart splits
        it into levels, best first, and each level is ranked again from that criterion on:
        head-to-head counts anew among the fewer entrants of a level (C.07, 6.2), any other
        gives each of them the same figure again and passes to the next."""
        for at in range(start, len(order)):
            figures = self.figures(order[at], group)
            if figures is None or len(set(figures.values())) < 2:
                continue
            if order[at] == "head_to_head":
                for e in group:
                    self.rows[e].head_to_head = Fraction(figures[e])    # a Fraction already (figures)
            ranked: list[tuple[E, str | None]] = []
            for level in sorted(set(figures.values()), reverse=True):
                part = self.ranked([e for e in group if figures[e] == level], order, at)
                ranked += [(part[0][0], order[at] if ranked else part[0][1]), *part[1:]]
            return ranked
        return [(e, None) for e in group]

    def figures(self, name: str, group: list[E]) -> dict[E, Fraction | int] | None:
        """Each entrant's figure for one criterion, the higher the better; None where it does not
        apply (head-to-head among entrants not all of whom met)."""
        if name == "head_to_head":
            if any(frozenset(pair) not in self.met for pair in combinations(group, 2)):
                return None
            return {e: sum((self.against(e, o) for o in group if o != e), Fraction(0)) for e in group}
        if name == "entry_order":
            return {e: -self.typed[e] for e in group}
        field = "match_points" if name == "points" else name
        return {e: getattr(self.rows[e], field) or 0 for e in group}

    def against(self, me: E, other: E) -> Fraction:
        """My points against ``other``: the average of our games, if we met more than once
        (C.07, 6.1.2)."""
        games = self.met[frozenset((me, other))]
        return Fraction(sum(_points(me, game[4]) for game in games), len(games))
