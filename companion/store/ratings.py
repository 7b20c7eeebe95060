"""Players' ratings, kept in the store: OpenSkill's Plackett-Luce model (``PlackettLuce()`` with
the library's defaults, mu 25 and sigma 25/3), so anyone can work a rating out again with the
library alone, over the finished matches in the order they finished.

- Each finished match gives its sides places: the winner first, then the other sides by their
  final totals, equal totals sharing a place (a draw is a draw). A team's place counts for each
  of its players (OpenSkill rates teams as they are).
- Ratings are kept for all variants together (``ALL``) and for each variant a player has
  played; a player is *provisional* in a scope until ``SETTLED`` finished matches there (a
  variant's rating is shown as the player's own once they have that many).
- The figure shown is the conservative one, mu - 3 sigma, on a friendly scale: ``shown``.

Tables (migration 13): ``rated_matches`` (each finished match's moment and places: the order
the ratings follow), ``rating_changes`` (each rated player's mu and sigma before and after each
match, in each scope: a player's history, a match's changes) and ``ratings`` (each player's
rating now, in each scope: the leaderboard's order). Every write that finishes, changes or
removes a finished match, or moves its seats, calls ``settle`` or ``rerate_matches``: the
matches from the earliest one changed on are rated again (a match finishing now is the last:
one match rated). ``rerate`` with no start rates every match again from scratch.
"""

from __future__ import annotations

import json
import sqlite3
from itertools import groupby
from typing import Any, Iterable, Sequence

import sqlite_utils
from openskill.models import PlackettLuce

from .db import now
from .known import known_player

MODEL = PlackettLuce()
ALL = ""            # the scope of all variants together
SETTLED = 5         # finished matches before a rating is no longer provisional
# The figure shown: 1,500 for a new player (mu - 3 sigma = 0), each unit of mu - 3 sigma worth 24
# (an advantage of 2 beta, 8.3 units, wins about 3 times in 4: some 200 points, as in chess).
BASE, SCALE = 1500, 24

# The leaderboard by rating (store.players.records): the highest mu - 3 sigma first, a player with
# none as a new one (0); the variant's rating, or all variants' ("").
BY_RATING = (" ORDER BY COALESCE((SELECT r.ordinal FROM ratings r WHERE r.player_id = p.id"
             " AND r.variant = ?), 0) DESC,")

Key = tuple[str, int]       # a match's place in the order of ratings: (finished, match id)


