"""The organiser's phones as stored: each by the hash of the random key its cookie carries.

A phone that opened the organiser's link keeps a key of its own, not the code: the code changes
with every start, the key lasts until the phone logs out (or the organiser logs every phone
out). Only the key's hash is kept, so a copy of the store names no phone's key; a backup leaves
them out (``without_organiser_phones``), and a restore keeps the phones of the store it replaces.
"""

from __future__ import annotations

import hashlib
import sqlite3

from .db import Store, now, writing


def _hashed(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def add_organiser_phone(db: Store, key: str) -> None:
    with writing(db):
        db.execute("INSERT OR IGNORE INTO organiser_phones (key_hash, created) VALUES (?, ?)",
                   [_hashed(key), now()])


def is_organiser_phone(db: Store, key: str) -> bool:
    return db.execute("SELECT 1 FROM organiser_phones WHERE key_hash = ?",
                      [_hashed(key)]).fetchone() is not None


def remove_organiser_phone(db: Store, key: str) -> None:
    with writing(db):
        db.execute("DELETE FROM organiser_phones WHERE key_hash = ?", [_hashed(key)])


def remove_organiser_phones(db: Store) -> int:
    """Every phone logged out (a lost phone, a new organiser): how many were."""
    with writing(db):
        return db.execute("DELETE FROM organiser_phones").rowcount


def organiser_phone_count(db: Store) -> int:
    return db.execute("SELECT COUNT(*) FROM organiser_phones").fetchone()[0]


def without_organiser_phones(path: str) -> None:
    """Empty the organiser's phones from a copy of the store (a backup about to be sent)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'organiser_phones'").fetchone():
                conn.execute("DELETE FROM organiser_phones")
        conn.execute("VACUUM")       # nothing of them left in the file's free pages
    finally:
        conn.close()


def organiser_phone_rows(path: str) -> list[tuple[str, str]]:
    """The organiser's phones of the store at ``path`` (before a restore replaces it)."""
    conn = sqlite3.connect(path, timeout=10)
    try:
        return conn.execute("SELECT key_hash, created FROM organiser_phones").fetchall()
    except sqlite3.DatabaseError:       # a store from before the organiser, or a damaged one
        return []
    finally:
        conn.close()


def keep_organiser_phones(path: str, rows: list[tuple[str, str]]) -> None:
    """The organiser's phones of the store a restore replaced, and none of the backup's: whoever
    was the organiser before a restore still is, and nobody else."""
    conn = sqlite3.connect(path, timeout=30)
    try:
        with conn:
            conn.execute("DELETE FROM organiser_phones")
            conn.executemany("INSERT OR IGNORE INTO organiser_phones (key_hash, created) VALUES (?, ?)",
                             rows)
    finally:
        conn.close()
