"""Migration 5, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import secrets

import sqlite_utils


def m005_access_keys(db: sqlite_utils.Database) -> None:
    # access_key: what a phone that entered the PIN keeps in its cookie, random for each match,
    # so a phone unlocked for match 3 of one store is not for match 3 of a restored or other one.
    db.table("matches").add_column("access_key", str)
    for (match_id,) in db.execute("SELECT id FROM matches").fetchall():
        db.execute("UPDATE matches SET access_key = ? WHERE id = ?", [secrets.token_urlsafe(16), match_id])
