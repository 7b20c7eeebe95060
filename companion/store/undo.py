"""Undoing a delete: hands deleted a moment ago brought back, with their ids and entries.

A deleted hand's row stays, marked deleted (``matches.delete_hands``), and keeps its place in
the order of play (its ``number``), so clearing the mark puts it back where it was. An undo is
made from the match's version the delete left: any other change since (another phone's hand,
an edit) refuses it, since the hands brought back would then land in a match the player did not
see.
"""

from __future__ import annotations

from typing import Iterable

import sqlite_utils

from .db import MakeLedger, writing
from .matches import Conflict, Gone, _resettle, hand_row, match_version


def restore_hands(db: sqlite_utils.Database, match_id: int, hand_ids: Iterable[int],
                  version: int, ledger: MakeLedger) -> None:
    """Bring back deleted hands if the match is still at ``version`` (the one their delete
    left), all or none, the match's summary worked out again (``ledger``, the model's).

    Conflict (with the first hand's row) if the match changed since; Gone if the match or a hand
    is not there. Hands already back (an Undo sent twice) are left as they are: done once."""
    with writing(db):
        rows = [hand_row(db, match_id, hand_id) for hand_id in hand_ids]
        if not rows or None in rows:
            raise Gone(match_id)
        deleted = [row for row in rows if row["deleted"]]
        if not deleted:
            return
        now_at = match_version(db, match_id)
        if now_at is None:
            raise Gone(match_id)
        if now_at != version:
            raise Conflict(rows[0])
        for row in deleted:
            db.execute("UPDATE hands SET deleted = NULL, version = version + 1 WHERE id = ?",
                       [row["id"]])
        _resettle(db, match_id, ledger)
