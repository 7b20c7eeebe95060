"""The writes of a backup: the whole store replaced by a backup (the organiser's alone: the
callers check it), and the store copied for a download (the organiser's phones left out of the
copy). As ``table.service``, the restore says what became of it as one of a closed set of frozen
values, having caught the store's exceptions; the page only words it, in a ``match`` statement
that ends in ``assert_never``."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import store
from ..matches import Ledger
from ..rules.said import Said


@dataclass(frozen=True)
class Restored:
    """Every match is the backup's now; the store replaced was saved as ``kept``."""

    kept: Path


@dataclass(frozen=True)
class NotABackup:
    """The file is not a store this version can restore (``why``): nothing was replaced."""

    why: Said | str


@dataclass(frozen=True)
class NotStored:
    """The server's disk failed (``why``): nothing was replaced."""

    why: Said


def restore(database: Path, put: Callable[[Path], None]) -> Restored | NotABackup | NotStored:
    """Replace the store at ``database`` by a backup, once it is checked whole: ``put`` writes
    the backup to the path it is given (beside the store, removed afterwards, whatever
    happens)."""
    with tempfile.TemporaryDirectory(prefix=store.RESTORING, dir=database.parent) as folder:
        received = Path(folder) / "upload.sqlite"
        put(received)
        try:
            store.close_db()
            kept = store.restore_from(str(database), str(received), Ledger)
        except store.NotABackup as problem:
            return NotABackup(problem.args[0] if problem.args else str(problem))
        except store.StorageError as failure:
            return NotStored(failure.message)
    return Restored(kept)


def download(database: Path, name: str) -> bytes:
    """The whole store, copied consistently while phones save, the organiser's phones left out
    of the copy: the file's bytes (``name``, the copy's name while it is made)."""
    with tempfile.TemporaryDirectory(prefix=store.DOWNLOADING, dir=database.parent) as folder:
        target = Path(folder) / name
        store.backup_to(str(database), str(target))
        store.without_organiser_phones(str(target))
        return target.read_bytes()
