"""Cirulla through the JSON API (issue 34): a hand of piles, sweeps and declarations scored, the
referee's deal check with the dealer's scope, and a match of two teams played to 51."""

from itertools import combinations

import pytest

from companion.rules import deck

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

EVERYTHING = [str(card) for card in deck()]
# Every coin (grande 5; piccola from the Ace, counted as far as the 6: 6), the 7s and most of
# the cards.
FIRST = [f"{value}d" for value in range(1, 11)] + ["7c", "7s", "7b", "6c", "6s", "6b", "1c", "1s",
                                                    "5c", "5s", "5b"]
SECOND = [card for card in EVERYTHING if card not in FIRST]
DECINO = {"side": 0, "deal": 2, "cards": ["4c", "4s", "4b"]}      # three of a kind: 10
CIRULLA = {"side": 1, "deal": 3, "cards": ["1b", "2c", "3s"]}     # 6, 9 or less: 3


def test_a_hand_of_piles_sweeps_and_declarations(client):
    body = {"variant": "cirulla", "piles": [FIRST, SECOND], "sweeps": [3, 1],
            "declarations": [DECINO, CIRULLA]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200, response.get_json()
    first, second = (side["points"] for side in response.get_json()["sides"])
    assert first == {"carte": 1, "denari": 1, "settebello": 1, "primiera": 1, "scope": 3,
                     "grande": 5, "piccola": 6, "declarations": 10}
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
    assert "a cirulla adds up to 9 or less" in response.get_json()["error"]


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
    hand = {"piles": [FIRST, SECOND], "sweeps": [3, 1], "declarations": [DECINO, CIRULLA]}
    first = client.post(f"/api/v1/matches/{match_id}/hands", json=hand).get_json()["match"]
    assert first["totals"] == [28, 4] and not first["outcome"]["over"]
    second = client.post(f"/api/v1/matches/{match_id}/hands", json=hand).get_json()["match"]
    assert second["totals"] == [56, 8]
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


# -- Issue 42: Cirulla as RULES §11 says, through the API ------------------------------------

def test_the_low_first_table_gives_the_dealer_three_scope(client):
    # it.wikipedia.org "Cirulla": "se la somma di queste quattro carte in tavola dà esattamente
    # 15, 30 oppure, in alcuni casi, meno di 10, il mazziere le raccoglie e segna rispettivamente
    # 1, 2 o 3 scope." Issue 42: this table "answers scope: 0".
    table = ["2c", "2s", "3b", "1d"]
    answer = client.post("/api/v1/deal", json={"variant": "cirulla", "table": table}).get_json()
    assert (answer["void"], answer["scope"]) == (False, 3)
    assert answer["reason"] == "the table adds up to 8, no more than 9: the dealer takes it and scores 3 scope"
    without = client.post("/api/v1/deal", json={"variant": "cirulla", "table": table,
                                                "options": {"deal_scope": "15-30"}}).get_json()
    assert without["scope"] == 0


def every_page(client, table, played, limit=1):
    """Every capture the API lists, reading it ``limit`` at a time, page after page."""
    found, page = [], 1
    while True:
        answer = client.post("/api/v1/captures", json={"variant": "cirulla", "table": table,
                                                       "played": played, "limit": limit,
                                                       "page": page}).get_json()
        found += answer["captures"]
        if not answer["after"]:
            assert answer["count"] == len(found)
            return found, answer
        page += 1


def test_the_equal_card_excludes_a_sum_read_page_by_page(client):
    # regoledelgioco.com: "se si cala un 7 e sul tavolo ci sono un 3, un 5, un 6 e un 7 [...] si
    # può raccogliere il solo 7, non è permessa la presa 2 + 5; è possibile però raccogliere il 3
    # e il 5 attraverso la presa da 15". Issue 42: "table 2c, 5s, 7b, 3d, played 7d offers 2c+5s".
    found, answer = every_page(client, ["2c", "5s", "7b", "3d"], "7d")
    assert sorted(sorted(c["cards"]) for c in found) == [["3d", "5s"], ["7b"]]
    assert not answer["may_place"]


def test_an_ace_on_an_ace_may_take_the_fifteen_of_the_whole_table(client):
    # sourceforge.net/p/cirulla/wiki: "prende il solo asso, senza fare scopa, a meno che non sia
    # quindici la somma totale. Solo in questo caso piglia tutto, anche con un altro asso in
    # tavola." Issue 42: "table 1c, 3s, 10b, played 1d offers only [1c]".
    found, _ = every_page(client, ["1c", "3s", "10b"], "1d")
    assert [(c["cards"], c["sweep"]) for c in found] == [(["1c"], False), (["1c", "3s", "10b"], True)]


def test_the_ace_takes_all_and_that_is_a_scopa(client):
    # sourceforge.net/p/cirulla/wiki: "L'asso piglia tutto e fa scopa".
    found, _ = every_page(client, ["3c", "5d", "7s", "10b"], "1d")
    assert [(c["cards"], c["sweep"]) for c in found] == [(["3c", "5d", "7s", "10b"], True)]


def test_a_big_table_read_page_by_page_lists_what_the_rule_allows(client):
    """Every capture of a 7 on twelve cards, read five at a time, is one the rule allows, once,
    and every one the rule allows is listed: the single 7s or a set making 15, never a sum of 7
    while a 7 lies there (RULES §11)."""
    table = ["7b", "7s", "1c", "2c", "3c", "4c", "5c", "6c", "1s", "2s", "3s", "4s"]
    found, _ = every_page(client, table, "7d", limit=5)
    listed = sorted(tuple(sorted(c["cards"])) for c in found)
    assert len(set(listed)) == len(listed)
    value = {card: int(card[:-1]) for card in table}
    allowed = sorted(tuple(sorted(cards)) for size in range(1, len(table) + 1)
                     for cards in combinations(table, size)
                     if (size == 1 and value[cards[0]] == 7) or sum(value[c] for c in cards) == 8)
    assert listed == allowed


ACCUSO = {"side": 0, "deal": 1, "cards": ["1d", "2c", "5s"]}        # 8: a cirulla


@pytest.mark.parametrize("declarations, words", [
    # Issue 42: "in a 1-v-1 match one side declared twice in deal 1 (six cards from a three-card
    # hand) and once in deal 9 of 6".
    ([ACCUSO, {"side": 0, "deal": 1, "cards": ["6d", "6c", "6s"]}],
     "Anna has 2 accusi after deal 1: a player makes one a deal at most"),
    ([{**ACCUSO, "deal": 9}], "an accuso after deal 9: with 2 players a hand has 6 deals"),
    ([ACCUSO, {"side": 1, "deal": 2, "cards": ["1d", "2s", "3b"]}],
     "1d is declared after deal 1 and after deal 2: a card is dealt once a hand"),
])
def test_impossible_accusi_are_refused_and_nothing_is_recorded(client, declarations, words):
    made = client.post("/api/v1/matches", json={"variant": "cirulla", "players": ["Anna", "Bruno"]})
    match_id = made.get_json()["id"]
    hand = {"piles": [FIRST, SECOND], "sweeps": [0, 0], "declarations": declarations}
    refused = client.post(f"/api/v1/matches/{match_id}/hands", json=hand)
    assert refused.status_code == 400 and refused.get_json()["error"] == words
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []
    scored = client.post("/api/v1/score", json={"variant": "cirulla", "names": ["Anna", "Bruno"],
                                                "piles": [FIRST, SECOND], "declarations": declarations})
    assert scored.status_code == 400 and scored.get_json()["error"] == words


def test_a_team_of_two_makes_two_accusi_a_deal_in_three_deals(client):
    # RULES §11: "a side of one player once, a team of two twice"; "3 for two teams of two".
    teams = [{"name": "Zena", "players": ["Anna", "Carla"]}, {"name": "Spezia", "players": ["Bruno", "Dario"]}]
    match_id = client.post("/api/v1/matches", json={"variant": "cirulla", "teams": teams}).get_json()["id"]
    two = [ACCUSO, {"side": 0, "deal": 1, "cards": ["6d", "6c", "6s"]}]
    saved = client.post(f"/api/v1/matches/{match_id}/hands",
                        json={"piles": [FIRST, SECOND], "declarations": two})
    assert saved.status_code == 201, saved.get_json()
    late = client.post(f"/api/v1/matches/{match_id}/hands",
                       json={"piles": [FIRST, SECOND], "declarations": [{**ACCUSO, "deal": 4}]})
    assert late.status_code == 400
    assert late.get_json()["error"] == "an accuso after deal 4: with 4 players a hand has 3 deals"
    body = {"variant": "cirulla", "piles": [FIRST, SECOND], "declarations": two}
    assert client.post("/api/v1/score", json={**body, "players_per_side": 2}).status_code == 200
    assert client.post("/api/v1/score", json=body).status_code == 400
    wrong = client.post("/api/v1/score", json={**body, "players_per_side": 4})
    assert wrong.status_code == 400 and "players_per_side" in wrong.get_json()["error"]


def test_cirulla_with_thirty_six_cards_is_refused(client):
    # RULES §11: "A 36-card deck is refused". Issue 42: "a Cirulla with `deck: 36` is taken".
    made = client.post("/api/v1/matches", json={"variant": "cirulla", "options": {"deck": 36},
                                                "players": ["Anna", "Bruno"]})
    assert made.status_code == 400
    assert made.get_json()["error"] == ("Cirulla is played with all 40 cards: without the twos "
                                        "there is no piccola")
