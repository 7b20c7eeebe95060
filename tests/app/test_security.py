"""Nobody outside the table changes a score, and backups always restore: each attack of the
security review as a test (a phone on the same network, a proxy in front, a crafted file)."""

import json
import socket
import sqlite3
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from command_here import main_serving

from companion import create_app
from companion.cli import allowed_hosts
from companion.rules import deck
from companion.web import access
from helpers import new_match, organiser, phone, restore_backup, serving
from markup import attr, texts

FULL = [str(card) for card in deck()]
HAND = {"piles": [FULL[:22], FULL[22:]], "sweeps": [1, 0]}
ONE = {"tallies": [{"cards": 20, "coins": 5, "settebello": True, "sweeps": 0},       # 1 - 0
                   {"cards": 20, "coins": 5, "settebello": False, "sweeps": 0}]}
PHONE = {"REMOTE_ADDR": "192.168.1.23"}

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")     # each test counts wrong PINs afresh


@pytest.fixture
def app_config(app_config, tmp_path):
    """The store in a folder of its own: the safety copies a restore leaves beside it are
    counted there, apart from the files the tests make in tmp_path."""
    return {**app_config, "DATABASE": str(tmp_path / "store" / "s.sqlite")}


def restore(client, data: bytes, **kwargs):
    return restore_backup(client, data, confirm="y", **kwargs)


# -- Backups that always restore -----------------------------------------------------------

def every_hand(client, match_id: int) -> dict:
    """The match as the API gives it, its hands from every page (hands_next)."""
    match = client.get(f"/api/v1/matches/{match_id}").get_json()
    following = match["hands_next"]
    while following:
        page = client.get(following).get_json()
        match["hands"] += page["hands"]
        following = page["hands_next"]
    return match


def test_a_300_hand_store_over_64_kib_round_trips_every_hand(app, client, tmp_path):
    app.config["WTF_CSRF_ENABLED"] = True         # the CSRF check reads the upload first
    match_id = new_match(client, options={"target": 1000})
    for _ in range(300):
        client.post(f"/api/v1/matches/{match_id}/hands", json=ONE)
    before = every_hand(client, match_id)
    data = client.get("/backup/download").data
    assert len(data) > 64 * 1024
    client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)       # changed after the backup
    page = client.get("/backup").get_data(as_text=True)
    token = attr(page, 'input[name="csrf_token"]', "value")
    answer = restore_backup(client, data, confirm="y", csrf_token=token)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    after = every_hand(client, match_id)
    assert [h["entry"] for h in after["hands"]] == [h["entry"] for h in before["hands"]]
    assert after["totals"] == before["totals"] and len(after["hands"]) == 300


def test_two_restores_in_the_same_second_keep_both_safety_copies(app, client):
    new_match(client)
    data = client.get("/backup/download").data
    for _ in range(3):
        assert restore(client, data).status_code == 303
    folder = app.config["DATABASE"].rsplit("/", 1)[0]
    kept = sorted(__import__("pathlib").Path(folder).glob("before-restore-*.sqlite"))
    assert len(kept) == 3
    for copy in kept:
        assert sqlite3.connect(copy).execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 1


def crafted(tmp_path, sql: str) -> bytes:
    path = tmp_path / "crafted.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("sql, message", [
    ("CREATE TABLE matches (x); CREATE TABLE hands (y); CREATE TABLE migrations (version INTEGER);"
     "INSERT INTO migrations VALUES (5);", "what the companion makes is missing"),
    ("CREATE TABLE migrations (version INTEGER); INSERT INTO migrations VALUES (99);",
     "made by a newer version"),
    ("CREATE TABLE notes (x);", "not a Scopa companion backup"),
])
def test_a_file_that_only_looks_like_a_store_is_refused(client, tmp_path, sql, message):
    match_id = new_match(client)
    answer = restore(client, crafted(tmp_path, sql), follow_redirects=True)
    assert "Nothing restored: " in answer.get_data(as_text=True)
    assert message in answer.get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{match_id}").status_code == 200       # untouched
    assert client.get("/").status_code == 200


def test_a_store_with_a_match_that_cannot_be_read_is_refused(app, client, tmp_path):
    match_id = new_match(client)
    client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    path = tmp_path / "bad.sqlite"
    path.write_bytes(client.get("/backup/download").data)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE matches SET rules = '{\"preset\": \"briscola\"'")
    conn.commit()
    conn.close()
    answer = restore(client, path.read_bytes(), follow_redirects=True)
    assert f"Nothing restored: match {match_id} in it cannot be read" in answer.get_data(as_text=True)
    assert client.get(f"/matches/{match_id}").status_code == 200


# -- Secrets stay on the server ------------------------------------------------------------

