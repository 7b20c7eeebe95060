"""Ratings benchmark (issue 24): rating a club's whole history from scratch, and the re-rating a
write does after it.

On a fresh store it writes ``--matches`` finished matches among 40 players straight into the
tables the ratings read (seats and rated_matches: a mix of two players, three, and two teams of
two, in four variants), then prints the median time of:

- ``store.rerate`` from scratch: every match rated again, in the order they finished (what
  migration 13 does to an existing store, and the worst a write could ever cost);
- a match finishing now (``settle``: the last in the order, one match rated);
- a correction of the first match ever finished (every match after it rated again: the worst
  case of an edit or a delete): the write itself, then the re-rating it asks for, done after it
  (store/rerating.py).

Then (issue 32) a phone's saves through the companion served by waitress, as the command serves
it: ``--saves`` hands posted one after the other to fresh matches, their p50 and p99, first
alone, then (for at least ``--changes`` old-match changes) while the organiser marks the first
match ever finished "not rated" and back in a loop (each change re-rates every match after it,
outside the write lock), then while the same loop re-rates inside the write lock (as every
change did before issue 32: a tenth as many saves, each of which may wait its 10 s for the lock
and fail), each as a ratio to the saves alone, in one run.

Run: .venv/bin/python tests/benchmarks/bench_ratings.py [--matches 5000] [--repeat 3]
[--saves 200] [--changes 10]

It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from companion import create_app, store
from companion.matches import Ledger
from companion.rules.rulesets import rules_from_dict
from companion.store import rerating
from companion.store.ratings import settle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))        # tests/, for helpers
from helpers import HAND, serving  # noqa: E402

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


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


class Phone:
    """A phone saving hands, one after the other, in fresh matches (made in the store: the
    saves are what is measured)."""

    def __init__(self, base: str, path: str):
        self.base, self.db, self.match = base, store.connect(path), None

    def fresh(self) -> int:
        return store.create_match(self.db, rules_from_dict({"preset": "classica"}).as_dict(),
                                  [{"name": "Dario", "players": ["Dario"]},
                                   {"name": "Elena", "players": ["Elena"]}], 0, ledger=Ledger)

    def saves(self, count: int, until=lambda: True) -> tuple[list[float], int]:
        """Each save's time, and how many failed (503: the store busy past its 10 s wait):
        ``count`` saves, and more until ``until()``."""
        samples, failed = [], 0
        while len(samples) + failed < count or not until():
            if self.match is None:
                try:
                    self.match = self.fresh()
                except store.StorageError:      # busy past its 10 s wait: counted, tried again
                    failed += 1
                    continue
            request = urllib.request.Request(f"{self.base}/api/v1/matches/{self.match}/hands",
                                             data=json.dumps(HAND).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    saved = json.load(answer)
            except urllib.error.HTTPError:
                failed += 1
                saved = None
            samples.append(time.perf_counter() - start)
            if saved and saved["match"]["outcome"]["over"]:
                self.match = None
        return samples, failed


def organiser_loop(path: str, stop: threading.Event, inside_lock: bool, done: list[int]) -> None:
    """The organiser marks the first match "not rated" and back, again and again: each change
    re-rates every match after it. ``inside_lock``: the re-rating done inside the change's own
    write, as before issue 32."""
    db = store.connect(path)
    first = tuple(db.execute("SELECT finished, match_id FROM rated_matches WHERE match_id = 1").fetchone())
    rated = False
    while not stop.is_set():
        if inside_lock:
            with store.writing(db):
                db.execute("UPDATE matches SET unrated = ? WHERE id = 1", [int(not rated)])
                rerating.rerate(db, first)
        else:
            store.set_rated(db, 1, rated)
        rated = not rated
        done[0] += 1
    db.conn.close()


def saves_beside(app, path: str, count: int, changes: int) -> list[tuple[str, list[float], int, int]]:
    """The phone's saves alone, beside the organiser's loop (at least ``changes`` changes), and
    beside the old way's loop."""
    runs = []
    with serving(app) as base:
        phone = Phone(base, path)
        phone.saves(20)         # warm: connections, the cache of built matches
        for label, loop, inside in (("alone", False, False), ("beside old-match changes", True, False),
                                    ("beside them, re-rated in the lock", True, True)):
            stop, done = threading.Event(), [0]
            worker = threading.Thread(target=organiser_loop, args=(path, stop, inside, done)) if loop else None
            if worker:
                worker.start()
                time.sleep(0.5)         # the loop under way
            try:       # the old way: fewer saves, each may wait its 10 s
                samples, failed = (phone.saves(max(10, count // 10)) if inside else
                                   phone.saves(count, lambda: not loop or done[0] >= changes))
            finally:
                stop.set()
                if worker:
                    worker.join()
            runs.append((label, samples, failed, done[0]))
        with app.app_context():
            rerating.settle_ratings(store.get_db())
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--changes", type=int, default=10)
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

            def correcting():       # the first match's places changed: only asked inside the write
                flip[0] ^= 1
                totals = [11, 5, 3][:len(sides(1))]
                with store.writing(db):
                    settle(db, 1, {"over": True, "winner": flip[0], "totals": totals})
                    db.committed()          # the re-rating it asked for left to ``settling``

            def settling():         # the re-rating it asked for: every later match again
                correcting()
                start = time.perf_counter()
                with store.reading(db):
                    asked = rerating._asked(db)
                    work = rerating.compute(db, asked[1])
                computed = time.perf_counter() - start
                with store.writing(db):
                    rerating.write(db, work)
                    db.execute("DELETE FROM rating_work")
                written.append((computed, time.perf_counter() - start - computed))

            written: list[tuple[float, float]] = []
            correct = timed(correcting, args.repeat)
            for _ in range(args.repeat):
                settling()
            compute = statistics.median(c for c, _w in written) * 1000
            write = statistics.median(w for _c, w in written) * 1000
            runs = saves_beside(app, app.config["DATABASE"], args.saves, args.changes)
    print(f"{rated} matches rated ({changes} rating changes kept: all variants and each match's own)")
    print(f"from scratch                 {scratch:9.1f} ms  ({scratch / rated * 1000:.0f} µs a match)")
    print(f"a match finishing now        {finish:9.1f} ms  (inside its save)")
    print(f"the first match corrected    {correct:9.1f} ms  (its write: the re-rating only asked for)")
    print(f"  then worked out            {compute:9.1f} ms  (from a snapshot, no lock held)")
    print(f"  then written               {write:9.1f} ms  (one write transaction)")
    print(f"A phone's saves ({args.saves} hands in fresh matches), p50 and p99:")
    alone = runs[0][1]
    for label, samples, failed, loops in runs:
        p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
        print(f"  {label:36} {len(samples):5} saves  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  "
              f"max {max(samples) * 1000:7.1f} ms  "
              f"({p50 / percentile(alone, 0.5):4.1f}x, {p99 / percentile(alone, 0.99):4.1f}x alone)"
              + (f"  {loops} old-match changes" if loops else "") + (f"  {failed} failed" if failed else ""))


if __name__ == "__main__":
    main()
