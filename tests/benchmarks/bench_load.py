"""Load benchmark: phones at a club night against the companion, on loopback.

Run: .venv/bin/python tests/benchmarks/bench_load.py [--phones 300] [--seconds 60] [--mode browser|simple]

It starts ``scopa-companion`` as README starts it (the installed command, on a fresh SQLite
file), creates one match per four phones, and then each simulated phone behaves like a phone's
browser (``--mode browser``, the default): it opens its match page and fetches the page's assets
over a pool of keep-alive connections (up to 4 at once, reused, kept open for the whole run, as
Chromium does per host), keeps the assets it was told it may keep (``immutable``), polls its match
every 2 s with the headers htmx sends, saves a hand every 30 s through the JSON API, and reloads
the page once at a random moment. The phones arrive within the first 10 s. ``--mode simple`` is one connection a phone, polling and saving.

It prints, for page loads (the HTML and the assets still needed), polls and saves: requests per
second, median and 99th-percentile latency, errors and time-outs (30 s), the TCP connections
opened, and the load generator's own CPU time beside the wall time (if it used most of a core, it
was the bottleneck, not the server). Then, in the same run, the ceiling: a trivial route and the
unchanged match poll, flat out over keep-alive connections, and the poll's share of the trivial
route's throughput. It prints figures and asserts nothing.

Aims: 300 browser-like phones with no failed page load, poll p99 under 100 ms and page-load p99
under 500 ms; the unchanged poll at 80% or more of the trivial route.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from companion.rules import deck

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))        # tests/, for helpers
from helpers import start_companion  # noqa: E402

FULL = [str(card) for card in deck()]
TIMEOUT = 30.0
ARRIVALS = 10.0     # phones open their match within the first 10 s (a table sits down together)


ORGANISER = "BENCH-LOAD-1"


def start_server(folder: str, extra: list[str]) -> tuple[subprocess.Popen, int]:
    """The companion started as a player starts it (helpers.start_companion), its store in
    ``folder``; it and its port, once it answers. Its output goes to a file: a pipe nobody reads
    fills up with waitress's warnings, and then every thread that logs blocks, and the server
    with it."""
    # The organiser's code (from the environment, as a club sets its own): the tables are made
    # as the organiser, whom the limit on new matches per address does not hold.
    env = dict(os.environ, SCOPA_DATA=os.path.join(folder, "data"), SCOPA_ORGANISER_PIN=ORGANISER)
    log = open(os.path.join(folder, "server.log"), "w")
    try:
        server, base = start_companion("--db", os.path.join(folder, "bench.sqlite"), *extra, env=env,
                                       output=log, command=str(Path(sys.executable).with_name("scopa-companion")))
    except RuntimeError as error:
        raise SystemExit(f"the companion did not start: {error}\n{Path(log.name).read_text()}") from None
    return server, int(base.rsplit(":", 1)[1])


def raise_open_files() -> None:
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else min(65536, hard)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


# -- A small HTTP/1.1 client over asyncio streams ---------------------------------------------

class Closed(Exception):
    """The server closed the connection."""


class Connection:
    opened = 0

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            Connection.opened += 1
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                 *(f"{k}: {v}" for k, v in headers.items())]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            self.close()
            raise Closed()
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        if "content-length" in answer:
            data = await self.reader.readexactly(int(answer["content-length"]))
        elif answer.get("transfer-encoding") == "chunked":
            data = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readline()
                    break
                data += await self.reader.readexactly(size)
                await self.reader.readline()
        elif status in (204, 304) or method == "HEAD":
            data = b""
        else:
            data = await self.reader.read()
            answer["connection"] = "close"
        if answer.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        elif answer.get("content-encoding") == "deflate":
            data = zlib.decompress(data)
        if answer.get("connection", "").lower() == "close":
            self.close()
        return status, answer, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Pool:
    """A browser's connections to one host: reuse an idle one, open another only when all are
    busy, up to ``size``; every one is kept open."""

    def __init__(self, port: int, size: int):
        self.port, self.size = port, size
        self.idle: list[Connection] = []
        self.count = 0
        self.free = asyncio.Condition()

    async def request(self, *args, **kwargs):
        async with self.free:
            while not self.idle and self.count >= self.size:
                await self.free.wait()
            if self.idle:
                conn = self.idle.pop()
            else:
                conn = Connection(self.port)
                self.count += 1
        try:
            try:
                return await conn.request(*args, **kwargs)
            except (Closed, ConnectionError, asyncio.IncompleteReadError):
                conn.close()      # a kept-alive connection closed by the server: a browser retries
                return await conn.request(*args, **kwargs)
        except BaseException:
            conn.close()          # timed out or failed mid-answer: what comes next belongs to no one
            raise
        finally:
            async with self.free:
                self.idle.append(conn)
                self.free.notify()

    def close(self) -> None:
        for conn in self.idle:
            conn.close()


# -- Phones ------------------------------------------------------------------------------------

class Recorder:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.timeouts: dict[str, int] = {}

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        self.times.setdefault(kind, []).append(seconds)
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1

    def timed_out(self, kind: str) -> None:
        self.timeouts[kind] = self.timeouts.get(kind, 0) + 1


BROWSER = {"User-Agent": "Mozilla/5.0 (Linux; Android 14) bench", "Accept-Encoding": "gzip, deflate",
           "Accept-Language": "it-IT,it;q=0.9"}
ASSETS = re.compile(rb'(?:href|src)="(/static/[^"]+)"')


async def load_page(pool: Pool, path: str, cache: set[str], recorder: Recorder) -> int:
    """The page and the assets it still needs, as a browser loads them; the match version."""
    started = time.perf_counter()
    ok = True
    status, _, html = await pool.request("GET", path, {**BROWSER, "Accept": "text/html"})
    ok &= status == 200
    wanted = [url.decode() for url in ASSETS.findall(html) if url.decode() not in cache]
    answers = await asyncio.gather(*(pool.request("GET", url, {**BROWSER, "Accept": "*/*"})
                                     for url in wanted))
    for url, (status, headers, _) in zip(wanted, answers):
        ok &= status == 200
        if "immutable" in headers.get("cache-control", ""):
            cache.add(url)
    recorder.add("page load", time.perf_counter() - started, ok)
    found = re.search(rb'data-version="(\d+)"', html)
    return int(found.group(1)) if found else 0


async def browser_phone(port: int, match_id: int, seconds: float, recorder: Recorder, name: str) -> None:
    pool, cache = Pool(port, 4), set()
    path = f"/matches/{match_id}"
    until = time.monotonic() + seconds
    reload_at = time.monotonic() + random.uniform(5, seconds)
    next_save = time.monotonic() + random.uniform(0, 30)
    saved = 0
    await asyncio.sleep(random.uniform(0, ARRIVALS))
    try:
        version = await asyncio.wait_for(load_page(pool, path, cache, recorder), TIMEOUT)
    except asyncio.TimeoutError:
        recorder.timed_out("page load")
        version = 0
    while time.monotonic() < until:
        await asyncio.sleep(2)
        try:
            started = time.perf_counter()
            status, headers, data = await asyncio.wait_for(pool.request(
                "GET", f"{path}/poll?since={version}",
                {**BROWSER, "Accept": "*/*", "HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1:{port}{path}",
                 "HX-Target": "live", "HX-Trigger": "live"}), TIMEOUT)
            recorder.add("poll", time.perf_counter() - started, status in (200, 204))
            found = re.search(rb'data-version="(\d+)"', data)
            if found:
                version = int(found.group(1))
            if time.monotonic() >= next_save:
                next_save += 30
                cut = random.randint(14, 26)
                body = json.dumps({"piles": [FULL[:cut], FULL[cut:]], "sweeps": [0, 0]}).encode()
                started = time.perf_counter()
                status, _, _ = await asyncio.wait_for(pool.request(
                    "POST", f"/api/v1/matches/{match_id}/hands",
                    {**BROWSER, "Content-Type": "application/json", "Idempotency-Key": f"{name}-{saved}"},
                    body), TIMEOUT)
                recorder.add("save", time.perf_counter() - started, status == 201)
                saved += 1
            if time.monotonic() >= reload_at:
                reload_at = float("inf")
                version = await asyncio.wait_for(load_page(pool, path, cache, recorder), TIMEOUT)
        except asyncio.TimeoutError:
            recorder.timed_out("poll")
        except (ConnectionError, Closed, asyncio.IncompleteReadError, ValueError):
            recorder.add("poll", 0.0, False)
    pool.close()


async def simple_phone(port: int, match_id: int, seconds: float, recorder: Recorder, name: str) -> None:
    conn = Connection(port)
    until = time.monotonic() + seconds
    version, saved, next_save = 0, 0, time.monotonic() + random.uniform(0, 30)
    await asyncio.sleep(random.uniform(0, 2))
    while time.monotonic() < until:
        try:
            started = time.perf_counter()
            status, _, data = await asyncio.wait_for(conn.request(
                "GET", f"/matches/{match_id}/poll?since={version}", {"HX-Request": "true"}), TIMEOUT)
            recorder.add("poll", time.perf_counter() - started, status in (200, 204))
            found = re.search(rb'data-version="(\d+)"', data)
            if found:
                version = int(found.group(1))
            if time.monotonic() >= next_save:
                next_save += 30
                body = json.dumps({"piles": [FULL[:20], FULL[20:]], "sweeps": [0, 0]}).encode()
                started = time.perf_counter()
                status, _, _ = await asyncio.wait_for(conn.request(
                    "POST", f"/api/v1/matches/{match_id}/hands",
                    {"Content-Type": "application/json", "Idempotency-Key": f"{name}-{saved}"}, body), TIMEOUT)
                recorder.add("save", time.perf_counter() - started, status == 201)
                saved += 1
        except asyncio.TimeoutError:
            recorder.timed_out("poll")
            conn.close()
        except (ConnectionError, Closed, asyncio.IncompleteReadError, ValueError):
            recorder.add("poll", 0.0, False)
            conn.close()
        await asyncio.sleep(2)
    conn.close()


async def saturate(port: int, path: str, seconds: float, clients: int) -> tuple[float, list[float], int]:
    """As many requests as ``clients`` kept-alive connections make in ``seconds``."""
    times: list[float] = []
    errors = 0
    until = time.monotonic() + seconds

    async def hammer() -> None:
        nonlocal errors
        conn = Connection(port)
        while time.monotonic() < until:
            try:
                started = time.perf_counter()
                status, _, _ = await asyncio.wait_for(
                    conn.request("GET", path, {"HX-Request": "true"}), TIMEOUT)
                times.append(time.perf_counter() - started)
                errors += status not in (200, 204)
            except (ConnectionError, Closed, asyncio.IncompleteReadError, asyncio.TimeoutError):
                errors += 1
                conn.close()
        conn.close()

    started = time.monotonic()
    await asyncio.gather(*(hammer() for _ in range(clients)))
    return len(times) / (time.monotonic() - started), times, errors


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def line(label: str, count: float, times: list[float], errors: int, timeouts: int = 0) -> None:
    median = statistics.median(times) * 1000 if times else 0
    print(f"{label:<30} {count:>8,.1f} req/s   median {median:6.1f} ms   p99 "
          f"{percentile(times, 0.99) * 1000:6.1f} ms   errors {errors}   time-outs {timeouts}")


async def run(args: argparse.Namespace, port: int) -> None:
    setup = Connection(port)
    tables = (args.phones + 3) // 4
    matches = []
    for t in range(tables):
        _, _, body = await setup.request("POST", "/api/v1/matches", {
                "Content-Type": "application/json", "X-Scopa-Organiser": ORGANISER}, json.dumps({
            "teams": [{"name": f"Noi{t}", "players": [f"A{t}", f"C{t}"]},
                      {"name": f"Voi{t}", "players": [f"B{t}", f"D{t}"]}],
            "options": {"target": 1000}}).encode())
        matches.append(json.loads(body)["id"])
    setup.close()
    recorder = Recorder()
    phone = browser_phone if args.mode == "browser" else simple_phone
    print(f"{args.phones} {args.mode} phones at {tables} tables for {args.seconds:.0f} s: poll every 2 s, "
          f"save a hand every 30 s" + (", page and assets over up to 4 kept-alive connections each"
                                        if args.mode == "browser" else ""))
    Connection.opened = 0
    wall, cpu = time.monotonic(), time.process_time()
    await asyncio.gather(*(phone(port, matches[i // 4], args.seconds, recorder, f"phone{i}")
                           for i in range(args.phones)))
    elapsed, used = time.monotonic() - wall, time.process_time() - cpu
    for kind in ("page load", "poll", "save"):
        times = recorder.times.get(kind, [])
        line(kind, len(times) / elapsed, times, recorder.errors.get(kind, 0), recorder.timeouts.get(kind, 0))
    print(f"TCP connections opened: {Connection.opened}; load generator CPU {used:.1f} s in "
          f"{elapsed:.1f} s wall ({used / elapsed:.0%} of one core)")

    print(f"\nceiling, {args.clients} kept-alive connections flat out, {args.rounds} rounds of "
          f"{args.ceiling_seconds:.0f} s each, the two routes taking turns:")
    lookup = Connection(port)       # a fresh connection: the setup one sat idle through the run
    _, _, body = await asyncio.wait_for(lookup.request("GET", f"/api/v1/matches/{matches[0]}", {}), TIMEOUT)
    lookup.close()
    version = json.loads(body)["version"]
    ratios = []
    for _ in range(args.rounds):
        trivial = await saturate(port, "/healthz", args.ceiling_seconds, args.clients)
        line("trivial route /healthz", *trivial)
        polled = await saturate(port, f"/matches/{matches[0]}/poll?since={version}",
                                args.ceiling_seconds, args.clients)
        line("match poll, unchanged", *polled)
        ratios.append(polled[0] / trivial[0])
    print(f"the unchanged poll's throughput is {statistics.median(ratios):.0%} of the trivial "
          f"route's (median of {', '.join(f'{r:.0%}' for r in ratios)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--mode", choices=("browser", "simple"), default="browser")
    parser.add_argument("--ceiling-seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=16, help="connections for the ceiling runs")
    parser.add_argument("--rounds", type=int, default=3, help="ceiling rounds (the median ratio is shown)")
    parser.add_argument("--threads", type=int, help="passed to scopa-companion")
    parser.add_argument("--connection-limit", type=int, help="passed to scopa-companion")
    args = parser.parse_args()
    extra = []
    if args.threads:
        extra += ["--threads", str(args.threads)]
    if args.connection_limit:
        extra += ["--connection-limit", str(args.connection_limit)]
    raise_open_files()
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(folder, extra)
        try:
            asyncio.run(run(args, port))
            status = Path(f"/proc/{server.pid}/status")
            if status.exists():
                peak = re.search(r"VmHWM:\s+(\d+) kB", status.read_text())
                print(f"the server's peak memory: {int(peak.group(1)) / 1024:.0f} MiB")
        finally:
            server.terminate()
            server.wait(timeout=10)
        warnings = [l for l in Path(folder, "server.log").read_text().splitlines() if "WARNING" in l]
        if warnings:
            print(f"\nthe server warned {len(warnings)} times (waitress: requests queued for a thread); the last: {warnings[-1]}")


if __name__ == "__main__":
    main()
