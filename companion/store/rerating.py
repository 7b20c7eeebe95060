"""Working the ratings out again from one match on, without holding the write lock while it is
done (issue 32: a correction of an old match re-rated every later one inside the write, and every
other phone's save waited for it).

A write that changes a finished match (or its seats, or whether it is rated) does not rate
anything itself when matches finished after it: inside its transaction it only *asks*
(``ask``), a row in ``rating_work`` naming the earliest match to rate again (none: every match),
kept with the change, so a crash between the two steps leaves the work asked, never lost: the
next write, or the next start (``store.init_app``), does it. After the write commits,
``settle_ratings`` does the work in two steps:

1. from one snapshot of the store (a read transaction: no lock, every phone saves meanwhile),
   the asks so far and the ratings from the earliest of them on are worked out (``compute``);
2. one short write transaction replaces the rating changes from that match on with the new ones
   and keeps each player's rating, and takes away the asks it answered. Asks made meanwhile stay:
   their matches are rated again in the next round (the ratings before the earliest of them,
   which the round just wrote, did not depend on them), so a round is never thrown away, however
   often old matches are changed.

A match finishing now, with no work waiting and no match finished after it, is rated at once
inside its own save (``rerate_from``): one match, as cheap as before. One thread of the process
works at a time; a thread that finds another at work leaves it the asks (it looks again after
it is done), so a phone's save never waits for another's re-rating.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from itertools import groupby
from typing import NamedTuple

from openskill.models import PlackettLuce

from .db import StorageError, Store, reading, writing

MODEL = PlackettLuce()
ALL = ""            # the scope of all variants together

Key = tuple[str, int]       # a match's place in the order of ratings: (finished, match id)
Kept = tuple[float, float, int]     # a player's mu, sigma, and matches rated

_working = threading.Lock()
_log = logging.getLogger(__name__)


class Work(NamedTuple):
    """What re-rating from ``start`` on (None: every match) worked out: the new rating changes
    and each player's rating after them (None: no rating any more)."""

    start: Key | None
    changes: list[tuple]
    finals: dict[tuple[int, str], Kept | None]


def _after(start: Key | None) -> tuple[str, list]:
    # Written so that SQLite walks the index on (finished, match_id) from ``start`` on.
    if start is None:
        return "1", []
    return "r.finished >= ? AND (r.finished > ? OR r.match_id >= ?)", [start[0], *start]


# The matches the organiser marked "not rated" left out.
_RATED_ONLY = " AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.id = r.match_id AND m.unrated = 1)"


def _latest(db: Store, player_id: int, scope: str, start: Key | None) -> Kept | None:
    """The player's rating after their last rated match before ``start``."""
    if start is None:
        return None
    row = db.execute("SELECT c.mu, c.sigma, c.matches FROM rating_changes c "
                     "JOIN rated_matches r ON r.match_id = c.match_id "
                     "WHERE c.player_id = ? AND c.variant = ? AND (r.finished < ? OR (r.finished = ? "
                     "AND r.match_id < ?)) ORDER BY r.finished DESC, r.match_id DESC LIMIT 1",
                     [player_id, scope, start[0], *start]).fetchone()
    return tuple(row) if row else None


def compute(db: Store, start: Key | None) -> Work:
    """Rate every finished match from ``start`` on (every one, if None) in the order they
    finished, reading only: the rating changes and each player's rating after them."""
    if start and db.execute("SELECT 1 FROM rated_matches WHERE finished < ? OR (finished = ? AND match_id < ?) "
                            "LIMIT 1", [start[0], *start]).fetchone() is None:
        start = None            # nothing finished before it: from scratch
    after, bound = _after(start)
    touched: set[tuple[int, str]] = {(row[0], row[1]) for row in db.execute(
        "SELECT DISTINCT player_id, variant FROM rating_changes WHERE match_id IN "
        f"(SELECT r.match_id FROM rated_matches r WHERE {after})", bound)} if start else set()
    state: dict[tuple[int, str], Kept | None] = {}

    def current(player_id: int, scope: str) -> Kept:
        """The player's rating before ``start``: kept in ``ratings`` if no match from ``start``
        on had rated them, else their last change before it."""
        if (player_id, scope) not in state:
            if not start:
                state[player_id, scope] = None
            elif (player_id, scope) in touched:
                state[player_id, scope] = _latest(db, player_id, scope, start)
            else:
                row = db.execute("SELECT mu, sigma, matches FROM ratings WHERE player_id = ? AND variant = ?",
                                 [player_id, scope]).fetchone()
                state[player_id, scope] = tuple(row) if row else None
        return state[player_id, scope] or (MODEL.mu, MODEL.sigma, 0)

    seats = db.execute(
        "SELECT r.match_id, r.places, s.side, s.player_id, s.variant FROM rated_matches r "
        f"JOIN seats s ON s.match_id = r.match_id WHERE r.places IS NOT NULL AND {after}{_RATED_ONLY} "
        "ORDER BY r.finished, r.match_id, s.side, s.seat", bound).fetchall()
    changes = []
    for match_id, grouped in groupby(seats, key=lambda row: row[0]):
        time.sleep(0)       # the other threads' turn: a phone's save never waits for the GIL
        rows = list(grouped)
        ranks = json.loads(rows[0][1])
        sides = [[player for _m, _p, s, player, _v in rows if s == side] for side in range(len(ranks))]
        if any(not side for side in sides):
            continue
        for scope in (ALL, rows[0][4]):
            before = [[current(player, scope) for player in side] for side in sides]
            teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma, _n in side] for side in before]
            after_rating = MODEL.rate(teams, ranks=ranks)
            for side, old, new in zip(sides, before, after_rating):
                for player, (mu0, sigma0, count), rating in zip(side, old, new):
                    state[player, scope] = (rating.mu, rating.sigma, count + 1)
                    changes.append((match_id, player, scope, mu0, sigma0, rating.mu, rating.sigma, count + 1))
            if scope == rows[0][4]:
                break           # a variant called "" would be all variants: rated once
    finals = {key: state[key] if key in state else _latest(db, *key, start) for key in touched | set(state)}
    return Work(start, changes, finals)


