"""Escoba through the JSON API (issue 43, RULES §12): a hand's points named in Escoba's own
words, the first table's escobas from the deal check, captures that are never compulsory, a
36-card deck refused, and matches of two, three and four sides and of teams played to 21, each
hand's points checked against the scorer of tests/rules/test_escoba.py."""

import random

import pytest
from escoba_reference import reference_points

from companion.rules import deck

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

EVERYTHING = [str(card) for card in deck()]
# 22 cards, 6 oros, the velo and three sevens: cartas, oros, velo, setenta.
FIRST = ["1d", "2d", "3d", "4d", "5d", "7d", "7c", "7s", "1c", "2c", "3c", "4c", "5c", "6c", "1s",
         "2s", "3s", "4s", "5s", "6s", "8s", "9s"]
SECOND = [card for card in EVERYTHING if card not in FIRST]


def test_a_hand_names_its_points_in_escobas_words(client):
    response = client.post("/api/v1/score", json={"variant": "escoba", "piles": [FIRST, SECOND],
                                                  "sweeps": [2, 1]})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    first, second = answer["sides"]
    assert first["points"] == {"cartas": 1, "oros": 1, "velo": 1, "setenta": 1, "escobas": 2}
    assert second["points"] == {"cartas": 0, "oros": 0, "velo": 0, "setenta": 0, "escobas": 1}
    assert (first["cards"], first["coins"], first["settebello"], first["total"]) == (22, 6, True, 6)
    assert [(line["item"], line["label"]) for line in answer["breakdown"]] == [
        ("cartas", "Cartas"), ("oros", "Oros"), ("velo", "Velo"), ("setenta", "Setenta"),
        ("escobas", "Escobas")]
    # Scopa's own keep theirs.
    classica = client.post("/api/v1/score", json={"variant": "classica", "piles": [FIRST, SECOND],
                                                   "sweeps": [2, 1]}).get_json()
    assert set(classica["sides"][0]["points"]) == {"carte", "denari", "settebello", "primiera", "scope"}


def test_a_hand_by_counts_gives_the_sevens(client):
    tallies = [{"cards": 22, "coins": 6, "settebello": True, "sweeps": 1, "sevens": 3},
               {"cards": 18, "coins": 4, "settebello": False, "sweeps": 0, "sevens": 1}]
    response = client.post("/api/v1/score", json={"variant": "escoba", "tallies": tallies})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["sides"][0]["points"]["setenta"] == 1
    without = [{key: value for key, value in tally.items() if key != "sevens"} for tally in tallies]
    refused = client.post("/api/v1/score", json={"variant": "escoba", "tallies": without})
    assert refused.status_code == 400 and "sevens" in refused.get_json()["error"]


@pytest.mark.parametrize("table, escobas", [(["2d", "3c", "4s", "6b"], 1),
                                            (["7d", "8c", "10s", "5b"], 2),
                                            (["10d", "10c", "9s", "1b"], 2),
                                            (["1d", "1c", "1s", "1b"], 0)])
def test_the_deal_check_answers_the_dealers_escobas(client, table, escobas):
    """en.wikipedia "Escoba": "where the four initial cards dealt to the board add up to 15,
    they are taken by the dealer"; no deal is void (four Aces stand)."""
    response = client.post("/api/v1/deal", json={"variant": "escoba", "table": table})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert (answer["void"], answer["scope"]) == (False, escobas)
    if escobas:
        assert "escoba" in answer["reason"]


def test_captures_are_never_compulsory(client):
    response = client.post("/api/v1/captures", json={"variant": "escoba", "table": ["7c", "5d", "3s"],
                                                     "played": "7b", "last_play": True})
    answer = response.get_json()
    assert [capture["cards"] for capture in answer["captures"]] == [["5d", "3s"]]
    assert answer["may_place"] is True
    lone = client.post("/api/v1/captures", json={"variant": "escoba", "table": ["8c"],
                                                 "played": "7b", "last_play": True}).get_json()
    assert lone["captures"][0]["sweep"] is True        # the last card sweeps too


def test_a_claim_names_the_certain_points_in_escobas_words(client):
    body = {"variant": "escoba", "options": {"claims": True}, "claimer": 0, "sweeps": [3, 0],
            "piles": [["7d", "7c", "7s", "1d", "2c", "3c"], ["2d"]], "totals": [17, 5]}
    answer = client.post("/api/v1/claim", json=body).get_json()
    assert answer["certain"] == {"cartas": 0, "oros": 0, "velo": 1, "setenta": 1, "escobas": 3}
    assert answer["holds"] is True
    # The sentence names them as the answer's keys do, never as Scopa's (settebello, scope).
    assert answer["why"] == "17 + 5 certain (velo 1, setenta 1, escobas 3) = 22, target 21"
    italian = client.post("/api/v1/claim", json=body, headers={"Accept-Language": "it"}).get_json()
    assert "(velo 1, setenta 1, escobas 3)" in italian["why"]


def test_a_36_card_deck_is_refused(client):
    response = client.post("/api/v1/matches", json={"variant": "escoba", "options": {"deck": 36},
                                                    "players": ["Ana", "Bea"]})
    assert response.status_code == 400
    assert "40 cards" in response.get_json()["error"]


def random_escoba_hand(sides: int, rng: random.Random) -> tuple[list[list[str]], list[int]]:
    cards = EVERYTHING[:]
    rng.shuffle(cards)
    cuts = sorted(rng.randint(0, 40) for _ in range(sides - 1))
    bounds = [0, *cuts, 40]
    piles = [cards[a:b] for a, b in zip(bounds, bounds[1:])]
    return piles, [rng.randint(0, len(pile) // 2) for pile in piles]


@pytest.mark.parametrize("seats", [{"players": ["Ana", "Bea"]},
                                   {"players": ["Ana", "Bea", "Ciro"]},
                                   {"players": ["Ana", "Bea", "Ciro", "Dani"]},
                                   {"teams": [{"players": ["Ana", "Ciro"]}, {"players": ["Bea", "Dani"]}]},
                                   {"teams": [{"players": ["Ana", "Ciro", "Eva"]},
                                              {"players": ["Bea", "Dani", "Fede"]}]}])
def test_a_match_to_21_adds_up_the_reference_points(client, seats):
    """Random hands until someone wins: each hand's points are the reference scorer's, and the
    match ends at the first hand whose highest total is at 21 or more and alone (RULES §6)."""
    made = client.post("/api/v1/matches", json={"variant": "escoba", **seats})
    assert made.status_code == 201, made.get_json()
    match_id, sides = made.get_json()["id"], len(made.get_json()["sides"])
    rng = random.Random(43 + sides)
    totals = [0] * sides
    for _ in range(200):
        piles, escobas = random_escoba_hand(sides, rng)
        saved = client.post(f"/api/v1/matches/{match_id}/hands", json={"piles": piles, "sweeps": escobas})
        assert saved.status_code == 201, saved.get_json()
        expected = reference_points([set(p) for p in piles], escobas)
        totals = [total + sum(points.values()) for total, points in zip(totals, expected)]
        match = saved.get_json()["match"]
        assert match["totals"] == totals
        top = max(totals)
        if top >= 21 and totals.count(top) == 1:
            assert match["outcome"]["over"] and match["outcome"]["winner"] == totals.index(top)
            break
        assert not match["outcome"]["over"]
    else:
        pytest.fail("no winner in 200 hands")
    stored = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert stored["totals"] == totals and stored["rules"]["preset"] == "escoba"
