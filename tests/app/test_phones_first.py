"""Issue 41: no guest's flood makes the phones' saves wait. Sixteen guests asking a 30 ms page
again 100 ms after each answer want nearly four cores; on two, a phone's save queued behind their
pages for hundreds of milliseconds (bench_guest's floods). Now each serving process serves the
tables' phones first (a write, a poll, a page of a match the phone scored, the organiser's
phone), with the reads that cost little, and at most ``READS_AT_ONCE`` of the costly reads at
once (a route's own CPU time, learnt as it is served), the rest waiting their turn in a queue of
their own (``listening.PhonesFirst``, ``web.precedence``). Through the real server: the guests'
reads are held inside the page (no timing involved), and what must go on is answered while they
are."""

import http.client
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from limits import parse

from companion import create_app, listening
from companion.listening import COSTLY, READS_AT_ONCE, PhonesFirst, between_processes
from companion.web import organiser, precedence as precedence_module
from companion.web.precedence import CROWDED, Precedence
from helpers import HAND, new_match, serving

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

THREADS = 4             # each a guest's, but for the reads' limit
GUESTS = 6              # more than the threads: without the limit none is left for the phone


def ask(base: str, method: str, path: str, address: str, headers: dict | None = None,
        body: dict | None = None) -> tuple[int, bytes]:
    """One request to the real server from ``address`` (127.0.0.x: a phone of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=20, source_address=(address, 0))
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body).encode(),
                     headers={**({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


class Held:
    """The leaderboard's view held open until ``let_go()``: the guests' reads, each in a slot."""

    def __init__(self, app):
        self.inside, self.gate, self.entered = 0, threading.Event(), threading.Semaphore(0)
        self.lock = threading.Lock()
        view = app.view_functions["players.leaderboard"]

        def held(*args, **kwargs):
            with self.lock:
                self.inside += 1
            self.entered.release()
            self.gate.wait(30)
            return view(*args, **kwargs)

        app.view_functions["players.leaderboard"] = held

    def wait_for(self, count: int) -> None:
        for _ in range(count):
            assert self.entered.acquire(timeout=20), "the guests' reads never reached the page"

    def let_go(self) -> None:
        self.gate.set()


class Recorded(PhonesFirst):
    """The server's dispatcher, kept at hand, saying when each request has reached it."""

    made: list["Recorded"] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.arrived = threading.Semaphore(0)
        Recorded.made.append(self)

    def add_task(self, task):
        super().add_task(task)
        self.arrived.release()


@pytest.fixture
def flooded(live_config, copy_of_migrated, monkeypatch):
    """A real server of ``THREADS`` threads whose leaderboard holds every guest inside it (a
    route it has found costly), and ``GUESTS`` guests asking for it from addresses of their own,
    all arrived (the dispatcher has taken each): (the app, its address, a match, the guests'
    answers to come, the holder)."""
    copy_of_migrated(live_config["DATABASE"])
    app = create_app(live_config)
    held = Held(app)
    Recorded.made.clear()
    monkeypatch.setattr(listening, "PhonesFirst", Recorded)
    with serving(app, threads=THREADS) as base:
        match_id = new_match(base)
        dispatcher = Recorded.made[0]
        dispatcher.costs["players.leaderboard"] = 0.040         # as a player's page costs
        dispatcher.arrived = threading.Semaphore(0)
        with ThreadPoolExecutor(GUESTS) as pool:
            guests = [pool.submit(ask, base, "GET", "/players", f"127.0.0.{10 + n}") for n in range(GUESTS)]
            try:
                for _ in range(GUESTS):
                    assert dispatcher.arrived.acquire(timeout=20), "a guest's request never reached the server"
                held.wait_for(READS_AT_ONCE)
                yield app, base, match_id, guests, held
            finally:
                held.let_go()


