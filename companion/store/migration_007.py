"""Migration 7, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m007_rematches_archive_and_deletes(db: sqlite_utils.Database) -> None:
    # follows / followed_by: a "Rivincita" and the match it follows (the finished match's page
    # links to it). archived: kept, but out of the lists. deleted: a deleted match keeps its
    # row, emptied, so its id is never given to another match (an old link or a phone unlocked
    # for it never reaches a new one); its hands are removed.
    db.table("matches").add_column("follows", int)
    db.table("matches").add_column("followed_by", int)
    db.table("matches").add_column("archived", int, not_null_default=0)
    db.table("matches").add_column("deleted", str)
    db.table("matches").create_index(["archived", "over", "id"])
    db.table("matches").create_index(["archived", "id"])      # every match, newest first (the API)
