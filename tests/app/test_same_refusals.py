"""The same bad request to a page and to the JSON API reads the same in every language (issue
44): one description of the request (``web.requests``) and one translator of its refusals
(``web.refusals``). Before, the page said "Two players have the same name" where the API said
"two names are the same", "A PIN is 6 to 8 digits" where it said "pin must be...", WTForms'
"Number must be between 1 and 1000." where it said "target must be..."."""

from __future__ import annotations

import sqlite3

import pytest

from companion.i18n import sentence
from companion.rules import deck
from helpers import counts_form, match_form, new_match
from markup import texts

LANGS = ["it", "en", "fr", "es"]


def spaced(words: str) -> str:
    """As a page's text is read (markup.words): French's no-break spaces as spaces."""
    return " ".join(words.split())

# (what is wrong, the page's form changed so, the API's body, the words in English)
NEW_MATCH = [
    ("a name twice", {"player2": "anna"}, {"players": ["Anna", "anna"]},
     "Two players have the same name: the score would be unclear"),
    ("a PIN too short", {"pin": "12"}, {"players": ["Anna", "Bruno"], "pin": "12"},
     "A PIN is 6 to 8 digits from 0 to 9"),
    ("an unknown variant", {"preset": "nope"}, {"players": ["Anna", "Bruno"], "variant": "nope"},
     "'nope' is not a variant; the variants are"),
    ("a target out of range", {"target": "1001"}, {"players": ["Anna", "Bruno"], "options": {"target": 1001}},
     "the target must be a whole number from 1 to 1000"),
    ("a name left out", {"player2": None}, {"players": ["Anna", " "]},
     "Give a name to each of the 2 players"),
    ("a name too long", {"player2": "B" * 25}, {"players": ["Anna", "B" * 25]},
     "A name has at most 24 characters: shorten this one"),
    ("a dealer of the wrong type", {"first_dealer": "x"}, {"players": ["Anna", "Bruno"], "first_dealer": "x"},
     "Choose one of the 2 players to deal first"),
    ("a dealer past the seats", {"first_dealer": "3"}, {"players": ["Anna", "Bruno"], "first_dealer": 3},
     "Choose one of the 2 players to deal first"),
    ("two teams alike", {"layout": "2x2", "player3": "Carla", "player4": "Dario", "team2": "noi"},
     {"teams": [{"name": "Noi", "players": ["Anna", "Carla"]}, {"name": "noi", "players": ["Bruno", "Dario"]}]},
     "Give the two teams different names"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("wrong, form, body, english", NEW_MATCH, ids=[case[0] for case in NEW_MATCH])
def test_a_new_match_is_refused_in_the_same_words_by_the_page_and_the_api(client, lang, wrong, form,
                                                                        body, english):
    headers = {"Accept-Language": lang}
    answer = client.post("/api/v1/matches", json=body, headers=headers)
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    data = {**match_form(), **form}
    page = client.post("/matches/new", data={k: v for k, v in data.items() if v is not None}, headers=headers)
    assert page.status_code == 400
    assert texts(page, "p.error") == [spaced(sentence(api))]      # a page writes it as a sentence
    if lang == "en":
        assert api.startswith(english)
    else:
        assert not api.startswith(english[:12])           # in the language asked for


@pytest.mark.parametrize("lang, card", [("it", "Asso di denari"), ("en", "Ace of coins"),
                                        ("fr", "As de deniers"), ("es", "as de oros")])
def test_a_card_twice_is_refused_in_the_same_words_by_the_referee_and_the_api(client, lang, card):
    """The card in the API's notation (1d) and in words on a page (Asso di denari), the rest the
    same."""
    headers = {"Accept-Language": lang}
    answer = client.post("/api/v1/captures", json={"table": ["1d", "1d"], "played": "3c"}, headers=headers)
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    page = client.get("/referee/captures?table=1d&table=1d&played=3c", headers=headers)
    assert texts(page, "p.error") == [spaced(sentence(api.replace("1d", card)))]


# A hand of Anna and Bruno by cards on the page (Anna's cards tapped, the rest Bruno's), and the
# same hand as the API's JSON.
ANNA = [str(card) for card in deck() if card.suit == "d" or card.value == 7]      # denari, sevens
BRUNO = [str(card) for card in deck() if str(card) not in ANNA]
BY_CARDS = {"mode": "piles", "rest": "1", "sweeps_0": "0", "sweeps_1": "0", "save": "1",
            **{f"c_{card}": "0" for card in ANNA}}

# (what is wrong, the variant, the page's form, the API's body, the words in English)
HAND = [
    ("sweeps below zero", "classica", {**BY_CARDS, "sweeps_0": "-1"},
     {"piles": [ANNA, BRUNO], "sweeps": [-1, 0]}, "the sweeps of Anna must be a whole number, 0 or more"),
    ("escobas below zero", "escoba", {**BY_CARDS, "sweeps_1": "-2"},
     {"piles": [ANNA, BRUNO], "sweeps": [0, -2]}, "the escobas of Bruno must be a whole number, 0 or more"),
    ("more sweeps than the cards allow", "classica", {**BY_CARDS, "sweeps_0": "25"},
     {"piles": [ANNA, BRUNO], "sweeps": [25, 0]}, "Anna cannot have made 25 sweeps: 13 cards taken"),
    ("sweeps below zero, by counts", "classica", counts_form(22, 6, sweeps=(-1, 0)),
     {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": -1},
                  {"cards": 18, "coins": 4}]}, "the sweeps of Anna must be a whole number, 0 or more"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("wrong, variant, form, body, english", HAND, ids=[case[0] for case in HAND])
def test_a_hand_is_refused_in_the_same_words_by_the_page_and_the_api(client, lang, wrong, variant, form,
                                                                   body, english):
    """The hand form's data is read by the API's own request (web.hand_requests.HandEntry, in the
    match's names and rules) and scored by the same rules. Before, the page refused a sweep count
    below 0 or above 20 in WTForms' words ("Scope of Anna: number must be between 0 and 20")."""
    headers = {"Accept-Language": lang}
    match_id = new_match(client, variant=variant)
    answer = client.post(f"/api/v1/matches/{match_id}/hands", json=body, headers=headers)
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    page = client.post(f"/matches/{match_id}/hands/new", data=form, headers=headers)
    assert page.status_code == 400
    assert texts(page, "p.error") == [spaced(sentence(api))]
    if lang == "en":
        assert api.startswith(english)
    else:
        assert not api.startswith(english[:12])           # in the language asked for
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []     # nothing recorded


# A count of a hand by counts, refused by the hand's request (web.hand_requests.Tally), not by
# WTForms' NumberRange ("Cards of Anna: number must be between 0 and 40.").
COUNTS = [
    ("cards below zero", {"t_cards_0": "-1"}, {"cards": -1}, "the cards of Anna must be a whole number, 0 or more"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("wrong, form, first, english", COUNTS, ids=[case[0] for case in COUNTS])
def test_a_count_is_refused_in_the_same_words_by_the_page_and_the_api(client, lang, wrong, form, first,
                                                                     english):
    headers = {"Accept-Language": lang}
    match_id = new_match(client)
    body = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, **first},
                        {"cards": 18, "coins": 4}]}
    answer = client.post(f"/api/v1/matches/{match_id}/hands", json=body, headers=headers)
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    page = client.post(f"/matches/{match_id}/hands/new", data={**counts_form(22, 6), **form}, headers=headers)
    assert page.status_code == 400
    assert texts(page, "p.error") == [spaced(sentence(api))]
    if lang == "en":
        assert api.startswith(english)
    else:
        assert not api.startswith(english[:12])
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []


ENTRANTS = ["Anna", "Bruno", "Carla"]
TOURNAMENT = {"name": "Night", "format": "swiss", "variant": "classica", "entrants": ENTRANTS,
              "seeding": "order"}
# (what is wrong, the page's form changed so, the API's body changed so, the words in English)
NEW_TOURNAMENT = [
    ("a Swiss of no rounds", {"rounds": "0"}, {"rounds": 0}, "a Swiss tournament of 3 entrants has 1 to 2 rounds"),
    ("an unknown format", {"format": "nope"}, {"format": "nope"}, "format must be one of: round-robin, swiss"),
    ("an unknown variant", {"variant": "nope"}, {"variant": "nope"}, "variant must be one of: classica"),
    ("an unknown seeding", {"seeding": "nope"}, {"seeding": "nope"}, 'seeding must be "order", "draw" or "rating"'),
]


def tournament_form(**changes: str) -> dict[str, str]:
    return {**{k: v for k, v in TOURNAMENT.items() if k != "entrants"}, "entrants": "\n".join(ENTRANTS), **changes}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("wrong, form, body, english", NEW_TOURNAMENT, ids=[case[0] for case in NEW_TOURNAMENT])
def test_a_new_tournament_is_refused_in_the_same_words_by_the_page_and_the_api(app, client, lang, wrong, form,
                                                                             body, english):
    """Before, WTForms refused the page's: "Number must be at least 1.", "Not a valid choice."
    (in Italian its own "Non è una opzione valida")."""
    headers = {"Accept-Language": lang}
    answer = client.post("/api/v1/tournaments", json={**TOURNAMENT, **body}, headers=headers)
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    page = client.post("/tournaments/new", data=tournament_form(**form), headers=headers)
    assert page.status_code == 400
    assert texts(page, "p.error") == [spaced(sentence(api))]
    field = next(iter(body))                 # shown by the field it names (its loc)
    assert texts(page, f"#field-{'t-' + field if field in ('rounds', 'variant') else field} p.error") \
        == [spaced(sentence(api))]
    if lang == "en":
        assert api.startswith(english)
    else:
        assert not api.startswith(english[:12])
    with sqlite3.connect(app.config["DATABASE"]) as conn:       # nothing made
        assert conn.execute("SELECT COUNT(*) FROM tournaments").fetchone() == (0,)


def made_tournament(client) -> int:
    made = client.post("/api/v1/tournaments", json={**TOURNAMENT, "entrants": [*ENTRANTS, "Dario"]})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("points", ["7", "x"])
def test_a_late_entrants_points_are_refused_in_the_same_words_by_the_page_and_the_api(client, lang, points):
    """Before, the page refused a crafted choice in WTForms' words ("Not a valid choice."), and
    after a round had started a value that is not a number was a 500 (``int("x")``)."""
    headers = {"Accept-Language": lang}
    tournament_id = made_tournament(client)
    assert client.post(f"/api/v1/tournaments/{tournament_id}/rounds", json={}).status_code == 201
    answer = client.post(f"/api/v1/tournaments/{tournament_id}/entrants", headers=headers,
                         json={"entrant": "Zoe", "points_per_missed_round": int(points) if points.isdigit() else points})
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    page = client.post(f"/tournaments/{tournament_id}/entrants", data={"entrant": "Zoe", "points": points},
                       headers=headers)
    assert page.status_code == 400
    assert texts(page, "#field-points p.error") == [spaced(sentence(api))]
    if lang == "en":
        assert api.startswith("points_per_missed_round must be 0, 1 (a draw's) or 2 (a win's)")
    assert "Zoe" not in client.get(f"/api/v1/tournaments/{tournament_id}").get_data(as_text=True)


def claims_match(client) -> int:
    return new_match(client, options={"claims": True})


@pytest.mark.parametrize("lang", LANGS)
def test_a_claims_sweeps_are_refused_in_the_same_words_by_the_referee_and_the_api(client, lang):
    """Before, the claim's page refused them in WTForms' words ("Scope of Anna so far: number
    must be between 0 and 20.")."""
    headers = {"Accept-Language": lang}
    match_id = claims_match(client)
    answer = client.post("/api/v1/claim", headers=headers, json={
        "claimer": 0, "piles": [["7d", "1c"], []], "sweeps": [-1, 0], "names": ["Anna", "Bruno"],
        "options": {"claims": True}})
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    page = client.get("/referee/claim", headers=headers, query_string={
        "match": match_id, "claimer": "0", "c_7d": "0", "c_1c": "0", "sweeps_0": "-1"})
    assert texts(page, "p.error") == [spaced(sentence(api))]
    if lang == "en":
        assert api.startswith("the sweeps of Anna must be a whole number, 0 or more")


@pytest.mark.parametrize("lang", LANGS)
def test_a_claim_is_not_edited_in_the_same_words_on_the_page_and_through_the_api(client, lang):
    """Before, the page said "...delete it, and check it again with the referee." and the API
    "...delete it and record it again"."""
    headers = {"Accept-Language": lang}
    match_id = claims_match(client)
    recorded = client.post(f"/referee/claim?match={match_id}", data={"claimer": "1", "c_1c": "1"})
    assert recorded.status_code == 303
    client.get(recorded.headers["Location"])            # its notice read
    hand = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    answer = client.put(f"/api/v1/matches/{match_id}/hands/{hand['id']}", headers=headers,
                        json={"piles": [ANNA, BRUNO], "version": hand["version"]})
    assert answer.status_code == 400
    api = answer.get_json()["error"]
    for sent in (client.get, client.post):      # the form is not shown, nor its post taken
        page = sent(f"/matches/{match_id}/hands/{hand['id']}/edit", headers=headers, follow_redirects=True)
        assert texts(page, ".flash") == [spaced(sentence(api))]
    if lang == "en":
        assert api.startswith("a claim cannot be edited: delete it, and check it again with the referee")
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == [hand]


@pytest.mark.parametrize("lang", LANGS)
def test_a_round_started_meanwhile_is_said_in_the_same_words_on_the_page_and_through_the_api(
        app, client, monkeypatch, lang):
    """The API's start of a round read before another phone started it (``RoundTaken``), and
    the page's button of before: one wording. Before: "that round was started meanwhile" and
    "Round 1 was already started (perhaps on another phone).\""""
    from companion.api import tournaments as api
    from companion.tournaments import service

    headers = {"Accept-Language": lang}
    tournament_id = made_tournament(client)
    with app.test_request_context():
        before = service.load(tournament_id)          # as read before the round started
    assert client.post(f"/api/v1/tournaments/{tournament_id}/rounds", json={}).status_code == 201
    monkeypatch.setattr(api, "_tournament", lambda _id: before)
    answer = client.post(f"/api/v1/tournaments/{tournament_id}/rounds", json={}, headers=headers)
    assert answer.status_code == 409
    api_words = answer.get_json()["error"]
    page = client.post(f"/tournaments/{tournament_id}/rounds", data={"round": "1"}, headers=headers,
                       follow_redirects=True)
    assert texts(page, ".flash") == [spaced(sentence(api_words))]
    if lang == "en":
        assert api_words == "round 1 was already started (perhaps on another phone)"
