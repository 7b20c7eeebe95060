"""Cirulla through the JSON API (issue 34): a hand of piles, sweeps and declarations scored, the
referee's deal check with the dealer's scope, and a match of two teams played to 51."""

import pytest

from companion.rules import deck

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

EVERYTHING = [str(card) for card in deck()]
# Every coin (grande 5; piccola from the Ace to the King, 10), the 7s and most of the cards.
FIRST = [f"{value}d" for value in range(1, 11)] + ["7c", "7s", "7b", "6c", "6s", "6b", "1c", "1s",
                                                    "5c", "5s", "5b"]
SECOND = [card for card in EVERYTHING if card not in FIRST]
TRIS = {"side": 0, "deal": 2, "cards": ["4c", "4s", "4b"]}        # three of a kind: 10
BUSSO = {"side": 1, "deal": 3, "cards": ["1b", "2c", "3s"]}       # 6, under 10: 3


def test_a_hand_of_piles_sweeps_and_declarations(client):
    body = {"variant": "cirulla", "piles": [FIRST, SECOND], "sweeps": [3, 1],
            "declarations": [TRIS, BUSSO]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200, response.get_json()
    first, second = (side["points"] for side in response.get_json()["sides"])
    assert first == {"carte": 1, "denari": 1, "settebello": 1, "primiera": 1, "scope": 3,
                     "grande": 5, "piccola": 10, "declarations": 10}
    assert second == {"carte": 0, "denari": 0, "settebello": 0, "primiera": 0, "scope": 1,
                      "grande": 0, "piccola": 0, "declarations": 3}
    # Found in review: the breakdown named them "Bazzica"; Cirulla's declarations are accusi.
    labels = {line["item"]: line["label"] for line in response.get_json()["breakdown"]}
    assert labels["declarations"] == "Accusi"
    bazzica = client.post("/api/v1/score", json={"variant": "bazzica", "piles": [FIRST, SECOND], "sweeps": [0, 0]})
    assert {line["item"]: line["label"] for line in bazzica.get_json()["breakdown"]}["declarations"] == "Bazzica"


def test_a_declaration_that_is_none_is_refused_in_words(client):
    body = {"variant": "cirulla", "piles": [FIRST, SECOND], "sweeps": [0, 0],
            "declarations": [{"side": 1, "deal": 1, "cards": ["10c", "2c", "3s"]}]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 400
    assert "a busso adds up to less than 10" in response.get_json()["error"]


@pytest.mark.parametrize("table, void, scope", [(["2d", "3c", "4s", "6b"], False, 1),
                                                (["10d", "10c", "4s", "6b"], False, 2),
                                                (["1d", "1c", "5s", "8b"], True, 0)])
def test_the_deal_check(client, table, void, scope):
    response = client.post("/api/v1/deal", json={"variant": "cirulla", "table": table})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert (answer["void"], answer["scope"]) == (void, scope)


def test_four_players_each_for_themselves_are_refused(client):
    response = client.post("/api/v1/matches", json={"variant": "cirulla",
                                                    "players": ["Anna", "Bruno", "Carla", "Dario"]})
    assert response.status_code == 400
    assert "two or three players, or by two teams of two" in response.get_json()["error"]


def test_a_match_of_two_teams_to_fifty_one(client):
    made = client.post("/api/v1/matches", json={
        "variant": "cirulla", "first_dealer": 0,
        "teams": [{"name": "Zena", "players": ["Anna", "Carla"]},
                  {"name": "Spezia", "players": ["Bruno", "Dario"]}]})
    assert made.status_code == 201, made.get_json()
    match_id = made.get_json()["id"]
    hand = {"piles": [FIRST, SECOND], "sweeps": [3, 1], "declarations": [TRIS, BUSSO]}
    first = client.post(f"/api/v1/matches/{match_id}/hands", json=hand).get_json()["match"]
    assert first["totals"] == [32, 4] and not first["outcome"]["over"]
    second = client.post(f"/api/v1/matches/{match_id}/hands", json=hand).get_json()["match"]
    assert second["totals"] == [64, 8]
    assert second["outcome"]["over"] and second["outcome"]["winner"] == 0


def test_a_hand_by_counts_scores_the_grande_and_the_piccola(client):
    """By counts, the runs of the bonus suit from the Ace and from the King (``napola``,
    ``scaletta_alta``) give the piccola and the grande."""
    tallies = [{"cards": 24, "coins": 8, "settebello": True, "primiera": True, "sweeps": 1,
                "napola": 4, "scaletta_alta": 3},
               {"cards": 16, "coins": 2, "napola": 0, "scaletta_alta": 0}]
    response = client.post("/api/v1/score", json={"variant": "cirulla", "tallies": tallies})
    assert response.status_code == 200, response.get_json()
    first = response.get_json()["sides"][0]["points"]
    assert (first["grande"], first["piccola"], first["scope"]) == (5, 4, 1)
