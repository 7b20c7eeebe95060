"""Issue 32: the organiser hands each table's scorer a link (a QR code) that lets their phone
record at that table without typing the tournament's PIN, and only at that table."""

import sqlite3

import pytest

from helpers import HAND, open_link, phone
from markup import attrs

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")


@pytest.fixture
def tables(client):
    tournament = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "pin": "246813",
        "entrants": ["Anna", "Bruno", "Carla", "Dario"]}).get_json()
    started = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={}).get_json()
    return tournament["id"], [t["match"] for t in started["rounds"][0]["tables"]]


def hands(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]


def test_a_scorers_link_opens_its_table_and_no_other(app, client, tables):
    tournament, (first, second) = tables
    assert 'data-testid="scorers"' in client.get(f"/tournaments/{tournament}").get_data(as_text=True)
    page = client.get(f"/tournaments/{tournament}/scorers").get_data(as_text=True)
    links = attrs(page, 'a[href^="http://localhost/tournaments/"][href*="/scorer/"][href*="?key="]', "href")
    assert len(links) == 2 and page.count("<svg") == 2
    scorer = phone(app, "192.168.1.40")
    assert scorer.get(f"/matches/{first}/hands/new").status_code == 303       # the PIN page
    opened = open_link(scorer, links[0].removeprefix("http://localhost"))
    assert opened.status_code == 303 and opened.headers["Location"] == f"/matches/{first}"
    assert scorer.get(f"/matches/{first}/hands/new").status_code == 200
    assert scorer.post(f"/api/v1/matches/{first}/hands", json=HAND).status_code == 201
    assert scorer.post(f"/api/v1/matches/{second}/hands", json=HAND).status_code == 403   # not its table
    # Table 1's key on table 2's address: refused, nothing unlocked.
    key = links[0].rsplit("key=", 1)[1]
    assert open_link(scorer, f"/tournaments/{tournament}/scorer/{second}?key={key}").status_code == 403
    assert scorer.post(f"/api/v1/matches/{second}/hands", json=HAND).status_code == 403
    assert hands(app) == 1


def test_only_the_organiser_sees_the_links(app, tables):
    tournament, _ = tables
    guest = phone(app)
    page = guest.get(f"/tournaments/{tournament}/scorers")
    assert page.status_code == 403 and "key=" not in page.get_data(as_text=True)
    assert 'data-testid="scorers"' not in guest.get(f"/tournaments/{tournament}").get_data(as_text=True)
