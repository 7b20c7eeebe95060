"""Guest-cost benchmark (issue 32, "Bounded requests"): what each request a guest may send costs
the server, at 5,000 matches.

Run: .venv/bin/python tests/benchmarks/bench_guest.py [--matches 5000] [--repeat 15]

It builds a store as bench_growth does (``add_club_matches``: finished matches among a club's
40 players), with a match of 200 hands and a tournament night whose first round is played,
then starts ``scopa-companion`` on it (helpers.start_companion) and asks every route a guest
can reach, with representative arguments and the worst cases found: the referee's captures
with 39 cards on the table, long query strings, the players' pages, the API's lists at their
biggest limits, a 5,000-digit number, the edit of the oldest finished match. One request at a
time on one kept-alive connection, as a browser sends it (gzip accepted), each ``--repeat``
times. The time is from the request sent to the answer read, on loopback: the server's time and
a fraction of a millisecond (``/healthz`` shows how much).

A guest is not the organiser: each request carries ``X-Forwarded-For``, and a relayed request
is never taken for the machine itself; a route that answers a guest 403 is not a guest's and
is left out. The routes of the app that no row reaches are listed at the end, with why.

It prints each request's median and max in milliseconds, costliest first, the answer's size
and status, and marks those over the goal (50 ms, issue 41). It asserts nothing.

Then the floods (issue 41): while a phone saves a hand every 100 ms through the API (from
127.0.0.2; in 40 matches in turn, as a night's tables save theirs: a match saving every 100 ms
is itself a flood, whose writes past a table's pace wait their turn), 16 guest connections, each from an address of its own
(127.0.0.10 to 127.0.0.25), send one request over and over, each 100 ms after the last answer:
the attacks of issue 41 (a hand posted with the right ``X-Scopa-PIN``, 200 KB of
``Accept-Language``, 200 KB query strings, a player's whole rating history), the guests saving
hands of their own, and the costliest rows of the table. For each flood it prints the phone's
saves (p50, p90 and p99, ms; the goal is a p99 under 100 ms), how many it made, and what the guests
were answered. ``--store PATH`` keeps the built store there and runs on a copy of it, so that
two versions of the code are measured on the same store (``--no-floods`` skips the floods;
``--flood WORDS``, repeatable, runs only those whose label holds WORDS, any row of the table
among them).

Two versions in one run (the machine is noisy: compare them as ratios measured side by side):

    git worktree add --detach /tmp/before 2bbadff
    python3 -m venv /tmp/before/.venv && /tmp/before/.venv/bin/pip install /tmp/before
    .venv/bin/python tests/benchmarks/bench_guest.py --store /tmp/guest.sqlite \\
        --server "2bbadff=/tmp/before/.venv/bin/scopa-companion"

Each ``--server LABEL=COMMAND`` is a companion's command (words split as a shell would; this
checkout's own ``scopa-companion`` is always measured, as ``now``, unless ``--no-now``), each
served on its own copy of the store, all started at once. The table's tries alternate between
them, try by try; each flood runs on each in turn, in the other order at the next flood. The
table then gives each version's median and its ratio to the first's, and the floods each
version's saves side by side, with the ratio of their p99s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

from bench_growth import HAND, add_club_matches

from companion import create_app, store
from companion.rules import deck

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))        # tests/, for helpers
from helpers import match_form, start_companion  # noqa: E402
from markup import nodes  # noqa: E402

GOAL = 50.0         # ms: a guest's costliest request (issue 41)
SAVE_GOAL = 100.0   # ms: the phones' saves' p99 under each flood
GUESTS = 16         # connections in a flood, each from an address of its own
PAUSE = 0.1         # s between an answer and a guest's next request
TABLES = 40         # matches the phone's saves go to in turn: 15 a minute each
ORGANISER = "BENCH-GUEST-1"
PIN = "246813"
FULL = [str(card) for card in deck()]
WIN = {"piles": [FULL[:22], FULL[22:]], "sweeps": [1, 0]}          # 5 - 0: ends a match to 5
GUEST = {"X-Forwarded-For": "192.168.1.77", "Accept-Encoding": "gzip, deflate",
         "Accept-Language": "it-IT,it;q=0.9"}
LONG = "9" * 5000


class Row:
    """One request timed: its label, method, path, JSON body, headers; ``prepare`` (untimed)
    gives what changes between tries (an If-Match). A page's form is posted as a browser posts
    it: ``form``'s fields with the hidden ones (the CSRF token, the form's key, the version) and
    the cookie of ``form_page``, fetched (untimed) before each try."""

    def __init__(self, label: str, path: str, method: str = "GET", body: dict | None = None,
                 headers: dict | None = None, prepare: Callable[[], dict] | None = None,
                 form: dict | None = None, form_page: str | None = None, refused: bool = False,
                 other: dict | None = None):
        self.label, self.path, self.method, self.body = label, path, method, body
        self.other = other          # every other try sends this body (or form) instead: a change
        self.headers, self.prepare = headers or {}, prepare
        self.form, self.form_page = form, form_page
        self.refused = refused      # its 403 is the answer (a wrong code), not a door closed
        self.samples: list[float] = []
        self.statuses: set[int] = set()
        self.size = 0


def form_of(connection, page: str) -> tuple[dict[str, str], str]:
    """The hidden fields of ``page`` and the session cookie it set."""
    connection.request("GET", page, headers={k: v for k, v in GUEST.items() if k != "Accept-Encoding"})
    answer = connection.getresponse()
    fields: dict[str, str] = {}
    for node in nodes(answer.read(), "input[type=hidden][name]"):    # the forms' hidden fields
        fields.setdefault(node.attributes["name"], node.attributes.get("value") or "")
    cookie = (answer.getheader("Set-Cookie") or "").split(";")[0]
    return fields, cookie


def build(folder: str, matches: int) -> dict:
    """The store: ``matches`` finished matches, a long match, a tournament night; the ids the
    rows ask for."""
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                      "DATABASE": os.path.join(folder, "guest.sqlite")})
    client = app.test_client()
    started = time.perf_counter()
    add_club_matches(client, 0, matches)
    long_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"],
                                                   "options": {"target": 1000}}).get_json()["id"]
    for _ in range(200):
        client.post(f"/api/v1/matches/{long_id}/hands", json=HAND)
    with app.app_context():
        from companion.tournaments import service
        night = service.create("Sera", "round-robin", "classica", {"target": 5},
                               [f"Player {n}" for n in range(8)], None, None, None).tournament_id
        service.start_next_round(service.load(night))
        for table in service.load(night).rounds[0].tables:
            if table.match_id:
                client.post(f"/api/v1/matches/{table.match_id}/hands", json=WIN)
        service.start_next_round(service.load(night))
    pinned = client.post("/api/v1/matches", json={"players": ["Carla", "Dario"], "pin": PIN,
                                                  "options": {"target": 1000}}).get_json()["id"]
    hand = client.get(f"/api/v1/matches/{long_id}").get_json()["hands"][0]["id"]
    first = client.get("/api/v1/matches/1").get_json()["hands"][0]["id"]
    second = client.get("/api/v1/matches/2").get_json()["hands"][0]["id"]
    print(f"store built in {time.perf_counter() - started:.0f} s: {matches} matches, a match of "
          f"200 hands, a tournament night", flush=True)
    return {"long": long_id, "hand": hand, "first_hand": first, "second_hand": second, "night": night,
            "pinned": pinned}


def rows(ids: dict, connection) -> list[Row]:
    long_id, hand, night = ids["long"], ids["hand"], ids["night"]
    table39 = [card for card in FULL if card != "5d"]
    captures = "&".join(f"table={card}" for card in table39) + "&played=5d&variant=quindici"
    piles = "&".join(f"c_{card}={i % 2}" for i, card in enumerate(FULL[:30]))

    def version_of(path: str) -> Callable[[], dict]:
        def prepare() -> dict:
            connection.request("GET", path, headers=GUEST)
            answer = connection.getresponse()
            answer.read()
            return {"If-Match": answer.getheader("ETag") or '"0"'}
        return prepare

    return [
        Row("/healthz (the floor)", "/healthz"),
        Row("home page", "/"),
        Row("home page, 8 KB of query", "/?" + "&".join(f"x{n}=1" for n in range(1300))),
        Row("matches in play", "/matches?state=playing"),
        Row("finished matches, an old page", "/matches?state=finished&before=2500"),
        Row("archive", "/matches?state=archived"),
        Row("finished matches, before=5,000 digits", f"/matches?state=finished&before={LONG}"),
        Row("new match page", "/matches/new"),
        Row("new match, same players as last", "/matches/new?same=last"),
        Row("new match, rules of a variant", "/matches/new/rules?preset=quindici"),
        Row("new match, chances of 4 rated players",
            "/matches/new/chances?layout=2x2&player1=Player+1&player2=Player+2&player3=Player+3&player4=Player+4"),
        Row("new match, rules summary", "/matches/new/summary?preset=napola&target=31"),
        Row("a finished match", "/matches/1"),
        Row("a match of 200 hands", f"/matches/{long_id}"),
        Row("a match of 200 hands, poll unchanged", f"/matches/{long_id}/poll?since=999999"),
        Row("a match of 200 hands, poll from version 1", f"/matches/{long_id}/poll?since=1",
            headers={"HX-Request": "true"}),
        Row("a match of 200 hands, CSV", f"/matches/{long_id}/export.csv"),
        Row("a match, join page (QR)", f"/matches/{long_id}/join"),
        Row("a match, PIN page", f"/matches/{long_id}/pin"),
        Row("a match, new hand form", f"/matches/{long_id}/hands/new"),
        Row("a match, new hand form by counts", f"/matches/{long_id}/hands/new?mode=counts"),
        Row("a hand's page", f"/matches/{long_id}/hands/{hand}"),
        Row("a hand's edit form", f"/matches/{long_id}/hands/{hand}/edit"),
        Row("a hand's delete page", f"/matches/{long_id}/hands/{hand}/delete"),
        Row("a match's delete page", f"/matches/{long_id}/delete"),
        Row("a finished match's rematch page", "/matches/1/rematch"),
        Row("referee tools", "/referee/"),
        Row("referee captures, 39 cards, quindici", "/referee/captures?" + captures),
        Row("referee captures, 39 cards, last page", "/referee/captures?" + captures + "&page=86"),
        Row("referee captures, 39 cards, htmx", "/referee/captures?" + captures, headers={"HX-Request": "true"}),
        Row("referee primiera, every card", "/referee/primiera?cards_0=" + "+".join(FULL[:20])
            + "&cards_1=" + "+".join(FULL[20:])),
        Row("referee deal", "/referee/deal?table=10d&table=10c&table=10s&table=5b"),
        Row("referee rules", "/referee/rules?variant=sbarazzina"),
        Row("referee claim, 30 cards", "/referee/claim?claimer=0&" + piles),
        Row("leaderboard", "/players"),
        Row("leaderboard by rating", "/players?order=rating"),
        Row("leaderboard, this year, a variant", "/players?period=year&variant=classica"),
        Row("leaderboard, page 2", "/players?page=2"),
        Row("leaderboard, 4 KB variant", "/players?variant=" + "x" * 4000),
        Row("a player's page (most matches)", "/players/1"),
        Row("a player's page, a variant", "/players/1?variant=classica"),
        Row("tournaments", "/tournaments"),
        Row("a tournament", f"/tournaments/{night}"),
        Row("a tournament's board", f"/tournaments/{night}/board"),
        Row("a tournament's board, live", f"/tournaments/{night}/board/live"),
        Row("a tournament's pairings", f"/tournaments/{night}/pairings"),
        Row("a tournament's standings", f"/tournaments/{night}/standings"),
        Row("backup page", "/backup"),
        Row("every match as CSV", "/export.csv"),
        Row("organiser page", "/organiser"),
        Row("rules of every variant", "/rules"),
        Row("rules of a variant, changed", "/rules/quindici?target=21&hands=5&cappotto=1"),
        Row("rules of a match", f"/rules/classica?match={long_id}"),
        Row("language switch", "/lang/fr?next=/players"),
        Row("manifest", "/manifest.webmanifest"),
        Row("API: matches, limit 200", "/api/v1/matches?limit=200"),
        Row("API: finished matches, limit 200, old", "/api/v1/matches?state=finished&limit=200&before=2000"),
        Row("API: a match of 200 hands", f"/api/v1/matches/{long_id}"),
        Row("API: a hand", f"/api/v1/matches/{long_id}/hands/{hand}"),
        Row("API: players, limit 500", "/api/v1/players?limit=500"),
        Row("API: players by rating, since", "/api/v1/players?limit=500&order=rating&since=2000-01-01"),
        Row("API: a player", "/api/v1/players/1"),
        Row("API: ratings", "/api/v1/ratings"),
        Row("API: variants", "/api/v1/variants"),
        Row("API: a tournament", f"/api/v1/tournaments/{night}"),
        Row("API: OpenAPI document", "/api/v1/openapi.json"),
        Row("API: captures, 39 cards", "/api/v1/captures", "POST",
            {"variant": "quindici", "table": table39, "played": "5d", "limit": 100, "page": 17}),
        Row("API: score a hand", "/api/v1/score", "POST", HAND),
        Row("API: deal", "/api/v1/deal", "POST", {"table": ["10d", "10c", "10s", "5b"]}),
        Row("API: claim", "/api/v1/claim", "POST", {"options": {"claims": True}, "claimer": 0,
                                                    "piles": [FULL[:20], FULL[20:30]]}),
        Row("API: a new match", "/api/v1/matches", "POST", {"players": ["Ospite", "Altro"]}),
        Row("API: a hand saved (match of 200)", f"/api/v1/matches/{long_id}/hands", "POST", HAND),
        Row("API: the oldest finished match's first hand edited", f"/api/v1/matches/1/hands/{ids['first_hand']}",
            "PUT", HAND, prepare=version_of(f"/api/v1/matches/1/hands/{ids['first_hand']}"), other=WIN),
        Row("form: a new match", "/matches/new", "POST", form=match_form(), form_page="/matches/new"),
        Row("form: a hand saved by counts (match of 200)", f"/matches/{long_id}/hands/new", "POST",
            form=COUNTS, form_page=f"/matches/{long_id}/hands/new?mode=tallies"),
        Row("form: a hand's preview (match of 200)", f"/matches/{long_id}/hands/preview", "POST",
            form=COUNTS, form_page=f"/matches/{long_id}/hands/new?mode=tallies"),
        Row("form: an old finished match's hand edited", f"/matches/2/hands/{ids['second_hand']}/edit",
            "POST", form=COUNTS, form_page=f"/matches/2/hands/{ids['second_hand']}/edit?mode=tallies",
            other={**COUNTS, "t_cards_0": "14", "t_coins_0": "3"}),
        Row("form: a wrong organiser's code", "/organiser", "POST", form={"code": "AAA-AAA"},
            form_page="/organiser", refused=True),
    ]


# A hand by counts as the form sends it: 22 cards and 5 coins to the first side, the rest worked out.
COUNTS = {"mode": "tallies", "rest": "1", "t_cards_0": "22", "t_coins_0": "5", "settebello": "0",
          "sweeps_0": "0", "sweeps_1": "0", "save": "1"}


class Served:
    """One version's companion under measure: its label, port, kept-alive connection (which
    http.client opens again after a close) and its rows."""

    def __init__(self, label: str, port: int, ids: dict):
        self.label, self.port = label, port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.table = rows(ids, self.connection)


def one_try(connection, row: Row, attempt: int) -> None:
    """``row`` asked once on ``connection`` (its ``attempt``-th time), timed."""
    body, form = row.body, row.form
    if row.other is not None and attempt % 2:
        body, form = (row.other, None) if row.body is not None else (None, row.other)
    headers = {**GUEST, **row.headers, **(row.prepare() if row.prepare else {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if form is not None:
        hidden, cookie = form_of(connection, row.form_page)
        data = urlencode({**hidden, **form}).encode()
        headers.update({"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    start = time.perf_counter()
    connection.request(row.method, row.path, body=data, headers=headers)
    answer = connection.getresponse()
    body = answer.read()
    row.samples.append((time.perf_counter() - start) * 1000)
    row.statuses.add(answer.status)
    row.size = len(body)
    if answer.getheader("Connection", "").lower() == "close":
        connection.close()


def measure(servers: list[Served], repeat: int) -> None:
    """Every row ``repeat`` times on every server, the servers taking turns try by try (in the
    other order at the next try)."""
    for i in range(len(servers[0].table)):
        for attempt in range(repeat):
            for served in (servers if attempt % 2 == 0 else servers[::-1]):
                one_try(served.connection, served.table[i], attempt)
    for served in servers:
        served.connection.close()


def not_reached(table: list[Row]) -> list[str]:
    """The app's routes no row reaches, each with its methods."""
    # A store of its own: one left in /tmp by another version's run may be newer than this one.
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "x", "DATABASE": os.path.join(folder, "unused.sqlite")})
    adapter = app.url_map.bind("localhost")
    reached = set()
    for row in table:
        try:
            reached.add((adapter.match(row.path.split("?")[0], method=row.method)[0], row.method))
        except Exception:       # noqa: BLE001 - a path no route takes
            pass
    left = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if (rule.endpoint, method) not in reached and rule.endpoint != "static":
                left.append(f"{method} {rule.rule}")
    return left


