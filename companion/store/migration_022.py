"""Migration 22 (issue 44, frozen migrations), in a module of its own: once released, it never
changes."""

from __future__ import annotations

import sqlite_utils

from .migration_004 import SUMMARY_WORK


def m022_summary_work(db: sqlite_utils.Database) -> None:
    # summary_work: the matches whose summaries (and hands' points: rescore) a migration asked
    # today's code to work out again, done by the start-up after the migrations and taken away
    # once done (store.migrations.settle_summaries). A migration of this run that asked made it
    # already (migration_004.ask_summaries); every store has it from here on, so that one made
    # today and one brought up from any level hold the same schema.
    db.execute(SUMMARY_WORK)