def test_a_phones_save_is_answered_while_the_guests_reads_fill_their_slots(flooded):
    app, base, match_id, guests, held = flooded
    status, answer = ask(base, "POST", f"/api/v1/matches/{match_id}/hands", "127.0.0.2", body=HAND)
    assert status == 201, answer[:200]
    assert held.inside == READS_AT_ONCE         # the others wait their turn, not a thread each
    assert not any(guest.done() for guest in guests)
    held.let_go()
    assert [guest.result()[0] for guest in guests] == [200] * GUESTS        # none refused
    assert held.inside == GUESTS


def test_the_page_of_a_match_the_phone_scored_and_its_poll_go_first(flooded):
    app, base, match_id, guests, held = flooded
    cookie = app.session_interface.get_signing_serializer(app).dumps({"played": [match_id]})
    status, page = ask(base, "GET", f"/matches/{match_id}/hands/new", "127.0.0.2",
                       headers={"Cookie": f"session={cookie}"})
    assert status == 200 and b"hand-form" in page
    assert ask(base, "GET", f"/matches/{match_id}/poll?since=1", "127.0.0.3")[0] == 200
    assert held.inside == READS_AT_ONCE and not any(guest.done() for guest in guests)


def test_a_cheap_read_is_served_as_it_comes(flooded):
    app, base, match_id, guests, held = flooded
    assert ask(base, "GET", "/rules", "127.0.0.5")[0] == 200
    assert held.inside == READS_AT_ONCE and not any(guest.done() for guest in guests)


def test_the_organisers_phone_goes_first(flooded):
    app, base, match_id, guests, held = flooded
    status, page = ask(base, "GET", "/matches?state=finished", "127.0.0.4",
                       headers={"Cookie": f"session={session_of(app, **organisers(app))}"})
    assert status == 200
    assert held.inside == READS_AT_ONCE and not any(guest.done() for guest in guests)


def test_a_matchs_writes_past_a_tables_pace_wait_their_turn_and_are_never_refused(flooded, monkeypatch):
    """Sixteen guests saving a hand every 100 ms each (160 writes a second against SQLite's one
    writer) made every table's save wait behind theirs. Past a table's pace (2 a minute here,
    30 in the command), a match's writes wait with the costly reads; another match's save goes
    first, and the waiting one is saved once its turn comes."""
    app, base, match_id, guests, held = flooded
    monkeypatch.setattr(precedence_module, "PACE", parse("2/minute"))
    dispatcher = Recorded.made[0]
    other = new_match(base)
    for _ in range(2):          # the table's pace: first
        assert ask(base, "POST", f"/api/v1/matches/{match_id}/hands", "127.0.0.2", body=HAND)[0] == 201
    for _ in range(3):
        assert dispatcher.arrived.acquire(timeout=20)
    with ThreadPoolExecutor(1) as pool:
        crowded = pool.submit(ask, base, "POST", f"/api/v1/matches/{match_id}/hands", "127.0.0.2", body=HAND)
        assert dispatcher.arrived.acquire(timeout=20), "the third save never reached the server"
        assert ask(base, "POST", f"/api/v1/matches/{other}/hands", "127.0.0.3", body=HAND)[0] == 201
        assert not crowded.done() and len(dispatcher.reads) == GUESTS - READS_AT_ONCE + 1
        held.let_go()
        assert crowded.result()[0] == 201


