"""Issue 33, items 3 and 4: a tournament night without a wrong number.

- "Chances only before a table begins, worked out from the ratings as they stood when the round
  started; a finished or running table shows its score, never a chance."
- "Swiss round 1 by rating: top half against bottom half, as the Dutch system does; later rounds
  as today. Say on the tournament form which system pairs the rounds."

The ratings come from one-hand matches played through the API; the chances a page shows are
compared with what the store worked out before anything changed."""

import pytest

from companion import store
from companion.i18n import percent
from companion.tournaments import pairing
from helpers import FOUR_NIL, finish, one_hand_match
from markup import nodes, texts

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gianni", "Ivo", "Lia"]


def rated(client, names):
    """Every player of ``names`` rated, each differently: a chain of one-hand matches, the
    first of each pair winning (the first in ``names`` ends the highest)."""
    for winner, loser in zip(names, names[1:]):
        one_hand_match(client, [winner, loser])
    one_hand_match(client, [names[0], names[-1]])


def swiss(client, entrants, **body):
    made = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "swiss", "seeding": "rating", "options": {"target": 11},
        "entrants": entrants, **body})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def start(client, tournament_id):
    started = client.post(f"/api/v1/tournaments/{tournament_id}/rounds", json={})
    assert started.status_code == 201, started.get_json()
    return started.get_json()


# -- 4. Swiss round 1: the top half against the bottom half ----------------------------------------

def test_the_dutch_round_one_pairs_the_top_half_with_the_bottom_half():
    # "with eight: 1 v 5, 2 v 6, 3 v 7, 4 v 8"
    assert pairing.swiss_first_round(range(8)) == ([(0, 4), (1, 5), (2, 6), (3, 7)], None)
    # "with nine the lowest seed gets the bye ..., then the top half of the rest against the bottom half"
    assert pairing.swiss_first_round(range(9)) == ([(0, 4), (1, 5), (2, 6), (3, 7)], 8)
    assert pairing.swiss_first_round([7, 3, 5, 1]) == ([(7, 5), (3, 1)], None)


@pytest.mark.parametrize("n", [8, 9])
def test_a_swiss_seeded_by_rating_meets_top_half_against_bottom_half_in_round_one(client, n):
    names = NAMES[:n]
    rated(client, names)
    ratings = {row["name"]: row["rating"] for row in client.get("/api/v1/ratings").get_json()["ratings"]}
    tournament = swiss(client, names[::-1], rounds=3)
    # Kept in the order typed (the standings' last tie-break), each with its seed by rating.
    assert [entrant["name"] for entrant in tournament["entrants"]] == names[::-1]
    seeds = [entrant["name"] for entrant in sorted(tournament["entrants"], key=lambda e: e["seed"])]
    assert seeds == sorted(names, key=lambda name: -ratings[name])       # seeded by rating
    first = start(client, tournament["id"])["rounds"][0]
    half = n // 2
    assert [table["entrants"] for table in first["tables"]] == [[seeds[k], seeds[k + half]] for k in range(half)]
    assert first["byes"] == ([seeds[-1]] if n % 2 else [])
    # The favourites are apart: seed 1 does not meet seed 2.
    assert [seeds[0], seeds[1]] not in [table["entrants"] for table in first["tables"]]
    # Later rounds as before: winners meet winners (each table's first entrant wins every hand).
    for table in first["tables"]:
        finish(client, table["match"])
    second = start(client, tournament["id"])["rounds"][1]
    winners = {table["entrants"][0] for table in first["tables"]} | set(first["byes"])
    crossing = [table for table in second["tables"] if len(set(table["entrants"]) & winners) == 1]
    assert len(crossing) == len(winners) % 2          # one float down, for an odd group only