def shown(mu: float, sigma: float) -> int:
    """The figure a player sees: 1500 + 24 (mu - 3 sigma), rounded.

    >>> shown(25, 25 / 3)
    1500
    >>> shown(30, 2)
    2076
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


def places(summary: dict[str, Any]) -> list[int] | None:
    """The sides' places in a finished match (1 the best), or None while it is played: the
    winner first, then the others by their totals, equal totals sharing a place.

    >>> places({"over": True, "winner": 1, "totals": [9, 11, 9]})
    [2, 1, 2]
    >>> places({"over": True, "winner": None, "totals": [11, 11]})
    [1, 1]
    >>> places({"over": True, "winner": 0, "totals": [11, 12, 3]})
    [1, 2, 3]
    """
    if not summary.get("over"):
        return None
    totals, winner = summary["totals"], summary.get("winner")
    first = 1 if winner is None else 2
    # A place: after the winner, 1 + the number of other sides with more points.
    return [1 if side == winner else
            first + sum(1 for s, t in enumerate(totals) if s != winner and t > total)
            for side, total in enumerate(totals)]


# -- Kept up to date by the writes -----------------------------------------------------------------

def settle(db: sqlite_utils.Database, match_id: int, summary: dict[str, Any]) -> None:
    """After a save kept the match's summary: if whether it is over, or its places, changed,
    the ratings from this match on are worked out again. A match finishing now takes its place
    after every other; one corrected keeps the place it finished in."""
    try:
        row = db.execute("SELECT finished, places FROM rated_matches WHERE match_id = ?",
                         [match_id]).fetchone()
    except sqlite3.OperationalError as error:     # a store being migrated: m013 rates it whole
        if "no such table" in str(error):
            return
        raise
    new = places(summary)
    old = json.loads(row[1]) if row and row[1] else None
    if new == old:
        return
    if new is None:                 # no longer finished: out of the order until it ends again
        db.execute("UPDATE rated_matches SET places = NULL WHERE match_id = ?", [match_id])
        rerate(db, (row[0], match_id))
        return
    finished = row[0] if old is not None else now()
    db.execute("INSERT INTO rated_matches (match_id, finished, places) VALUES (?, ?, ?) "
               "ON CONFLICT (match_id) DO UPDATE SET finished = excluded.finished, "
               "places = excluded.places", [match_id, finished, json.dumps(new)])
    rerate(db, (finished, match_id) if old is None else (row[0], match_id))


def rerate_matches(db: sqlite_utils.Database, match_ids: Iterable[int]) -> None:
    """The seats of these matches moved (a merge, its undo, a match deleted or brought back):
    the ratings from the earliest of them on are worked out again."""
    ids = sorted(set(match_ids))
    if not ids:
        return
    first = None
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        found = db.execute(f"SELECT finished, match_id FROM rated_matches WHERE match_id IN "
                           f"({', '.join('?' * len(chunk))}) ORDER BY finished, match_id LIMIT 1",
                           chunk).fetchone()
        if found and (first is None or tuple(found) < first):
            first = tuple(found)
    if first is not None:
        rerate(db, first)


def _latest(db: sqlite_utils.Database, player_id: int, scope: str) -> tuple[float, float, int] | None:
    row = db.execute("SELECT c.mu, c.sigma, c.matches FROM rating_changes c "
                     "JOIN rated_matches r ON r.match_id = c.match_id "
                     "WHERE c.player_id = ? AND c.variant = ? "
                     "ORDER BY r.finished DESC, r.match_id DESC LIMIT 1", [player_id, scope]).fetchone()
    return tuple(row) if row else None


def rerate(db: sqlite_utils.Database, start: Key | None = None) -> int:
    """Rate again every finished match from ``start`` on (every one, if None), in the order
    they finished, and keep each player's rating; returns how many matches were rated."""
    if start and db.execute("SELECT 1 FROM rated_matches WHERE finished < ? OR (finished = ? AND match_id < ?) "
                            "LIMIT 1", [start[0], *start]).fetchone() is None:
        start = None            # nothing finished before it: from scratch
    # Written so that SQLite walks the index on (finished, match_id) from ``start`` on.
    after = "r.finished >= ? AND (r.finished > ? OR r.match_id >= ?)" if start else "1"
    bound = [start[0], *start] if start else []
    touched = {tuple(row) for row in db.execute(
        "SELECT DISTINCT player_id, variant FROM rating_changes WHERE match_id IN "
        f"(SELECT r.match_id FROM rated_matches r WHERE {after})", bound)}
    if start:
        db.execute("DELETE FROM rating_changes WHERE match_id IN "
                   f"(SELECT r.match_id FROM rated_matches r WHERE {after})", bound)
    else:
        db.execute("DELETE FROM rating_changes")
        db.execute("DELETE FROM ratings")
    state: dict[tuple[int, str], tuple[float, float, int] | None] = {}

    def current(player_id: int, scope: str) -> tuple[float, float, int]:
        """The player's rating before ``start``: kept in ``ratings`` if no match from ``start``
        on had rated them, else their last change before it."""
        if (player_id, scope) not in state:
            if not start:
                state[player_id, scope] = None
            elif (player_id, scope) in touched:
                state[player_id, scope] = _latest(db, player_id, scope)
            else:
                row = db.execute("SELECT mu, sigma, matches FROM ratings WHERE player_id = ? AND variant = ?",
                                 [player_id, scope]).fetchone()
                state[player_id, scope] = tuple(row) if row else None
        return state[player_id, scope] or (MODEL.mu, MODEL.sigma, 0)

    seats = db.execute(
        "SELECT r.match_id, r.places, s.side, s.player_id, s.variant FROM rated_matches r "
        f"JOIN seats s ON s.match_id = r.match_id WHERE r.places IS NOT NULL AND {after} "
        "ORDER BY r.finished, r.match_id, s.side, s.seat", bound)
    changes, rated = [], 0
    for match_id, rows in groupby(seats, key=lambda row: row[0]):
        rows = list(rows)
        ranks = json.loads(rows[0][1])
        sides = [[player for _m, _p, s, player, _v in rows if s == side] for side in range(len(ranks))]
        if any(not side for side in sides):
            continue
        rated += 1
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
    db.conn.executemany("INSERT INTO rating_changes (match_id, player_id, variant, mu_before, sigma_before, "
                   "mu, sigma, matches) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", changes)
    for player, scope in touched | set(state):
        kept = state.get((player, scope)) if (player, scope) in state else _latest(db, player, scope)
        if kept is None:
            db.execute("DELETE FROM ratings WHERE player_id = ? AND variant = ?", [player, scope])
        else:
            mu, sigma, count = kept
            db.execute("INSERT OR REPLACE INTO ratings (player_id, variant, mu, sigma, matches, ordinal) "
                       "VALUES (?, ?, ?, ?, ?, ?)", [player, scope, mu, sigma, count, mu - 3 * sigma])
    return rated


# -- Read -----------------------------------------------------------------------------------------

def _answer(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "rating": shown(row["mu"], row["sigma"]), "provisional": row["matches"] < SETTLED}


def new_rating() -> dict[str, Any]:
    """A player with no finished match: the model's start, provisional."""
    return {"mu": MODEL.mu, "sigma": MODEL.sigma, "matches": 0, "rating": shown(MODEL.mu, MODEL.sigma),
            "provisional": True}


