"""Load benchmark: phones at a club night against the companion, on loopback.

Run: .venv/bin/python tests/bench_load.py [--phones 120] [--seconds 60]

It starts ``scopa-companion`` as README starts it (the installed command, on a fresh SQLite
file), creates one match per four phones, then each simulated phone polls its match every 2 s
(as the match page does) and saves a hand every 30 s, on a kept-alive connection. It prints
requests per second, median and 99th-percentile latency and errors; then, in the same run, the
most requests per second the same server answers on a trivial route and on the match poll.
Not part of the test run: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.rules import deck

FULL = [str(card) for card in deck()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, folder: str) -> subprocess.Popen:
    command = Path(sys.executable).with_name("scopa-companion")
    env = dict(os.environ, SCOPA_DATA=os.path.join(folder, "instance"))
    server = subprocess.Popen([str(command), "--host", "127.0.0.1", "--port", str(port),
                               "--db", os.path.join(folder, "bench.sqlite")],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the companion did not start")


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}

    def add(self, kind: str, seconds: float, ok: bool) -> None:
        with self.lock:
            self.times.setdefault(kind, []).append(seconds)
            if not ok:
                self.errors[kind] = self.errors.get(kind, 0) + 1


def request(conn: http.client.HTTPConnection, method: str, path: str, body: dict | None = None,
            headers: dict | None = None) -> tuple[int, bytes, float]:
    data = json.dumps(body).encode() if body is not None else None
    started = time.perf_counter()
    conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    payload = response.read()
    return response.status, payload, time.perf_counter() - started


def phone(port: int, match_id: int, until: float, recorder: Recorder, name: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    version, saved = 0, 0
    next_poll = time.monotonic() + random.uniform(0, 2)
    next_save = time.monotonic() + random.uniform(0, 30)
    while True:
        time.sleep(max(0.0, next_poll - time.monotonic()))
        if time.monotonic() >= until:
            break
        next_poll += 2
        try:
            status, payload, took = request(conn, "GET", f"/matches/{match_id}/poll?since={version}",
                                            headers={"HX-Request": "true"})
            recorder.add("poll", took, status in (200, 204))
            if status == 200:
                marker = payload.find(b'data-version="')
                if marker >= 0:
                    version = int(payload[marker + 14:payload.find(b'"', marker + 14)])
            if time.monotonic() >= next_save:
                cut = random.randint(14, 26)
                status, _, took = request(conn, "POST", f"/api/v1/matches/{match_id}/hands",
                                          {"piles": [FULL[:cut], FULL[cut:]], "sweeps": [0, 0]},
                                          {"Idempotency-Key": f"{name}-{saved}"})
                recorder.add("save", took, status == 201)
                saved += 1
                next_save += 30
        except (OSError, http.client.HTTPException):
            recorder.add("poll", 0.0, False)
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def saturate(port: int, path: str, seconds: float, clients: int) -> tuple[float, list[float], int]:
    """As many requests as ``clients`` kept-alive connections can make in ``seconds``."""
    times: list[float] = []
    errors = 0
    lock = threading.Lock()
    until = time.monotonic() + seconds

    def hammer() -> None:
        nonlocal errors
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, bad = [], 0
        while time.monotonic() < until:
            try:
                status, _, took = request(conn, "GET", path, headers={"HX-Request": "true"})
                mine.append(took)
                bad += status not in (200, 204)
            except (OSError, http.client.HTTPException):
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        with lock:
            times.extend(mine)
            errors += bad

    started = time.monotonic()
    threads = [threading.Thread(target=hammer) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(times) / (time.monotonic() - started), times, errors


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def line(label: str, count: float, times: list[float], errors: int) -> None:
    print(f"{label:<34} {count:>9,.1f} req/s   median {statistics.median(times) * 1000 if times else 0:6.1f} ms"
          f"   p99 {percentile(times, 0.99) * 1000:6.1f} ms   errors {errors}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--ceiling-seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=16, help="connections for the ceiling runs")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, folder)
        try:
            setup = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            tables = (args.phones + 3) // 4
            matches = []
            for t in range(tables):
                _, body, _ = request(setup, "POST", "/api/v1/matches", {
                    "teams": [{"name": f"Noi{t}", "players": [f"A{t}", f"C{t}"]},
                              {"name": f"Voi{t}", "players": [f"B{t}", f"D{t}"]}],
                    "options": {"target": 1000}})
                matches.append(json.loads(body)["id"])
            recorder = Recorder()
            until = time.monotonic() + args.seconds
            phones = [threading.Thread(target=phone, args=(port, matches[i // 4], until, recorder, f"phone{i}"))
                      for i in range(args.phones)]
            print(f"{args.phones} phones at {tables} tables for {args.seconds:.0f} s: poll every 2 s, "
                  f"save a hand every 30 s")
            started = time.monotonic()
            for thread in phones:
                thread.start()
            for thread in phones:
                thread.join()
            elapsed = time.monotonic() - started
            everything = [t for times in recorder.times.values() for t in times]
            line("all requests", len(everything) / elapsed, everything, sum(recorder.errors.values()))
            for kind in ("poll", "save"):
                times = recorder.times.get(kind, [])
                line(f"  {kind}", len(times) / elapsed, times, recorder.errors.get(kind, 0))

            print(f"\nceiling, {args.clients} connections flat out for {args.ceiling_seconds:.0f} s each:")
            trivial = saturate(port, "/healthz", args.ceiling_seconds, args.clients)
            line("trivial route /healthz", trivial[0], trivial[1], trivial[2])
            _, body, _ = request(setup, "GET", f"/api/v1/matches/{matches[0]}")
            version = json.loads(body)["version"]
            polled = saturate(port, f"/matches/{matches[0]}/poll?since={version}", args.ceiling_seconds, args.clients)
            line("match poll, unchanged (204)", polled[0], polled[1], polled[2])
            print(f"poll throughput is {polled[0] / trivial[0]:.0%} of the trivial route's")
            print("aim: 120 phones with p99 under 100 ms and no errors; the poll at least half the trivial route")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