@pytest.mark.parametrize("lang, words", [
    ("en", "Swiss: round 1 pairs the top half of the seeds against the bottom half (1 v 5, 2 v 6"),
    ("it", "Svizzero: al primo turno la metà alta delle teste di serie contro la metà bassa (1 contro 5, 2 contro 6"),
    ("fr", "Suisse : au tour 1, la moitié haute des têtes de série contre la moitié basse (1 contre 5, 2 contre 6"),
])
def test_the_tournament_form_says_which_system_pairs_the_rounds(client, lang, words):
    client.get(f"/lang/{lang}")
    page = client.get("/tournaments/new").get_data(as_text=True)
    hint = " ".join(texts(page, '[data-testid="pairing-system"]')).replace("\u00a0", " ")
    assert words in hint


# -- 3. Chances only before a table begins ----------------------------------------------------------

def chances_by_table(page: str, number: int) -> dict[int, str | None]:
    """Round ``number``'s tables on a tournament's page: each one's chance line, or None."""
    shown = {}
    for item in nodes(page, f'[data-testid="round-{number}"] > li.round-table:not(.bye)'):
        table = int(item.css_first(".table-number").text().split()[-1])
        found = item.css_first('[data-testid="chances"]')
        shown[table] = " ".join(found.text().split()) if found else None
    return shown


def board_pages(client, tournament_id):
    return [client.get(f"/tournaments/{tournament_id}/board").get_data(as_text=True),
            client.get(f"/tournaments/{tournament_id}/board/live").get_data(as_text=True)]


def test_a_finished_or_running_table_never_shows_a_chance_in_any_round(app, client):
    names = NAMES[:4]
    rated(client, names)
    tournament = swiss(client, names, rounds=3)
    tournament_id, page_url = tournament["id"], f"/tournaments/{tournament['id']}"
    for number in (1, 2, 3):
        tables = start(client, tournament_id)["rounds"][number - 1]["tables"]
        page = client.get(page_url).get_data(as_text=True)
        # Not begun: each table's chance, from the ratings now (as the round starts).
        with app.app_context():
            expected = [store.chances_by_name(store.get_db(), [[a], [b]]) for a, b in
                        (table["entrants"] for table in tables)]
        shown = chances_by_table(page, number)
        assert all(shown[t] for t in (1, 2)), shown
        for table, (a, b), (one, other) in zip((1, 2), (t["entrants"] for t in tables), expected):
            assert f"{a} {percent(one, 'en')}" in shown[table] and f"{b} {percent(other, 'en')}" in shown[table]
        # Every earlier round's tables are finished: none shows a chance (round 1's tables once
        # showed round 2's, table by table number).
        for earlier in range(1, number):
            assert chances_by_table(page, earlier) == {1: None, 2: None}, (number, earlier)
        # Table 1 begins (a hand of 4 to 0 of 11): it shows its score, not a chance; table 2 still
        # shows its chance.
        saved = client.post(f"/api/v1/matches/{tables[0]['match']}/hands", json=FOUR_NIL)
        assert saved.status_code == 201
        page = client.get(page_url).get_data(as_text=True)
        assert chances_by_table(page, number) == {1: None, 2: shown[2]}
        # Finished: neither shows one.
        for table in tables:
            finish(client, table["match"])
        page = client.get(page_url).get_data(as_text=True)
        assert chances_by_table(page, number) == {1: None, 2: None}
        # The board never shows a chance; nor does a finished table's own page.
        for board in board_pages(client, tournament_id):
            assert 'data-testid="chances"' not in board and "Chance to win" not in board
        for table in tables:
            assert 'data-testid="chances"' not in client.get(f"/matches/{table['match']}").get_data(as_text=True)
    assert client.get(f"/api/v1/tournaments/{tournament_id}").get_json()["over"]


