"""Storage: one SQLite file through sqlite-utils.

A match row keeps the rules it was created with and its sides; a hand row keeps what the players
entered (the cards of each pile, or the counts), never the points: scores, totals and the
outcome are worked out from the hands by the rules engine each time, so they live in one place.

The schema is a list of numbered migrations, applied in order on first use. Writes take the
write lock up front (``BEGIN IMMEDIATE``) so two phones saving at once wait for each other
instead of failing, and each save is one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

import sqlite_utils
from flask import Flask, current_app, g


def _m001_matches_and_hands(db: sqlite_utils.Database) -> None:
    db["matches"].create({
        "id": int, "created": str, "rules": str, "sides": str, "first_dealer": int,
    }, pk="id", not_null={"created", "rules", "sides", "first_dealer"})
    db["hands"].create({
        "id": int, "match_id": int, "number": int, "entry": str, "created": str, "updated": str,
        "version": int, "key": str,
    }, pk="id", foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "number", "entry", "created", "updated", "version"},
        defaults={"version": 1})
    db["hands"].create_index(["match_id", "number"], unique=True)
    # The one-time key of the form a hand was saved from: the same form sent twice (a double
    # tap, a retried request, two phones) finds its hand already there.
    db["hands"].create_index(["match_id", "key"], unique=True)


def _m002_versions_and_pins(db: sqlite_utils.Database) -> None:
    # version: bumped by every write to a match's hands, so a phone polling the match learns
    # whether anything changed from one primary-key read. pin_hash: the edit PIN, if any.
    db["matches"].add_column("version", int, not_null_default=0)
    db["matches"].add_column("pin_hash", str)


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [
    _m001_matches_and_hands, _m002_versions_and_pins]


def connect(path: str) -> sqlite_utils.Database:
    """Open the store, in autocommit mode: transactions are begun explicitly by ``writing``."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=10000")
    return sqlite_utils.Database(conn)


def migrate(db: sqlite_utils.Database) -> int:
    """Apply the migrations not yet applied; returns the schema version."""
    with writing(db):
        db.execute("CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, applied TEXT)")
        done = {row["version"] for row in db.query("SELECT version FROM migrations")}
        for version, step in enumerate(MIGRATIONS, start=1):
            if version not in done:
                step(db)
                db["migrations"].insert({"version": version, "applied": now()})
    return len(MIGRATIONS)


