"""Found in review (issue 41, finding 1): requests cheap to send and costly to answer. A hand
posted with the right X-Scopa-PIN cost a scrypt hash every time; a 200 KB Accept-Language ran
Babel's Locale.parse on every tag; 200 KB query strings cost 125-290 ms and some pages wrote
them back. Each is bounded now: a right PIN is hashed once, the headers are 32 KiB at most (431),
an address 16 KiB (414, in the phone's language), and only the first 16 languages are read.
The costs are proved by counting (hashes, parses) and the sizes by status codes; the figures
are tests/benchmarks/bench_guest.py's."""

import http.client
import json
import socket
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from babel import Locale

from companion import create_app
from companion.web import access, limits
from companion.web.bounds import URL
from companion.web.turns import Turns
from helpers import HAND, new_match, phone, serving
from markup import text

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

PIN = "246813"


def ask(base: str, method: str, path: str, headers: dict | None = None, body: bytes | None = None,
        address: str = "127.0.0.1") -> tuple[int, bytes]:
    """One request to a real server, from ``address`` (127.0.0.x: a phone of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=30,
                                      source_address=(address, 0))
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


SERVED_AT_ONCE = 8       # the served companion's threads


@pytest.fixture
def served(live_config, copy_of_migrated):
    copy_of_migrated(live_config["DATABASE"])
    app = create_app(live_config)
    with serving(app, threads=SERVED_AT_ONCE) as base:
        yield app, base


def hands(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]


def test_a_right_pin_is_hashed_once_for_every_connection_that_sends_it(served, monkeypatch):
    """16 connections from addresses of their own each post hands with the right PIN, as a
    scorer's program does (no cookie): the PIN's hash is worked out once, not 49 times."""
    app, base = served
    hashed = []
    check = access.check_password_hash
    monkeypatch.setattr(access, "check_password_hash", lambda *args: hashed.append(1) or check(*args))
    match_id = new_match(base, pin=PIN, options={"target": 1000})
    path = f"/api/v1/matches/{match_id}/hands"
    headers = {"Content-Type": "application/json", "X-Scopa-PIN": PIN}
    assert ask(base, "POST", path, headers, json.dumps(HAND).encode(), "127.0.0.2")[0] == 201
    assert len(hashed) == 1

    def scorer(number: int) -> list[int]:
        return [ask(base, "POST", path, headers, json.dumps(HAND).encode(), f"127.0.0.{10 + number}")[0]
                for _ in range(3)]

    with ThreadPoolExecutor(16) as pool:
        statuses = [status for each in pool.map(scorer, range(16)) for status in each]
    assert statuses == [201] * 48 and len(hashed) == 1
    # A wrong PIN is still hashed and counted, and records nothing.
    wrong = {**headers, "X-Scopa-PIN": "111111"}
    assert ask(base, "POST", path, wrong, json.dumps(HAND).encode(), "127.0.0.40")[0] == 403
    assert len(hashed) == 2 and hands(app) == 49


def test_a_right_pin_sent_at_once_by_many_connections_is_hashed_once(served, monkeypatch):
    """The flood's start: 16 connections send the right PIN at the same moment, none of them
    remembered yet. Each hashed it (scrypt: 16 MB and up to 250 ms of a core each) before the
    first was remembered; now one hash is worked out at a time, and the others find its verdict
    when their turn comes. The first hash is held until the server's 7 other threads each hold a
    request waiting for its turn to hash (issue 44: until another hash began, or a second had
    passed, which the right code always waited out); a hash begun beside it is a second one."""
    app, base = served
    hashed = []
    check = access.check_password_hash

    def slow_check(*args):
        hashed.append(1)
        if len(hashed) == 1:
            access._hashing.until_waiting(SERVED_AT_ONCE - 1, 10)
        return check(*args)

    monkeypatch.setattr(access, "check_password_hash", slow_check)
    match_id = new_match(base, pin=PIN, options={"target": 1000})
    path = f"/api/v1/matches/{match_id}/hands"
    headers = {"Content-Type": "application/json", "X-Scopa-PIN": PIN}
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda n: ask(base, "POST", path, headers, json.dumps(HAND).encode(),
                                               f"127.0.0.{10 + n}")[0], range(16)))
    assert statuses == [201] * 16 and len(hashed) == 1


def test_the_turns_go_to_the_lowest_rank_then_the_first_come():
    """The lock the PIN hashes queue at (web.turns): four waiters of ranks 1, 3, 1, 2 queued
    behind a turn held, then one of rank 0; given back, the rank 0 goes first, then the two of
    rank 1 in the order they came, then 2, then 3."""
    turns, ran = Turns(), []
    holding, release = threading.Event(), threading.Event()

    def holder() -> None:
        with turns.turn(0):
            holding.set()
            release.wait(5)

    def waiter(name: str, rank: int) -> None:
        with turns.turn(rank):
            ran.append(name)

    threads = [threading.Thread(target=holder)]
    threads[0].start()
    assert holding.wait(5)
    for number, (name, rank) in enumerate([("guess a", 1), ("guess b", 3), ("guess c", 1),
                                           ("guess d", 2), ("clean", 0)]):
        threads.append(threading.Thread(target=waiter, args=(name, rank)))
        threads[-1].start()
        assert turns.until_waiting(number + 1, 5)
    release.set()
    for thread in threads:
        thread.join(5)
    assert ran == ["clean", "guess a", "guess c", "guess d", "guess b"] and turns.waiting() == 0


def test_a_clean_addresss_right_pin_is_hashed_before_other_addresses_wrong_ones(served, monkeypatch):
    """Found in review (r41-last, finding 3): 20 wrong PINs sent at once from 20 addresses made a
    table's first right PIN wait 6.0 s, one hash after another. Four addresses that were wrong
    once already send a wrong PIN each while a hash is in progress (held until the test lets it
    go), then a phone from an address with no wrong PIN sends the right one: it is hashed next,
    before the four that waited longer."""
    app, base = served
    hashed, in_progress, release = [], threading.Event(), threading.Event()
    check = access.check_password_hash

    def held_check(pin_hash: str, pin: str) -> bool:
        hashed.append(pin)
        if pin == "999999":         # the hash in progress
            in_progress.set()
            release.wait(5)
        return check(pin_hash, pin)

    monkeypatch.setattr(access, "check_password_hash", held_check)
    match_id = new_match(base, pin=PIN, options={"target": 1000})
    path = f"/api/v1/matches/{match_id}/hands"

    def send(pin: str, address: str) -> int:
        headers = {"Content-Type": "application/json", "X-Scopa-PIN": pin}
        return ask(base, "POST", path, headers, json.dumps(HAND).encode(), address)[0]

    guessers = [f"127.0.0.{20 + n}" for n in range(4)]
    assert [send("000000", address) for address in guessers] == [403] * 4      # wrong once
    with ThreadPoolExecutor(6) as pool:
        first = pool.submit(send, "999999", "127.0.0.19")
        assert in_progress.wait(5)
        guesses = []
        for number, address in enumerate(guessers):
            guesses.append(pool.submit(send, f"00000{number + 1}", address))
            assert access._hashing.until_waiting(number + 1, 5)
        right = pool.submit(send, PIN, "127.0.0.30")
        assert access._hashing.until_waiting(5, 5)
        release.set()
        assert right.result() == 201 and first.result() == 403
        assert [guess.result() for guess in guesses] == [403] * 4
    assert hashed[4:] == ["999999", PIN, "000001", "000002", "000003", "000004"]
    assert hands(app) == 1


def test_a_changed_pin_is_never_taken_for_the_old_one(app, client):
    match_id = new_match(phone(app), pin=PIN)
    program = app.test_client(use_cookies=False)            # a program: the PIN each time
    program.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    headers = {"X-Scopa-PIN": PIN}
    assert program.post(f"/api/v1/matches/{match_id}/hands", json=HAND, headers=headers).status_code == 201
    with sqlite3.connect(app.config["DATABASE"]) as conn:      # the PIN changed (another hash)
        conn.execute("UPDATE matches SET pin_hash = ?", (access.hash_pin("135792"),))
    assert program.post(f"/api/v1/matches/{match_id}/hands", json=HAND, headers=headers).status_code == 403


def test_headers_past_32_kib_are_refused_before_the_app_reads_them(served):
    app, base = served
    cookie = {"Cookie": "session=" + "a" * 4000, "User-Agent": "Mozilla/5.0 " + "b" * 500}
    assert ask(base, "GET", "/healthz", cookie)[0] == 200              # a phone's, with room to spare
    assert ask(base, "GET", "/healthz", {"Cookie": "x=" + "a" * 40_000})[0] == 431
    languages = ", ".join(f"x{n}-{n:x};q=0.{n % 9 + 1}" for n in range(20000))[:200_000]
    assert ask(base, "GET", "/players", {"Accept-Language": languages})[0] == 431
    assert ask(base, "GET", "/referee/primiera?" + "&".join(f"x{n}=1" for n in range(40000)))[0] == 431


def test_requests_sent_in_one_go_are_answered_one_and_the_connection_closed(served):
    """Found in the hostile review of issue 41: a client that sent 128 requests in one go (HTTP/1.1
    pipelining) for the list of 200 matches, and read nothing, had every answer kept in the
    server's memory, up to 16 MiB a connection (20 connections: 275 MB), and then a worker
    thread held until it read. Now the first is answered and the connection closed after it,
    the others unanswered (a client that pipelines sends them again); a phone that waits for
    each answer keeps its connection."""
    app, base = served
    port = urlsplit(base).port
    one = f"GET /api/v1/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(one * 20)
        received = b""
        while chunk := conn.recv(65536):        # until the server closes it
            received += chunk
    assert received.startswith(b"HTTP/1.1 200 ") and received.count(b"HTTP/1.1 ") == 1
    phone_conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for _ in range(3):
            phone_conn.request("GET", "/api/v1/variants")
            answer = phone_conn.getresponse()
            assert answer.status == 200 and answer.read()
            kept = phone_conn.sock
        phone_conn.request("GET", "/healthz")
        assert phone_conn.getresponse().status == 200 and phone_conn.sock is kept
    finally:
        phone_conn.close()


@pytest.mark.parametrize("path", ["/players?variant=", "/referee/primiera?cards_0=", "/rules/quindici?target=",
                                  "/matches/new/chances?player1="])
def test_an_address_past_16_kib_is_refused_in_the_phones_language(app, path):
    guest = phone(app)
    refused = guest.get(path + "x" * URL, headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert refused.status_code == 414
    assert "Questo indirizzo è troppo lungo per l'app" in text(refused, "body")
    assert "x" * 100 not in refused.get_data(as_text=True)            # nothing of it written back
    assert guest.get(path + "x" * (URL - 200)).status_code != 414      # what a phone could need


def test_the_api_refuses_a_long_address_in_json(app):
    refused = phone(app).get("/api/v1/players?" + "&".join(f"x{n}=1" for n in range(4000)))
    assert refused.status_code == 414 and refused.get_json() == {"error": "the address is too long"}


@pytest.mark.parametrize("body", ["1", "true", '["Anna"]', "[" * 3000, '{"player1": 7, "player2": {"a": 1}}',
                                  '{"pin": 123456}', '{"code": 5}'])
def test_a_page_takes_its_form_never_json(app, body):
    """Found in the hostile review of issue 41: a page's form read a JSON body as its fields
    (Flask-WTF does), and JSON that is not an object, or fields that are not text, made a 500 on
    the new match, a hand, the PIN and the organiser's pages. A page takes a form, the API JSON:
    a page refuses JSON (400) in the phone's language, and records nothing."""
    guest = phone(app)
    match_id = new_match(guest)
    for path in ("/matches/new", f"/matches/{match_id}/hands/new", f"/matches/{match_id}/pin",
                 "/organiser", f"/matches/{match_id}/delete", "/referee/claim"):
        answer = guest.post(path, data=body, content_type="application/json",
                            headers={"Accept-Language": "it"})
        assert answer.status_code == 400, path
        assert "L'app non può farlo" in text(answer, "body")
    assert hands(app) == 0 and guest.get("/api/v1/matches").get_json()["matches"][0]["id"] == match_id
    assert guest.post("/api/v1/matches", data=body, content_type="application/json").status_code == 400


