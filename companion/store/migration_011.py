"""Migration 11, frozen (issue 44): which players' names each tournament's entrants hold, by
their key (``migration_names``' copy). Migration 18 indexes them again the same way."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from .migration_names import name_key


def index_entrants(db: sqlite_utils.Database, tournament_id: int,
                   entrants: list[dict[str, Any]]) -> None:
    """The keys of the names a tournament's entrants hold, in ``tournament_players``."""
    keys = {name_key(name) for e in entrants for name in (e["name"], *e["players"])}
    db.table("tournament_players").insert_all(
        ({"tournament_id": tournament_id, "key": key} for key in sorted(keys)), ignore=True)


def m011_tournament_players(db: sqlite_utils.Database) -> None:
    # Which players' names each tournament's entrants hold, by their key: a rename reads only
    # the tournaments that name the player (store.tournaments.rename_entrants). A key stays
    # after a rename: it only ever makes a rename read one tournament more.
    db.table("tournament_players").create({"tournament_id": int, "key": str},
                                    pk=("tournament_id", "key"),
                                    foreign_keys=[("tournament_id", "tournaments", "id")])
    db.table("tournament_players").create_index(["key"])
    for tournament_id, entrants in list(db.execute("SELECT id, entrants FROM tournaments")):
        index_entrants(db, tournament_id, json.loads(entrants))
