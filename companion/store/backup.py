"""Backups: the live store copied whole while phones save, and a backup checked to the last match
before it replaces the live store (which is kept beside it first).

A restore takes a backup's data, never its schema: the file's schema must be exactly what this
version builds at the file's level (``checks.examine``), and even then the store that replaces
the live one is made afresh by this version's migrations, the file's rows copied into its tables
by their columns' names (``copy_rows``). Nothing of the file but the rows of the companion's own
tables can come in: no trigger, no view, no table of its own, whatever it is called.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from ..rules.said import said
from .built import forget_built
from .checks import Unfit, examine, text_over_limit, time_in_future
from .db import StorageError, Store, connect, made_private, parsed_match, writing
from .ledger import MakeLedger
from .matches import hand_rows
from .migrations import migrate, settle_summaries
from .organiser import keep_organiser_phones, organiser_phone_rows
from .rerating import rerate

# The folders a restore and a download work in, beside the store (``tempfile``'s prefix), and the
# one a restore's parts are assembled in (``backup.parts``): what an interrupted one leaves there
# is removed at the next start (``remove_leftovers``).
RESTORING, DOWNLOADING, PARTS = "restoring-", "downloading-", "restore-parts"


class NotABackup(Exception):
    """An uploaded file that is not a store this app can restore."""


def backup_to(path: str, target: str) -> None:
    """Copy the live store at ``path`` into ``target`` with SQLite's backup API: consistent even
    while phones are saving, which copying the file (and its WAL) is not."""
    # Every match's PIN hash: the copy is its owner's alone from its first byte (db.made_private).
    Path(target).touch(mode=0o600)
    made_private(target)
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


def check_backup(path: str, ledger: MakeLedger) -> Path:
    """Refuse, with what is wrong, anything but a whole companion store this version can run:
    SQLite's integrity check, the file's migration level (not newer than this version's) and a
    schema exactly this version's at that level, as at start-up (a trigger, a view or a table of
    the file's own never comes in, nor runs: this is read before anything is written). Then the
    file at ``path`` (a copy: both doors hand one) is brought to this version's schema, and its
    rows copied into a store made afresh beside it (returned), in which every text is within the
    companion's limits, no time is in the future, every match is worked out by the rules engine,
    and what the companion works out of the matches (totals, ratings) is worked out again
    (``worked_out_again``): a file's own figures never come in."""
    try:
        level = examine(path, thorough=True)
    except Unfit as unfit:
        if unfit.reason == "foreign":
            raise NotABackup(said("that file is not a Scopa companion backup: {problem}",
                                  problem=unfit.problem)) from None
        raise NotABackup(_UNFIT[unfit.reason]) from None
    if not level:
        raise NotABackup(_UNFIT["not_store"])
    fresh = Path(path).with_name(Path(path).stem + "-rebuilt.sqlite")
    try:
        _bring_up(path, ledger)
        _remove_store(fresh)
        made = connect(str(fresh))
        try:
            migrate(made)           # empty: nothing asked of settle_summaries
        finally:
            made.conn.close()
        copy_rows(path, str(fresh))
        _check_rows(str(fresh), ledger)
    except sqlite3.Error as error:      # the server's own disk (full, read-only): said as a save's
        _remove_store(fresh)
        raise StorageError.of(error) from error
    except BaseException:
        _remove_store(fresh)
        raise
    return fresh


def _bring_up(path: str, ledger: MakeLedger) -> None:
    """The checked file brought to this version's schema by the migrations (their own code: its
    schema is this version's at its level, checked just before), and the summaries they asked for
    worked out by this version's rules, before its rows are copied and checked."""
    db = connect(path)
    try:
        migrate(db)
        settle_summaries(db, ledger)
    except Exception as problem:     # anything at all: the backup is refused, never served
        raise NotABackup(said("it cannot be read ({problem})", problem=str(problem))) from None
    finally:
        db.conn.close()


def copy_rows(source: str, target: str) -> None:
    """The rows of every table of the store at ``target`` (made by this version's migrations)
    replaced by those of the same table in the store at ``source`` (at this version's level):
    each table and column named from ``target``'s own schema, the values copied as values. The
    source is attached read-only and with its schema untrusted; nothing of it but those rows
    reaches ``target``. The target's triggers (the companion's, which keep the totals and the
    lines' versions) are set aside while the rows come in, so that the rows are the file's as
    they were, and made again after from the target's own SQL, as are its indexes (made once
    over every row rather than kept row by row)."""
    conn = sqlite3.connect(Path(target).resolve().as_uri(), uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA trusted_schema=OFF")
        uri = f"{Path(source).resolve().as_uri()}?mode=ro"
        conn.execute("ATTACH DATABASE ? AS backup", [uri])
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
            "ESCAPE '\\' ORDER BY name")]
        triggers = conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger'").fetchall()
        indexes = conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'index' "
                               "AND sql IS NOT NULL").fetchall()
        conn.execute("BEGIN IMMEDIATE")
        for name, _sql in triggers:
            conn.execute(f'DROP TRIGGER main."{name}"')
        for name, _sql in indexes:          # made again once the rows are in: quicker than kept
            conn.execute(f'DROP INDEX main."{name}"')
        for table in tables:
            columns = ", ".join(f'"{column}"' for _cid, column, *_ in
                                conn.execute(f'PRAGMA main.table_info("{table}")'))
            conn.execute(f'DELETE FROM main."{table}"')
            conn.execute(f'INSERT INTO main."{table}" ({columns}) SELECT {columns} FROM backup."{table}"')
        for _name, sql in indexes + triggers:
            conn.execute(sql)
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE backup")
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


