"""Where the companion keeps what it must not lose: the data folder (the store and the key that
signs the phones' cookies), never inside the package or its virtual environment."""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import sys
import tempfile
from pathlib import Path

import platformdirs

from . import store
from .settings import Settings


def data_folder(settings: Settings | None = None) -> Path:
    """Where the store and the secret key live: ``SCOPA_DATA`` (``settings.data``, the
    environment's when no settings are given), else the user's data folder
    (``~/.local/share/scopa-companion`` on Linux, ``~/Library/Application Support/...`` on macOS,
    ``%LOCALAPPDATA%\\scopa-companion`` on Windows), never inside the package or the virtual
    environment, so reinstalling the companion keeps every match."""
    named = (settings or Settings()).data
    return Path(named or platformdirs.user_data_dir("scopa-companion", appauthor=False))


def secret_key(folder: Path) -> str:
    """The key that signs the phones' cookies, kept in ``folder`` so that an unlocked phone
    stays unlocked across a restart. Written whole or not at all (a temporary file renamed);
    an empty or damaged key file is replaced. If it cannot be written (a full or read-only
    disk), the key lasts until the server stops."""
    path = folder / "secret_key"
    try:
        kept = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        kept = ""
    if re.fullmatch(r"[0-9a-f]{64}", kept):
        return kept
    key = secrets.token_hex(32)
    temporary = None
    try:
        folder.mkdir(mode=store.PRIVATE_FOLDER, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".secret_key-")     # made 0600
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(key)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except OSError as error:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
        print(f"scopa-companion: the secret key could not be saved in {folder} ({error.strerror}): "
              f"phones will need the PIN again after a restart", file=sys.stderr)
    return key


def adopt_old_store(old: Path, new: Path) -> str | None:
    """Move a store left at the old default place (the Flask instance folder, inside the
    virtual environment for an installed companion) to the data folder, once. Returns what was
    done, for the start-up banner; a store that cannot be moved is used where it is."""
    source, target = old / "scopa.sqlite", new / "scopa.sqlite"
    if not source.is_file() or target.exists() or old.resolve() == new.resolve():
        return None
    try:
        new.mkdir(mode=store.PRIVATE_FOLDER, parents=True, exist_ok=True)
        copied = new / "scopa.sqlite.moving"
        store.backup_to(str(source), str(copied))      # with whatever its WAL still held
        os.replace(copied, target)
        if (old / "secret_key").is_file() and not (new / "secret_key").exists():
            os.replace(old / "secret_key", new / "secret_key")
        for leftover in ("scopa.sqlite", "scopa.sqlite-wal", "scopa.sqlite-shm"):
            (old / leftover).unlink(missing_ok=True)
    except (OSError, sqlite3.Error) as error:
        return f"could not move the store from {source} ({error}): using it there"
    return f"moved the store from {source} to {target}"