def test_the_serving_processes_share_one_bound_on_costly_reads(app, monkeypatch):
    """Two processes of two reads each were four CPU-bound threads on a two-core machine, and
    the tables' saves waited for a core. Bound together (``between_processes``, made before the
    fork), one costly read runs at once between the two, and the tables keep a core; a save is
    served meanwhile in either."""
    first, second = (PhonesFirst(Precedence(app).read, threads=READS_AT_ONCE + 2) for _ in range(2))
    between_processes(first, processes=2)
    second.shared = first.shared            # as a forked process inherits it
    monkeypatch.setattr(listening, "SHARED_WAIT", 60)
    gate, entered, inside = threading.Event(), threading.Event(), []

    def held_page():
        inside.append(1)
        entered.set()
        gate.wait(20)

    try:
        for dispatcher in (first, second):
            dispatcher.costs["players.player"] = COSTLY * 4
        pages = [Channel("/players/1", held_page) for _ in range(4)]
        for n, page in enumerate(pages):
            (first, second)[n % 2].add_task(page)
        saves = [Channel("/api/v1/matches/1/hands") for _ in range(2)]
        for dispatcher, save in zip((first, second), saves):
            save.requests[0].command = "POST"
            dispatcher.add_task(save)
        assert all(save.served.wait(20) for save in saves) and entered.wait(20)
        assert len(inside) == 1 and not any(page.served.is_set() for page in pages)
        gate.set()
        assert all(page.served.wait(20) for page in pages) and len(inside) == 4
    finally:
        gate.set()
        first.shutdown(timeout=20)
        second.shutdown(timeout=20)


def test_a_match_past_a_tables_pace_has_its_writes_wait_but_the_organisers(app, monkeypatch):
    monkeypatch.setattr(precedence_module, "PACE", parse("3/minute"))
    precedence = Precedence(app)
    assert [precedence.read("POST", "/api/v1/matches/3/hands", None) for _ in range(3)] == [None] * 3
    assert precedence.read("PUT", "/api/v1/matches/3/hands/9", None) == CROWDED
    assert precedence.read("POST", "/matches/3/hands/new", f"session={session_of(app, **organisers(app))}") is None
    assert precedence.read("POST", "/api/v1/matches/4/hands", None) is None     # another match
    assert precedence.read("POST", "/api/v1/matches", None) is None             # no match's


def test_a_guest_who_knows_a_matchs_number_does_not_spend_its_tables_pace(app, monkeypatch):
    """A write is counted against the pace before the app checks its PIN. Against a real
    server, 32 hands posted to a stranger's match without its PIN were each refused 403, and
    counted: the table's next saves then waited with the guests' costly reads. The phones whose
    cookie says they scored the match keep a pace of their own (and, past it, wait as well)."""
    monkeypatch.setattr(precedence_module, "PACE", parse("3/minute"))
    precedence = Precedence(app)
    table = f"session={session_of(app, played=[3])}"
    assert [precedence.read("POST", "/api/v1/matches/3/hands", None) for _ in range(4)] == [None] * 3 + [CROWDED]
    assert [precedence.read("POST", "/matches/3/hands/new", table) for _ in range(4)] == [None] * 3 + [CROWDED]
    assert precedence.read("PUT", "/api/v1/matches/3/hands/9", "session=forged") == CROWDED


# -- Who goes first: worked out from the request line and the signed cookie alone ---------------

def session_of(app, **contents) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(contents)


def organisers(app, until: float | None = None) -> dict:
    return {organiser.SESSION_KEY: "a-key", organiser.UNTIL_KEY: int(until or time.time() + 3600)}


@pytest.mark.parametrize(("method", "path", "read"), [
    ("POST", "/api/v1/matches/3/hands", None),          # a save, whoever sends it
    ("PUT", "/api/v1/matches/3/hands/9", None),
    ("POST", "/matches/3/hands/new", None),
    ("GET", "/matches/3/poll", None),                   # what a table asks every 2 s
    ("GET", "/static/companion.css", None),
    ("GET", "/healthz", None),
    ("GET", "/nowhere", None),                          # a 404: answered at once
    ("GET", "/players/1", "players.player"),            # a guest's reads
    ("GET", "/players", "players.leaderboard"),
    ("HEAD", "/players", "players.leaderboard"),
    ("GET", "/matches/3", "table.match"),
    ("GET", "/matches/3/hands/new", "table.new_hand"),
    ("GET", "/api/v1/players", "api.list_players"),
    ("POST", "/api/v1/captures", "api.captures"),       # questions: as costly as a read
    ("POST", "/api/v1/score", "api.score"),
    ("POST", "/matches/3/hands/preview", "table.preview"),
])
def test_writes_and_a_tables_polls_go_first_and_guests_reads_are_known_by_route(app, method, path, read):
    assert Precedence(app).read(method, path, None) == read


