"""Issue 41's migration, in a module of its own (``migrations.py`` lists it among the others): a
migration, once released, never changes.
"""

from __future__ import annotations

import sqlite_utils

from .db import MakeLedger


def m019_hand_changes(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # hand_changes: every change to a hand (saved, a claim, changed, replaced in a conflict,
    # deleted, brought back, undone by the organiser), when, by which phone, and the hand as it
    # was before (entry, result, deleted; NULL for a hand that was not there), written in the
    # change's own transaction (store.changes). number: the hand's place in the match then.
    # phone: the phone's number in this match, in the order phones first changed it
    # (change_phones keeps each phone's number, by a hash of its own id: the id itself, which
    # its cookie carries, is never kept). undoes: the change an undo put back.
    db["change_phones"].create({"match_id": int, "phone": str, "number": int},
                               pk=("match_id", "phone"), not_null={"number"},
                               foreign_keys=[("match_id", "matches", "id")])
    db["hand_changes"].create({"id": int, "match_id": int, "hand_id": int, "number": int,
                               "kind": str, "phone": int, "organiser": int, "api": int,
                               "created": str, "before": str, "undoes": int},
                              pk="id", not_null={"match_id", "hand_id", "number", "kind", "created"},
                              defaults={"organiser": 0, "api": 0},
                              foreign_keys=[("match_id", "matches", "id")])
    db["hand_changes"].create_index(["match_id", "id"])
