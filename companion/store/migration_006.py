"""Migration 6, frozen (issue 44): every match's summary worked out again, asked for (the rules
of the game are the live code's: the start-up works the summaries out after the migrations)."""

from __future__ import annotations

import sqlite_utils

from .migration_004 import ask_summaries


def m006_outcomes_in_any_language(db: sqlite_utils.Database) -> None:
    # A match's outcome is kept as what was said with its figures, not as English text, so
    # that every phone reads it in its own language: the summaries are worked out again.
    ask_summaries(db, [row[0] for row in db.execute("SELECT id FROM matches").fetchall()])
