"""Benchmark of a Swiss round's pairing: the slowest and the median round for 16 to 64 entrants.

Run: .venv/bin/python tests/benchmarks/bench_pairing.py
Not part of the test run; it prints figures and asserts nothing about speed (the suite checks
only what the pairing decides: tests/tournaments/test_pairing.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.tournaments.pairing import swiss_round


def rounds_of(n: int, rounds: int, seed: int) -> list[float]:
    """Each round's pairing time in seconds, over a Swiss of ``n`` entrants with random results."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0)
    played: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    times = []
    for _ in range(rounds):
        order = sorted(range(n), key=lambda e: (-points[e], e))
        start = time.perf_counter()
        pairs, bye = swiss_round(order, played, had_bye, points)
        times.append(time.perf_counter() - start)
        for a, b in pairs:
            played.add(frozenset((a, b)))
            winner = rng.choice([a, b, a, b, None])
            for e in (a, b):
                points[e] += 2 if winner == e else 1 if winner is None else 0
        if bye is not None:
            had_bye.add(bye)
            points[bye] += 2
    return times


def main() -> None:
    # --help says what it does and runs nothing (it ran the whole benchmark, issue 45).
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    print(f"{'entrants':>8} {'rounds':>6} {'median ms':>10} {'slowest ms':>10}")
    for n, rounds in [(16, 6), (32, 7), (33, 7), (64, 6)]:
        times = [t for seed in range(5) for t in rounds_of(n, rounds, seed)]
        print(f"{n:>8} {rounds:>6} {statistics.median(times) * 1000:>10.2f} {max(times) * 1000:>10.2f}")


if __name__ == "__main__":
    main()