class Flood:
    """One request that 16 guests send over and over (``request(port, guest)`` gives the
    method, path, headers and body of guest number ``guest`` of the server on ``port``), and
    what each server did under it (``runs``, by its label)."""

    def __init__(self, label: str, request: Callable[[int, int], tuple[str, str, dict, bytes | None]] | None):
        self.label, self.request = label, request
        self.runs: dict[str, Run] = {}


class Run:
    """One flood on one server: what the guests were answered, the phone's saves."""

    def __init__(self) -> None:
        self.answers: dict[int | str, int] = {}
        self.saves: list[float] = []
        self.sent = 0


def connect(port: int, address: str) -> http.client.HTTPConnection:
    """A kept-alive connection from ``address`` (127.0.0.x: each guest its own address)."""
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address, 0))


def ask(connection, method: str, path: str, headers: dict, body: bytes | None) -> tuple[int, bytes, bool]:
    """One request on ``connection``: its status, its body, whether the server closed it."""
    connection.request(method, path, body=body, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    return answer.status, data, answer.getheader("Connection", "").lower() == "close" or answer.will_close


def organiser_match(port: int) -> int:
    """A match of 1,000 points, made as the organiser (no limit on new matches): its id. From
    an address of its own: the table's wrong codes hold 127.0.0.1's, the header's included."""
    connection = connect(port, "127.0.0.3")
    status, data, _closed = ask(connection, "POST", "/api/v1/matches",
                                {"Content-Type": "application/json", "X-Scopa-Organiser": ORGANISER},
                                json.dumps({"players": ["Elena", "Franco"], "options": {"target": 1000}}).encode())
    connection.close()
    assert status == 201, (status, data[:200])
    return json.loads(data)["id"]


def guest_loop(port: int, flood: Flood, run: Run, guest: int, stop: threading.Event, lock: threading.Lock) -> None:
    connection = connect(port, f"127.0.0.{10 + guest}")
    while not stop.is_set():
        method, path, headers, body = flood.request(port, guest)  # type: ignore[misc]  # a flood of guests has one
        try:
            status, _data, closed = ask(connection, method, path, headers, body)
        except (OSError, http.client.HTTPException) as error:
            status, closed = type(error).__name__, True
        with lock:
            run.answers[status] = run.answers.get(status, 0) + 1
            run.sent += 1
        if closed:
            connection.close()
            connection = connect(port, f"127.0.0.{10 + guest}")
        stop.wait(PAUSE)
    connection.close()


def phone_saves(port: int, run: Run, seconds: float) -> None:
    """The phones at the tables: a hand saved every 100 ms for ``seconds``, in each of
    ``TABLES`` matches in turn, as a night's tables save theirs (one match saving every 100 ms
    is a flood itself: its writes past a table's pace wait their turn, web.precedence)."""
    matches = [organiser_match(port) for _ in range(TABLES)]
    connection = connect(port, "127.0.0.2")
    ends = time.perf_counter() + seconds
    number = 0
    while time.perf_counter() < ends:
        number += 1
        match_id = matches[number % TABLES]
        headers = {"Content-Type": "application/json", "Idempotency-Key": f"save-{match_id}-{number}"}
        start = time.perf_counter()
        status, data, closed = ask(connection, "POST", f"/api/v1/matches/{match_id}/hands", headers,
                                   json.dumps(HAND).encode())
        run.saves.append((time.perf_counter() - start) * 1000)
        assert status == 201, (status, data[:200])
        if closed:
            connection.close()
            connection = connect(port, "127.0.0.2")
        time.sleep(PAUSE)
    connection.close()


def flood(label: str, port: int, flood: Flood, seconds: float) -> None:
    """``flood`` on the server ``label`` (at ``port``): the guests under way, then the phone
    saving for ``seconds``."""
    run = flood.runs[label] = Run()
    stop, lock = threading.Event(), threading.Lock()
    guests = [threading.Thread(target=guest_loop, args=(port, flood, run, n, stop, lock), daemon=True)
              for n in range(GUESTS if flood.request else 0)]
    for guest in guests:
        guest.start()
    time.sleep(1 if guests else 0)          # the flood under way before the phone saves
    try:
        phone_saves(port, run, seconds)
    finally:
        stop.set()
        for guest in guests:
            guest.join(timeout=120)


def floods(ids: dict, tables: list[list[Row]], count: int, wanted: list[str]) -> list[Flood]:
    """The floods: none (the phone alone), the attacks of issue 41, the guests saving hands of
    their own, and the ``count`` costliest rows of the table sent as they were timed (costliest
    on whichever version it cost most: ``tables`` holds each version's). With ``wanted``
    (``--flood``), only the floods whose label holds one of its words, any row of the table
    among them, the table timed or not."""
    json_headers = {**GUEST, "Content-Type": "application/json"}
    languages = ", ".join(f"x{n}-{n:x};q=0.{n % 9 + 1}" for n in range(20000))[:200_000]
    padding = "&".join(f"x{n}=1" for n in range(40000))[:200_000]
    primiera = "/referee/primiera?cards_0=" + "+".join(FULL[:20]) + "&cards_1=" + "+".join(FULL[20:])
    own: dict[tuple[int, int], int] = {}

    def own_match(port: int, guest: int) -> int:
        if (port, guest) not in own:
            own[port, guest] = organiser_match(port)
        return own[port, guest]

    def get(path: str, **headers: str) -> Callable[[int, int], tuple[str, str, dict, None]]:
        return lambda port, guest: ("GET", path, {**GUEST, **headers}, None)

    chosen = [
        Flood("none: the phone alone", None),
        Flood("a hand with the right X-Scopa-PIN (API)", lambda port, guest: (
            "POST", f"/api/v1/matches/{ids['pinned']}/hands",
            {**json_headers, "X-Scopa-PIN": PIN, "Idempotency-Key": f"pin-{guest}"}, json.dumps(HAND).encode())),
        Flood("the leaderboard, 200 KB of Accept-Language", get("/players", **{"Accept-Language": languages})),
        Flood("referee primiera, 200 KB of query", get(primiera + "&" + padding)),
        Flood("rules of a variant, 200 KB of query", get("/rules/quindici?target=21&" + padding)),
        Flood("API: players, 200 KB of query", get("/api/v1/players?" + padding)),
        Flood("API: a player (every rating point)", get("/api/v1/players/1")),
        Flood("guests saving hands, each in a match of its own", lambda port, guest: (
            "POST", f"/api/v1/matches/{own_match(port, guest)}/hands", json_headers, json.dumps(HAND).encode())),
    ]
    table = tables[0] if tables and not wanted else rows(ids, None)
    cost = {i: max(statistics.median(each[i].samples) for each in tables) for i in range(len(table))} \
        if tables and not wanted else dict.fromkeys(range(len(table)), 0.0)
    costly = [i for i, row in enumerate(table) if row.form is None and not row.prepare and row.other is None
              and 403 not in row.statuses and not row.label.startswith("API: a new match")]
    costly.sort(key=cost.__getitem__, reverse=True)
    if wanted:
        def chosen_one(label: str) -> bool:
            return any(word.lower() in label.lower() for word in wanted)
        chosen = [each for each in chosen if chosen_one(each.label)]
        costly = [i for i in costly if chosen_one(table[i].label)]
        count = len(costly)
    for row in (table[i] for i in costly[:count]):
        data = json.dumps(row.body).encode() if row.body is not None else None
        headers = {**GUEST, **row.headers, **({"Content-Type": "application/json"} if data else {})}
        chosen.append(Flood(row.label, lambda port, guest, row=row, data=data, headers=headers:
                            (row.method, row.path, headers, data)))
    return chosen


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98] if len(samples) > 1 else samples[0]


