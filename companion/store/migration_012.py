"""Migration 12, frozen (issue 44): its SQL, which imports nothing the live code changes."""

from __future__ import annotations

import sqlite_utils


def m012_organiser_and_player_changes(db: sqlite_utils.Database) -> None:
    # organiser_phones: the phones that opened the organiser's link (or typed its code), each by
    # the hash of the random key its cookie carries, until it logs out; kept in the store so a
    # restart with a fresh code does not log the organiser's phone out in the middle of a night.
    # player_changes: every rename and merge, with what it moved (details: the seats that were
    # the merged player's, the players merged into it before, the tournaments' entrants it
    # renamed), so it can be shown on the player's page and undone.
    # matches.trash: a match deleted in the last day keeps its row whole, its hands marked
    # deleted with it; its seats (out of every record) and the ids of those hands wait here
    # until the organiser brings it back, or the day is over.
    db.table("organiser_phones").create({"key_hash": str, "created": str}, pk="key_hash",
                                  not_null={"created"})
    db.table("player_changes").create({"id": int, "kind": str, "player_id": int, "into_id": int,
                                 "old_name": str, "new_name": str, "details": str,
                                 "created": str, "undone": str},
                                pk="id", not_null={"kind", "player_id", "old_name", "new_name",
                                                   "details", "created"})
    db.table("player_changes").create_index(["player_id", "id"])
    db.table("player_changes").create_index(["into_id", "id"])
    db.table("matches").add_column("trash", str)
