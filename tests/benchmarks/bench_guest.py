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
and status, and marks those over 100 ms (the goal: none). It asserts nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

from bench_growth import HAND, add_club_matches

from companion import create_app
from companion.rules import deck

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))        # tests/, for helpers
from helpers import match_form, start_companion  # noqa: E402
from markup import nodes  # noqa: E402

GOAL = 100.0        # ms
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
                               [f"Player {n}" for n in range(8)], None, None, None)
        service.start_next_round(service.load(night))
        for table in service.load(night).rounds[0].tables:
            if table.match_id:
                client.post(f"/api/v1/matches/{table.match_id}/hands", json=WIN)
        service.start_next_round(service.load(night))
    hand = client.get(f"/api/v1/matches/{long_id}").get_json()["hands"][0]["id"]
    first = client.get("/api/v1/matches/1").get_json()["hands"][0]["id"]
    second = client.get("/api/v1/matches/2").get_json()["hands"][0]["id"]
    print(f"store built in {time.perf_counter() - started:.0f} s: {matches} matches, a match of "
          f"200 hands, a tournament night", flush=True)
    return {"long": long_id, "hand": hand, "first_hand": first, "second_hand": second, "night": night}


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


def measure(port: int, ids: dict, repeat: int) -> list[Row]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    table = rows(ids, connection)
    for row in table:
        for attempt in range(repeat):
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
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.close()
    return table


def not_reached(table: list[Row]) -> list[str]:
    """The app's routes no row reaches, each with its methods."""
    app = create_app({"SECRET_KEY": "x", "DATABASE": os.path.join(tempfile.gettempdir(), "unused.sqlite")})
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ids = build(folder, args.matches)
        env = dict(os.environ, SCOPA_DATA=os.path.join(folder, "data"))
        log = open(os.path.join(folder, "server.log"), "w")
        server, base = start_companion("--db", os.path.join(folder, "guest.sqlite"), env=env, output=log,
                                       command=str(Path(sys.executable).with_name("scopa-companion")))
        try:
            table = measure(int(base.rsplit(":", 1)[1]), ids, args.repeat)
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
    guest = [row for row in table if row.refused or 403 not in row.statuses]
    guest.sort(key=lambda row: statistics.median(row.samples), reverse=True)
    print(f"\n{len(guest)} guest requests at {args.matches} matches, {args.repeat} times each, "
          f"costliest first (ms; over {GOAL:.0f} ms marked !)")
    print(f"{'request':<52} {'median':>8} {'max':>8} {'KB':>8}  status")
    for row in guest:
        median, most = statistics.median(row.samples), max(row.samples)
        mark = "!" if median > GOAL else " "
        print(f"{row.label[:52]:<52} {median:8.1f} {most:8.1f} {row.size / 1024:8.1f}  "
              f"{'/'.join(map(str, sorted(row.statuses)))} {mark}")
    refused = [row.label for row in table if 403 in row.statuses and not row.refused]
    if refused:
        print("\nrefused to a guest (403), not timed: " + "; ".join(refused))
    print("\nroutes no row reaches (the organiser's, and writes that cost what a timed one does: "
          "a rematch is a new match, a hand deleted or undone a hand saved): "
          + "; ".join(not_reached(table)))


if __name__ == "__main__":
    main()
