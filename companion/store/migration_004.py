"""Migration 4, frozen (issue 44): each hand's points and each match's summary kept. The store's
reads and writes it needs are copied here as they were when it was frozen, and later migrations
that rescore or resummarise matches import them from here, where they never change; scoring a
hand and summing a match up are the rules of the game, which the store does not own: the model's
``Ledger`` is handed in (``ledger``) to do them, as at every save."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from .ledger import MakeLedger


def parsed_match(row: dict[str, Any]) -> dict[str, Any]:
    """A match's row with its JSON columns read: rules, sides and summary."""
    return {**row, "rules": json.loads(row["rules"]), "sides": json.loads(row["sides"]),
            "summary": json.loads(row["summary"]) if row.get("summary") else None}


def hand_rows(db: sqlite_utils.Database, match_id: int) -> list[dict[str, Any]]:
    """The match's hands in the order they were played, deleted ones left out."""
    return list(db.query(
        "SELECT * FROM hands WHERE match_id = ? AND deleted IS NULL ORDER BY number", [match_id]))


def set_summary(db: sqlite_utils.Database, match_id: int, summary: dict[str, Any]) -> None:
    """The match's summary kept, and its version bumped."""
    db.execute("UPDATE matches SET version = version + 1, summary = ?, over = ? WHERE id = ?",
               [json.dumps(summary), int(summary["over"]), match_id])


def rescore(db: sqlite_utils.Database, ledger: MakeLedger, row: dict[str, Any]) -> None:
    """Each counted hand of the match scored afresh and its result kept: for a migration that
    changes what a result keeps."""
    for hand_id, result in ledger(row).rescored(hand_rows(db, row["id"])):
        db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(result), hand_id])


def m004_results_and_summaries(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # result: a hand's points, worked out when it is saved, so that showing a match adds up
    # stored points instead of scoring every hand again. summary and over: the match's outcome
    # kept in its row, so that listing thousands of matches reads no hands, and a save checks
    # the match's state from one row.
    db.table("hands").add_column("result", str)
    db.table("matches").add_column("summary", str)
    db.table("matches").add_column("over", int, not_null_default=0)
    db.table("matches").create_index(["over", "id"])
    for row in list(db.query("SELECT * FROM matches")):
        rescore(db, ledger, parsed_match(row))
        set_summary(db, row["id"], ledger(parsed_match(row)).after_change(hand_rows(db, row["id"])))
