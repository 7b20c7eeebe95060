"""Matches and their hands as stored.

A match row keeps the rules it was created with, its sides and its summary (the outcome and each
side's figures, kept by every save); a hand row keeps what the players entered (the cards of each
pile, or the counts) and the points it was scored at when saved. The rules are never applied
here: a save is handed the model's ``Ledger``, which works out the match's new summary inside
the save's transaction.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from .changes import By, log_change, state
from .db import MAX_ID, Store, new_id, now, parsed_match, writing
from .ledger import MakeLedger
from .seats import keep_seats, seat_players


class Conflict(Exception):
    """The hand was changed by another phone since the version an edit or delete was made from."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"hand {row['id']} is at version {row['version']}")
        self.row = row


class Gone(Exception):
    """The hand is not there (any more): deleted, perhaps a moment ago on another phone."""


class InTournament(Exception):
    """A tournament's table: its result makes the standings, so the match is corrected, never
    deleted."""

    def __init__(self, table: int, tournament: str):
        super().__init__(table, tournament)
        self.table, self.tournament = table, tournament


class MatchNotOver(Exception):
    """A rematch asked of a match still being played."""


class Taken(Exception):
    """Another phone recorded the hand this entry was made for: ``row`` is that hand."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"hand {row['id']} was recorded meanwhile")
        self.row = row


class KeyReused(Exception):
    """A one-time key already used for a different entry: ``row`` is the hand it recorded."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"that key recorded hand {row['id']}")
        self.row = row


class Saved(NamedTuple):
    """A hand added: its id; False when the same form had already recorded it; and, for a new
    hand, its number and the match's summary right after it."""

    id: int
    created: bool
    number: int | None = None
    summary: dict[str, Any] | None = None


def create_match(db: Store, rules: dict[str, Any], sides: list[dict[str, Any]],
                 first_dealer: int, pin_hash: str | None = None,
                 ledger: MakeLedger | None = None,
                 access_key: str | None = None) -> int:
    """A new match; ``ledger`` (``matches.Ledger``) gives its summary before any hand;
    ``access_key`` is what a phone that entered its PIN keeps."""
    with writing(db):
        return insert_match(db, rules, sides, first_dealer, pin_hash, ledger, access_key)


def insert_match(db: Store, rules: dict[str, Any], sides: list[dict[str, Any]],
                  first_dealer: int, pin_hash: str | None,
                  ledger: MakeLedger | None, access_key: str | None,
                  follows: int | None = None) -> int:
    summary = ledger({"rules": rules, "sides": sides}).start() if ledger else None
    table = db.table("matches")
    table.insert({"created": now(), "rules": json.dumps(rules), "sides": json.dumps(sides),
                  "first_dealer": first_dealer, "version": 0, "pin_hash": pin_hash,
                  "summary": json.dumps(summary) if summary else None, "over": 0,
                  "access_key": access_key, "follows": follows})
    match_id = new_id(table)
    known = seat_players(db, match_id, sides, rules.get("preset", ""))
    if known != sides:          # a name typed as "anna " is the known "Anna"
        db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(known), match_id])
    if summary:
        keep_seats(db, match_id, summary)
    return match_id


def rematch(db: Store, match_id: int, first_dealer: int,
            ledger: MakeLedger, access_key: str) -> tuple[int, bool]:
    """The "Rivincita" of a finished match: the same sides, rules and PIN, ``first_dealer``
    dealing first. Two phones (or a double tap) asking at once get the same one: returns its
    id and whether it was made now. Gone if the match is not there; MatchNotOver if it is
    still being played."""
    with writing(db):
        row = db.execute("SELECT rules, sides, pin_hash, over, followed_by FROM matches "
                         "WHERE id = ? AND deleted IS NULL", [match_id]).fetchone()
        if row is None:
            raise Gone(match_id)
        rules, sides, pin_hash, over, followed_by = row
        if followed_by and db.execute("SELECT 1 FROM matches WHERE id = ? AND deleted IS NULL",
                                      [followed_by]).fetchone():
            return followed_by, False
        if not over:
            raise MatchNotOver(match_id)
        new_id = insert_match(db, json.loads(rules), json.loads(sides), first_dealer, pin_hash,
                               ledger, access_key, follows=match_id)
        # The finished match's page links to it: every phone polling it learns of it.
        db.execute("UPDATE matches SET followed_by = ?, version = version + 1 WHERE id = ?",
                   [new_id, match_id])
        return new_id, True


def archive_match(db: Store, match_id: int, archived: bool) -> None:
    """Put a match out of the lists (it stays, with its link), or back."""
    with writing(db):
        changed = db.execute("UPDATE matches SET archived = ?, version = version + 1 "
                             "WHERE id = ? AND deleted IS NULL", [int(archived), match_id]).rowcount
    if not changed:
        raise Gone(match_id)


