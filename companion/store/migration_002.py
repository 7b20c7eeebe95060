"""Migration 2, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m002_versions_and_pins(db: sqlite_utils.Database) -> None:
    # version: bumped by every write to a match's hands, so a phone polling the match learns
    # whether anything changed from one primary-key read. pin_hash: the edit PIN, if any.
    db.table("matches").add_column("version", int, not_null_default=0)
    db.table("matches").add_column("pin_hash", str)