def _check_rows(path: str, ledger: MakeLedger) -> None:
    """The rows a restore would bring: every text within the companion's limits, no time in the
    future, every match worked out again by the rules engine; then what the companion works out
    of them (``worked_out_again``)."""
    db = connect(path)
    match_id = None
    try:
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


def _remove_store(path: Path) -> None:
    """A store's file and the WAL and shared memory files beside it, if there."""
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        part.unlink(missing_ok=True)


def count_totals(db: Store) -> None:
    """player_totals made again from the seats, whole (a restore never takes the totals a file
    carries): each of its columns but the keys, "seats", best and worst is the seats' column of
    that name added up, so a column a later migration adds is counted too."""
    counted = [name for name in db.table("player_totals").columns_dict
               if name not in ("player_id", "variant", "seats", "best", "worst")]
    sums = ", ".join(f"COALESCE(SUM({name}), 0)" for name in counted)
    db.execute("DELETE FROM player_totals")
    db.execute(f"INSERT INTO player_totals (player_id, variant, seats, {', '.join(counted)}, best, worst) "
               f"SELECT player_id, variant, COUNT(*), {sums}, MAX(best), MIN(worst) FROM seats "
               "GROUP BY player_id, variant")


def worked_out_again(db: Store) -> None:
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
    """Replace the live store at ``path`` with the backup file ``backup`` (a copy, which this
    changes: both doors hand one), once it is checked whole and its rows copied into a store
    made afresh (``check_backup``), after saving the live store beside it (returned). The copy
    goes through SQLite's backup API into the live database, so other connections see either
    the old store or the new one. The organiser's phones stay those of the store replaced."""
    fresh = check_backup(backup, ledger)
    try:
        keep = keep_copy(path, Path(path).parent)
        phones = organiser_phone_rows(path)
        forget_built()
        source = sqlite3.connect(fresh)
        destination = sqlite3.connect(path, timeout=30)
        try:
            _same_pages(source, destination)
            source.backup(destination)
        finally:
            source.close()
            destination.close()
    finally:
        _remove_store(fresh)
    db = connect(path)
    try:
        migrate(db)     # already done on the checked copy; kept for safety
        settle_summaries(db, ledger)
    finally:
        db.conn.close()
    keep_organiser_phones(path, phones)
    forget_built(everywhere=True)
    return keep


# The files a restore or a download of a version before issue 41 left in a ``tmp...`` folder: the
# upload, the CLI's copy, a download being made, and their journals.
_LEFT = re.compile(r"(?:upload|restore|scopa-\d{8}-\d{6})\.sqlite(?:-wal|-shm|-journal)?")


def remove_leftovers(folder: Path) -> list[Path]:
    """What an interrupted restore or download left beside the store (a power cut, a kill: the
    backup it received, up to 8 MiB, and its rebuilt copy), removed at start: the folders named
    ``RESTORING`` and ``DOWNLOADING``, and those that versions before issue 41 made (``tmp...``)
    holding nothing but such files; and the uploads in parts left unfinished (``PARTS``: none
    is on its way at start). Returns what was removed."""
    removed = []
    for part in (folder / PARTS).glob("*.part") if (folder / PARTS).is_dir() else []:
        if part.is_file() and not part.is_symlink():
            part.unlink(missing_ok=True)
            removed.append(part)
    for entry in folder.glob("*") if folder.is_dir() else []:
        if not entry.is_dir() or entry.is_symlink():
            continue
        ours = entry.name.startswith((RESTORING, DOWNLOADING))
        if not ours and entry.name.startswith("tmp"):
            files = list(entry.iterdir())
            ours = bool(files) and all(f.is_file() and _LEFT.fullmatch(f.name) for f in files)
        if ours:
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed
