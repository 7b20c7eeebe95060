"""Backups: the live store copied whole while phones save, and a backup checked to the last match
before it replaces the live store (which is kept beside it first)."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import sqlite_utils

from ..rules.said import said
from .built import forget_built
from .db import MakeLedger, connect, parsed_match
from .matches import hand_rows
from .migrations import MIGRATIONS, migrate
from .organiser import keep_organiser_phones, organiser_phone_rows


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


def _schema_at(level: int, ledger: MakeLedger) -> dict[str, set[str]]:
    """The tables and columns a store has at a migration level: the migrations applied to an
    empty store in memory."""
    db = sqlite_utils.Database(sqlite3.connect(":memory:", isolation_level=None))
    db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
    for step in MIGRATIONS[:level]:
        step(db, ledger)
    return {name: {column.name for column in db[name].columns} for name in db.table_names()}


def check_backup(path: str, ledger: MakeLedger) -> None:
    """Refuse, with what is wrong, anything but a whole companion store this version can run:
    SQLite's integrity check, the companion's tables and columns at the file's migration level
    (not newer than this version's), then, once brought to this version's schema, every match
    worked out by the rules engine. The file at ``path`` is brought to this version's schema."""
    plain = said("that file is not a Scopa companion backup")
    try:
        conn = sqlite3.connect(path)
        try:
            if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise NotABackup(said("the file is damaged (SQLite's integrity check fails)"))
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "migrations" not in tables:
                raise NotABackup(plain)
            level = conn.execute("SELECT COALESCE(MAX(version), 0) FROM migrations").fetchone()[0]
            columns = {name: {row[1] for row in conn.execute(f'PRAGMA table_info("{name}")')}
                       for name in tables}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        raise NotABackup(plain) from None
    if not isinstance(level, int) or not 1 <= level:
        raise NotABackup(plain)
    if level > len(MIGRATIONS):
        raise NotABackup(said("that backup was made by a newer version of the companion: update it first"))
    for table, needed in _schema_at(level, ledger).items():
        if not needed <= columns.get(table, set()):
            raise NotABackup(said("that file is not a Scopa companion backup (its {table} table is "
                                      "not the companion's)", table=table))
    db = connect(path)
    match_id = None
    try:
        migrate(db, ledger)
        for row in list(db.query("SELECT * FROM matches WHERE deleted IS NULL")):
            match_id = row["id"]
            ledger(parsed_match(row)).after_change(hand_rows(db, match_id))
    except Exception as problem:     # anything at all: the backup is refused, never served
        if match_id is None:
            raise NotABackup(said("it cannot be read ({problem})", problem=str(problem))) from None
        raise NotABackup(said("match {number} in it cannot be read ({problem})",
                              number=match_id, problem=str(problem))) from None
    finally:
        db.conn.close()


def keep_copy(path: str, folder: Path) -> Path:
    """Save the live store beside it before a restore, under a name no other copy has."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    for attempt in range(1000):
        target = folder / f"before-restore-{stamp}{f'-{attempt}' if attempt else ''}.sqlite"
        try:
            with open(target, "x"):       # claimed: no other restore writes here
                pass
        except FileExistsError:
            continue
        backup_to(path, str(target))
        return target
    raise OSError("no free name for the safety copy")


def restore_from(path: str, backup: str, ledger: MakeLedger) -> Path:
    """Replace the live store at ``path`` with the backup file ``backup``, once it is checked
    whole, after saving the live store beside it (returned). The copy goes through SQLite's
    backup API into the live database, so other connections see either the old store or the
    new one. The organiser's phones stay those of the store replaced."""
    check_backup(backup, ledger)
    keep = keep_copy(path, Path(path).parent)
    phones = organiser_phone_rows(path)
    forget_built()
    source = sqlite3.connect(backup)
    destination = sqlite3.connect(path, timeout=30)
    try:
        source.backup(destination)
    finally:
        source.close()
        destination.close()
    db = connect(path)
    try:
        migrate(db, ledger)     # already done on the checked copy; kept for safety
    finally:
        db.conn.close()
    keep_organiser_phones(path, phones)
    forget_built()
    return keep
