"""Migration 4, frozen (issue 44): each hand's points and each match's summary kept, and the work
table through which a migration asks for them (``ask_summaries``).

Scoring a hand and summing a match up are the rules of the game, which change with the live
code: a migration that needs them does not do them, it asks. It names the matches in
``summary_work`` (with plain SQL, in its own transaction, so a stop before the work is done
leaves the work asked, never lost), and the start-up does the work after the migrations with
today's code, as a save keeps a summary (``store.migrations.settle_summaries``), then empties
the table. Later migrations that ask import ``ask_summaries`` from here, where it never changes.

The table is made by the first migration that asks, in the run that asks (a store whose
migrations ran before 22 never had it, and a backup of those levels is checked against the
schema they made: nothing here runs for a store with no match), and by migration 22 for every
store, so every store of today's level has it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

import sqlite_utils

# The work table, made by whichever comes first (``ask_summaries`` or m022) in the same words:
# the start-up's check compares the schema's text. rescore: each counted hand's points scored
# afresh too (a migration that changes what a result keeps). finished: the moment the match
# finished as far as the migrations know (m013), should the work find it finished and the
# ratings have no place for it yet; NULL: as a save places it, now.
SUMMARY_WORK = ("CREATE TABLE IF NOT EXISTS summary_work (match_id INTEGER PRIMARY KEY, "
                "rescore INTEGER NOT NULL DEFAULT 0, finished TEXT)")


def parsed_match(row: dict[str, Any]) -> dict[str, Any]:
    """A match's row with its JSON columns read: rules, sides and summary."""
    return {**row, "rules": json.loads(row["rules"]), "sides": json.loads(row["sides"]),
            "summary": json.loads(row["summary"]) if row.get("summary") else None}


def ask_summaries(db: sqlite_utils.Database, match_ids: Iterable[int], rescore: bool = False) -> None:
    """The matches' summaries (and with ``rescore`` their hands' points) asked to be worked out
    again by today's code after the migrations; asked twice, once (rescored if either asked)."""
    asks = [(match_id, int(rescore)) for match_id in match_ids]
    if not asks:
        return
    db.execute(SUMMARY_WORK)
    db.conn.executemany("INSERT INTO summary_work (match_id, rescore) VALUES (?, ?) ON CONFLICT (match_id) "
                        "DO UPDATE SET rescore = MAX(rescore, excluded.rescore)", asks)


def asked(db: sqlite_utils.Database) -> bool:
    """Whether a migration of this run asked for summaries (its work table is there)."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'summary_work'").fetchone() is not None


def m004_results_and_summaries(db: sqlite_utils.Database) -> None:
    # result: a hand's points, worked out when it is saved, so that showing a match adds up
    # stored points instead of scoring every hand again. summary and over: the match's outcome
    # kept in its row, so that listing thousands of matches reads no hands, and a save checks
    # the match's state from one row. Every match's hands scored and its summary worked out:
    # asked, for today's code to do after the migrations.
    db.table("hands").add_column("result", str)
    db.table("matches").add_column("summary", str)
    db.table("matches").add_column("over", int, not_null_default=0)
    db.table("matches").create_index(["over", "id"])
    ask_summaries(db, [row[0] for row in db.execute("SELECT id FROM matches").fetchall()], rescore=True)