def pin_and_key(db: Store, match_id: int) -> tuple[str | None, str | None] | None:
    """The match's (PIN hash, access key), or None if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = db.execute("SELECT pin_hash, access_key FROM matches WHERE id = ?", [match_id]).fetchone()
    return (row[0], row[1]) if row else None


def match_version(db: Store, match_id: int) -> int | None:
    """The match's version, from one primary-key read: what a polling phone compares."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = db.execute("SELECT version FROM matches WHERE id = ? AND deleted IS NULL", [match_id]).fetchone()
    return row[0] if row else None


def set_summary(db: Store, match_id: int, summary: dict[str, Any]) -> None:
    """Bump the match's version (every phone polling it learns of the change) and keep its
    new summary."""
    db.execute("UPDATE matches SET version = version + 1, summary = ?, over = ? WHERE id = ?",
               [json.dumps(summary), int(summary["over"]), match_id])


def keep_summary(db: Store, match_id: int, summary: dict[str, Any]) -> None:
    """The match's new summary, and each side's figures and result in its players' seats."""
    set_summary(db, match_id, summary)
    keep_seats(db, match_id, summary)


def rename_seat(db: Store, match_id: int, side: int, seat: int, name: str,
                ledger: MakeLedger) -> None:
    """The player in that seat is now called ``name``: the match's sides are rewritten and its
    summary (whose outcome names the sides) worked out again, its version bumped so the phones
    showing it follow."""
    row = match_row(db, match_id)
    if row is None:
        return
    sides = row["sides"]
    sides[side]["players"][seat] = name
    if len(sides[side]["players"]) == 1:
        sides[side]["name"] = name
    db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(sides), match_id])
    row["sides"] = sides
    keep_summary(db, match_id, ledger(row).after_change(hand_rows(db, match_id)))


def match_row(db: Store, match_id: int) -> dict[str, Any] | None:
    if not 0 < match_id <= MAX_ID:
        return None
    rows = list(db.query("SELECT * FROM matches WHERE id = ? AND deleted IS NULL", [match_id]))
    return parsed_match(rows[0]) if rows else None


def match_rows(db: Store, over: bool | None = None, before: int | None = None,
               limit: int | None = None, archived: bool = False) -> list[dict[str, Any]]:
    """Matches, newest first: all of them, or those over (or not), older than ``before``, at
    most ``limit``; those archived only when ``archived``, never the deleted. Read from the
    matches' rows alone (their summaries), never their hands."""
    sql, values = _listed("*", over, before, limit, archived)
    return [parsed_match(row) for row in db.query(sql, values)]


def listed_versions(over: bool | None = None, before: int | None = None, limit: int | None = None,
                    archived: bool = False) -> tuple[str, list[Any]]:
    """The query of the ids and versions of the matches ``match_rows`` reads, in its order
    (``built.each_match``'s ``among``)."""
    return _listed("id, version", over, before, limit, archived)


def _listed(columns: str, over: bool | None, before: int | None, limit: int | None,
            archived: bool) -> tuple[str, list[Any]]:
    where, values = ["archived = ?", "deleted IS NULL"], [int(archived)]
    if over is not None:
        where.append("over = ?")
        values.append(int(over))
    if before is not None:
        where.append("id < ?")
        values.append(before)
    sql = f"SELECT {columns} FROM matches WHERE " + " AND ".join(where) + " ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        values.append(limit)
    return sql, values


def series_rows(db: Store, match_id: int) -> list[dict[str, Any]]:
    """The match and those it is the "Rivincita" of, back to the first (a deleted match ends
    the chain): each one's id and summary, oldest first."""
    rows = db.execute(
        "WITH RECURSIVE chain(id, follows) AS ("
        " SELECT id, follows FROM matches WHERE id = ? AND deleted IS NULL"
        " UNION ALL SELECT m.id, m.follows FROM matches m JOIN chain ON m.id = chain.follows"
        " WHERE m.deleted IS NULL) "
        "SELECT m.id, m.summary FROM matches m JOIN chain ON m.id = chain.id ORDER BY m.id",
        [match_id]).fetchall()
    return [{"id": row_id, "summary": json.loads(summary) if summary else None}
            for row_id, summary in rows]


def hand_rows(db: Store, match_id: int) -> list[dict[str, Any]]:
    """The match's hands in the order they were played (deleted ones left out). Entries and
    results stay JSON text: ``matches.build`` reads them as it needs them."""
    return list(db.query(
        "SELECT * FROM hands WHERE match_id = ? AND deleted IS NULL ORDER BY number", [match_id]))


def hand_row(db: Store, match_id: int, hand_id: int) -> dict[str, Any] | None:
    """One hand of the match by its id, deleted or not."""
    if not 0 < hand_id <= MAX_ID:
        return None
    rows = list(db.query("SELECT * FROM hands WHERE match_id = ? AND id = ?", [match_id, hand_id]))
    return rows[0] if rows else None


