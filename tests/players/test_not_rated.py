"""Issue 32: spam is cheap to undo. The organiser marks a match "not rated" (and back): it leaves
the players' ratings and the chances to win, and stays in the lists and in the records."""

import html

from test_ratings import MIRROR, answered, assert_same, expected

from companion import store
from helpers import HAND, one_hand_match, phone

REAL = [(["Anna", "Bruno"], HAND), (["Bruno", "Carla"], HAND), (["Anna", "Carla"], MIRROR),
        (["Anna", "Bruno"], MIRROR), (["Carla", "Anna"], MIRROR), (["Bruno", "Anna"], HAND)]


def test_fifteen_invented_losses_marked_not_rated_leave_the_rating_as_without_them(app, client):
    real = [one_hand_match(client, players, hand) for players, hand in REAL]
    without = answered(client)
    guest = phone(app, "192.168.1.66")
    invented = [one_hand_match(guest, ["Anna", "Zorro"], MIRROR) for _ in range(15)]     # Anna loses each
    assert answered(client)["Anna"][0] < without["Anna"][0]
    for number, match_id in enumerate(invented):
        if number % 2:
            answer = client.put(f"/api/v1/matches/{match_id}/rated", json={"rated": False})
            assert answer.status_code == 200 and answer.get_json()["rated"] is False
        else:
            assert client.post(f"/matches/{match_id}/rated", data={"rated": "0"}).status_code == 303
    assert_same(answered(client), expected(client, real))       # openskill over the rated matches
    assert answered(client)["Anna"] == without["Anna"] and "Zorro" not in answered(client)
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}
    with app.app_context():
        db = store.get_db()
        # Anna's chance against Zorro is hers against a new player: his invented wins count not.
        assert store.chances(db, [[players["Anna"]], [players["Zorro"]]]) == store.chances(db, [[players["Anna"]], [0]])
    # Counted in the ratings again: as if they had always been.
    for match_id in invented:
        assert client.post(f"/matches/{match_id}/rated", data={"rated": "1"}).status_code == 303
    assert_same(answered(client), expected(client, [*real, *invented]))


def test_a_match_not_rated_is_shown_so_and_stays_in_the_records(app, client):
    match_id = one_hand_match(client, ["Anna", "Bruno"], HAND)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'data-testid="rated-toggle"' in page and 'data-testid="not-rated"' not in page
    assert client.post(f"/matches/{match_id}/rated", data={"rated": "0"}, follow_redirects=True).status_code == 200
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'data-testid="not-rated"' in page and "Count in the ratings again" in page
    assert "not rated" in client.get("/matches?state=finished").get_data(as_text=True)
    assert "not rated" in client.get("/").get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["rated"] is False
    # The leaderboard still counts it: the match was played, only its rating is left out.
    anna = next(p for p in client.get("/api/v1/players").get_json()["players"] if p["name"] == "Anna")
    assert anna["matches"] == 1 and anna["won"] == 1
    assert "Anna" not in answered(client)


def test_only_the_organiser_marks_a_match_not_rated(app, client):
    match_id = one_hand_match(client, ["Anna", "Bruno"], HAND)
    guest = phone(app)
    page = guest.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'data-testid="rated-toggle"' not in page
    refused = guest.post(f"/matches/{match_id}/rated", data={"rated": "0"}, headers={"Accept-Language": "fr"})
    assert refused.status_code == 403
    assert "Demandez à l’organisateur d’exclure une partie du calcul des niveaux." in html.unescape(refused.get_data(as_text=True))
    assert guest.put(f"/api/v1/matches/{match_id}/rated", json={"rated": False}).status_code == 403
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["rated"] is True
    assert "Anna" in answered(client)
    assert client.put(f"/api/v1/matches/{match_id}/rated", json={"rated": "no"}).status_code == 400
    assert client.put("/api/v1/matches/999/rated", json={"rated": False}).status_code == 404
    assert client.post("/matches/999/rated", data={"rated": "0"}).status_code == 404
