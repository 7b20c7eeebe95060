"""Tournaments: who meets whom each round, and the standings from the results (plain Python).

Three formats. A round robin (girone all'italiana) uses the Berger tables. A Swiss tournament
pairs its round 1 as the Dutch system does (the top half of the seeds against the bottom half),
then entrants on equal or nearest match points, never repeating a pair while that can be
avoided. A knockout is a seeded bracket. Pairing functions number the entrants 0..n-1. A table
is a pair ``(a, b)``; ``(a, None)`` is a bye. The first-named entrant sits first.

>>> berger_rounds(4)
[[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]
>>> knockout_first_round([10, 11, 12, 13, 14, 15])
[(10, None), (13, 14), (11, None), (12, 15)]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

Table = tuple[int, int | None]

WIN_POINTS = 2
DRAW_POINTS = 1


# Round robin ----------------------------------------------------------------------------------

def berger_rounds(n: int) -> list[list[Table]]:
    """Every round of a round robin for entrants 0..n-1, from the Berger tables.

    Everyone meets everyone once, in n - 1 rounds (even n) or n rounds (odd n). For an odd n
    a phantom entrant is added, and whoever is paired with it has the bye, so each entrant
    gets exactly one bye. A bye is listed last in its round as ``(entrant, None)``. The Berger
    order also alternates who is named first: the last entrant (even n) is named first in the
    even rounds only, and no entrant is named first more than one game more often than second.
    """
    if n < 2:
        raise ValueError("a round robin needs at least two entrants")
    size = n + n % 2            # with the phantom entrant when n is odd
    fixed = size - 1            # stays put while the others turn round it
    ring = size - 1
    rounds = []
    for r in range(size - 1):
        turn = r * (size // 2) % ring
        tables = [(turn, fixed) if r % 2 == 0 else (fixed, turn)]
        tables += [((turn + k) % ring, (turn - k) % ring) for k in range(1, size // 2)]
        games: list[Table] = [t for t in tables if n not in t]
        games += [(a if b == n else b, None) for a, b in tables if n in (a, b)]
        rounds.append(games)
    return rounds


# Swiss -----------------------------------------------------------------------------------------

def swiss_round(standing_order: Sequence[int], played: Collection[frozenset[int]],
                had_bye: Collection[int], points: Mapping[int, int],
                budget: int = 20_000) -> tuple[list[tuple[int, int]], int | None]:
    """Pair one Swiss round: ``(pairs, bye)``, with the bye ``None`` for an even number.

    ``standing_order`` is the current standing, best first. Entrants with the same match
    points form a score group. The bye goes to the lowest-ranked entrant who has not had one.
    If that bye would force a repeat, the next one up is tried. Once everyone has had a bye,
    the lowest-ranked entrant gets it. Everyone else is paired as follows:

    * no pair from ``played`` again, unless every pairing repeats one. Then the fewest
      repeats are allowed.
    * the fewest score-group steps between the two entrants of each pair. A pair whose
      entrants are one group apart costs 1, two groups apart costs 2. The least possible cost
      is reached when every odd group floats one entrant down to the next group.
    * among equally good pairings, the first one in standing order. The top unpaired entrant
      meets the nearest one below it (1v2, 3v4 in a score group), and the lowest of an odd group
      floats down to the top of the next group.

    The search backtracks depth first. It stops at the first pairing with that least cost,
    or after ``budget`` steps (shared by the byes tried) with the best pairing found so far.
    The result is always deterministic, and fast for 64 entrants.
    """
    order = sorted(standing_order, key=lambda e: -points.get(e, 0))   # stable: keeps the standing
    if len(order) % 2 == 0:
        pairs, _, _ = _pair_all(order, played, points, budget)
        return pairs, None
    candidates = [e for e in reversed(order) if e not in had_bye] or list(reversed(order))
    best: tuple[int, list[tuple[int, int]], int] | None = None
    for bye in candidates:
        pairs, repeats, steps = _pair_all([e for e in order if e != bye], played, points, budget)
        if best is None or repeats < best[0]:
            best = (repeats, pairs, bye)
        budget -= steps                 # one budget for all the byes tried
        if repeats == 0 or budget <= 0:
            break
    assert best is not None
    return best[1], best[2]


def swiss_first_round(seeds: Sequence[int]) -> tuple[list[tuple[int, int]], int | None]:
    """Pair a Swiss round 1 as the Dutch system does: ``(pairs, bye)``, ``seeds`` best first.

    With an odd number the lowest seed has the bye (as ``swiss_round`` gives it: the
    lowest-ranked, and no one has had one yet). The others are cut into a top half and a bottom
    half, and the top half's k-th seed meets the bottom half's k-th, named first: with eight,
    1 v 5, 2 v 6, 3 v 7, 4 v 8. The favourites meet later, if they keep winning.

    >>> swiss_first_round([0, 1, 2, 3, 4, 5, 6, 7])
    ([(0, 4), (1, 5), (2, 6), (3, 7)], None)
    >>> swiss_first_round([0, 1, 2, 3, 4, 5, 6, 7, 8])
    ([(0, 4), (1, 5), (2, 6), (3, 7)], 8)
    """
    order = list(seeds)
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    return list(zip(order[:half], order[half:])), bye


def _pair_all(order: list[int], played: Collection[frozenset[int]], points: Mapping[int, int],
              budget: int) -> tuple[list[tuple[int, int]], int, int]:
    """The best pairing of an even ``order`` (see swiss_round), its repeats and the steps spent.

    The first pairing is always completed, even past the budget.
    """
    levels = sorted({points.get(e, 0) for e in order}, reverse=True)
    group = {e: levels.index(points.get(e, 0)) for e in order}
    least = _float_bound(order, group)
    best: list = []                     # [repeats, cost, pairs] once a pairing is complete
    steps = 0

    def search(rest: list[int], pairs: list[tuple[int, int]], repeats: int, cost: int) -> bool:
        """Extend ``pairs``; True once a pairing that can't be bettered has been found."""
        nonlocal steps
        steps += 1
        if not rest:
            if not best or (repeats, cost) < (best[0], best[1]):
                best[:] = [repeats, cost, pairs]
            return best[0] == 0 and best[1] == least
        if best and ((repeats, cost + _float_bound(rest, group)) >= (best[0], best[1])
                     or steps >= budget):
            return False
        top, others = rest[0], rest[1:]
        ranked = sorted(range(len(others)), key=lambda i: (frozenset((top, others[i])) in played, i))
        for i in ranked:
            other = others[i]
            if search(others[:i] + others[i + 1:], pairs + [(top, other)],
                      repeats + (frozenset((top, other)) in played),
                      cost + group[other] - group[top]):
                return True
        return False

    search(order, [], 0, 0)
    return best[2], best[0], steps


