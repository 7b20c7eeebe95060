"""Found in review (issue 41, finding 4): the limits fell on the whole club. Behind one address (a
relay, a NAT, a captive portal) the club shared 20 new matches an hour, and one guest used them
in a second; five cross-site GETs of ``/organiser?code=WRONG`` (an ``<img>`` in any page a member
opened) locked that address out of the organiser's login, its scorers' links and its API
scorers. Now new matches and deletes are counted per phone (its cookie's id), with the address
counting its new phones (test_new_phones.py); a code or a PIN sent from another site's page is refused unchecked
and never counts; and the organiser sees who is held, and lets them try again."""

import re
import sqlite3

import pytest

from companion.web import limits, welcome
from helpers import ORGANISER_LINK, new_match, open_link, phone
from markup import nodes, text

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

NAT = "203.0.113.7"         # the club's one address, as the companion sees every phone behind it
CROSS_SITE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"}


def made(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT COUNT(*) FROM matches WHERE deleted IS NULL").fetchone()[0]


def deleted(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT COUNT(*) FROM matches WHERE deleted IS NOT NULL").fetchone()[0]


def delete(client, match_id: int):
    """As a phone deletes a match: its confirmation page (which gives a new phone its cookie),
    then the POST."""
    assert client.get(f"/matches/{match_id}/delete").status_code == 200
    version = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    return client.post(f"/matches/{match_id}/delete", data={"version": version})


def test_a_club_behind_one_address_is_not_one_phone(app):
    tables = [phone(app, NAT) for _ in range(3)]
    for table in tables:
        assert table.get("/matches/new").status_code == 200         # each phone opens the page
        assert [table.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).status_code
                for _ in range(20)] == [201] * 20
    refused = tables[0].post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    assert refused.status_code == 429 and 3500 < int(refused.headers["Retry-After"]) <= 3600
    assert phone(app, NAT).post("/api/v1/matches", json={"players": ["Carla", "Dario"]}).status_code == 201
    assert made(app) == 61


def test_the_address_holds_the_deletes_of_phones_not_let_in_never_a_phone_let_in(app, client):
    """Deletes: 5 an hour per phone. A guest who drops its cookie at each delete is a new phone
    each time, and the phones the organiser's QR has not let in delete 20 an hour at one
    address; a phone of the club the QR let in deletes on, and so does a phone at another
    address. (tests/app/test_new_phones.py and test_night_qr.py: new matches, through the real
    server.)"""
    matches = [new_match(client) for _ in range(34)]
    member = phone(app, NAT)
    with app.test_request_context():
        night = welcome.link("/", app)
    assert member.get(night).status_code == 303                         # the QR of the night
    assert delete(member, matches[0]).status_code == 303
    answers = [delete(phone(app, NAT), match_id).status_code for match_id in matches[1:23]]
    assert answers == [303] * 20 + [429] * 2        # the member, let in, counts not at its address
    assert deleted(app) == 21
    assert delete(member, matches[32]).status_code == 303
    assert delete(phone(app, "192.168.1.20"), matches[33]).status_code == 303     # another address


@pytest.mark.parametrize("headers", [CROSS_SITE, {"Sec-Fetch-Site": "same-site"},
                                     {"Origin": "http://evil.example"}], ids=["Sec-Fetch-Site", "same-site", "Origin"])
def test_codes_and_keys_sent_from_another_sites_page_never_count(app, client, headers):
    guest = phone(app, NAT)
    for _ in range(10):                             # the link's page, then its POST, sent from there
        refused = open_link(guest, "/organiser?code=AAA-AAA", headers)
        assert refused.status_code == 403
        assert "it was not tried" in text(refused, "body")
    night = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "pin": "246813",
        "entrants": ["Anna", "Bruno", "Carla", "Dario"]}).get_json()
    table = client.post(f"/api/v1/tournaments/{night['id']}/rounds", json={}).get_json()["rounds"][0]["tables"][0]["match"]
    for _ in range(10):                             # a scorer's link with a wrong key
        assert open_link(guest, f"/tournaments/{night['id']}/scorer/{table}?key=wrong", headers).status_code == 403
    # Even the right code is not tried from there: this phone is not made the organiser's.
    code = ORGANISER_LINK.split("code=")[1]
    assert open_link(guest, f"/organiser?code={code}", headers).status_code == 403
    assert guest.get("/tournaments/new").status_code == 403
    # The address was never held: the organiser's link, a scorer's PIN, an API scorer all work.
    member = phone(app, NAT)
    assert open_link(member, ORGANISER_LINK).status_code == 303
    scorer = phone(app, NAT)
    assert scorer.post(f"/matches/{table}/pin", data={"pin": "246813"}).status_code == 303
    assert limits.held() == []


def test_the_organiser_sees_who_is_held_and_lets_them_try_again(app, client):
    match_id = new_match(client, pin="246813")
    guesser = phone(app, "192.168.1.50")
    assert [guesser.post(f"/matches/{match_id}/pin", data={"pin": "000000"}).status_code
            for _ in range(6)] == [403] * 5 + [429]
    deleter = phone(app, "192.168.1.51")
    for other in [new_match(client) for _ in range(5)]:
        assert delete(deleter, other).status_code == 303
    organiser_phone = phone(app, "192.168.1.52")
    assert open_link(organiser_phone, ORGANISER_LINK).status_code == 303
    page = organiser_phone.get("/organiser")
    listed = [re.sub(r"\s+", " ", node.text()).strip() for node in nodes(page, '[data-testid="held-one"]')]
    assert len(listed) == 2
    assert any("every phone at 192.168.1.50" in line and "wrong PINs" in line and "until" in line for line in listed)
    assert any("a phone at 192.168.1.51" in line and "deleted matches" in line for line in listed)
    # A guest cannot lift it.
    lift = {node.attributes["name"]: node.attributes["value"]
            for node in nodes(page, '[data-testid="held-one"] input[type="hidden"]')
            if node.attributes["name"] in ("kind", "scope", "key")}
    forms = [{n.attributes["name"]: n.attributes["value"] for n in nodes(form.html, "input")}
             for form in nodes(page, '[data-testid="held-one"] form')]
    pin_form = next(form for form in forms if form["kind"] == "pin")
    assert lift and phone(app, "192.168.1.53").post("/organiser/held/lift", data=pin_form).status_code == 403
    assert guesser.post(f"/matches/{match_id}/pin", data={"pin": "000000"}).status_code == 429
    answer = organiser_phone.post("/organiser/held/lift", data=pin_form)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/organiser#held")
    assert guesser.post(f"/matches/{match_id}/pin", data={"pin": "246813"}).status_code == 303
    assert len(nodes(organiser_phone.get("/organiser"), '[data-testid="held-one"]')) == 1


def test_the_organisers_header_from_another_sites_page_is_not_tried(app):
    """A program that says another site sent it (an Origin of its own): its code is not tried,
    and its page is a page, not a 500."""
    code = ORGANISER_LINK.split("code=")[1]
    guest = phone(app, NAT)
    sent = {"X-Scopa-Organiser": code, "Origin": "http://evil.example"}
    assert guest.get("/", headers=sent).status_code == 200
    assert guest.get("/tournaments/new", headers=sent).status_code == 403
    assert guest.get("/tournaments/new", headers={"X-Scopa-Organiser": code}).status_code == 200
