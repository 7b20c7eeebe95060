"""Migration 10, frozen (issue 44): every player's key worked out again (``migration_names``'
copy of the key, never the live one)."""

from __future__ import annotations

import sqlite_utils

from .migration_names import name_key


def m010_tidy_name_keys(db: sqlite_utils.Database) -> None:
    # A player's key now ignores what shows as nothing and how an accent was typed
    # (names.tidy): each player's key is worked out again. Two players whose keys would now be
    # one ("Anna" and "An\u200bna") keep their own, and stay two players until merged.
    for player_id, name in list(db.execute("SELECT id, name FROM players WHERE merged_into IS NULL")):
        key = name_key(name)
        if not db.execute("SELECT 1 FROM players WHERE key = ? AND merged_into IS NULL AND id != ?",
                          [key, player_id]).fetchone():
            db.execute("UPDATE players SET key = ? WHERE id = ?", [key, player_id])
