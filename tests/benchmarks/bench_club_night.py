"""The arrival of a championship night: hundreds of browser-like phones opening their match
within 10 s, then polling and saving, against two (or more) versions of the companion, side by
side in one run.

Run (this checkout against another version, in its own virtual environment):

    git worktree add --detach /tmp/before 31e25a5
    python3 -m venv /tmp/before/.venv && /tmp/before/.venv/bin/pip install /tmp/before
    .venv/bin/python tests/benchmarks/bench_club_night.py \\
        --server "31e25a5=/tmp/before/.venv/bin/scopa-companion" --phones 600,1000

Each ``--server LABEL=COMMAND`` is a companion's command (words split as a shell would; this
checkout's own ``scopa-companion`` is always measured, as ``now``, unless ``--no-now``). For each
number of phones and each round, every server is started afresh (``--host 127.0.0.1 --port 0``,
a new store), one match is made for each four phones, and the phones arrive: each opens its match
page at a random moment of the first 10 s (the same moments for every server, ``--seed``), as
Chromium does: the HTML, then every stylesheet, script and icon the page names under /static/
that it does not hold yet, over at most 6 kept-alive connections to the host, kept open. It then
polls its match every 2 s as htmx does (a tick every 2 s, a tick while the last poll is still
out is dropped), with htmx's headers, saves a hand every 30 s through the JSON API, and reloads
the page once (its immutable files kept). The servers take turns, in the other order on the next
round, so that a busy moment of the machine falls on each alike.

It prints, for each server: page loads (their 50th and 99th percentile, and how many failed: an
answer other than 200, a connection refused or reset, or no whole page within 30 s), polls
(p50, p99, failed), saves (p99, failed), the server's CPU (all its processes) and peak memory,
and the load generator's own CPU share and how late its event loop ran (p99): when the load
generator uses most of a core or its loop runs late, it, not the server, is the bottleneck, and
the figures say little. Then the same as a Markdown table, for docs/running.md. It asserts
nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.rules import deck

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]        # tests/ for helpers, and bench_load's client
from bench_load import BROWSER, Closed, Connection, Pool, percentile, raise_open_files  # noqa: E402

from helpers import children_by_parent, start_companion  # noqa: E402

FULL = [str(card) for card in deck()]
TIMEOUT = 30.0          # a page load or a poll not answered by then has failed
ARRIVALS = 10.0         # every phone opens its match within the first 10 s
POLL_EVERY = 2.0        # templates/table/_live.html: hx-trigger="every 2s"
SAVE_EVERY = 30.0
CONNECTIONS = 6         # Chromium's connections to one host over HTTP/1.1
ORGANISER = "BENCH-CLUB-NIGHT-1"
ASSETS = re.compile(rb'<(?:link|script)\b[^>]*?(?:href|src)="(/static/[^"]+)"')
FAILURES = (OSError, Closed, asyncio.IncompleteReadError, ValueError)


@dataclass
class Figures:
    """What one server did under one run of phones."""
    label: str
    phones: int
    pages: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    saves: list[float] = field(default_factory=list)
    failed: dict[str, int] = field(default_factory=lambda: {"page": 0, "poll": 0, "save": 0})
    wall: float = 0.0
    server_cpu: float = 0.0
    server_memory: float = 0.0
    loader_cpu: float = 0.0
    loop_late: list[float] = field(default_factory=list)
    connections: int = 0


# -- The server, as a player starts it -------------------------------------------------------

def start(command: list[str], folder: str):
    env = dict(os.environ, SCOPA_DATA=os.path.join(folder, "data"), SCOPA_ORGANISER_PIN=ORGANISER)
    log = open(os.path.join(folder, "server.log"), "w")
    try:
        server, base = start_companion(*command[1:], "--db", os.path.join(folder, "bench.sqlite"), env=env,
                                       output=log, command=command[0])
    except RuntimeError as error:
        raise SystemExit(f"{command[0]} did not start: {error}") from None
    return server, int(base.rsplit(":", 1)[1])


def processes(root: int) -> list[int]:
    """``root`` and every process below it (a server of several processes), from /proc."""
    children = children_by_parent()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(root: int) -> float:
    """CPU time used so far by ``root`` and the processes below it."""
    total = 0
    for pid in processes(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])          # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def peak_memory(root: int) -> float:
    """The peak resident memory of ``root`` and the processes below it, added up, in MiB."""
    total = 0
    for pid in processes(root):
        try:
            found = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
        except OSError:
            continue
        total += int(found.group(1)) if found else 0
    return total / 1024


# -- The phones --------------------------------------------------------------------------------

async def load_page(pool: Pool, path: str, kept: set[str]) -> tuple[bool, int]:
    """The page and the files it names that this phone does not keep yet, as Chromium loads
    them (the files at once, over the pool); whether all came, and the match's version."""
    status, _, html = await pool.request("GET", path, {**BROWSER, "Accept": "text/html"})
    wanted = [url.decode() for url in ASSETS.findall(html) if url.decode() not in kept]
    answers = await asyncio.gather(*(pool.request("GET", url, {**BROWSER, "Accept": "*/*"})
                                     for url in wanted))
    ok = status == 200
    for url, (got, headers, _) in zip(wanted, answers):
        ok &= got == 200
        if "immutable" in headers.get("cache-control", ""):
            kept.add(url)
    found = re.search(rb'id="live-poll"[^>]*data-version="(\d+)"', html)
    return ok, int(found.group(1)) if found else 0


