"""Migration 16, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m016_chances_as_the_round_started(db: sqlite_utils.Database) -> None:
    # tournament_tables.chances: each side's chance to win as its round started (a JSON list,
    # from the ratings then), what the pages show until the table begins: a result or a
    # correction elsewhere, once the round is paired, moves the ratings but not a table's odds.
    # A table paired before this migration has none, and shows none.
    db.table("tournament_tables").add_column("chances", str)
