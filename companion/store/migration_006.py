"""Migration 6, frozen (issue 44): every match's summary worked out again, through the model's
``Ledger``, handed in (the rules of the game are the model's)."""

from __future__ import annotations

import sqlite_utils

from .ledger import MakeLedger
from .migration_004 import hand_rows, parsed_match, set_summary


def m006_outcomes_in_any_language(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # A match's outcome is kept as what was said with its figures, not as English text, so
    # that every phone reads it in its own language: the summaries are worked out again.
    for row in list(db.query("SELECT * FROM matches")):
        set_summary(db, row["id"], ledger(parsed_match(row)).after_change(hand_rows(db, row["id"])))
