"""Every change to a hand, kept: when, by which phone, and what the hand was before it.

A change is written inside the write that makes it (``log_change``, called by ``matches`` and
``undo`` within their transaction): it is kept with the change, or rolled back with it. Which
phone is said by who made the change (``By``): the phone's own id, which the web layer reads
from its cookie (``web.phone.phone_id``) and which is kept here only hashed, each phone
numbered per match in the order it first changed it ("phone 3"); whether it was the organiser;
whether it came through the JSON API. What the hand was before (``state``) is what the
organiser's undo puts back (``undo.undo_hand_change``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple, Sequence

from ..rules.said import Said, said
from .db import MAX_ID, Store, new_id, now

# What a change did to its hand: the store's words, each worded by the pages and the API.
KINDS = ("saved", "claim", "changed", "replaced", "deleted", "restored", "undone")


class By(NamedTuple):
    """Who made a change: ``phone``, the phone's own id (a program's: its address), None when
    unknown (a script); ``organiser``, the organiser's phone or code; ``api``, through the JSON
    API."""

    phone: str | None = None
    organiser: bool = False
    api: bool = False


def phone_key(phone: str) -> str:
    """A phone's id as the store keeps it: hashed, so that the store (and its backups) never
    holds what a phone's cookie carries."""
    return hashlib.sha256(phone.encode()).hexdigest()[:16]


def state(row: dict[str, Any]) -> dict[str, Any]:
    """A hand's row as a change keeps it: its entry and result (as JSON values) and whether it
    is deleted."""
    return {"entry": json.loads(row["entry"]),
            "result": json.loads(row["result"]) if row["result"] else None,
            "deleted": bool(row["deleted"])}


def _phone_number(db: Store, match_id: int, phone: str | None) -> int | None:
    """The phone's number in this match, given it at its first change."""
    if phone is None:
        return None
    key = phone_key(phone)
    db.execute("INSERT INTO change_phones (match_id, phone, number) VALUES (?, ?, (SELECT "
               "COALESCE(MAX(number), 0) + 1 FROM change_phones WHERE match_id = ?)) "
               "ON CONFLICT (match_id, phone) DO NOTHING", [match_id, key, match_id])
    return db.execute("SELECT number FROM change_phones WHERE match_id = ? AND phone = ?",
                      [match_id, key]).fetchone()[0]


def log_change(db: Store, match_id: int, hand_id: int, kind: str,
               before: dict[str, Any] | None, by: By | None, undoes: int | None = None) -> int:
    """Keep one change to a hand, inside the write that makes it: ``before``, the hand's
    ``state`` before it (None: the hand was not there). Returns the change's id."""
    assert kind in KINDS
    by = by or By()
    number = db.execute(
        "SELECT COUNT(*) FROM hands WHERE match_id = ? AND (deleted IS NULL OR id = ?) AND number <= "
        "(SELECT number FROM hands WHERE id = ?)", [match_id, hand_id, hand_id]).fetchone()[0]
    table = db.table("hand_changes")
    table.insert({"match_id": match_id, "hand_id": hand_id, "number": number, "kind": kind,
                  "phone": _phone_number(db, match_id, by.phone), "organiser": int(by.organiser),
                  "api": int(by.api), "created": now(),
                  "before": None if before is None else json.dumps(before), "undoes": undoes})
    return new_id(table)


def change_rows(db: Store, match_id: int, before: int | None = None,
                limit: int = 50) -> list[dict[str, Any]]:
    """The match's changes, newest first: at most ``limit``, those older than the change
    ``before`` when given. One indexed read, however long the night."""
    older, values = "", [match_id]
    if before is not None and 0 < before <= MAX_ID:
        older = " AND id < ?"
        values.append(before)
    rows = db.query(f"SELECT * FROM hand_changes WHERE match_id = ?{older} ORDER BY id DESC LIMIT ?",
                    [*values, limit])
    return [_change(row) for row in rows]


def change_row(db: Store, match_id: int, change_id: int) -> dict[str, Any] | None:
    """One change of the match, by its id."""
    if not 0 < change_id <= MAX_ID:
        return None
    rows = list(db.query("SELECT * FROM hand_changes WHERE match_id = ? AND id = ?", [match_id, change_id]))
    return _change(rows[0]) if rows else None


def _change(row: dict[str, Any]) -> dict[str, Any]:
    """A change as its row is read, one way for one change or a page of them: the hand before
    it as its entry, whether the organiser made it and whether through the API as bools."""
    return {**row, "before": json.loads(row["before"]) if row["before"] else None,
            "organiser": bool(row["organiser"]), "api": bool(row["api"])}


def phone_number(db: Store, match_id: int, phone: str | None) -> int | None:
    """This phone's number in the match, if it changed a hand of it: the page says which of the
    changes are its own."""
    if phone is None:
        return None
    row = db.execute("SELECT number FROM change_phones WHERE match_id = ? AND phone = ?",
                     [match_id, phone_key(phone)]).fetchone()
    return row[0] if row else None


# -- Said: who, what, and the hand before (the pages and the API word them) ---------------------

def who(row: dict[str, Any], mine: int | None = None) -> Said:
    """Who made a change, in words any phone at the table can match to one of them: "phone 3"
    (``mine``: this phone's number in the match, "phone 3 (this phone)"), "the organiser", a
    program through the API."""
    if row["organiser"]:
        label = said("the organiser")
    elif row["phone"] is None:
        label = said("a phone")
    elif row["phone"] == mine:
        label = said("phone {number} (this phone)", number=row["phone"])
    else:
        label = said("phone {number}", number=row["phone"])
    return said("{who}, through the API", who=label) if row["api"] else label


# What each kind of change did to its hand, said with its place ({number}) and, for an undo, the
# change it undid ({change}).
_WHAT = {"saved": said("hand {number} saved"), "claim": said("hand {number}: a claim recorded"),
         "changed": said("hand {number} changed"),
         "replaced": said("hand {number} replaced by another phone's (a conflict)"),
         "deleted": said("hand {number} deleted"), "restored": said("hand {number} brought back"),
         "undone": said("hand {number} put back as it was before change {change}")}


def what(row: dict[str, Any]) -> Said:
    """What the change did, the hand named by its place in the match then."""
    return Said(_WHAT[row["kind"]].text, {"number": row["number"], "change": row["undoes"]})


def was(row: dict[str, Any], names: Sequence[str]) -> Said:
    """What the hand was before the change: not there, deleted, a claim, or its points."""
    before = row["before"]
    if before is None:
        return said("it was not there")
    if before["deleted"]:
        return said("it was deleted")
    if not before["result"]:
        return said("it was a claim")
    points = " – ".join(f"{name}\u00a0{points}" for name, points in zip(names, before["result"]["points"]))
    return said("it was {points}", points=points)
