"""Migration 3, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m003_hand_identity(db: sqlite_utils.Database) -> None:
    # deleted: a deleted hand stays as a marked row, so its id is never reused (SQLite gives a
    # new row the largest id + 1) and a late or repeated delete cannot reach another hand.
    # previous: the entry an edit replaced, so the edit can be undone.
    db.table("hands").add_column("deleted", str)
    db.table("hands").add_column("previous", str)
