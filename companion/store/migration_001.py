"""Migration 1, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m001_matches_and_hands(db: sqlite_utils.Database) -> None:
    db.table("matches").create({
        "id": int, "created": str, "rules": str, "sides": str, "first_dealer": int,
    }, pk="id", not_null={"created", "rules", "sides", "first_dealer"})
    db.table("hands").create({
        "id": int, "match_id": int, "number": int, "entry": str, "created": str, "updated": str,
        "version": int, "key": str,
    }, pk="id", foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "number", "entry", "created", "updated", "version"},
        defaults={"version": 1})
    db.table("hands").create_index(["match_id", "number"], unique=True)
    # The one-time key of the form a hand was saved from: the same form sent twice (a double
    # tap, a retried request, two phones) finds its hand already there.
    db.table("hands").create_index(["match_id", "key"], unique=True)
