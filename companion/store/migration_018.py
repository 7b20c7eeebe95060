"""Issue 41's migration, in a module of its own (``migrations.py`` lists it among the others): a
migration, once released, never changes. Frozen in issue 44: the players' key is
``migration_names``' copy, the tournaments' index m011's, never the live ones.
"""

from __future__ import annotations

import json

import sqlite_utils

from .migration_011 import index_entrants
from .migration_names import name_key


def m018_hand_changes_and_look_alikes(db: sqlite_utils.Database) -> None:
    # hand_changes: every change to a hand (saved, a claim, changed, replaced in a conflict,
    # deleted, brought back, undone by the organiser), when, by which phone, and the hand as it
    # was before (entry, result, deleted; NULL for a hand that was not there), written in the
    # change's own transaction (store.changes). number: the hand's place in the match then.
    # phone: the phone's number in this match, in the order phones first changed it
    # (change_phones keeps each phone's number, by a hash of its own id: the id itself, which
    # its cookie carries, is never kept). undoes: the change an undo put back.
    db.table("change_phones").create({"match_id": int, "phone": str, "number": int},
                               pk=("match_id", "phone"), not_null={"number"},
                               foreign_keys=[("match_id", "matches", "id")])
    db.table("hand_changes").create({"id": int, "match_id": int, "hand_id": int, "number": int,
                               "kind": str, "phone": int, "organiser": int, "api": int,
                               "created": str, "before": str, "undoes": int},
                              pk="id", not_null={"match_id", "hand_id", "number", "kind", "created"},
                              defaults={"organiser": 0, "api": 0},
                              foreign_keys=[("match_id", "matches", "id")])
    db.table("hand_changes").create_index(["match_id", "id"])
    _look_alikes(db)


def _look_alikes(db: sqlite_utils.Database) -> None:
    # A player's key now says which names a human reads as one (names.name_key: UTS #39's
    # skeleton, what shows as nothing left out): "\u0410nna" (a Cyrillic А), "Anna" + U+FE0F and
    # "An\u034fna" are Anna. Every key is worked out again by that key (migration_names' copy
    # of names.name_key: a later change of the live one comes with a migration of its own), and
    # so are the tournaments' index of the names their entrants hold.
    # Players who are now one name are flagged, not merged: the first made keeps the key, and
    # each later one keeps its records, a key no name typed can give (its old key, a line
    # break and its id) and looks_like, the first one's id, which its page shows the
    # organiser, who merges them if they are one person. A merge here would be one the
    # organiser cannot see coming: it moves a record and a rating onto another player, and
    # two people who sat at one match ("Anna" and her look-alike, a spammer's) cannot be
    # merged at all.
    db.table("players").add_column("looks_like", int)
    active = list(db.execute("SELECT id, name, key FROM players WHERE merged_into IS NULL ORDER BY id"))
    first: dict[str, int] = {}
    for player_id, name, _old in active:
        first.setdefault(name_key(name), player_id)
    for player_id, _name, _old in active:           # the unique index never sees two keys alike
        db.execute("UPDATE players SET key = ? WHERE id = ?", [f"\n{player_id}", player_id])
    for player_id, name, old in active:
        key = name_key(name)
        if first[key] == player_id:
            db.execute("UPDATE players SET key = ? WHERE id = ?", [key, player_id])
        else:
            db.execute("UPDATE players SET key = ?, looks_like = ? WHERE id = ?",
                       [f"{old}\n{player_id}", first[key], player_id])
    for player_id, name in list(db.execute("SELECT id, name FROM players WHERE merged_into IS NOT NULL")):
        db.execute("UPDATE players SET key = ? WHERE id = ?", [name_key(name), player_id])
    db.execute("DELETE FROM tournament_players")
    for tournament_id, entrants in list(db.execute("SELECT id, entrants FROM tournaments")):
        index_entrants(db, tournament_id, json.loads(entrants))