def test_a_phone_cannot_download_the_store_with_its_pin_hashes(app, client):
    new_match(client, pin="246813")
    refused = phone(app).get("/backup/download")
    assert refused.status_code == 403 and b"SQLite format" not in refused.data
    assert "can only be downloaded by the organiser" in refused.get_data(as_text=True)
    local = client.get("/backup/download")
    assert local.status_code == 200 and local.headers["Cache-Control"] == "no-store"


def test_no_answer_to_a_phone_carries_a_pin_hash_or_access_key(app, client):
    match_id = new_match(client, pin="246813")
    client.post(f"/api/v1/matches/{match_id}/hands", json=ONE, headers={"X-Scopa-PIN": "246813"})
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        pin_hash, key = conn.execute("SELECT pin_hash, access_key FROM matches").fetchone()
    assert pin_hash and key
    hand_id = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]["id"]
    for path in ["/", "/matches", f"/matches/{match_id}", f"/matches/{match_id}/poll",
                 f"/matches/{match_id}/join", f"/matches/{match_id}/hands/{hand_id}",
                 "/api/v1/matches", f"/api/v1/matches/{match_id}",
                 f"/api/v1/matches/{match_id}/hands/{hand_id}"]:
        answer = phone(app).get(path)
        assert answer.status_code == 200, path
        text = answer.get_data(as_text=True)
        assert pin_hash not in text and pin_hash.split("$")[-1] not in text and key not in text, path