def write(db: Store, work: Work) -> None:
    """Inside a write: the rating changes from ``work.start`` on replaced by ``work``'s, and
    each player's rating kept."""
    if work.start:
        after, bound = _after(work.start)
        db.execute("DELETE FROM rating_changes WHERE match_id IN "
                   f"(SELECT r.match_id FROM rated_matches r WHERE {after})", bound)
    else:
        db.execute("DELETE FROM rating_changes")
        db.execute("DELETE FROM ratings")
    db.conn.executemany("INSERT INTO rating_changes (match_id, player_id, variant, mu_before, sigma_before, "
                        "mu, sigma, matches) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", work.changes)
    db.conn.executemany("DELETE FROM ratings WHERE player_id = ? AND variant = ?",
                        [key for key, kept in work.finals.items() if kept is None])
    db.conn.executemany("INSERT OR REPLACE INTO ratings (player_id, variant, mu, sigma, matches, ordinal) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        [(*key, mu, sigma, count, mu - 3 * sigma)
                         for key, kept in work.finals.items() if kept is not None
                         for mu, sigma, count in [kept]])


def rerate(db: Store, start: Key | None = None) -> int:
    """Inside a write: rate again every finished match from ``start`` on (every one, if None),
    there and then; returns how many matches were rated. A restore's way (every match), and a
    match finishing last's."""
    work = compute(db, start)
    write(db, work)
    return len({change[0] for change in work.changes})


def rerate_from(db: Store, start: Key | None) -> None:
    """Inside a write that changed the ratings' inputs from ``start`` on (None: all of them):
    rated at once if that is only the last match and nothing else waits, else asked for, to be
    worked out after the write (``settle_ratings``)."""
    waiting = db.execute("SELECT 1 FROM rating_work LIMIT 1").fetchone()
    if not waiting and start is not None and db.execute(
            "SELECT 1 FROM rated_matches WHERE finished > ? OR (finished = ? AND match_id > ?) LIMIT 1",
            [start[0], *start]).fetchone() is None:
        rerate(db, start)       # the last match: one match rated
        return
    db.execute("INSERT INTO rating_work (finished, match_id) VALUES (?, ?)",
               [start[0], start[1]] if start else [None, None])
    db.after_commit(settle_ratings)


def waiting(db: Store) -> bool:
    """Whether ratings are asked for and not yet worked out."""
    return db.execute("SELECT 1 FROM rating_work LIMIT 1").fetchone() is not None


def _asked(db: Store) -> tuple[list[int], Key | None] | None:
    """The asks' ids, and the earliest match asked for (None: every match); None if no ask."""
    rows = db.execute("SELECT id, finished, match_id FROM rating_work ORDER BY id").fetchall()
    if not rows:
        return None
    ids = [row[0] for row in rows]
    if any(finished is None for _id, finished, _m in rows):
        return ids, None
    return ids, min((finished, match_id) for _id, finished, match_id in rows)


def one_round(db: Store) -> bool:
    """Work out the ratings the asks so far need from one snapshot, then write them in one
    short transaction with those asks taken away. False when nothing was asked.

    The round is written only if every ask it answered is still there: another process's
    round that answered one of them since worked from a newer snapshot."""
    with reading(db):
        asked = _asked(db)
        if asked is None:
            return False
        ids, start = asked
        work = compute(db, start)
    with writing(db):
        if db.execute("SELECT COUNT(*) FROM rating_work WHERE id <= ?", [ids[-1]]).fetchone()[0] == len(ids):
            write(db, work)
            db.execute("DELETE FROM rating_work WHERE id <= ?", [ids[-1]])
    return True


def settle_ratings(db: Store) -> int:
    """Do the re-rating the writes asked for, until none waits: how many rounds this call did.
    Another thread already at it is left to it (it looks again when done). What cannot be done
    now (the store busy or failing) stays asked, for the next write or the next start."""
    rounds = 0
    try:
        while waiting(db):
            if not _working.acquire(blocking=False):
                return rounds
            try:
                while one_round(db):
                    rounds += 1
            finally:
                _working.release()
    except (StorageError, sqlite3.Error) as error:
        _log.warning("ratings left to work out later: %s", error)
    return rounds
