"""Stores larger than a limit (the web restore's 8 MiB, a restore's parts) without the rows that
would make them so: each row of a restored store is checked (store.backup._check_rows), and a
store grown by rows to a few MiB (its matches and hands copied over and over, as these tests
made it before) cost seconds of checking rows, where the test is about the file's size."""

import os
import sqlite3


def padded(path, size: int) -> None:
    """The store at ``path`` made larger than ``size`` bytes by free pages: a table filled and
    dropped, whose pages SQLite keeps in the file (no auto-vacuum, as the companion's stores)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("CREATE TABLE filler (x BLOB)")
        conn.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                     "INSERT INTO filler SELECT randomblob(60000) FROM n", [size // 60000 + 1])
        conn.execute("DROP TABLE filler")
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] > 0
    finally:
        conn.close()
    assert os.path.getsize(path) > size
