"""Benchmark of the rules engine: hands scored and capture queries answered per second.

Run: .venv/bin/python tests/benchmarks/bench_rules.py [--seconds N]
Not part of the test run; it prints figures and asserts nothing about speed. One process, so
one core.
"""

from __future__ import annotations

import argparse
import random
import time

from companion import create_app
from companion.rules import deck, legal_captures, rules_for, score_piles
from companion.rules.rulesets import CAPTURE_RULES


def deals(count: int, rng: random.Random):
    """Random finished two-side hands: a shuffled deck cut in two, with a few sweeps."""
    made = []
    for _ in range(count):
        cards = deck()
        rng.shuffle(cards)
        cut = rng.randint(12, 28)
        piles = [cards[:cut], cards[cut:]]
        made.append((piles, [rng.randint(0, 3), rng.randint(0, 3)]))
    return made


def tables(count: int, rng: random.Random):
    made = []
    for _ in range(count):
        cards = rng.sample(deck(), rng.randint(5, 9))
        made.append((cards[1:], cards[0]))     # 4 to 8 on the table, and the card played
    return made


def rate(label: str, work, items, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while True:
        for item in items:
            work(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    per_second = done / elapsed
    print(f"{label:<50} {per_second:>8,.0f} /s   ({done:,} in {elapsed:.2f} s, "
          f"{1e6 / per_second:.1f} µs each)")
    return per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each figure")
    args = parser.parse_args()
    rng = random.Random(2026)
    hands, layouts = deals(2000, rng), tables(2000, rng)

    print("Scopa companion rules engine, one core")
    for preset in ("classica", "sco-papa", "piva"):
        rules = rules_for(preset)
        rate(f"hands scored ({preset}, 2 sides)",
             lambda hand: score_piles(hand[0], hand[1], rules), hands, args.seconds)
    for capture in ("standard",) + tuple(c for c in CAPTURE_RULES if c != "standard"):
        rules = rules_for("classica", {"capture": capture})
        rate(f"capture queries ({capture}, 4-8 table cards)",
             lambda layout: legal_captures(layout[0], layout[1], rules), layouts,
             args.seconds if capture == "standard" else args.seconds / 4)
    client = create_app({"TESTING": True, "SECRET_KEY": "bench"}).test_client()
    bodies = [{"variant": "classica", "piles": [[str(c) for c in pile] for pile in piles],
               "sweeps": sweeps} for piles, sweeps in hands[:500]]
    rate("POST /api/v1/score through Flask (no network)",
         lambda body: client.post("/api/v1/score", json=body), bodies, args.seconds)
    print("aim: 20,000 hands and 10,000 capture queries a second")


if __name__ == "__main__":
    main()