def print_table(servers: list[Served], matches: int, repeat: int) -> None:
    labels = [served.label for served in servers]
    first = servers[0].table
    guest = [i for i, row in enumerate(first) if row.refused or 403 not in row.statuses]
    guest.sort(key=lambda i: statistics.median(first[i].samples), reverse=True)
    print(f"\n{len(guest)} guest requests at {matches} matches, {repeat} times each, costliest first "
          f"(ms; over {GOAL:.0f} ms marked !)" + (f"; each version's median and its ratio to {labels[0]}'s"
                                                   if len(servers) > 1 else ""))
    columns = "".join(f" {label[:10]:>10}" + (f" {'ratio':>6}" if n else "") for n, label in enumerate(labels))
    print(f"{'request':<52}{columns} {'max':>8} {'KB':>8}  status")
    for i in guest:
        medians = [statistics.median(served.table[i].samples) for served in servers]
        shown = "".join(f" {median:10.1f}" + (f" {median / medians[0]:6.2f}" if n else "")
                        for n, median in enumerate(medians))
        row = servers[-1].table[i]
        marks = "".join("!" if median > GOAL else " " for median in medians)
        print(f"{row.label[:52]:<52}{shown} {max(row.samples):8.1f} {row.size / 1024:8.1f}  "
              f"{'/'.join(map(str, sorted(row.statuses)))} {marks}")
    refused = [row.label for row in first if 403 in row.statuses and not row.refused]
    if refused:
        print("\nrefused to a guest (403), not timed: " + "; ".join(refused))
    print("\nroutes no row reaches (the organiser's, and writes that cost what a timed one does: "
          "a rematch is a new match, a hand deleted or undone a hand saved): "
          + "; ".join(not_reached(first)))