def test_only_the_first_16_languages_are_read(app, monkeypatch):
    """A page's dates are written in the phone's own territory (regional): each language read
    costs a Locale.parse. 5,000 languages cost 16, and the first still chooses the page's."""
    parsed = []
    parse = Locale.parse.__func__
    monkeypatch.setattr(Locale, "parse", classmethod(lambda cls, *args, **kw: parsed.append(args[0]) or
                                                     parse(cls, *args, **kw)))
    guest = phone(app)
    match_id = new_match(guest)
    languages = "fr-CH," + ",".join(f"de-{n}" for n in range(5000))
    page = guest.get(f"/matches/{match_id}", headers={"Accept-Language": languages})
    assert page.status_code == 200 and 'lang="fr"' in page.get_data(as_text=True)
    asked = [tag for tag in parsed if isinstance(tag, str) and tag.startswith("de-")]
    assert 0 < len(asked) <= 15
    api = guest.get("/api/v1/matches", headers={"Accept-Language": "it," + ",".join(["en"] * 5000)})
    assert api.status_code == 200


def test_a_pin_whose_minute_ends_while_it_is_read_never_stalls_the_queue(app, monkeypatch):
    """Found in review (r41-qr): an address with no try left a moment ago (``_rank`` None) whose
    minute was over when ``checked`` looked again waited for its turn holding its address's
    lock; the next in the queue, of an address sharing that lock, took the turn and waited for
    the lock: neither went on, nor any PIN hashed after them in that process. A hash is held in
    progress; an address whose rank reads None (its minute ending) sends a PIN, then the same
    address another (rank 0); the hash given back, both are answered and nobody waits."""
    pin_hash = access.generate_password_hash(PIN)
    in_progress, release, answers = threading.Event(), threading.Event(), {}
    check, rank = access.check_password_hash, access._rank
    ending = ["127.0.0.41"]         # its first rank read: no try left, its minute then over

    def held_check(hashed: str, pin: str) -> bool:
        if pin == "999999":
            in_progress.set()
            release.wait(5)
        return check(hashed, pin)

    monkeypatch.setattr(access, "check_password_hash", held_check)
    def rank_read() -> int | None:
        if limits.address_key() in ending:
            ending.remove(limits.address_key())
            return None
        return rank()

    monkeypatch.setattr(access, "_rank", rank_read)
    monkeypatch.setattr(access, "_hashing", Turns())       # stalled, it stalls this test alone

    def send(name: str, pin: str, address: str) -> None:
        with app.test_request_context("/", environ_base={"REMOTE_ADDR": address}):
            answers[name] = access._right_pin(pin_hash, pin)

    threads = []
    for number, (name, pin, address) in enumerate([("held", "999999", "127.0.0.40"),
                                                   ("ending", "111111", "127.0.0.41"),
                                                   ("next", PIN, "127.0.0.41")]):
        threads.append(threading.Thread(target=send, args=(name, pin, address), daemon=True))
        threads[-1].start()
        assert in_progress.wait(5) and access._hashing.until_waiting(number, 5)
    release.set()
    for thread in threads:
        thread.join(10)
    assert answers == {"held": False, "ending": False, "next": True}
    assert access._hashing.waiting() == 0
