"""The store's file: how soon a request announcing a body past the limit is refused, and what the
organiser's commands cost on a large store.

Run: .venv/bin/python tests/benchmarks/bench_store_file.py [--size 200] [--tries 50]

It prints, on the companion of this checkout:

- a ``POST /healthz`` announcing 190 MiB against waitress served as the command serves it
  (``helpers.serving``), on loopback: the time to its 413, median and slowest of ``--tries``;
  and a body sent in chunks with no length announced: how much had been sent when it was refused;
- a real store grown to at least ``--size`` MiB (one match of 8 hands, its matches and hands
  doubled in SQL until the file is that large): the start-up's check (SQLite's quick check and
  the migration level, read-only), a restore's full check, ``scopa-companion backup`` and
  ``scopa-companion restore`` of it, each timed, with the restore's peak memory.

It asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SCOPA_LANG", "en")

import companion  # noqa: E402
from companion import store  # noqa: E402
from companion.store.checks import examine  # noqa: E402
from helpers import HAND, new_match, serving  # noqa: E402


def announce(base: str, tries: int) -> None:
    port = urlsplit(base).port
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Length: 199229440\r\n\r\n")
            answer = conn.recv(100)
        times.append(time.perf_counter() - started)
    status = answer.split(b"\r\n")[0].decode()
    print(f"POST /healthz announcing 190 MiB: {status}, median "
          f"{statistics.median(times) * 1000:.2f} ms, slowest {max(times) * 1000:.2f} ms "
          f"({tries} tries)")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk, sent = b"10000\r\n" + b"x" * 65536 + b"\r\n", 0
        conn.settimeout(1)
        try:
            while sent < 64 * 2**20:
                conn.sendall(chunk)
                sent += 65536
        except OSError:
            pass
        conn.settimeout(10)
        try:
            answer = conn.recv(100).split(b"\r\n")[0].decode() or "closed"
        except OSError as error:
            answer = f"closed ({type(error).__name__})"
    print(f"a body in chunks, no length announced: {answer} with {sent / 2**20:.1f} MiB sent "
          f"(into the sockets' buffers too); the limit is {companion.RESTORE_LIMIT / 2**20:.0f} MiB")


def grown(folder: Path, size_mib: int) -> Path:
    made, path = folder / "made.sqlite", folder / "big.sqlite"
    app = companion.create_app({"TESTING": True, "SECRET_KEY": "b", "WTF_CSRF_ENABLED": False,
                                "DATABASE": str(made)})
    client = app.test_client()
    match_id = new_match(client, options={"target": 1000})
    for _ in range(8):
        client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    store.backup_to(str(made), str(path))
    conn = sqlite3.connect(path, isolation_level=None)
    columns = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(matches)") if r[1] != "id")
    hands = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(hands)") if r[1] not in ("id", "match_id"))
    while path.stat().st_size < size_mib * 2**20:
        count = conn.execute("SELECT MAX(id) FROM matches").fetchone()[0]
        conn.execute("BEGIN")
        conn.execute(f"INSERT INTO matches ({columns}) SELECT {columns} FROM matches ORDER BY id")
        conn.execute(f"INSERT INTO hands (match_id, {hands}) SELECT match_id + {count}, {hands} FROM hands ORDER BY id")
        conn.execute("COMMIT")
    conn.close()
    return path


def timed(what: str, work) -> None:
    started = time.perf_counter()
    result = work()
    print(f"{what}: {time.perf_counter() - started:.2f} s{result or ''}")


def command(*args: str) -> str:
    """The command run; what it printed, and the peak memory of the commands run so far (the
    restore is run first: its own)."""
    done = subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return f" ({done.stdout.strip()}; peak memory so far {peak / 1024:.0f} MiB)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="the store's size, MiB at least")
    parser.add_argument("--tries", type=int, default=50,
                        help="requests announcing a body past the limit, each timed")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        os.environ["SCOPA_DATA"] = str(folder / "data")
        with serving(companion.create_app({"SECRET_KEY": "b", "DATABASE": str(folder / "s.sqlite")})) as base:
            announce(base, options.tries)
        big = grown(folder, options.size)
        print(f"a store of {big.stat().st_size / 2**20:.0f} MiB:")
        timed("  the start-up's check (quick check, read-only)", lambda: examine(str(big)) and None)
        timed("  a restore's integrity check (read-only)", lambda: examine(str(big), thorough=True) and None)
        live = folder / "data" / "scopa.sqlite"
        timed("  scopa-companion restore", lambda: command("restore", str(big), "--db", str(live)))
        timed("  scopa-companion backup", lambda: command("backup", str(folder / "copy.sqlite"), "--db", str(live)))


if __name__ == "__main__":
    main()
