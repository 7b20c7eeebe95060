"""Migration 19 (issue 42), in a module of its own: a migration, once released, never changes. Frozen
in issue 44: the hands' kept points brought to the rule from the points as kept, by its own
code; the match's summary, the seats and the ratings after them are the rules of the game's and
the live code's, asked for (``ask_summaries``, m004) and kept by the start-up after the
migrations, as after an edit."""

from __future__ import annotations

import json

import sqlite_utils

from .migration_004 import ask_summaries, parsed_match

# The most Cirulla's piccola counts (RULES §11), as m021 keeps it: the live rule is scoring's.
_M021_PICCOLA_MOST = 6


def m019_cirulla_piccola_to_six(db: sqlite_utils.Database) -> None:
    # Before issue 42 Cirulla's piccola ran on from the Ace as far as the run went (to the King:
    # 10); RULES §11 stops it at the 6. A hand's kept result whose piccola counted more is
    # brought to 6 and its points with it, from the result as kept (the rest of the hand is not
    # scored again); deleted hands too, as an Undo brings them back. The summary, the players'
    # seats and the ratings follow (asked), as after an edit.
    changed_matches = []
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
            changed_matches.append(row["id"])
    ask_summaries(db, changed_matches)