def _float_bound(rest: list[int], group: Mapping[int, int]) -> int:
    """The least score-group steps any pairing of ``rest`` (in group order) costs.

    Where an odd number of entrants sit above a boundary between two groups, some pair must
    cross that boundary.
    """
    return sum(group[rest[i]] - group[rest[i - 1]]
               for i in range(1, len(rest), 2) if group[rest[i]] != group[rest[i - 1]])


# Knockout -------------------------------------------------------------------------------------

def seeding_order(size: int) -> list[int]:
    """Seeds 1..size in bracket order, so seeds 1 and 2 can meet only in the final.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(entrants: Sequence[int], rng: random.Random | None = None) -> list[Table]:
    """Round one of a knockout: ``entrants`` in seed order (seed 1 first), or drawn with ``rng``.

    The bracket is filled up to the next power of two with byes. Seed k meets seed size+1-k,
    so the byes go to the top seeds. Each table names the better seed first.
    """
    seeded = list(entrants)
    if len(seeded) < 2:
        raise ValueError("a knockout needs at least two entrants")
    if rng is not None:
        rng.shuffle(seeded)
    size = 1 << (len(seeded) - 1).bit_length()
    at = [seeded[s - 1] if s <= len(seeded) else None for s in seeding_order(size)]
    return [(at[i], at[i + 1]) for i in range(0, size, 2)]  # type: ignore[misc]


def knockout_next_round(tables: Sequence[Table], winners: Sequence[int | None]) -> list[Table]:
    """The next round: the winners of tables 1 and 2 meet, then those of 3 and 4, and so on.

    ``winners`` has one entry per table. The match's own tie rule settles a tie before the
    winner is given here. A bye's winner may be given as None.
    """
    if len(tables) < 2:
        raise ValueError("the final has no next round: its winner is the champion")
    through = _winners(tables, winners)
    return [(through[i], through[i + 1]) for i in range(0, len(through), 2)]


def knockout_champion(final: Sequence[Table], winners: Sequence[int | None]) -> int:
    """The champion: the winner of the final, the round with one table."""
    if len(final) != 1:
        raise ValueError("only the final, a round of one table, gives the champion")
    return _winners(final, winners)[0]


def _winners(tables: Sequence[Table], winners: Sequence[int | None]) -> list[int]:
    if len(winners) != len(tables):
        raise ValueError("one winner per table")
    through = []
    for (a, b), winner in zip(tables, winners):
        if b is None:
            winner = a if winner is None else winner
        if winner not in (a, b) or winner is None:
            raise ValueError(f"{winner!r} did not play at table {(a, b)!r}")
        through.append(winner)
    return through


# Standings ------------------------------------------------------------------------------------

Game = tuple[Hashable, Hashable, int, int, Hashable | None]   # a, b, scored_a, scored_b, winner
TIE_BREAKS = ("points", "head_to_head", "difference", "scored", "buchholz", "seed")


@dataclass
class Row:
    """One entrant's line in the standings.

    ``head_to_head`` holds the match points earned in the mini-league of the entrants level on
    match points. ``buchholz`` is None outside a Swiss. ``decided_by`` names the criterion that
    put this row below the row above it (one of TIE_BREAKS), or None for the first row.
    ``tie_break`` is what the pages say of it: ``decided_by`` where a tie-break, not the match
    points, put this row below the one above after one of the two has played; None otherwise.
    Before any game every row is below the one above by its seed alone, which tells nothing.
    """

    entrant: Hashable
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
    head_to_head: int = 0
    decided_by: str | None = None
    tie_break: str | None = None


def standings(entrants: Sequence[Hashable], games: Sequence[Game],
              byes: Sequence[tuple[Hashable, int]] = (), *, swiss: bool = False) -> list[Row]:
    """The standings, best first, from finished games and byes.

    A win earns 2 match points, a draw (``winner`` None) 1 each, a loss 0. A bye counts as a
    win: 2 match points, one more game ``played`` and ``won`` (``byes`` counts them too). It
    adds nothing to the points scored or conceded. A bye's round is the caller's record and
    is not used here.

    Entrants are ranked by match points, then by these tie-breaks in order:

    * head-to-head. This is the match points earned in the games played among exactly the
      entrants level on match points (a mini-league), counting only games that exist. It is
      applied once, not again within a smaller group it leaves level.
    * difference between points scored and conceded, in all games.
    * points scored.
    * Buchholz, for ``swiss`` only: the sum of the final match points of every opponent met.
      A bye adds nothing.
    * the entrant's place in ``entrants`` (the seed), so no two rows are ever level.

    Each tie-break is applied only among the rows that all earlier criteria leave level.
    """
    seed = {e: i for i, e in enumerate(entrants)}
    rows = {e: Row(e) for e in entrants}
    opponents: dict[Hashable, list[Hashable]] = {e: [] for e in entrants}
    for a, b, scored_a, scored_b, winner in games:
        if a == b or a not in rows or b not in rows or winner not in (a, b, None):
            raise ValueError(f"not a game between two entrants: {(a, b, winner)!r}")
        for me, other, mine, theirs in ((a, b, scored_a, scored_b), (b, a, scored_b, scored_a)):
            row = rows[me]
            row.played += 1
            row.scored += mine
            row.conceded += theirs
            if winner is None:
                row.drawn += 1
                row.match_points += DRAW_POINTS
            elif winner == me:
                row.won += 1
                row.match_points += WIN_POINTS
            else:
                row.lost += 1
            opponents[me].append(other)
    for entrant, _round in byes:
        if entrant not in rows:
            raise ValueError(f"a bye for {entrant!r}, who is not an entrant")
        row = rows[entrant]
        row.played += 1
        row.won += 1
        row.byes += 1
        row.match_points += WIN_POINTS
    for row in rows.values():
        row.difference = row.scored - row.conceded
        if swiss:
            row.buchholz = sum(rows[o].match_points for o in opponents[row.entrant])
    for a, b, _, _, winner in games:               # the mini-league among those level on points
        if rows[a].match_points == rows[b].match_points:
            if winner is None:
                rows[a].head_to_head += DRAW_POINTS
                rows[b].head_to_head += DRAW_POINTS
            else:
                rows[winner].head_to_head += WIN_POINTS

    def key(row: Row) -> tuple[int, ...]:
        return (-row.match_points, -row.head_to_head, -row.difference, -row.scored,
                -(row.buchholz or 0), seed[row.entrant])

    ordered = sorted(rows.values(), key=key)
    for above, row in zip(ordered, ordered[1:]):
        row.decided_by = next(name for name, x, y in zip(TIE_BREAKS, key(above), key(row)) if x != y)
        if row.decided_by != "points" and (above.played or row.played):
            row.tie_break = row.decided_by
    return ordered