def test_a_match_the_phone_scored_goes_first_and_only_that_match(app):
    cookie = f"lang=it; session={session_of(app, played=[3, 7])}"
    precedence = Precedence(app)
    assert precedence.read("GET", "/matches/7/hands/new", cookie) is None
    assert precedence.read("GET", "/matches/3", cookie) is None
    assert precedence.read("POST", "/matches/3/hands/preview", cookie) is None
    assert precedence.read("GET", "/matches/4/hands/new", cookie) == "table.new_hand"
    assert precedence.read("GET", "/players/1", cookie) == "players.player"


def test_the_organisers_cookie_goes_first_within_its_night(app):
    precedence = Precedence(app)
    assert precedence.read("GET", "/players/1", f"session={session_of(app, **organisers(app))}") is None
    assert precedence.read("GET", "/players/1",
                           f"session={session_of(app, **organisers(app, until=time.time() - 1))}") == "players.player"


def test_a_cookie_the_app_did_not_sign_counts_as_none(app):
    other = create_app({**app.config, "SECRET_KEY": "another"})
    precedence = Precedence(app)
    assert precedence.read("GET", "/matches/3", f"session={session_of(other, played=[3])}") == "table.match"
    assert precedence.read("GET", "/players/1", f"session={session_of(other, **organisers(other))}") == "players.player"
    assert precedence.read("GET", "/matches/3", 'session={"played": [3]}') == "table.match"
    assert precedence.read("GET", "/matches/3", "session=" + "x" * 30000) == "table.match"


# -- What a read costs, learnt as it is served ------------------------------------------------

class Channel:
    """What waitress hands its dispatcher: a connection holding one request, served by
    ``service()`` (here ``work``)."""

    def __init__(self, path: str, work=lambda: None):
        self.requests = [SimpleNamespace(error=None, command="GET", path=path, headers={})]
        self.work, self.served = work, threading.Event()

    def service(self):
        try:
            self.work()
        finally:
            self.served.set()

    def cancel(self):
        self.served.set()


def busy(seconds: float):
    """Work that takes ``seconds`` of this thread's CPU (not of the clock)."""
    def work():
        started = time.thread_time()
        while time.thread_time() - started < seconds:
            pass
    return work


def test_a_routes_cost_is_learnt_and_only_a_costly_route_waits_its_turn(app):
    dispatcher = PhonesFirst(Precedence(app).read, threads=READS_AT_ONCE + 2)
    gate = threading.Event()
    try:
        for _ in range(4):          # the first of each not counted (its templates compiled)
            first = [Channel("/players/1", busy(COSTLY * 3)), Channel("/rules")]
            for channel in first:
                dispatcher.add_task(channel)
            assert all(channel.served.wait(20) for channel in first)
        assert dispatcher.costs["players.player"] >= COSTLY > dispatcher.costs["guide.index"]
        pages = [Channel("/players/1", lambda: gate.wait(20)) for _ in range(READS_AT_ONCE + 1)]
        for page in pages:
            dispatcher.add_task(page)
        assert len(dispatcher.reads) >= 1          # one more than the costly reads at once
        cheap, save = Channel("/rules"), Channel("/api/v1/matches/1/hands")
        save.requests[0].command = "POST"
        dispatcher.add_task(cheap)
        dispatcher.add_task(save)
        assert cheap.served.wait(20) and save.served.wait(20)
        assert not any(page.served.is_set() for page in pages)
        gate.set()
        assert all(page.served.wait(20) for page in pages)
    finally:
        gate.set()
        dispatcher.shutdown(timeout=20)