async def phone(port: int, match_id: int, name: str, plan: random.Random, until: float,
                figures: Figures) -> None:
    pool, kept = Pool(port, CONNECTIONS), set()
    path = f"/matches/{match_id}"
    start = time.monotonic()
    arrive = plan.uniform(0, ARRIVALS)
    reload_at = start + plan.uniform(ARRIVALS + 5, max(ARRIVALS + 6, until - start - 5))
    next_save = start + arrive + plan.uniform(0, SAVE_EVERY)
    cut = plan.randint(14, 26)

    async def page() -> int:
        began = time.perf_counter()
        try:
            ok, version = await asyncio.wait_for(load_page(pool, path, kept), TIMEOUT)
        except (asyncio.TimeoutError, *FAILURES):
            ok, version = False, 0
        figures.pages.append(time.perf_counter() - began)
        figures.failed["page"] += not ok
        return version

    await asyncio.sleep(arrive)
    version = await page()
    saved = 0
    tick = time.monotonic()
    while True:
        # htmx's poll: a tick every 2 s; a tick that comes while the last poll is out is dropped
        now = time.monotonic()
        tick += POLL_EVERY * max(1, -(-(now - tick) // POLL_EVERY))
        if tick >= until:
            break
        await asyncio.sleep(tick - now)
        began = time.perf_counter()
        try:
            status, _, data = await asyncio.wait_for(pool.request(
                "GET", f"{path}/poll?since={version}",
                {**BROWSER, "Accept": "*/*", "HX-Request": "true", "HX-Target": "live-poll",
                 "HX-Trigger": "live-poll", "HX-Current-URL": f"http://127.0.0.1:{port}{path}"}), TIMEOUT)
            ok = status == 200
            found = re.search(rb'data-version="(\d+)"', data)
            version = int(found.group(1)) if found else version
        except (asyncio.TimeoutError, *FAILURES):
            ok = False
        figures.polls.append(time.perf_counter() - began)
        figures.failed["poll"] += not ok
        if time.monotonic() >= next_save:
            next_save += SAVE_EVERY
            body = json.dumps({"piles": [FULL[:cut], FULL[cut:]], "sweeps": [0, 0]}).encode()
            began = time.perf_counter()
            try:
                status, _, _ = await asyncio.wait_for(pool.request(
                    "POST", f"/api/v1/matches/{match_id}/hands",
                    {**BROWSER, "Content-Type": "application/json", "Idempotency-Key": f"{name}-{saved}"},
                    body), TIMEOUT)
                ok = status == 201
            except (asyncio.TimeoutError, *FAILURES):
                ok = False
            figures.saves.append(time.perf_counter() - began)
            figures.failed["save"] += not ok
            saved += 1
        if time.monotonic() >= reload_at:
            reload_at = float("inf")
            version = await page()
    pool.close()


async def watch_loop(late: list[float], until: float) -> None:
    """How late the load generator's event loop wakes a sleeper: its own delay, which every
    figure measured here includes."""
    while time.monotonic() < until:
        asked = time.monotonic()
        await asyncio.sleep(0.05)
        late.append(time.monotonic() - asked - 0.05)


async def night(port: int, phones: int, seconds: float, seed: int, figures: Figures) -> None:
    setup = Connection(port)
    matches = []
    for table in range((phones + 3) // 4):
        _, _, body = await setup.request("POST", "/api/v1/matches", {
            "Content-Type": "application/json", "X-Scopa-Organiser": ORGANISER}, json.dumps({
                "teams": [{"name": f"Noi{table}", "players": [f"A{table}", f"C{table}"]},
                          {"name": f"Voi{table}", "players": [f"B{table}", f"D{table}"]}],
                "options": {"target": 1000}}).encode())
        matches.append(json.loads(body)["id"])
    setup.close()
    plan = random.Random(seed)
    plans = [random.Random(plan.random()) for _ in range(phones)]
    Connection.opened = 0
    until = time.monotonic() + seconds
    wall, cpu = time.monotonic(), time.process_time()
    await asyncio.gather(watch_loop(figures.loop_late, until),
                         *(phone(port, matches[i // 4], f"phone{i}", plans[i], until, figures)
                           for i in range(phones)))
    figures.wall = time.monotonic() - wall
    figures.loader_cpu = (time.process_time() - cpu) / figures.wall
    figures.connections = Connection.opened


def measure(label: str, command: list[str], phones: int, seconds: float, seed: int) -> Figures:
    figures = Figures(label, phones)
    with tempfile.TemporaryDirectory() as folder:
        server, port = start(command, folder)
        try:
            used = cpu_seconds(server.pid)
            asyncio.run(night(port, phones, seconds, seed, figures))
            figures.server_cpu = (cpu_seconds(server.pid) - used) / figures.wall
            figures.server_memory = peak_memory(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
    return figures


# -- What it prints ---------------------------------------------------------------------------

def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds < 1 else f"{seconds:,.1f} s"


def merged(runs: list[Figures]) -> Figures:
    """The rounds of one server at one number of phones, as one."""
    total = Figures(runs[0].label, runs[0].phones)
    for run in runs:
        total.pages += run.pages
        total.polls += run.polls
        total.saves += run.saves
        for kind in total.failed:
            total.failed[kind] += run.failed[kind]
        total.loop_late += run.loop_late
    total.server_cpu = statistics.mean(run.server_cpu for run in runs)
    total.server_memory = max(run.server_memory for run in runs)
    total.loader_cpu = statistics.mean(run.loader_cpu for run in runs)
    total.connections = round(statistics.mean(run.connections for run in runs))
    return total


def report(figures: Figures) -> None:
    print(f"  {figures.label:<12} page load p50 {ms(statistics.median(figures.pages or [0])):>8}  "
          f"p99 {ms(percentile(figures.pages, 0.99)):>8}  failed {figures.failed['page']}/{len(figures.pages)}  | "
          f"poll p50 {ms(statistics.median(figures.polls or [0])):>8}  p99 {ms(percentile(figures.polls, 0.99)):>8}  "
          f"failed {figures.failed['poll']}/{len(figures.polls)}  | save p99 {ms(percentile(figures.saves, 0.99))}  "
          f"failed {figures.failed['save']}/{len(figures.saves)}")
    print(f"  {'':<12} server CPU {figures.server_cpu:.0%} of one core, peak memory "
          f"{figures.server_memory:.0f} MiB; load generator CPU {figures.loader_cpu:.0%} of one core, "
          f"its loop late p99 {ms(percentile(figures.loop_late, 0.99))}; {figures.connections} connections")


def table(results: list[Figures]) -> None:
    print("\n| phones | version | page-load p99 | failed page loads | poll p50 | poll p99 | failed polls "
          "| server CPU | load generator CPU |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for figures in results:
        print(f"| {figures.phones:,} | {figures.label} | {ms(percentile(figures.pages, 0.99))} | "
              f"{figures.failed['page']} of {len(figures.pages):,} | {ms(statistics.median(figures.polls or [0]))} | "
              f"{ms(percentile(figures.polls, 0.99))} | {figures.failed['poll']} of {len(figures.polls):,} | "
              f"{figures.server_cpu:.0%} | {figures.loader_cpu:.0%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", action="append", default=[], metavar="LABEL=COMMAND",
                        help="another companion to measure: a label and its command "
                             "(repeatable); the command is given --host, --port and --db")
    parser.add_argument("--no-now", action="store_true", help="leave this checkout's companion out")
    parser.add_argument("--phones", default="600,1000", help="the numbers of phones, comma-separated")
    parser.add_argument("--seconds", type=float, default=60, help="each run, arrivals included")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each server at each number")
    parser.add_argument("--seed", type=int, default=45)
    args = parser.parse_args()
    servers = [] if args.no_now else [("now", [str(Path(sys.executable).with_name("scopa-companion"))])]
    for given in args.server:
        label, _, command = given.partition("=")
        servers.append((label, shlex.split(command)))
    if not servers:
        parser.error("nothing to measure")
    raise_open_files()
    results: list[Figures] = []
    for phones in (int(count) for count in args.phones.split(",")):
        print(f"\n{phones} phones arriving in {ARRIVALS:.0f} s, {args.seconds:.0f} s a run:", flush=True)
        runs: dict[str, list[Figures]] = {label: [] for label, _ in servers}
        for round_ in range(args.rounds):
            for label, command in (servers if round_ % 2 == 0 else servers[::-1]):
                figures = measure(label, command, phones, args.seconds, args.seed + round_)
                runs[label].append(figures)
                report(figures)
        if args.rounds > 1:
            print(" all rounds:")
        for label, _ in servers:
            results.append(merged(runs[label]))
            if args.rounds > 1:
                report(results[-1])
    table(results)


if __name__ == "__main__":
    main()
