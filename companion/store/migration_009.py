"""Migration 9, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m009_tournaments(db: sqlite_utils.Database) -> None:
    # A tournament: its rules and entrants (a player, or a pair of players, each {name,
    # players}), its format and, for a Swiss, the rounds to play. Its rounds and their tables:
    # each table is an ordinary match (tournament_tables.match_id) between two entrants, by
    # their number in the tournament's list; a round's byes are kept with it. Standings are
    # worked out from the tables' matches, never stored.
    db.table("tournaments").create({"id": int, "created": str, "name": str, "format": str, "rules": str,
                              "entrants": str, "rounds": int, "seeding": str, "pin_hash": str,
                              "version": int},
                             pk="id", not_null={"created", "name", "format", "rules", "entrants"},
                             defaults={"version": 0})
    # slots: the round's tables and byes in bracket order (a knockout's next round pairs the
    # winners of neighbouring slots): [{"table": 1}, {"bye": 4}, ...].
    db.table("tournament_rounds").create({"tournament_id": int, "number": int, "byes": str, "slots": str,
                                    "created": str},
                                   pk=("tournament_id", "number"),
                                   foreign_keys=[("tournament_id", "tournaments", "id")])
    db.table("tournament_tables").create({"tournament_id": int, "round": int, "number": int,
                                    "match_id": int, "first": int, "second": int},
                                   pk=("tournament_id", "round", "number"),
                                   foreign_keys=[("tournament_id", "tournaments", "id"),
                                                 ("match_id", "matches", "id")])
    db.table("tournament_tables").create_index(["match_id"])
