"""Migration 13, frozen (issue 44): the players' ratings, every finished match rated in the order
they finished. The places and the rating of that day are copied here (OpenSkill's
Plackett-Luce with the library's defaults, as ``store.rerating``'s), so a later change to the
live ones changes no released migration.

A match whose summary an earlier migration of the same run asked to be worked out again
(``summary_work``: a store from before m004 has none, one from before m006 or m008 an older
one) is not placed from it: its ask keeps the moment it finished as far as the store knows (its
last hand, as every other here), and the start-up, once it has worked the summary out, places it
there if it is finished, and asks for the ratings from it on."""

from __future__ import annotations

import json
from itertools import groupby
from typing import Any

import sqlite_utils
from openskill.models import PlackettLuce

from .migration_004 import asked

_MODEL = PlackettLuce()


def places(summary: dict[str, Any]) -> list[int] | None:
    """The sides' places in a finished match (1 the best), or None while it is played: the
    winner first, then the others by their totals, equal totals sharing a place.

    >>> places({"over": True, "winner": 1, "totals": [9, 11, 9]}), places({"over": False})
    ([2, 1, 2], None)
    """
    if not summary.get("over"):
        return None
    totals, winner = summary["totals"], summary.get("winner")
    first = 1 if winner is None else 2
    return [1 if side == winner else
            first + sum(1 for s, t in enumerate(totals) if s != winner and t > total)
            for side, total in enumerate(totals)]


def _rate_all(db: sqlite_utils.Database) -> None:
    """Every finished match rated, in the order they finished, for all variants together ("")
    and for the match's own; each player's rating after the last kept."""
    seats = db.execute(
        "SELECT r.match_id, r.places, s.side, s.player_id, s.variant FROM rated_matches r "
        "JOIN seats s ON s.match_id = r.match_id WHERE r.places IS NOT NULL "
        "ORDER BY r.finished, r.match_id, s.side, s.seat").fetchall()
    state: dict[tuple[int, str], tuple[float, float, int]] = {}
    changes = []
    for match_id, grouped in groupby(seats, key=lambda row: row[0]):
        rows = list(grouped)
        ranks = json.loads(rows[0][1])
        sides = [[player for _m, _p, s, player, _v in rows if s == side] for side in range(len(ranks))]
        if any(not side for side in sides):
            continue
        for scope in ("", rows[0][4]):
            before = [[state.get((player, scope), (_MODEL.mu, _MODEL.sigma, 0)) for player in side]
                      for side in sides]
            teams = [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma, _n in side] for side in before]
            for side, old, new in zip(sides, before, _MODEL.rate(teams, ranks=ranks)):
                for player, (mu0, sigma0, count), rating in zip(side, old, new):
                    state[player, scope] = (rating.mu, rating.sigma, count + 1)
                    changes.append((match_id, player, scope, mu0, sigma0, rating.mu, rating.sigma, count + 1))
            if scope == rows[0][4]:
                break           # a variant called "" would be all variants: rated once
    db.conn.executemany("INSERT INTO rating_changes (match_id, player_id, variant, mu_before, sigma_before, "
                        "mu, sigma, matches) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", changes)
    db.conn.executemany("INSERT INTO ratings (player_id, variant, mu, sigma, matches, ordinal) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        [(*key, mu, sigma, count, mu - 3 * sigma) for key, (mu, sigma, count) in state.items()])


def m013_ratings(db: sqlite_utils.Database) -> None:
    # Players' ratings (store.ratings). rated_matches: each finished match's moment and its
    # sides' places, the order the ratings follow; a match that is no longer finished keeps its
    # row without places. rating_changes: each player's mu and sigma before and after each match,
    # for all variants together (variant "") and for the match's variant. ratings: each player's
    # rating now in each of those, with mu - 3 sigma (ordinal), the leaderboard's order.
    # A store's finished matches finished, as far as it knows, with their last hand.
    db.table("rated_matches").create({"match_id": int, "finished": str, "places": str}, pk="match_id",
                               not_null={"finished"})
    db.table("rated_matches").create_index(["finished", "match_id"])
    db.table("rating_changes").create({"match_id": int, "player_id": int, "variant": str,
                                 "mu_before": float, "sigma_before": float, "mu": float,
                                 "sigma": float, "matches": int},
                                pk=("match_id", "player_id", "variant"),
                                not_null={"mu_before", "sigma_before", "mu", "sigma", "matches"})
    db.table("rating_changes").create_index(["player_id", "variant"])
    db.table("ratings").create({"player_id": int, "variant": str, "mu": float, "sigma": float,
                          "matches": int, "ordinal": float}, pk=("player_id", "variant"),
                         not_null={"mu", "sigma", "matches", "ordinal"})
    db.table("ratings").create_index(["variant", "ordinal"])
    last = "COALESCE((SELECT MAX(h.created) FROM hands h WHERE h.match_id = m.id AND h.deleted IS NULL), m.created)"
    waiting = ""
    if asked(db):           # worked out after the migrations: placed then, at this moment
        db.execute(f"UPDATE summary_work SET finished = (SELECT {last} FROM matches m "
                   "WHERE m.id = summary_work.match_id)")
        waiting = " AND m.id NOT IN (SELECT match_id FROM summary_work)"
    for match_id, summary, finished in list(db.execute(
            f"SELECT m.id, m.summary, {last} FROM matches m WHERE m.over = 1{waiting}")):
        ranks = places(json.loads(summary)) if summary else None
        if ranks:
            db.table("rated_matches").insert({"match_id": match_id, "finished": finished,
                                        "places": json.dumps(ranks)})
    _rate_all(db)
