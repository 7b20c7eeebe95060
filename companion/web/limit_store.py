"""The limits' counts in a SQLite file, for a server of several processes (``companion.processes``),
which must all count the same tries: a storage for the ``limits`` library, under the scheme
``scopa-sqlite://PATH``.

Why one of our own: ``limits`` keeps its counts in memory (one process's), or in Redis,
Memcached, MongoDB or etcd, each a server of its own that a club's laptop does not run. SQLite
is already the companion's store, on every machine, and this is what the moving windows need: the
moments of each key's last tries, read and added in one transaction (``BEGIN IMMEDIATE``, so
that two processes' tries at once are counted one after the other). The file lives in the
server's own temporary folder, so the counts end with the server, as they did in memory. Each
moment carries when it expires, and is dropped then, so the file holds the last hour's tries.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import threading
import time
import zlib
from contextlib import contextmanager
from typing import Iterator

from limits.storage import MovingWindowSupport, Storage

SCHEME = "scopa-sqlite"
STRIPES = 64


def _record_lock(fd: int, stripe: int) -> None:
    """The byte ``stripe`` of the lock file, for this process, waiting as long as it takes.

    POSIX record locks belong to a process, not to a thread, so the kernel's deadlock check
    sees a cycle where there is none: a thread of process A holds stripe 1 while another of
    A's waits for stripe 2, held by a thread of B that is waiting for stripe 1. Each holder
    gives its stripe back without needing the other (``web.limits`` never holds two at once), but the kernel
    refuses the last wait with EDEADLK at once, and under issue 41's PIN flood three requests
    answered 500 with it. The refusal is only ever that false cycle, so the wait is taken up
    again (after a moment, for the holder to go on) until the stripe is ours. (Linux's
    open-file-description locks, F_OFD_SETLKW, have no such check, but no such locks on macOS
    or the BSDs, and Python has no wrapper for their ``struct flock``.)"""
    pause = 0.001
    while True:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX, 1, stripe)
            return
        except OSError as error:
            if error.errno != errno.EDEADLK:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


class SQLiteStorage(Storage, MovingWindowSupport):
    """Moving windows (the companion's strategy) and plain counters, in the SQLite file of
    ``scopa-sqlite:///path/to/limits.sqlite``."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = uri.removeprefix(f"{SCHEME}://")
        self._local = threading.local()
        self._stripes = [threading.Lock() for _ in range(STRIPES)]
        self._lock_file: tuple[int, int] | None = None      # (the process, its descriptor)
        self._opening = threading.Lock()
        with self._transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS moments (key TEXT NOT NULL, at REAL NOT NULL, "
                       "expires REAL NOT NULL)")
            db.execute("CREATE INDEX IF NOT EXISTS moments_key ON moments (key, at)")
            db.execute("CREATE INDEX IF NOT EXISTS moments_expires ON moments (expires)")
            db.execute("CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER "
                       "NOT NULL, expires REAL NOT NULL)")
            # Who was counted, for the organiser's list of who is held (web.limits.held): every
            # process's, as the counts are
            db.execute("CREATE TABLE IF NOT EXISTS seen (kind TEXT NOT NULL, scope TEXT NOT NULL, "
                       "key TEXT NOT NULL, address TEXT NOT NULL, expires REAL NOT NULL, "
                       "PRIMARY KEY (kind, scope, key))")

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, in this process (one made before a fork is not used)."""
        kept = getattr(self._local, "kept", None)
        if kept is None or kept[0] != os.getpid():
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=OFF")        # counts that end with the server anyway
            kept = self._local.kept = (os.getpid(), db)
        return kept[1]

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @contextmanager
    def locked(self, key: str) -> Iterator[None]:
        """``key``'s tries one at a time, across threads and processes: a lock among 64 for the
        threads of this process, and the same stripe of the file's bytes (a POSIX record lock)
        for the processes."""
        stripe = zlib.crc32(key.encode()) % STRIPES
        with self._stripes[stripe]:
            lock_file = self._lock_descriptor()
            _record_lock(lock_file, stripe)
            try:
                yield
            finally:
                fcntl.lockf(lock_file, fcntl.LOCK_UN, 1, stripe)

    def _lock_descriptor(self) -> int:
        """This process's descriptor of the lock file, opened once and never closed. Closing
        any descriptor of a file lets go of every record lock the process holds on it, another
        thread's too: each try opened and closed the file of its own, so a thread done with
        one stripe let another process into the stripe a second thread still held."""
        pid = os.getpid()
        with self._opening:
            if self._lock_file is None or self._lock_file[0] != pid:       # first, or forked since
                self._lock_file = (pid, os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o600))
            return self._lock_file[1]

    # -- Moving windows ---------------------------------------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        with self._transaction() as db:
            db.execute("DELETE FROM moments WHERE expires < ?", [now])
            # A moment exactly ``expiry`` ago still counts here, not in get_moving_window:
            # limits' memory storage draws both lines so, and this one answers as it does.
            count = db.execute("SELECT COUNT(*) FROM moments WHERE key = ? AND at >= ?",
                               [key, now - expiry]).fetchone()[0]
            if count + amount > limit:
                return False
            db.executemany("INSERT INTO moments (key, at, expires) VALUES (?, ?, ?)",
                           [(key, now, now + expiry)] * amount)
        return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        oldest, count = self._connection().execute(
            "SELECT MIN(at), COUNT(*) FROM moments WHERE key = ? AND at > ?", [key, now - expiry]).fetchone()
        return (oldest, count) if count else (now, 0)

    # -- Counters (the fixed windows; the companion's limits do not use them) ---------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._transaction() as db:
            db.execute("DELETE FROM counters WHERE key = ? AND expires <= ?", [key, now])
            db.execute("INSERT INTO counters (key, value, expires) VALUES (?, ?, ?) ON CONFLICT (key) "
                       "DO UPDATE SET value = value + excluded.value", [key, amount, now + expiry])
            return db.execute("SELECT value FROM counters WHERE key = ?", [key]).fetchone()[0]

    def get(self, key: str) -> int:
        found = self._connection().execute("SELECT value FROM counters WHERE key = ? AND expires > ?",
                                           [key, time.time()]).fetchone()
        return found[0] if found else 0

    def get_expiry(self, key: str) -> float:
        found = self._connection().execute("SELECT expires FROM counters WHERE key = ?", [key]).fetchone()
        return found[0] if found else time.time()

    # -- The rest -----------------------------------------------------------------------------

    def check(self) -> bool:
        try:
            self._connection().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        with self._transaction() as db:
            gone = db.execute("DELETE FROM moments").rowcount + db.execute("DELETE FROM counters").rowcount
        return gone

    # -- Who was counted (not a limits storage's: the companion's own list, as web.limits.Seen
    # keeps it in memory) -------------------------------------------------------------------

    def saw(self, kind: str, scope: str, key: str, address: str, ttl: float) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO seen (kind, scope, key, address, expires) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT (kind, scope, key) DO UPDATE SET address = excluded.address, "
                       "expires = excluded.expires", [kind, scope, key, address, time.time() + ttl])

    def seen(self) -> list[tuple[tuple[str, str, str], str]]:
        rows = self._connection().execute(
            "SELECT kind, scope, key, address FROM seen WHERE expires > ?", [time.time()]).fetchall()
        return [((kind, scope, key), address) for kind, scope, key, address in rows]

    def forget_seen(self, kind: str, scope: str, key: str) -> bool:
        with self._transaction() as db:
            db.execute("DELETE FROM seen WHERE expires <= ?", [time.time()])
            return db.execute("DELETE FROM seen WHERE kind = ? AND scope = ? AND key = ?",
                              [kind, scope, key]).rowcount > 0

    def forget_all_seen(self) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM seen")

    def clear(self, key: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM moments WHERE key = ?", [key])
            db.execute("DELETE FROM counters WHERE key = ?", [key])