def test_no_address_is_the_organiser_without_the_code(app):
    """Issue 32: the machine's own address (127.0.0.1, ::1) is no longer the organiser, relayed
    or not: only the code (or a browser logged in with it) is."""
    for address in ("127.0.0.1", "::1"):
        machine = phone(app, address)
        assert machine.get("/backup/download").status_code == 403
        assert machine.post("/api/v1/tournaments", json={}).status_code == 403
        assert machine.get("/backup/download", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 403


def status(url: str, headers: dict[str, str] | None = None) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.skipif(not socket.has_ipv6, reason="no IPv6 on this machine")
def test_the_machine_itself_may_use_ipv6s_loopback(monkeypatch, tmp_path, copy_of_migrated):
    """Found in review: http://[::1]:PORT/ was refused (Werkzeug's TRUSTED_HOSTS cannot trust
    an IPv6 address). --host localhost listens on 127.0.0.1 and ::1. (The command's cli.main,
    serving on the sockets it bound, in the test's process: command_here.main_serving.)"""
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    copy_of_migrated(str(tmp_path / "scopa.sqlite"))
    answers = []

    def the_machine(port: int) -> None:
        answers.extend([status(f"http://[::1]:{port}/"),
                        status(f"http://[::1]:{port}/backup/download"),         # no address is the organiser
                        status(f"http://[::1]:{port}/", {"Host": f"[::2]:{port}"}),
                        status(f"http://[::1]:{port}/", {"Host": "attacker.example"}),
                        status(f"http://127.0.0.1:{port}/")])

    assert main_serving(monkeypatch, ["--host", "localhost", "--port", "0"], the_machine) == 0
    assert answers == [200, 403, 400, 400, 200]


def test_the_default_host_listens_on_ipv6s_loopback_too():
    from companion.listening import bind
    sockets = bind("0.0.0.0", 0)
    try:
        addresses = {sock.getsockname()[:2] for sock in sockets}
        port = sockets[0].getsockname()[1]
        assert ("0.0.0.0", port) in addresses
        if socket.has_ipv6:
            assert ("::1", port) in addresses
    finally:
        for sock in sockets:
            sock.close()


def test_a_host_that_is_not_this_machine_is_refused(client, app):
    app.config["ALLOWED_HOSTS"] = allowed_hosts("0.0.0.0", ["192.168.1.5"], ["http://scopa.example:8000/"])
    assert client.get("/", headers={"Host": "192.168.1.5:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "scopa.example"}).status_code == 200
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8000"}).status_code == 200
    for host in ("attacker.example", "[::2]:8000", "[::1]evil", "192.168.1.5.attacker.example"):
        assert client.get("/", headers={"Host": host}).status_code == 400, host     # DNS rebinding
    api = client.get("/api/v1/matches", headers={"Host": "attacker.example"})
    assert api.status_code == 400 and "error" in api.get_json()
    form = client.post("/players/1/rename", headers={"Host": "attacker.example"}, data={"name": "X"})
    assert form.status_code == 400


def test_every_answer_keeps_the_referrer_to_the_site(client):
    for path in ("/", "/api/v1/variants", "/referee/"):
        assert client.get(path).headers["Referrer-Policy"] == "same-origin"


# -- The PIN --------------------------------------------------------------------------------

def test_a_burst_of_fifty_wrong_pins_gets_at_most_the_limit_checked(tmp_path, monkeypatch):
    import urllib.error
    import urllib.request
    app = create_app({"SECRET_KEY": "burst", "WTF_CSRF_ENABLED": False,
                      "DATABASE": str(tmp_path / "burst.sqlite")})
    checked = []
    real = access.check_password_hash
    monkeypatch.setattr(access, "check_password_hash",
                        lambda *args: checked.append(1) or real(*args))
    with serving(app, threads=8) as base:
        request = urllib.request.Request(base + "/api/v1/matches", method="POST", headers={
            "Content-Type": "application/json"}, data=json.dumps({"players": ["A", "B"], "pin": "246813"}).encode())
        match_id = json.load(urllib.request.urlopen(request))["id"]

        def guess(i):
            request = urllib.request.Request(f"{base}/matches/{match_id}/pin", method="POST",
                                             data=f"pin={1000 + i}".encode(),
                                             headers={"Content-Type": "application/x-www-form-urlencoded"})
            try:
                return urllib.request.urlopen(request, timeout=30).status
            except urllib.error.HTTPError as error:
                return error.code

        with ThreadPoolExecutor(50) as pool:
            statuses = list(pool.map(guess, range(50)))
    assert statuses.count(403) == 5 == len(checked)          # 5 a minute, checked one at a time
    assert statuses.count(429) == 50 - 5


def test_an_unlocked_phone_is_not_locked_out_by_wrong_guesses(app):
    owner, stranger = app.test_client(), app.test_client()
    match_id = new_match(owner, pin="246813")
    assert owner.post(f"/matches/{match_id}/pin", data={"pin": "246813"}).status_code == 303
    for _ in range(30):
        stranger.post(f"/matches/{match_id}/pin", data={"pin": "0000"})
    assert owner.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201


def test_an_unlock_holds_for_that_match_not_its_number_in_another_store(app, client, tmp_path):
    scorer = phone(app)
    match_id = new_match(scorer, pin="246813")
    assert scorer.post(f"/matches/{match_id}/pin", data={"pin": "246813"}).status_code == 303
    assert scorer.get(f"/matches/{match_id}/hands/new").status_code == 200
    # Another store (a restore, or --db elsewhere) with a match of the same number and another PIN.
    elsewhere = organiser(create_app({"TESTING": True, "SECRET_KEY": "test",
                                      "DATABASE": str(tmp_path / "other.sqlite")}))
    assert new_match(elsewhere, pin="999999") == match_id
    answer = restore(client, elsewhere.get("/backup/download").data)     # on the machine itself
    assert answer.status_code == 303
    page = scorer.get(f"/matches/{match_id}/hands/new")
    assert page.status_code == 303 and "/pin" in page.headers["Location"]


@pytest.mark.parametrize("target", ["/\t/evil.example/phish", "/%09/evil.example", "/\\evil.example",
                                    "\\\\evil.example", " //evil.example", "https://evil.example/",
                                    "/ok\r\nSet-Cookie: stolen=1", "javascript:alert(1)"])
def test_after_the_pin_the_phone_stays_on_this_site(client, target):
    match_id = new_match(client, pin="246813")
    answer = client.post(f"/matches/{match_id}/pin?next={target}", data={"pin": "246813"})
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert location.startswith("/") and not location.startswith("//")
    assert "\r" not in location and "\n" not in location and "evil" not in location.replace("%09/evil", "")


# -- No input makes a 500 -------------------------------------------------------------------

@pytest.mark.parametrize("query", ["claimer=abc", "claimer=1.5", "c_7d=abc", "c_7d=9", "sweeps_0=x",
                                   "total_0=zz", "sides=abc"])
def test_a_malformed_claim_question_is_refused_plainly(client, query):
    answer = client.get(f"/referee/claim?{query}")
    assert answer.status_code in (200, 400)
    if answer.status_code == 400:
        assert any("valid" in said for said in texts(answer, '[role="alert"]'))


def test_a_hand_with_no_tallies_is_refused(client):
    match_id = new_match(client)
    answer = client.post(f"/api/v1/matches/{match_id}/hands", json={"tallies": []})
    assert answer.status_code == 400 and answer.get_json()["error"] == "this match has 2 sides, not 0"


@pytest.mark.parametrize("path", ["/api/v1/score", "/api/v1/captures", "/api/v1/deal", "/api/v1/claim",
                                  "/api/v1/matches", "/api/v1/matches/1/hands"])
def test_json_nested_a_thousand_levels_is_refused(client, path):
    new_match(client)
    answer = client.post(path, data="[" * 1000 + "]" * 1000, content_type="application/json")
    assert answer.status_code == 400 and "nested too deeply" in answer.get_json()["error"]
