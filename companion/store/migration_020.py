"""Migration 20 (issue 41, a guest's costliest requests), in a module of its own, as every
migration is: once released, it never changes."""

from __future__ import annotations

import sqlite_utils


def m020_matches_versions_indexed(db: sqlite_utils.Database) -> None:
    # The lists that keep each match's worked-out line per version (store.built.each_match: the
    # CSV of every match, the API's list of matches) read the ids and versions of the matches
    # not deleted: without an index that holds them, every row of matches was read whole (their
    # rules and summaries, 1 KB each: 6 MB at 5,000 matches) at every request.
    db.table("matches").create_index(["deleted", "id", "version"])