@contextmanager
def writing(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One transaction that holds the write lock from its start."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    else:
        db.execute("COMMIT")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# Each server thread keeps its connection from one request to the next: opening one costs about
# 0.4 ms, more than answering a poll. A request still has the connection to itself, and ends with
# no transaction left open.
_threads = threading.local()


def get_db() -> sqlite_utils.Database:
    """The request's connection: this thread's, opened on its first request."""
    if "db" not in g:
        kept = _threads.__dict__.setdefault("connections", {})
        path = current_app.config["DATABASE"]
        if path not in kept:
            kept[path] = connect(path)
        g.db = kept[path]
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def init_app(app: Flask) -> None:
    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.conn.close()
    app.teardown_appcontext(close_db)


# -- Matches and hands -------------------------------------------------------------------------

def create_match(db: sqlite_utils.Database, rules: dict[str, Any], sides: list[dict[str, Any]],
                 first_dealer: int, pin_hash: str | None = None) -> int:
    with writing(db):
        table = db["matches"]
        table.insert({"created": now(), "rules": json.dumps(rules), "sides": json.dumps(sides),
                      "first_dealer": first_dealer, "version": 0, "pin_hash": pin_hash})
        return table.last_pk


MAX_ID = 2**63 - 1   # SQLite's largest integer: a bigger id in a URL names no match


def match_version(db: sqlite_utils.Database, match_id: int) -> int | None:
    """The match's version, from one primary-key read: what a polling phone compares."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = db.execute("SELECT version FROM matches WHERE id = ?", [match_id]).fetchone()
    return row[0] if row else None


def _touch(db: sqlite_utils.Database, match_id: int) -> None:
    db.execute("UPDATE matches SET version = version + 1 WHERE id = ?", [match_id])


def match_row(db: sqlite_utils.Database, match_id: int) -> dict[str, Any] | None:
    if not 0 < match_id <= MAX_ID:
        return None
    rows = list(db.query("SELECT * FROM matches WHERE id = ?", [match_id]))
    if not rows:
        return None
    row = rows[0]
    return {**row, "rules": json.loads(row["rules"]), "sides": json.loads(row["sides"])}


def match_rows(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    return [{**row, "rules": json.loads(row["rules"]), "sides": json.loads(row["sides"])}
            for row in db.query("SELECT * FROM matches ORDER BY id DESC")]


def hand_rows(db: sqlite_utils.Database, match_id: int) -> list[dict[str, Any]]:
    return [{**row, "entry": json.loads(row["entry"])} for row in db.query(
        "SELECT * FROM hands WHERE match_id = ? ORDER BY number", [match_id])]


def hands_by_match(db: sqlite_utils.Database) -> dict[int, list[dict[str, Any]]]:
    grouped: dict[int, list[dict[str, Any]]] = {}
    for row in db.query("SELECT * FROM hands ORDER BY match_id, number"):
        grouped.setdefault(row["match_id"], []).append({**row, "entry": json.loads(row["entry"])})
    return grouped


def hand_with_key(db: sqlite_utils.Database, match_id: int, key: str) -> int | None:
    row = db.execute("SELECT number FROM hands WHERE match_id = ? AND key = ?", [match_id, key]).fetchone()
    return row[0] if row else None


def add_hand(db: sqlite_utils.Database, match_id: int, entry: dict[str, Any],
             check: Callable[[list[dict[str, Any]]], None] | None = None,
             key: str | None = None) -> tuple[int, bool]:
    """Append a hand: (its number, True). A key already used finds that hand instead:
    (its number, False), so a form sent twice, even by two phones at once, counts once.

    ``check`` sees the hands already recorded, inside the transaction, and may refuse (say,
    when the match was won meanwhile on another phone)."""
    with writing(db):
        if key is not None and (number := hand_with_key(db, match_id, key)) is not None:
            return number, False
        if check is not None:
            check(hand_rows(db, match_id))
        number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM hands WHERE match_id = ?",
                            [match_id]).fetchone()[0]
        stamp = now()
        db["hands"].insert({"match_id": match_id, "number": number, "entry": json.dumps(entry),
                            "created": stamp, "updated": stamp, "version": 1, "key": key})
        _touch(db, match_id)
        return number, True


class Conflict(Exception):
    """The hand was changed by someone else since the version an edit was made from."""


def update_hand(db: sqlite_utils.Database, match_id: int, number: int, entry: dict[str, Any],
                version: int | None = None) -> bool:
    """Replace a hand's entry. With ``version``, only if the hand is still at that version
    (else Conflict): an edit never silently overwrites another phone's."""
    with writing(db):
        current = db.execute("SELECT version FROM hands WHERE match_id = ? AND number = ?",
                             [match_id, number]).fetchone()
        if current is None:
            return False
        if version is not None and current[0] != version:
            raise Conflict(current[0])
        db.execute("UPDATE hands SET entry = ?, updated = ?, version = version + 1 "
                   "WHERE match_id = ? AND number = ?", [json.dumps(entry), now(), match_id, number])
        _touch(db, match_id)
        return True


def delete_hand(db: sqlite_utils.Database, match_id: int, number: int) -> bool:
    """Delete a hand and close the gap, so hands stay numbered 1, 2, 3..."""
    with writing(db):
        cursor = db.execute("DELETE FROM hands WHERE match_id = ? AND number = ?", [match_id, number])
        if cursor.rowcount != 1:
            return False
        later = [row[0] for row in db.execute(
            "SELECT number FROM hands WHERE match_id = ? AND number > ? ORDER BY number",
            [match_id, number]).fetchall()]
        for old in later:
            db.execute("UPDATE hands SET number = ? WHERE match_id = ? AND number = ?",
                       [old - 1, match_id, old])
        _touch(db, match_id)
        return True


# -- Backup and restore ------------------------------------------------------------------------

class NotABackup(Exception):
    """An uploaded file that is not a store this app can restore."""


def backup_to(path: str, target: str) -> None:
    """Copy the live store at ``path`` into ``target`` with SQLite's backup API: consistent even
    while phones are saving, which copying the file (and its WAL) is not."""
    source = sqlite3.connect(path, timeout=10)
    destination = sqlite3.connect(target)
    try:
        with destination:
            source.backup(destination)
    finally:
        destination.close()
        source.close()


def check_backup(path: str) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise NotABackup("the file is damaged")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        raise NotABackup("that file is not a Scopa companion backup") from None
    if not {"matches", "hands", "migrations"} <= tables:
        raise NotABackup("that file is not a Scopa companion backup")


def restore_from(path: str, backup: str, keep: str) -> None:
    """Replace the live store at ``path`` with the backup file ``backup``, after saving the live
    store to ``keep``. The copy goes through SQLite's backup API into the live database, so other
    connections see either the old store or the new one."""
    check_backup(backup)
    backup_to(path, keep)
    source = sqlite3.connect(backup)
    destination = sqlite3.connect(path, timeout=30)
    try:
        source.backup(destination)
    finally:
        source.close()
        destination.close()
    db = connect(path)
    try:
        migrate(db)     # a backup from an older version gets the newer schema
    finally:
        db.conn.close()
