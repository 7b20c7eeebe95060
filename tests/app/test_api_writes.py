"""Issue 32: the API asks for JSON and refuses another site's page (finding 7), and a phone
makes a few matches an hour, not thousands (finding 10, the per-address limit). Through the
real server where the finding was, the store checked afterwards."""

import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from helpers import ORGANISER_CODE, ORGANISER_HEADERS, open_link_over_http, phone

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")


def send(opener, url: str, data: bytes | None, headers: dict[str, str]) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=data, method="POST", headers=headers)
    try:
        with opener.open(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def rounds(database: str) -> int:
    """The tables started: each is a match."""
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]


def test_another_sites_page_cannot_start_a_round_from_the_organisers_browser(live_server):
    """Found in review: a plain form on another site, opened in the laptop's browser, POSTed to
    /api/v1/tournaments/<id>/rounds and answered 201. The organiser's browser here is logged in
    (its cookie goes with every request, as a browser's does)."""
    base, database = live_server
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    assert open_link_over_http(browser, f"{base}/organiser?code={ORGANISER_CODE}")[0] == 200
    body = json.dumps({"name": "Giovedì", "format": "round-robin", "entrants": ["Anna", "Bruno"]})
    status, made = send(browser, base + "/api/v1/tournaments", body.encode(),
                        {"Content-Type": "application/json"})
    assert status == 201                      # the organiser's own program: JSON, no Origin
    url = f"{base}/api/v1/tournaments/{made['id']}/rounds"
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, said = send(browser, url, b"x=1", {**form, "Origin": "http://evil.example"})
    assert status == 403 and said["error"] == "this request comes from another site's page: nothing was done"
    status, said = send(browser, url, b"x=1", {**form, "Sec-Fetch-Site": "cross-site"})
    assert status == 403
    status, said = send(browser, url, b"x=1", form)          # an old browser: no Origin, no Sec-Fetch
    assert status == 415 and said["error"] == "send JSON, with Content-Type: application/json"
    status, said = send(browser, url, b"x=1", {**form, "Accept-Language": "it"})
    assert status == 415 and said["error"] == "invia JSON, con Content-Type: application/json"
    as_json = {"Content-Type": "application/json"}
    for header in ({"Sec-Fetch-Site": "same-site"}, {"Origin": "null"}, {"Origin": "http://evil.example"}):
        assert send(browser, url, b"{}", {**as_json, **header})[0] == 403, header
    assert rounds(database) == 0              # nothing was started
    status, _ = send(browser, url, b"{}", {**as_json, "Sec-Fetch-Site": "same-origin", "Origin": base})
    assert status == 201 and rounds(database) == 1           # Anna and Bruno's table


def test_every_write_is_refused_cross_site_and_every_post_without_json(app, client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    made = client.post(f"/api/v1/matches/{match_id}/hands", json={
        "tallies": [{"cards": 22, "coins": 6, "settebello": True, "sweeps": 0},
                    {"cards": 18, "coins": 4, "settebello": False, "sweeps": 0}]}).get_json()
    hand = f"/api/v1/matches/{match_id}/hands/{made['hand']['id']}"
    version = made["hand"]["version"]
    cross = {"Sec-Fetch-Site": "cross-site"}
    assert client.delete(f"{hand}?version={version}", headers=cross).status_code == 403
    assert client.put(hand, json={"version": version}, headers=cross).status_code == 403
    assert client.post("/api/v1/matches", data="players=Anna", content_type="text/plain").status_code == 415
    assert client.put(hand, data="{}", content_type="text/plain").status_code == 415
    assert len(client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]) == 1
    assert client.delete(f"{hand}?version={version}").status_code == 200         # a DELETE needs no body


def test_the_openapi_document_says_so():
    from companion.api.openapi import SPEC
    for path, operations in SPEC["paths"].items():
        for method, operation in operations.items():
            if method in ("post", "put"):
                assert {"403", "415"} <= set(operation["responses"]), (path, method)


# -- New matches: a few an hour per address --------------------------------------------------

MATCH_FORM = {"layout": "2", "player1": "Anna", "player2": "Bruno", "first_dealer": "0",
              "preset": "classica", "deck": "40", "bonus_suit": "d", "primiera": "standard",
              "missing_suit": "loses", "napola": "off", "declarations": "off", "target": "11",
              "capture": "standard", "void_deal": "kings", "pack": "italian"}


def matches(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]


def test_a_phone_makes_twenty_matches_an_hour_pages_and_api_together(app, client):
    """Found in review: one phone made 6,421 matches in 55 s, pushing the real ones off the
    home page. 20 an hour per address, the pages and the API together; the organiser is not
    limited, and another phone is not held."""
    spammer = phone(app, "192.168.1.66")
    for number in range(20):
        if number % 2:
            assert spammer.post("/matches/new", data=MATCH_FORM).status_code == 303
        else:
            assert spammer.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).status_code == 201
    page = spammer.post("/matches/new", data=MATCH_FORM)
    assert page.status_code == 429
    assert "Too many new matches from this phone: wait 60 minutes, then try again." in page.get_data(as_text=True)
    api = spammer.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}, headers={"Accept-Language": "fr"})
    assert api.status_code == 429 and 3500 < int(api.headers["Retry-After"]) <= 3600
    assert api.get_json()["error"] == ("trop de nouvelles parties depuis cette adresse\u00a0: attendez 60 "
                                       "minutes, puis réessayez")
    assert matches(app) == 20
    refused = spammer.post("/matches/new", data={**MATCH_FORM, "player2": ""})
    assert refused.status_code == 429                       # held before the form is read
    assert phone(app, "192.168.1.67").post("/api/v1/matches", json={"players": ["Carla", "Dario"]}).status_code == 201
    assert client.post("/api/v1/matches", json={"players": ["Elsa", "Fabio"]}).status_code == 201
    assert matches(app) == 22


def test_a_form_refused_does_not_count(app):
    guest = phone(app, "192.168.1.68")
    for _ in range(25):
        assert guest.post("/matches/new", data={**MATCH_FORM, "player2": ""}).status_code == 400
    assert guest.post("/matches/new", data=MATCH_FORM).status_code == 303


def test_through_the_real_server_too(live_server):
    base, database = live_server
    opener = urllib.request.build_opener()
    body = json.dumps({"players": ["Anna", "Bruno"]}).encode()
    statuses = [send(opener, base + "/api/v1/matches", body, {"Content-Type": "application/json"})[0]
                for _ in range(22)]
    assert statuses == [201] * 20 + [429] * 2
    assert send(opener, base + "/api/v1/matches", body, {"Content-Type": "application/json",
                                                         **ORGANISER_HEADERS})[0] == 201
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 21
