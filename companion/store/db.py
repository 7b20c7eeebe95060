"""The store's connection: one SQLite file through sqlite-utils, a connection per server thread,
and the two kinds of transaction every other module of the store uses.

Writes take the write lock up front (``BEGIN IMMEDIATE``) so two phones saving at once wait for
each other instead of failing, and each save is one transaction; a failure of the store itself
(a full disk, a read-only file) is a ``StorageError`` in the player's words.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import weakref
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

import sqlite_utils
from flask import current_app, g

from ..rules.said import Said, said

MAX_ID = 2**63 - 1   # SQLite's largest integer: a bigger id in a URL names no match


def number_from(digits: str) -> int:
    """Digits (``str.isdecimal``) from a URL, a header or a form as a whole number, any past
    ``MAX_ID`` as ``MAX_ID + 1``. A long string is never given to ``int()``: Python refuses one
    of more than 4,300 digits with a ValueError, which was a 500 (issue 32).

    >>> number_from("0042"), number_from("9" * 5000) == MAX_ID + 1
    (42, True)
    """
    digits = digits.lstrip("0") or "0"
    return min(int(digits), MAX_ID + 1) if len(digits) <= len(str(MAX_ID)) else MAX_ID + 1

# What a store's files are open to: their owner alone. They hold every match's PIN hash and the
# organiser's phones' key hashes, which no other user of the machine is to read.
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def made_private(path: str | os.PathLike[str], folder: bool = False) -> None:
    """``path`` open to its owner alone (0600, a folder 0700), if it exists and is this user's:
    a store, a backup or a data folder made by an older version (0644) is closed at the next
    start. SQLite gives the store's -wal and -shm files the store's own mode as it makes them.
    (Windows keeps its own access lists: chmod there only sets the read-only flag, left as is.)"""
    if os.name == "nt":
        return
    try:
        os.chmod(path, PRIVATE_FOLDER if folder else PRIVATE_FILE)
    except (FileNotFoundError, PermissionError):
        pass


def made_private_store(path: str) -> None:
    """The store and whatever files SQLite keeps beside it (its WAL and shared memory)."""
    for name in (path, f"{path}-wal", f"{path}-shm"):
        made_private(name)


class Store(sqlite_utils.Database):
    """A connection to the store: sqlite-utils' Database (every query and table of it), with
    what the companion keeps beside it, declared and typed.

    - ``path``: the file it opened, which names the store in the caches of worked-out matches
      (``built``), in this process's lock of its writers, and at a clean stop;
    - the calls a write asked to be made once it commits (``after_commit``), run by
      ``writing`` outside the write's transaction and lock, or dropped if it rolls back.

    Made by ``connect``; the migrations, which need none of this, take any Database."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        super().__init__(conn)
        self.path = path
        self._after: dict[Callable[[Store], Any], None] = {}

    def after_commit(self, call: Callable[[Store], Any]) -> None:
        """Inside a write: ``call(store)`` once the write has committed (once, however often
        asked), outside its transaction; never if it rolls back. The ratings' re-rating is done
        so."""
        self._after[call] = None

    def committed(self) -> list[Callable[[Store], Any]]:
        """The calls asked for by the write just ended, in the order asked, forgotten here."""
        calls, self._after = list(self._after), {}
        return calls


