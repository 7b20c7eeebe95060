"""Tournaments: who meets whom each round (plain Python; the standings are ``standings``).

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
from collections.abc import Collection, Mapping, Sequence

Table = tuple[int, int | None]


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

    ``standing_order`` ranks entrants with the same match points, best first: the model gives
    their seeds, as FIDE's Dutch system ranks a score group by pairing number, never by a
    tie-break. Entrants with the same match points form a score group, in that order. The bye
    goes to the lowest-ranked entrant who has not had one. If that bye would force a repeat,
    the next one up is tried. Once everyone has had a bye,
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
    order = sorted(standing_order, key=lambda e: -points.get(e, 0))   # stable: keeps the order given
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