def test_a_tables_chance_is_the_one_from_when_its_round_started(app, client):
    names = NAMES[:4]
    rated(client, names)
    tournament = swiss(client, names, rounds=3)
    tournament_id, page_url = tournament["id"], f"/tournaments/{tournament['id']}"
    first = start(client, tournament_id)["rounds"][0]["tables"]
    for table in first:
        finish(client, table["match"])
    second = start(client, tournament_id)["rounds"][1]["tables"]
    waiting = second[1]
    before = chances_by_table(client.get(page_url).get_data(as_text=True), 2)[2]
    match_page = client.get(f"/matches/{waiting['match']}").get_data(as_text=True)
    on_its_page = texts(match_page, '[data-testid="chances"] strong')
    assert before and len(on_its_page) == 2
    with app.app_context():
        sides = [[name] for name in waiting["entrants"]]
        then = store.chances_by_name(store.get_db(), sides)
    # Other results move the ratings of table 2's players: round 1's table that one of them played
    # is left out of the ratings, the other table of round 2 ends, and one of them plays a
    # casual match meanwhile.
    won_by = next(t for t in first if set(t["entrants"]) & set(waiting["entrants"]))
    assert client.put(f"/api/v1/matches/{won_by['match']}/rated", json={"rated": False}).status_code == 200
    finish(client, second[0]["match"])
    one_hand_match(client, [waiting["entrants"][1], "Zoe"])
    with app.app_context():
        assert store.chances_by_name(store.get_db(), sides) != then        # the ratings did move
    page = client.get(page_url).get_data(as_text=True)
    assert chances_by_table(page, 2) == {1: None, 2: before}
    # The API says the same: the kept chances of the table not begun, none for the one over.
    tables = client.get(f"/api/v1/tournaments/{tournament_id}").get_json()["rounds"][1]["tables"]
    assert [table["chances"] for table in tables] == [None, then]
    match_page = client.get(f"/matches/{waiting['match']}").get_data(as_text=True)
    assert texts(match_page, '[data-testid="chances"] strong') == on_its_page


def test_a_tables_chances_unreadable_in_the_store_are_shown_as_none(app, client):
    """A restored file may hold anything in a table's kept chances: the pages show no chance
    rather than a 500."""
    rated(client, NAMES[:2])
    tournament = swiss(client, NAMES[:2], rounds=1)
    table = start(client, tournament["id"])["rounds"][0]["tables"][0]
    with app.app_context():
        db = store.get_db()
        for garbage in ("not json", "[0.5]", '{"a": 1}', "[true, false]", "[0.5, 7]"):
            db.execute("UPDATE tournament_tables SET chances = ?", [garbage])
            db.conn.commit()
            for path in (f"/tournaments/{tournament['id']}", f"/matches/{table['match']}"):
                page = client.get(path)
                assert page.status_code == 200, (garbage, path)
                assert 'data-testid="chances"' not in page.get_data(as_text=True), (garbage, path)


def test_seeds_follow_the_leaderboards_order_not_the_conservative_figure(app, monkeypatch):
    """Seeded by rating, the entrants stand as the leaderboard lists them (issue 33: "provisional
    players are marked and ranked ... or listed apart"; the leaderboard lists the settled first by
    the figure, then the provisional ones), so the seeds read in the order of the figures shown.
    By mu - 3 sigma, Anna (26, sigma 4: 14) would come before Bruno (27, sigma 5: 12)."""
    from companion.tournaments import service
    kept = {"Anna": {"mu": 26.0, "sigma": 4.0, "provisional": False},
            "Bruno": {"mu": 27.0, "sigma": 5.0, "provisional": False},
            "Carla": {"mu": 31.0, "sigma": 7.0, "provisional": True},
            "Dario": None}
    rows = [None if row is None else {**row, "ordinal": row["mu"] - 3 * row["sigma"]} for row in kept.values()]
    monkeypatch.setattr(service.store, "entrant_ratings", lambda db, entrants: rows)
    entrants = [{"name": name, "players": [name]} for name in kept]
    with app.app_context():
        seeded, seeding = service.seeded(entrants, "rating")
    assert seeding == "rating"
    assert [entrant["name"] for entrant in seeded] == list(kept)        # as typed
    assert [entrant["seed"] for entrant in seeded] == [2, 1, 3, 4]
