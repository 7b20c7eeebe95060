"""Migration 15, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m015_rating_work_and_unrated(db: sqlite_utils.Database) -> None:
    # rating_work: the re-rating a write asked for, from one match on (finished, match_id; both
    # NULL: every match), done after the write, outside its lock (store.rerate), and taken away
    # once done; kept in the store, so work a crash interrupted is done at the next start.
    # matches.unrated: the organiser left the match out of the ratings (1); every match is rated
    # until then.
    db.table("rating_work").create({"id": int, "finished": str, "match_id": int}, pk="id")
    db.table("matches").add_column("unrated", int, not_null_default=0)
