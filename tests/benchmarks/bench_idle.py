"""Idle connections: how many connections that never finish a request the companion holds while
still serving the phones, and what happens past that.

Run: .venv/bin/python tests/benchmarks/bench_idle.py [--steps 1000,2000,3000,3900,4100]
         [--mode slow|silent] [--connection-limit N] [--hold 10]

It starts the companion of this checkout (``python -m companion``, on loopback, a fresh SQLite
file) and opens idle connections in steps, holding each step ``--hold`` seconds:

- ``--mode slow`` (the default): each connection sends the start of a request and then one more
  header line every 20 s, never the blank line that ends it (an attack known as Slowloris; a
  phone's browser never does this);
- ``--mode silent``: each connection is opened and sends nothing (a phone gone to sleep, a
  browser's spare connection). After the last step it waits for waitress to close them
  (``channel_timeout``, checked every ``cleanup_interval``), and says when it did.

At each step, once the server has accepted what it will, it prints the connections held open
and those the server accepted (its open files), and how long that took; then, once a second, a
new phone's request (a fresh connection, ``GET /healthz``) for ``--hold`` seconds, and a phone
already connected (one kept-alive connection opened before the idle ones, polling every 2 s
throughout the step): answered, median and slowest time, none answered within 5 s; and the
server's memory. It asserts nothing. docs/running.md gives the figures and what follows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))         # for helpers
from helpers import start_companion  # noqa: E402

PROBE_TIMEOUT = 5.0
LINE_EVERY = 20.0


def start_server(folder: str, extra: list[str]) -> tuple[subprocess.Popen, int]:
    """The companion started as a player starts it (helpers.start_companion), its store in
    ``folder``; it and its port, once it answers. Its output goes to a file: a pipe nobody reads
    fills up with waitress's warnings, and then every thread that logs blocks, and the server
    with it."""
    env = dict(os.environ, SCOPA_DATA=os.path.join(folder, "data"))
    log = open(os.path.join(folder, "server.log"), "w")
    try:
        server, base = start_companion("--db", os.path.join(folder, "idle.sqlite"), *extra, env=env,
                                       output=log)
    except RuntimeError as error:
        raise SystemExit(f"the companion did not start: {error}\n{Path(log.name).read_text()}") from None
    return server, int(base.rsplit(":", 1)[1])


def raise_open_files(wanted: int) -> None:
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def server_files(pid: int) -> int:
    """The server's open files: the connections it accepted, plus some twenty of its own (-1
    where /proc does not say)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


async def settled(pid: int, most: float = 120) -> float:
    """Waits until the server has accepted what it will (its open files unchanged for 3 s, at
    most ``most`` seconds): the seconds that took."""
    started = time.monotonic()
    last, since = server_files(pid), time.monotonic()
    while time.monotonic() - since < 3 and time.monotonic() - started < most:
        await asyncio.sleep(0.5)
        now = server_files(pid)
        if now != last:
            last, since = now, time.monotonic()
    return time.monotonic() - started


def memory(pid: int) -> str:
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return "?"
    found = re.search(r"VmRSS:\s+(\d+) kB", status.read_text())
    return f"{int(found.group(1)) / 1024:.0f} MiB" if found else "?"


class Idle:
    """The idle connections: each one opened, then slow (a header line every 20 s) or silent."""

    def __init__(self, port: int, mode: str):
        self.port, self.mode = port, mode
        self.tasks: list[asyncio.Task] = []
        self.open = 0           # connected and not closed by the server
        self.refused = 0        # not connected within 5 s
        self.closed_at: list[float] = []

    async def one(self, number: int) -> None:
        for _ in range(12):         # the server's queue may be full for a while: try for a minute
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port), PROBE_TIMEOUT)
                break
            except (OSError, asyncio.TimeoutError):
                continue
        else:
            self.refused += 1
            return
        self.open += 1
        try:
            if self.mode == "slow":
                writer.write(f"GET /?idle={number} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
                while True:
                    await writer.drain()
                    try:
                        if await asyncio.wait_for(reader.read(1), LINE_EVERY) == b"":
                            break           # closed by the server
                    except asyncio.TimeoutError:
                        writer.write(b"X-Still-Here: 1\r\n")
            else:
                await reader.read(1)        # returns b"" when the server closes it
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self.open -= 1
            self.closed_at.append(time.monotonic())
            writer.close()

    async def grow_to(self, count: int) -> None:
        while len(self.tasks) < count:
            batch = min(100, count - len(self.tasks))
            self.tasks += [asyncio.create_task(self.one(len(self.tasks) + i)) for i in range(batch)]
            await asyncio.sleep(0.5)
        await asyncio.sleep(1)

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()


async def request(reader, writer) -> bool:
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    await writer.drain()
    status = await reader.readline()
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)
    return status.startswith(b"HTTP/1.1 200")


