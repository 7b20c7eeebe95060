"""Undoing a delete: hands deleted a moment ago brought back, with their ids and entries.

A deleted hand's row stays, marked deleted (``matches.delete_hands``), and keeps its place in
the order of play (its ``number``), so clearing the mark puts it back where it was. An undo is
made from the match's version the delete left: any other change since (another phone's hand,
an edit) refuses it, since the hands brought back would then land in a match the player did not
see.
"""

from __future__ import annotations

import json
from typing import Iterable

from .changes import By, change_row, log_change, state
from .db import Store, now, writing
from .ledger import MakeLedger
from .matches import Conflict, Gone, _resettle, hand_row, match_row, match_version


class NoSuchChange(Exception):
    """The match has no change of that number."""


def restore_hands(db: Store, match_id: int, hand_ids: Iterable[int],
                  version: int, ledger: MakeLedger, by: By | None = None) -> None:
    """Bring back deleted hands if the match is still at ``version`` (the one their delete
    left), all or none, the match's summary worked out again (``ledger``, the model's).

    Conflict (with the first hand's row) if the match changed since; Gone if the match or a hand
    is not there. Hands already back (an Undo sent twice) are left as they are: done once."""
    with writing(db):
        found = [hand_row(db, match_id, hand_id) for hand_id in hand_ids]
        rows = [row for row in found if row is not None]
        if not rows or len(rows) < len(found):
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
            log_change(db, match_id, row["id"], "restored", state(row), by)
        _resettle(db, match_id, ledger)


def undo_hand_change(db: Store, match_id: int, change_id: int, ledger: MakeLedger,
                by: By | None = None) -> int | None:
    """The organiser's undo of one change: its hand put back as it was before that change (its
    entry and result, deleted or not; a hand the change added, deleted), whatever was done to
    it since, the match's summary worked out again (``ledger``), and the undo kept as a change
    of its own (it can be undone in turn). Returns that change's id; None when the hand is
    already as it was (an undo sent twice is done once). NoSuchChange, or Gone when the match
    (deleted) or the hand (deleted for good with it) is not there."""
    with writing(db):
        change = change_row(db, match_id, change_id)
        if change is None:
            raise NoSuchChange(change_id)
        row = hand_row(db, match_id, change["hand_id"])
        if match_row(db, match_id) is None or row is None:
            raise Gone(match_id)
        now_state = state(row)
        wanted = change["before"] or {**now_state, "deleted": True}
        if wanted == now_state:
            return None
        entry = json.dumps(wanted["entry"])
        db.execute("UPDATE hands SET entry = ?, result = ?, deleted = ?, updated = ?, "
                   "previous = CASE WHEN entry = ? THEN previous ELSE entry END, "
                   "version = version + 1 WHERE id = ?",
                   [entry, json.dumps(wanted["result"]) if wanted["result"] else None,
                    (row["deleted"] or now()) if wanted["deleted"] else None, now(), entry, row["id"]])
        _resettle(db, match_id, ledger)
        return log_change(db, match_id, row["id"], "undone", now_state, by, undoes=change_id)