def ratings_of(db: sqlite_utils.Database, player_ids: Sequence[int],
               variant: str | None = None) -> dict[int, dict[str, Any]]:
    """These players' ratings (all variants together, or one variant's), by id; a player with
    none is left out."""
    found: dict[int, dict[str, Any]] = {}
    ids = list(player_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        for row in db.query(f"SELECT player_id, mu, sigma, matches FROM ratings WHERE variant = ? "
                            f"AND player_id IN ({', '.join('?' * len(chunk))})", [variant or ALL, *chunk]):
            found[row["player_id"]] = _answer({key: row[key] for key in ("mu", "sigma", "matches")})
    return found


def rating_list(db: sqlite_utils.Database, variant: str | None = None) -> list[dict[str, Any]]:
    """Every rated player (all variants together, or one variant's), the highest mu - 3 sigma
    first."""
    return [_answer(dict(row)) for row in db.query(
        "SELECT p.id, p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.variant = ? AND p.merged_into IS NULL ORDER BY r.ordinal DESC, p.key, p.id",
        [variant or ALL])]


def rating_history(db: sqlite_utils.Database, player_id: int,
                   variant: str | None = None) -> list[dict[str, Any]]:
    """The player's rating after each finished match, in the order they finished: one point a
    match (``match``, ``finished``, ``mu``, ``sigma``, ``rating``)."""
    return [{**row, "rating": shown(row["mu"], row["sigma"])} for row in db.query(
        "SELECT c.match_id AS match, r.finished, c.mu, c.sigma FROM rating_changes c "
        "JOIN rated_matches r ON r.match_id = c.match_id WHERE c.player_id = ? AND c.variant = ? "
        "ORDER BY r.finished, r.match_id", [player_id, variant or ALL])]


def match_rating_changes(db: sqlite_utils.Database, match_id: int) -> list[dict[str, Any]]:
    """What a finished match did to each of its players' rating (all variants together), in
    their seating order: ``id``, ``name``, ``before``, ``after`` and ``change`` in the figure
    shown. Empty while the match is not rated."""
    changes = []
    for player, name, mu0, sigma0, mu, sigma in db.execute(
            "SELECT c.player_id, p.name, c.mu_before, c.sigma_before, c.mu, c.sigma FROM rating_changes c "
            "JOIN players p ON p.id = c.player_id JOIN seats s ON s.match_id = c.match_id "
            "AND s.player_id = c.player_id WHERE c.match_id = ? AND c.variant = ? ORDER BY s.side, s.seat",
            [match_id, ALL]):
        before, after = shown(mu0, sigma0), shown(mu, sigma)
        changes.append({"id": player, "name": name, "before": before, "after": after, "change": after - before})
    return changes


def chances(db: sqlite_utils.Database, sides: Sequence[Sequence[int]]) -> list[float]:
    """Each side's chance to win, from its players' ratings now (a player with none is new):
    OpenSkill's ``predict_win``; they add up to 1."""
    kept = ratings_of(db, [player for side in sides for player in side])
    teams = [[MODEL.rating(mu=kept[p]["mu"], sigma=kept[p]["sigma"]) if p in kept else MODEL.rating()
              for p in side] for side in sides]
    return list(MODEL.predict_win(teams))


def _ids_by_name(db: sqlite_utils.Database, names: Iterable[str]) -> dict[str, int]:
    """The known players of these names, as a match would seat them (a name merged into another
    player finds that one: seats.known_player)."""
    found = {name: known_player(db, name) for name in set(names)}
    return {name: player[0] for name, player in found.items() if player}


def entrant_ratings(db: sqlite_utils.Database, entrants: Sequence[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Each entrant's rating (a player's; a pair's, the mean of its two players' mu and sigma),
    by their names; None for an entrant with a player never rated."""
    ids = _ids_by_name(db, [name for entrant in entrants for name in entrant["players"]])
    kept = ratings_of(db, list(ids.values()))
    answers: list[dict[str, Any] | None] = []
    for entrant in entrants:
        rows = [kept.get(ids.get(name, 0)) for name in entrant["players"]]
        if None in rows:
            answers.append(None)
            continue
        mu = sum(row["mu"] for row in rows) / len(rows)
        sigma = sum(row["sigma"] for row in rows) / len(rows)
        answers.append({"mu": mu, "sigma": sigma, "rating": shown(mu, sigma), "ordinal": mu - 3 * sigma,
                        "provisional": any(row["provisional"] for row in rows)})
    return answers


def chances_by_name(db: sqlite_utils.Database, sides: Sequence[Sequence[str]]) -> list[float]:
    """Each side's chance to win, its players given by name (a name never seen is a new player)."""
    ids = _ids_by_name(db, [name for side in sides for name in side])
    return chances(db, [[ids.get(name, 0) for name in side] for side in sides])