async def probe_new(port: int) -> float | None:
    """A new phone: a fresh connection and one request; its time, or None if not answered."""
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), PROBE_TIMEOUT)
        try:
            ok = await asyncio.wait_for(request(reader, writer), PROBE_TIMEOUT)
        finally:
            writer.close()
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
        return None
    return time.perf_counter() - started if ok else None


class Known:
    """A phone already connected: one kept-alive connection, opened before the idle ones, that
    polls every 2 s as a match page does (so it is never idle long enough to be closed)."""

    def __init__(self, port: int):
        self.port = port
        self.conn = None
        self.times: list[tuple[float, float | None]] = []       # (when, how long or None)

    async def probe(self) -> float | None:
        started = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port),
                                                   PROBE_TIMEOUT)
            ok = await asyncio.wait_for(request(*self.conn), PROBE_TIMEOUT)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            if self.conn:
                self.conn[1].close()
            self.conn = None
            return None
        return time.perf_counter() - started if ok else None

    async def poll(self) -> None:
        while True:
            self.times.append((time.monotonic(), await self.probe()))
            await asyncio.sleep(2)

    def since(self, moment: float) -> list[float | None]:
        return [took for when, took in self.times if when >= moment]


def summary(times: list[float | None]) -> str:
    answered = [t for t in times if t is not None]
    if not answered:
        return f"0/{len(times)} answered"
    return (f"{len(answered)}/{len(times)} answered, median {statistics.median(answered) * 1000:.0f} ms, "
            f"slowest {max(answered) * 1000:.0f} ms")


async def run(args: argparse.Namespace, port: int, pid: int) -> None:
    known = Known(port)
    assert await known.probe() is not None, "the companion does not answer"
    polling = asyncio.create_task(known.poll())
    idle = Idle(port, args.mode)
    print(f"mode {args.mode}: {'a header line every 20 s, never a whole request' if args.mode == 'slow' else 'connections that send nothing'}")
    base = server_files(pid)
    print("opened: connections this script holds open (past the limit, the rest wait in the kernel's "
          "queue); accepted: by the server, and the seconds it took to accept them")
    print(f"{'opened':>6} {'accepted':>16}  new phone  |  phone already connected  |  memory")
    for count in args.steps:
        started = time.monotonic()
        await idle.grow_to(count)
        took = time.monotonic() - started - 1 + await settled(pid)
        new = []
        held = time.monotonic()
        while time.monotonic() < held + args.hold:
            new.append(await probe_new(port))
            await asyncio.sleep(max(0.0, 1 - (new[-1] or 0)))
        old = known.since(started)          # the whole step, while the idle ones were opened too
        opened = f"{idle.open}" + (f" (+{idle.refused} not connected)" if idle.refused else "")
        accepted = f"{server_files(pid) - base} in {took:.0f} s"
        print(f"{opened:>6} {accepted:>16}  {summary(new)}  |  {summary(old)}  |  {memory(pid)}",
              flush=True)
    if args.mode == "silent":
        started = time.monotonic()
        while idle.open and time.monotonic() - started < args.wait_closed:
            await asyncio.sleep(1)
        if idle.open:
            print(f"after {args.wait_closed:.0f} s, {idle.open} still open")
        else:
            print(f"every silent connection was closed by the server within {time.monotonic() - started:.0f} s "
                  f"of the last step")
        print(f"a new phone afterwards: {summary([await probe_new(port) for _ in range(3)])}")
    polling.cancel()
    idle.stop()
    await asyncio.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="1000,2000,3000,3900,4100",
                        type=lambda text: [int(n) for n in text.split(",")])
    parser.add_argument("--mode", choices=("slow", "silent"), default="slow")
    parser.add_argument("--hold", type=float, default=10, help="seconds each step is held and probed")
    parser.add_argument("--wait-closed", type=float, default=200,
                        help="silent mode: seconds to wait for the server to close them")
    parser.add_argument("--connection-limit", type=int, help="passed to scopa-companion")
    args = parser.parse_args()
    extra = ["--connection-limit", str(args.connection_limit)] if args.connection_limit else []
    raise_open_files(max(args.steps) + 1024)
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(folder, extra)
        try:
            asyncio.run(run(args, port, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)
        said = Path(folder, "server.log").read_text().splitlines()
        limit = [line for line in said if "connection limit" in line]
        if limit:
            print(f"the server said: {limit[0].strip()} ({len(limit)} such lines)")


if __name__ == "__main__":
    main()