def connect(path: str) -> Store:
    """Open the store, in autocommit mode: transactions are begun explicitly by ``writing``."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=10000")
    return Store(conn, path)


class StorageError(Exception):
    """The store could not save: its disk is full, it is read-only, or it is not a companion
    store. Nothing of the write was kept (its transaction was rolled back)."""

    MESSAGES = {       # said: the pages show them in the phone's language
        "full": said("The server could not save: its disk is full. Nothing was saved; free some "
                     "space on the server, then try again."),
        "readonly": said("The server could not save: its store is read-only. Nothing was saved; "
                         "make the store writable on the server, then try again."),
        "damaged": said("The server's store is not a Scopa companion store, or it is damaged. "
                        "Nothing was saved; restore a backup on the server."),
        "busy": said("The server is busy saving for another phone. Nothing was saved; try again."),
        "other": said("The server could not save. Nothing was saved; try again."),
    }

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(detail or reason)
        self.reason = reason

    @property
    def message(self) -> Said:
        return self.MESSAGES[self.reason]

    @classmethod
    def of(cls, error: sqlite3.Error) -> "StorageError":
        text = str(error).lower()
        for words, reason in ((("full",), "full"), (("readonly", "read-only"), "readonly"),
                              (("not a database", "malformed", "no such table", "no such column"),
                               "damaged"),
                              (("locked", "busy"), "busy")):
            if any(word in text for word in words):
                return cls(reason, str(error))
        return cls("other", str(error))


# One writer at a time in this process, waiting in a lock that wakes the next as soon as the
# last is done, rather than in SQLite's busy handler, which sleeps 1, 2, 5, 10, ... 100 ms
# between tries of the store's write lock: under 16 guests' writes a phone's save slept past the
# moment the store was free, p99 2.2 s (tests/benchmarks/bench_guest.py, issue 41). BEGIN
# IMMEDIATE still guards against another process (the restore command, a second server), and
# SQLite's busy timeout with it. One lock per store file.
_writers: dict[str, threading.Lock] = {}
_writers_lock = threading.Lock()
WAIT = 10           # seconds a write waits for another's, as SQLite's busy timeout


def _writer(db: Store) -> threading.Lock:
    with _writers_lock:
        return _writers.setdefault(db.path, threading.Lock())


@contextmanager
def writing(db: Store) -> Iterator[Store]:
    """One transaction that holds the write lock from its start.

    A failure of the store itself (disk full, read-only file, not a database) rolls back and
    raises StorageError; the thread's connection is dropped, so that the next request opens a
    fresh one and saving works again as soon as the cause is gone. What the write asked to be
    done after it (``after_commit``) runs once the next writer may go."""
    writer = _writer(db)
    if not writer.acquire(timeout=WAIT):
        raise StorageError("busy", "another write held the store for 10 s")
    try:
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.conn.in_transaction:
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except (sqlite3.OperationalError, sqlite3.DatabaseError) as error:
            db.committed()          # rolled back: nothing to do after it
            if isinstance(error, sqlite3.IntegrityError):
                raise
            if db.conn.in_transaction:
                try:
                    db.conn.rollback()
                except sqlite3.Error:
                    pass
            _forget(db)
            raise StorageError.of(error) from error
        except BaseException:
            db.committed()
            raise
    finally:
        writer.release()
    for call in db.committed():
        call(db)


@contextmanager
def reading(db: Store) -> Iterator[Store]:
    """Reads that must see one state of the store (a WAL snapshot), whatever phones save."""
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.execute("COMMIT")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# Each server thread keeps its connection from one request to the next: opening one costs about
# 0.4 ms, more than answering a poll. A request still has the connection to itself, and ends with
# no transaction left open.
_threads = threading.local()
# Every thread's connection, so that a clean stop closes them all (``stop_cleanly``).
_opened: "weakref.WeakSet[Store]" = weakref.WeakSet()


def get_db() -> Store:
    """The request's connection: this thread's, opened on its first request."""
    if "db" not in g:
        kept = _threads.__dict__.setdefault("connections", {})
        path = current_app.config["DATABASE"]
        if path not in kept:
            kept[path] = connect(path)
            _opened.add(kept[path])
        g.db = kept[path]
    return g.db


def _forget(db: Store) -> None:
    """Stop reusing a connection that failed: the next request of this thread opens another."""
    kept = _threads.__dict__.get("connections", {})
    for path, conn in list(kept.items()):
        if conn is db:
            del kept[path]


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    if db.conn.in_transaction:
        db.conn.rollback()
    if db not in _threads.__dict__.get("connections", {}).values():
        db.conn.close()     # dropped after a failure


def stop_cleanly(path: str) -> None:
    """At a clean stop, once the server's threads are done: every connection the threads kept to
    the store at ``path`` closed, and the WAL folded into the store's file (a TRUNCATE checkpoint) through a fresh
    connection, whose close, the last, removes the -wal and -shm files. The store is then one
    whole file, which may be copied alone."""
    for db in list(_opened):
        if db.path == path:
            db.conn.close()
    conn = sqlite3.connect(path, timeout=10)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def new_id(table: sqlite_utils.db.Table) -> int:
    """The id of the row ``table`` just inserted (sqlite-utils types ``last_pk`` as optional)."""
    assert table.last_pk is not None, "called right after an insert"
    return table.last_pk


def parsed_match(row: dict[str, Any]) -> dict[str, Any]:
    """A match's row with its JSON columns read: rules, sides and summary."""
    return {**row, "rules": json.loads(row["rules"]), "sides": json.loads(row["sides"]),
            "summary": json.loads(row["summary"]) if row.get("summary") else None}
