"""Issue 26, "nothing is paged": the leaderboard and the tournaments are listed a page at a time,
in the same order as before, so a club of thousands of players costs one page per request."""

import random

from companion import store
from companion.players import views as player_views
from companion.players.records import rated
from companion.tournaments import views as tournament_views
from helpers import FULL, play
from markup import nodes, text


def ranked(rows):
    """The leaderboard's order written out plainly, to hold the store's SQL to: most matches
    won, then the best share won, then the most points per hand, then by name."""
    return sorted((rated(row) for row in rows),
                  key=lambda r: (-r["won"], -(r["win_rate"] or 0), -(r["per_hand"] or 0),
                                 r["name"].casefold()))

HAND_FOR_FIRST = {"piles": [FULL[:30], FULL[30:]], "sweeps": [3, 0]}


def test_the_stores_page_of_the_leaderboard_is_the_order_ranked_gives(app, client):
    rng = random.Random(26)
    names = [f"P{i:02d}" for i in range(24)]
    for _ in range(40):
        a, b = rng.sample(names, 2)
        play(client, [a, b], hands=rng.choice((0, 1, 2, 3)), hand=HAND_FOR_FIRST, options={"target": 11})
    with app.app_context():
        db = store.get_db()
        whole = [row["id"] for row in ranked(store.records(db))]
        paged = [row["id"] for start in range(0, 30, 7) for row in store.records(db, page=(start, 7))]
    assert len(whole) == len(set(whole)) > 7
    assert paged == whole


def test_the_leaderboard_page_shows_a_page_and_leads_to_the_next(client, monkeypatch):
    monkeypatch.setattr(player_views, "PAGE", 3)
    for number in range(4):
        play(client, [f"Winner{number}", f"Loser{number}"], hands=2, hand=HAND_FOR_FIRST, options={"target": 11})
    first = client.get("/players").get_data(as_text=True)
    assert first.count('<th scope="row">') == 3 and 'data-testid="more"' in first
    assert "/players?page=2" in first
    second = client.get("/players?page=2").get_data(as_text=True)
    assert 'data-testid="more"' in second       # 8 players: pages of 3, 3 and 2
    third = client.get("/players?page=3").get_data(as_text=True)
    assert third.count('<th scope="row">') == 2 and 'data-testid="more"' not in third
    shown = [client.get(f"/players?page={n}").get_data(as_text=True) for n in (1, 2, 3)]
    for number in range(4):
        assert sum(f">Winner{number}<" in page for page in shown) == 1
    for odd in ("0", "-1", "x", "99999999999"):
        assert client.get(f"/players?page={odd}").status_code == 200


def test_the_tournaments_are_listed_a_page_at_a_time(client, monkeypatch):
    monkeypatch.setattr(tournament_views, "PAGE", 2)
    for number in range(5):
        answer = client.post("/api/v1/tournaments", json={
            "name": f"Notte {number}", "format": "round-robin", "entrants": ["Anna", "Bruno"]})
        assert answer.status_code == 201
    seen, url = [], "/tournaments"
    while url:
        page = client.get(url).get_data(as_text=True)
        seen += sorted((n for n in range(5) if f">Notte {n}<" in page), reverse=True)
        found = [part.split('"')[0] for part in page.split('data-testid="more" href="')[1:]]
        url = found[0].replace("&amp;", "&") if found else None
    assert seen == [4, 3, 2, 1, 0]
    assert client.get("/tournaments?before=-3").status_code == 200


def test_the_api_lists_players_a_page_at_a_time_in_the_leaderboards_order(app, client):
    rng = random.Random(7)
    names = [f"P{i:02d}" for i in range(12)]
    for _ in range(20):
        play(client, rng.sample(names, 2), hands=rng.choice((1, 2)), hand=HAND_FOR_FIRST, options={"target": 11})
    whole = client.get("/api/v1/players?limit=500").get_json()
    assert whole["next"] is None and len(whole["players"]) == 12
    with app.app_context():
        assert [p["id"] for p in whole["players"]] == [r["id"] for r in ranked(store.records(store.get_db()))]
    seen, url = [], "/api/v1/players?limit=5&variant=classica"
    while url:
        answer = client.get(url).get_json()
        seen += [p["id"] for p in answer["players"]]
        url = answer["next"]
        assert url is None or "variant=classica" in url
    assert seen == [p["id"] for p in whole["players"]]
    for bad in ("limit=0", "limit=501", "page=0", "page=x"):
        answer = client.get(f"/api/v1/players?{bad}")
        assert answer.status_code == 400 and answer.get_json()["error"], bad


def test_a_merge_finds_the_other_player_by_name_never_from_a_list_of_all(app, client):
    """Issue 26: with 112,000 players each player's page was 5 MB, its merge list naming every
    player. The organiser types the other name and picks from at most 20 that hold it."""
    for names in (["Anna", "Bruno"], ["Annna", "Carla"], ["Giovanna", "Dario"], ["50%_off", "Elena"]):
        play(client, names, hands=1, hand=HAND_FOR_FIRST, options={"target": 11})
    ids = {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}
    page = client.get(f"/players/{ids['Annna']}").get_data(as_text=True)
    assert "Bruno</option>" not in page and 'name="find"' in page
    picked = client.get(f"/players/{ids['Annna']}/merge?find=ANN").get_data(as_text=True)
    offered = nodes(picked, 'a[href*="merge?into="]')
    assert [text(link.html, ".match-names") for link in offered] == ["Anna", "Giovanna"]  # never Annna itself
    assert [int(link.attributes["href"].rsplit("=", 1)[1]) for link in offered] == [ids["Anna"], ids["Giovanna"]]
    assert "No other player" in client.get(f"/players/{ids['Anna']}/merge?find=zzz").get_data(as_text=True)
    literal = client.get(f"/players/{ids['Anna']}/merge?find=%25_").get_data(as_text=True)
    assert "50%_off" in literal and "Bruno" not in literal                  # % and _ are letters here
    assert client.get(f"/players/{ids['Anna']}/merge?find=" + "x" * 200).status_code == 200
    phone = app.test_client().get(f"/players/{ids['Annna']}/merge?find=ann")
    assert phone.status_code == 403
