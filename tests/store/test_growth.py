"""Years of club nights: a hand scored once, when it is saved; a match worked out once per change;
lists that read the matches' summaries, a page at a time; a live fragment of one line per hand.
(Speed itself is measured by tests/benchmarks/bench_growth.py, never timed here.)"""

import sqlite3

import pytest

from companion import create_app, matches, store
from companion.rules import deck
from helpers import new_match, organiser
from markup import attr, attrs

FULL = [str(card) for card in deck()]
HAND = {"piles": [FULL[:20], FULL[20:]], "sweeps": [1, 1]}


def matches_listed(page: str) -> list[int]:
    """The ids of the matches a page lists, in its order."""
    return [int(href.rsplit("/", 1)[1]) for href in attrs(page, 'a.match-item[href^="/matches/"]', "href")]


@pytest.fixture
def scorings(monkeypatch):
    """Counts the hands the rules engine scores."""
    calls = []
    real = matches.score_entry

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(matches, "score_entry", counting)
    return calls


def test_a_hand_is_scored_when_saved_not_each_time_it_is_shown(client, scorings):
    match_id = new_match(client, options={"target": 1000})
    for _ in range(30):
        client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    scorings.clear()
    client.get(f"/matches/{match_id}")             # the last hand's breakdown is shown
    assert len(scorings) == 1
    for since in range(3):                         # more phones, the same version
        client.get(f"/matches/{match_id}")
        client.get(f"/matches/{match_id}/poll?since={since}")
    assert len(scorings) == 1


def test_the_poll_fragment_is_one_short_line_per_hand(client):
    match_id = new_match(client, options={"target": 1000})
    sizes, saved = {}, 0
    for count in (1, 101):
        while saved < count:        # counted as saved, not by reading the whole match each time
            assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
            saved += 1
        sizes[count] = len(client.get(f"/matches/{match_id}/poll?since=0").data)
    # Bytes a hand, before compression: its line in the list (with the sides' names, each side's
    # name and points in a box of their own, so that a line wraps between sides: issue 22) and
    # its point on each side's line of the chart. About 235 with two sides.
    assert (sizes[101] - sizes[1]) / 100 < 250
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert page.count('<table class="breakdown per-side"') == 1             # the last hand's, not every hand's


def test_a_hands_page_shows_its_points_and_the_way_to_change_it(client):
    match_id = new_match(client, options={"target": 1000})
    hand = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).get_json()["hand"]
    page = client.get(f"/matches/{match_id}/hands/{hand['id']}").get_data(as_text=True)
    assert "Hand 1" in page and '<table class="breakdown per-side"' in page
    assert f"/matches/{match_id}/hands/{hand['id']}/edit" in page
    assert f"/matches/{match_id}/hands/{hand['id']}/delete" in page
    assert client.get(f"/matches/{match_id}/hands/{hand['id'] + 1}").status_code == 404


def test_the_home_page_lists_a_page_of_matches_and_offers_more(client):
    ids = []
    for _ in range(25):
        match_id = new_match(client, options={"target": 5})
        for _ in range(2):                          # Anna 6 to 2: over
            client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
        ids.append(match_id)
    playing = new_match(client)
    home = client.get("/").get_data(as_text=True)
    shown = matches_listed(home)
    assert shown[0] == playing and shown[1:] == ids[::-1][:20]
    more = attr(home, '[data-testid="more-finished"]', "href")
    rest = client.get(more).get_data(as_text=True)
    assert matches_listed(rest) == ids[::-1][20:]
    assert 'data-testid="more"' not in rest
    assert "Anna wins 6 to 2" in rest


def test_the_api_lists_matches_a_page_at_a_time(client):
    ids = [new_match(client) for _ in range(5)]
    first = client.get("/api/v1/matches?limit=2").get_json()
    assert [m["id"] for m in first["matches"]] == ids[::-1][:2]
    second = client.get(first["next"]).get_json()
    assert [m["id"] for m in second["matches"]] == ids[::-1][2:4]
    third = client.get(second["next"]).get_json()
    assert [m["id"] for m in third["matches"]] == ids[:1] and third["next"] is None
    assert client.get("/api/v1/matches?state=finished").get_json()["matches"] == []
    # Found by the API fuzzer: a "before" beyond SQLite's biggest id was refused, though the
    # document allows it; it means "from the newest".
    beyond = client.get(f"/api/v1/matches?limit=2&before={2**87}")
    assert beyond.status_code == 200 and [m["id"] for m in beyond.get_json()["matches"]] == ids[::-1][:2]
    for bad in ("limit=0", "limit=201", "limit=x", "before=-1", "state=won"):
        answer = client.get(f"/api/v1/matches?{bad}")
        assert answer.status_code == 400 and answer.get_json()["error"], bad


def test_a_store_of_an_older_version_gets_its_points_and_summaries(app, client):
    match_id = new_match(client, options={"target": 11})
    for _ in range(3):
        client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    before = client.get(f"/api/v1/matches/{match_id}").get_json()
    with sqlite3.connect(app.config["DATABASE"]) as conn:       # as version 3 of the schema left it
        conn.execute("UPDATE hands SET result = NULL")
        conn.execute("UPDATE matches SET summary = NULL, over = 0")
        conn.execute("DELETE FROM migrations WHERE version IN (4, 7, 20)")    # 20 indexes "deleted"
        conn.execute("DROP INDEX idx_matches_deleted_id_version")
        conn.execute("DROP INDEX idx_matches_archived_over_id")
        conn.execute("DROP INDEX idx_matches_archived_id")
        for column in ("follows", "followed_by", "archived", "deleted"):
            conn.execute(f"ALTER TABLE matches DROP COLUMN {column}")
        conn.execute("ALTER TABLE hands DROP COLUMN result")
        conn.execute("DROP INDEX idx_matches_over_id")
        conn.execute("ALTER TABLE matches DROP COLUMN summary")
        conn.execute("ALTER TABLE matches DROP COLUMN over")
    store.forget_built()
    again = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": app.config["DATABASE"]})
    client = organiser(again)
    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert after["outcome"] == before["outcome"] and after["totals"] == before["totals"]
    listed = client.get("/api/v1/matches").get_json()["matches"][0]
    assert listed["outcome"] == before["outcome"] and listed["hands"] == 3
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM hands WHERE result IS NULL").fetchone()[0] == 0
