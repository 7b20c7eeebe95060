"""Migration 19 (issue 42), in a module of its own: a migration, once released, never changes. Frozen
in issue 44: the match's summary kept as m017 keeps it, its ratings asked for, never the live
code's; the summary is the model's ``Ledger``'s, handed in (the rules of the game are not the
store's)."""

from __future__ import annotations

import json

import sqlite_utils

from .ledger import MakeLedger
from .migration_004 import hand_rows, parsed_match
from .migration_017 import keep_summary

# The most Cirulla's piccola counts (RULES §11), as m021 keeps it: the live rule is scoring's.
_M021_PICCOLA_MOST = 6


def m019_cirulla_piccola_to_six(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # Before issue 42 Cirulla's piccola ran on from the Ace as far as the run went (to the King:
    # 10); RULES §11 stops it at the 6. A hand's kept result whose piccola counted more is
    # brought to 6 and its points with it, from the result as kept (the rest of the hand is not
    # scored again); deleted hands too, as an Undo brings them back. The summary, the players'
    # seats and the ratings follow (keep_summary), as after an edit.
    for row in list(db.query("SELECT * FROM matches WHERE deleted IS NULL")):
        match = parsed_match(row)
        if not match["rules"].get("grande_piccola"):
            continue
        changed = False
        for hand_id, kept in db.execute("SELECT id, result FROM hands WHERE match_id = ? AND "
                                        "result IS NOT NULL", [row["id"]]).fetchall():
            result = json.loads(kept)
            over = [max(items.get("piccola", 0) - _M021_PICCOLA_MOST, 0) for items in result.get("items") or []]
            if not any(over):
                continue
            for side, extra in enumerate(over):
                if extra:
                    result["items"][side]["piccola"] -= extra
                    result["points"][side] -= extra
            db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(result), hand_id])
            changed = True
        if changed:
            keep_summary(db, row["id"], ledger(match).after_change(hand_rows(db, row["id"])))