def print_floods(done: list[Flood], labels: list[str], seconds: float) -> None:
    print(f"\nthe phone's saves (a hand every {PAUSE * 1000:.0f} ms for {seconds:.0f} s) under each flood of "
          f"{GUESTS} guest connections (a request {PAUSE * 1000:.0f} ms after each answer; "
          f"p99 over {SAVE_GOAL:.0f} ms marked !)")
    if len(labels) > 1:
        print("each version side by side, then its p99's ratio to " + labels[0] + "'s")
    print(f"{'flood':<52} {'version':<10} {'p50':>7} {'p90':>7} {'p99':>7} {'ratio':>6} {'saves':>6} "
          f"{'guest req/s':>11}  guests answered")
    for item in done:
        base = p99(item.runs[labels[0]].saves)
        for n, label in enumerate(labels):
            run = item.runs[label]
            p50, high = statistics.median(run.saves), p99(run.saves)
            p90 = statistics.quantiles(run.saves, n=10)[8] if len(run.saves) > 1 else high
            answered = ", ".join(f"{status}: {count}" for status, count in sorted(run.answers.items(), key=str))
            ratio = f"{high / base:6.2f}" if n else " " * 6
            print(f"{item.label[:52] if n == 0 else '':<52} {label[:10]:<10} {p50:7.1f} {p90:7.1f} {high:7.1f} {ratio} "
                  f"{len(run.saves):6d} {run.sent / (seconds + 1):11.0f}  {answered or '-'} "
                  f"{'!' if high > SAVE_GOAL else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--store", help="build the store here once, and run on a copy of it")
    parser.add_argument("--floods", type=int, default=5, help="how many of the costliest rows flood too")
    parser.add_argument("--flood", action="append", default=[], metavar="WORDS",
                        help="only the floods whose label holds WORDS (repeatable; any row of the table, "
                             "or 'none', 'PIN', 'saving hands'...)")
    parser.add_argument("--no-floods", action="store_true", help="only the table")
    parser.add_argument("--no-table", action="store_true", help="only the floods of issue 41")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the phone saves under each flood")
    parser.add_argument("--server", action="append", default=[], metavar="LABEL=COMMAND",
                        help="another companion to measure: a label and its command (repeatable); "
                             "the command is given --host, --port and --db")
    parser.add_argument("--no-now", action="store_true", help="leave this checkout's companion out")
    args = parser.parse_args()
    commands = [] if args.no_now else [("now", [str(Path(sys.executable).with_name("scopa-companion"))])]
    for given in args.server:
        label, _, command = given.partition("=")
        commands.append((label, shlex.split(command)))
    if not commands:
        parser.error("nothing to measure")
    with tempfile.TemporaryDirectory() as folder:
        built = os.path.join(folder, "guest.sqlite")
        if args.store and os.path.exists(args.store):
            shutil.copyfile(args.store, built)
            with open(args.store + ".json") as kept:
                ids = json.load(kept)
        else:
            ids = build(folder, args.matches)
            store.stop_cleanly(built)           # the WAL folded in: the file alone is the store
            if args.store:
                shutil.copyfile(built, args.store)
                with open(args.store + ".json", "w") as kept:
                    json.dump(ids, kept)
        started: list[tuple[str, subprocess.Popen, int]] = []
        logs = []
        try:
            for n, (label, command) in enumerate(commands):
                database = os.path.join(folder, f"guest-{n}.sqlite")        # each its own copy
                shutil.copyfile(built, database)
                env = dict(os.environ, SCOPA_DATA=os.path.join(folder, f"data-{n}"), SCOPA_ORGANISER_PIN=ORGANISER)
                logs.append(open(os.path.join(folder, f"server-{n}.log"), "w"))
                server, base = start_companion(*command[1:], "--db", database, env=env, output=logs[-1],
                                               command=command[0])
                started.append((label, server, int(base.rsplit(":", 1)[1])))
            servers = [Served(label, port, ids) for label, _server, port in started]
            if not args.no_table:
                measure(servers, args.repeat)
            done = floods(ids, [served.table for served in servers] if not args.no_table else [], args.floods,
                          args.flood) \
                if not args.no_floods else []
            for n, item in enumerate(done):
                for label, _server, port in (started if n % 2 == 0 else started[::-1]):
                    flood(label, port, item, args.seconds)
        finally:
            for _label, server, _port in started:
                server.terminate()
                server.wait(timeout=30)
            for log in logs:
                log.close()
    if not args.no_table:
        print_table(servers, args.matches, args.repeat)
    if done:
        print_floods(done, [label for label, _ in commands], args.seconds)


if __name__ == "__main__":
    main()
