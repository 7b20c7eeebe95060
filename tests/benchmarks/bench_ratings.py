"""Ratings benchmark (issue 24): rating a club's whole history from scratch, and the re-rating a
write does after it.

Run: .venv/bin/python tests/benchmarks/bench_ratings.py [--matches 5000] [--repeat 3]

On a fresh store it writes ``--matches`` finished matches among 40 players straight into the
tables the ratings read (seats and rated_matches: a mix of two players, three, and two teams of
two, in four variants), then prints the median time of:

- ``store.rerate`` from scratch: every match rated again, in the order they finished (what
  migration 13 does to an existing store, and the worst a write could ever cost);
- a match finishing now (``settle``: the last in the order, one match rated);
- a correction of the first match ever finished (every match after it rated again: the worst
  case of an edit or a delete).

It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion import create_app, store
from companion.store.ratings import settle

VARIANTS = ("classica", "scopone", "re-bello", "cirulla")


def fill(db, count: int, rng: random.Random) -> None:
    """``count`` finished matches, straight into the tables the ratings read."""
    with store.writing(db):
        for number in range(40):
            db["players"].insert({"name": f"Player {number}", "key": f"player {number}", "created": "2026-01-01"})
        for match_id in range(1, count + 1):
            shape = match_id % 3        # 2 players, 3 players, 2 teams of 2
            sides = [[p] for p in rng.sample(range(1, 41), 2 if shape == 0 else 3)] if shape < 2 else \
                [list(pair) for pair in zip(*[iter(rng.sample(range(1, 41), 4))] * 2)]
            variant = "scopone" if shape == 2 else rng.choice(VARIANTS)
            db["matches"].insert({"id": match_id, "created": "2026-01-01", "rules": "{}", "sides": "[]",
                                  "first_dealer": 0, "over": 1})
            for side, players in enumerate(sides):
                for seat, player in enumerate(players):
                    db["seats"].insert({"match_id": match_id, "side": side, "seat": seat, "player_id": player,
                                        "variant": variant, "over": 1})
            places = list(range(1, len(sides) + 1))
            rng.shuffle(places)
            db["rated_matches"].insert({"match_id": match_id, "finished": f"2026-01-01T00:00:{match_id:07d}",
                                        "places": json.dumps(places)})


def timed(call, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "bench", "DATABASE": str(Path(folder) / "ratings.sqlite")})
        with app.app_context():
            db = store.get_db()
            fill(db, args.matches, random.Random(24))

            def from_scratch():
                with store.writing(db):
                    return store.rerate(db)

            rated = from_scratch()
            scratch = timed(from_scratch, args.repeat)
            changes = db.execute("SELECT COUNT(*) FROM rating_changes").fetchone()[0]
            last = args.matches

            def finishing():       # the last match, finished again with other places
                with store.writing(db):
                    db.execute("UPDATE rated_matches SET places = NULL WHERE match_id = ?", [last])
                    db.execute("DELETE FROM rating_changes WHERE match_id = ?", [last])
                    db.execute("DELETE FROM rated_matches WHERE match_id = ?", [last])
                    settle(db, last, {"over": True, "winner": 0, "totals": [11, 5, 3][:len(sides(last))]})

            def sides(match_id):
                return {row[0] for row in db.execute("SELECT side FROM seats WHERE match_id = ?", [match_id])}

            finish = timed(finishing, max(args.repeat, 10))
            flip = [0]

            def correcting():       # the first match's places changed: everything after it again
                flip[0] ^= 1
                totals = [11, 5, 3][:len(sides(1))]
                with store.writing(db):
                    settle(db, 1, {"over": True, "winner": flip[0], "totals": totals})

            correct = timed(correcting, args.repeat)
    print(f"{rated} matches rated ({changes} rating changes kept: all variants and each match's own)")
    print(f"from scratch                 {scratch:9.1f} ms  ({scratch / rated * 1000:.0f} µs a match)")
    print(f"a match finishing now        {finish:9.1f} ms")
    print(f"the first match corrected    {correct:9.1f} ms  (every later match rated again)")


if __name__ == "__main__":
    main()
