"""Backups: the live store copied whole while phones save, and a backup checked to the last match
before it replaces the live store (which is kept beside it first)."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import sqlite_utils

from ..rules.said import said
from .built import forget_built
from .checks import Unfit, examine, read_only, schema_difference, text_over_limit, time_in_future
from .db import MakeLedger, connect, parsed_match, writing
from .matches import hand_rows
from .migrations import count_totals, migrate
from .organiser import keep_organiser_phones, organiser_phone_rows
from .rerating import rerate


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


# What a restore says of a file the checks it shares with the start-up find unfit.
_UNFIT = {"damaged": said("the file is damaged (SQLite's integrity check fails)"),
          "not_store": said("that file is not a Scopa companion backup"),
          "newer": said("that backup was made by a newer version of the companion: update it first")}


def check_backup(path: str, ledger: MakeLedger) -> None:
    """Refuse, with what is wrong, anything but a whole companion store this version can run:
    SQLite's integrity check and the file's migration level (not newer than this version's),
    as at start-up; a schema exactly this version's at that level (a trigger, a view or a
    table of the file's own never comes in, nor runs: this is read before anything is written);
    then, once brought to this version's schema, every text within the companion's limits, no
    time in the future, and every match worked out by the rules engine. The file at ``path`` is
    brought to this version's schema, and what the companion works out of the matches (totals,
    ratings) is worked out again in it (``worked_out_again``): a file's own figures never come in."""
    try:
        level = examine(path, thorough=True)
        conn = read_only(path)
        try:
            different = schema_difference(conn, level, ledger) if level else None
        finally:
            conn.close()
    except Unfit as unfit:
        raise NotABackup(_UNFIT[unfit.reason]) from None
    except sqlite3.DatabaseError:
        raise NotABackup(_UNFIT["not_store"]) from None
    if not level:
        raise NotABackup(_UNFIT["not_store"])
    if different:
        raise NotABackup(said("that file is not a Scopa companion backup: {problem}", problem=different))
    db = connect(path)
    match_id = None
    try:
        migrate(db, ledger)
        problem = text_over_limit(db) or time_in_future(db)
        if problem:
            raise NotABackup(problem)
        for row in list(db.query("SELECT * FROM matches WHERE deleted IS NULL")):
            match_id = row["id"]
            ledger(parsed_match(row)).after_change(hand_rows(db, match_id))
        match_id = None
        worked_out_again(db)
    except NotABackup:
        raise
    except Exception as problem:     # anything at all: the backup is refused, never served
        if match_id is None:
            raise NotABackup(said("it cannot be read ({problem})", problem=str(problem))) from None
        raise NotABackup(said("match {number} in it cannot be read ({problem})",
                              number=match_id, problem=str(problem))) from None
    finally:
        db.conn.close()


def worked_out_again(db: sqlite_utils.Database) -> None:
    """What the companion works out of the matches, worked out again on a checked backup, never
    taken from it: the players' totals counted from the seats, every finished match rated from
    scratch in the order they finished, and no re-rating left asked for."""
    with writing(db):
        count_totals(db)
        rerate(db)
        db.execute("DELETE FROM rating_work")


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


def _same_pages(source: sqlite3.Connection, destination: sqlite3.Connection) -> None:
    """The checked backup rewritten with the live store's page size, if another: SQLite's backup
    API cannot change a WAL store's page size (it fails with "readonly")."""
    size = destination.execute("PRAGMA page_size").fetchone()[0]
    if source.execute("PRAGMA page_size").fetchone()[0] != size:
        source.execute("PRAGMA journal_mode=DELETE")
        source.execute(f"PRAGMA page_size={int(size)}")
        source.execute("VACUUM")


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
        _same_pages(source, destination)
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
    forget_built(everywhere=True)
    return keep
