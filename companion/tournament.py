"""Tournaments: who meets whom each round, and the standings from the results (plain Python).

Three formats. A round robin (girone all'italiana) uses the Berger tables. A Swiss tournament
pairs entrants on equal or nearest match points and never repeats a pair while that can be
avoided. A knockout is a seeded bracket. Pairing functions number the entrants 0..n-1. A table
is a pair ``(a, b)``; ``(a, None)`` is a bye. The first-named entrant sits first.

>>> berger_rounds(4)
[[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]
"""

from __future__ import annotations

from collections.abc import Sequence

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