def add_hand(db: Store, match_id: int, entry: dict[str, Any],
             result: dict[str, Any] | None, ledger: MakeLedger,
             key: str | None = None, number: int | None = None, by: By | None = None) -> Saved:
    """Append a hand, with the points it was scored at (``result``).

    A key already used finds that hand instead (``created`` False), so a form sent twice, even by
    two phones at once, counts once; the same key with another entry raises KeyReused.
    ``number`` is the hand the entry was made for ("Mano 3"): if another phone recorded that
    hand meanwhile, Taken is raised with it and nothing is added. ``ledger`` (``matches.Ledger``,
    made from the match's row read inside the transaction) works out the match's new summary
    from its summary so far, and refuses the hand when the match was won meanwhile on another
    phone. ``by``: who saved it, kept in the match's changes (``changes.log_change``)."""
    with writing(db):
        current = match_row(db, match_id)
        if current is None:         # deleted meanwhile on another phone (its hands kept a day)
            raise Gone(match_id)
        if key is not None:
            row = db.execute("SELECT id, entry FROM hands WHERE match_id = ? AND key = ?",
                             [match_id, key]).fetchone()
            if row is not None:
                if json.loads(row[1]) != entry:
                    reused = hand_row(db, match_id, row[0])
                    assert reused is not None, "the row just read"
                    raise KeyReused(reused)
                return Saved(row[0], False)
        if number is not None:
            there = list(db.query("SELECT * FROM hands WHERE match_id = ? AND deleted IS NULL "
                                  "ORDER BY number LIMIT 1 OFFSET ?", [match_id, number - 1]))
            if there:
                raise Taken(there[0])
        summary = current["summary"] or ledger(current).after_change(hand_rows(db, match_id))
        after = ledger(current).after_add(summary, entry, result)
        order = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM hands WHERE match_id = ?",
                           [match_id]).fetchone()[0]
        stamp = now()
        hands = db.table("hands")
        hands.insert({"match_id": match_id, "number": order, "entry": json.dumps(entry),
                      "result": json.dumps(result) if result else None,
                      "created": stamp, "updated": stamp, "version": 1, "key": key})
        keep_summary(db, match_id, after)
        hand_id = new_id(hands)
        log_change(db, match_id, hand_id, "claim" if entry.get("mode") == "claim" else "saved",
                   None, by)
        return Saved(hand_id, True, after["hands"], after)


def _resettle(db: Store, match_id: int, ledger: MakeLedger) -> None:
    """After a change to earlier hands: the summary worked out again from every hand."""
    row = match_row(db, match_id)
    assert row is not None, "called inside the write that found the match"
    keep_summary(db, match_id, ledger(row).after_change(hand_rows(db, match_id)))


def _current(db: Store, match_id: int, hand_id: int, version: int) -> dict[str, Any]:
    """The hand as it is, if it is still at ``version``; else Gone or Conflict."""
    row = hand_row(db, match_id, hand_id)
    if row is None or row["deleted"]:
        raise Gone()
    if row["version"] != version:
        raise Conflict(row)
    return row


def update_hand(db: Store, match_id: int, hand_id: int, entry: dict[str, Any],
                result: dict[str, Any] | None, version: int,
                ledger: MakeLedger, by: By | None = None, kind: str = "changed") -> int:
    """Replace a hand's entry if it is still at ``version`` (the one the edit was made from):
    an edit never overwrites another phone's. The entry it replaces is kept, so the edit can be
    undone. The same edit sent twice is done once. Returns the hand's version. The change is
    kept as ``kind`` ("changed", or "replaced": the conflict screen's choice), ``by`` whom."""
    with writing(db):
        try:
            row = _current(db, match_id, hand_id, version)
        except Conflict as conflict:
            if json.loads(conflict.row["entry"]) == entry:     # already done: a double tap
                return conflict.row["version"]
            raise
        db.execute("UPDATE hands SET entry = ?, result = ?, previous = ?, updated = ?, "
                   "version = version + 1 WHERE id = ?",
                   [json.dumps(entry), json.dumps(result) if result else None, row["entry"],
                    now(), hand_id])
        _resettle(db, match_id, ledger)
        log_change(db, match_id, hand_id, kind, state(row), by)
        return version + 1


def delete_hands(db: Store, match_id: int, versions: dict[int, int],
                 ledger: MakeLedger, by: By | None = None) -> int:
    """Delete hands, each only if still at the version given (hand id -> version), all or none;
    returns the match's version the delete leaves, from which it can be undone (``undo``).

    A deleted hand's row is kept, marked deleted: its id is never given to another hand, so a
    delete sent twice or late finds it gone rather than deleting some other hand."""
    with writing(db):
        for hand_id, version in versions.items():
            row = _current(db, match_id, hand_id, version)
            log_change(db, match_id, hand_id, "deleted", state(row), by)
            db.execute("UPDATE hands SET deleted = ?, version = version + 1 WHERE id = ?",
                       [now(), hand_id])
        _resettle(db, match_id, ledger)
        after = match_version(db, match_id)
        assert after is not None, "_current found the match's hands"
        return after
