"""Teams that make sense on every phone: a team left without a name is named after its players
("Anna & Carla"), the same words in every language (no "Noi" on an English phone, which would
be the other team on the opponents' phones); a name typed is kept; each player's field says its
team; the JSON API may leave a team's name out; a match made before keeps its names."""

import pytest

from helpers import match_form
from markup import attr, attrs, text, texts

TEAMS = {"layout": "2x2", "player1": "Anna", "player2": "Bruno", "player3": "Carla", "player4": "Dario",
         "team1": "", "team2": ""}


def shown(client, match_id) -> str:
    """The match page's words as a reader meets them."""
    return text(client.get(f"/matches/{match_id}"), "body")


def sides_of(client, location):
    return [side["name"] for side in client.get(f"/api/v1{location}").get_json()["sides"]]


def test_teams_left_without_a_name_are_named_after_their_players(client):
    started = client.post("/matches/new", data=match_form(**TEAMS))
    assert started.status_code == 303
    assert sides_of(client, started.headers["Location"]) == ["Anna & Carla", "Bruno & Dario"]


@pytest.mark.parametrize("lang", ["it", "en", "fr", "es"])
def test_the_default_team_names_are_the_same_words_in_every_language(client, lang):
    client.set_cookie("lang", lang)
    page = client.get("/matches/new").get_data(as_text=True)
    # No word of one language waits in the team fields: they are empty until names are typed.
    for field in ("team1", "team2"):
        assert attr(page, f'input[name="{field}"]', "value") in (None, ""), field
    assert not {"Noi", "Loro", "Us", "Them", "Nous", "Eux", "Nosotros", "Ellos"} & set(attrs(page, "[value]", "value"))
    location = client.post("/matches/new", data=match_form(**TEAMS)).headers["Location"]
    shown = client.get(location).get_data(as_text=True)
    assert "Anna &amp; Carla" in shown and "Bruno &amp; Dario" in shown


def test_a_team_name_typed_is_kept_and_the_other_named_after_its_players(client):
    location = client.post("/matches/new", data=match_form(**{**TEAMS, "team2": " I Lupi "})).headers["Location"]
    assert sides_of(client, location) == ["Anna & Carla", "I Lupi"]


def test_two_teams_of_three_are_named_by_their_seats(client):
    data = match_form(**{**TEAMS, "layout": "2x3", "player5": "Elena", "player6": "Franco"})
    location = client.post("/matches/new", data=data).headers["Location"]
    assert sides_of(client, location) == ["Anna & Carla & Elena", "Bruno & Dario & Franco"]


def test_long_names_make_a_team_name_of_the_names_whole(client):
    """Issue 35: "Teams without a name are cut mid-word: "Jean-Bapt. & Bartolomeo." [...] A
    team named after its players reads the players' names whole wherever the space allows, and
    never ends a cut name with a full stop." The name kept is whole; a page shortens it."""
    data = match_form(**{**TEAMS, "player1": "Jean-Baptiste", "player3": "Bartolomeo",
                         "player2": "Marie-Amélie", "player4": "Massimiliana"})
    location = client.post("/matches/new", data=data).headers["Location"]
    assert sides_of(client, location) == ["Jean-Baptiste & Bartolomeo", "Marie-Amélie & Massimiliana"]
    teams = [{"players": ["Mariagrazia Lombardozzi", "Pierfrancesco Bartolomei", "Massimiliana"]},
             {"players": ["Anna", "Bruno", "Carla"]}]
    made = client.post("/api/v1/matches", json={"teams": teams})
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["sides"][0]["name"] == \
        "Mariagrazia Lombardozzi & Pierfrancesco Bartolomei & Massimiliana"


def test_two_teams_typed_alike_are_refused(client):
    page = client.post("/matches/new", data=match_form(**{**TEAMS, "team1": "Lupi", "team2": "lupi"}))
    assert page.status_code == 400 and "Give the two teams different names" in page.get_data(as_text=True)


@pytest.mark.parametrize("lang, words", [("it", "Giocatore 1 · squadra A"), ("en", "Player 1 · team A"),
                                         ("fr", "Joueur 1 · équipe A")])
def test_each_player_field_says_its_team(client, lang, words):
    client.set_cookie("lang", lang)
    page = client.get("/matches/new?preset=scopone").get_data(as_text=True)
    teams = texts(page, 'label[for^="player"] > span.solo-only + span.teams-only')
    assert attr(page, 'label[for^="player"]', "for") == "player1" and teams[0] == words
    assert [team[-1] for team in teams] == ["A", "B", "A", "B", "A", "B"]


def test_the_placeholders_show_the_names_a_team_gets(client):
    """Sent back with a mistake (no JavaScript), the form shows each team's coming name."""
    page = client.post("/matches/new", data=match_form(**{**TEAMS, "player4": "anna"})).get_data(as_text=True)
    assert attr(page, 'input[name="team1"]', "placeholder") == "Anna & Carla"


def test_same_players_leaves_a_name_made_of_the_players_to_be_made_anew(client):
    teams = [{"players": ["Anna", "Carla"]}, {"name": "Lupi", "players": ["Bruno", "Dario"]}]
    assert client.post("/api/v1/matches", json={"variant": "scopone", "teams": teams}).status_code == 201
    page = client.get("/matches/new?same=last").get_data(as_text=True)
    assert attr(page, 'input[name="team2"]', "value") == "Lupi"
    assert attr(page, 'input[name="team1"]', "value") in (None, "")


def test_the_api_names_a_team_without_a_name_after_its_players(client):
    teams = [{"players": ["Anna", "Carla"]}, {"name": None, "players": ["Bruno", "Dario"]}]
    made = client.post("/api/v1/matches", json={"variant": "scopone", "teams": teams})
    assert made.status_code == 201
    assert [side["name"] for side in made.get_json()["sides"]] == ["Anna & Carla", "Bruno & Dario"]
    refused = client.post("/api/v1/matches", json={"teams": [{"name": 7, "players": ["A", "B"]},
                                                             {"players": ["C", "D"]}]})
    assert refused.status_code == 400 and "a team's name is text, or left out" in refused.get_json()["error"]


def test_a_match_made_before_keeps_its_team_names(client):
    teams = [{"name": "Noi", "players": ["Anna", "Carla"]}, {"name": "Loro", "players": ["Bruno", "Dario"]}]
    match_id = client.post("/api/v1/matches", json={"variant": "scopone", "teams": teams}).get_json()["id"]
    client.set_cookie("lang", "en")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Noi" in page and "Loro" in page


def test_in_english_a_team_named_after_its_players_is_two_people(client):
    """A helper's screenshot read "Carla & Dario has the Seven of coins": the verb agrees with the
    two players; a team's own name ("Lupi") stays singular, as a club's name is."""
    client.set_cookie("lang", "en")
    made = client.post("/api/v1/matches", json={"teams": [{"players": ["Anna", "Carla"]},
                                                          {"name": "Lupi", "players": ["Bruno", "Dario"]}]})
    match = made.get_json()["id"]
    deck = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
    client.post(f"/api/v1/matches/{match}/hands", json={"piles": [deck[:22], deck[22:]], "sweeps": [0, 0]})
    page = shown(client, match)
    assert "Anna & Carla have the Seven of coins" in page
    client.post(f"/api/v1/matches/{match}/hands", json={"piles": [deck[10:], deck[:10]], "sweeps": [0, 0]})
    page = shown(client, match)
    assert "Lupi has the Seven of coins" in page


@pytest.mark.parametrize("lang, two, one", [
    ("fr", "Anna & Carla ont le 7 de deniers", "Lupi a le 7 de deniers"),
    ("it", "Anna & Carla hanno il 7 di denari", "Lupi ha il 7 di denari"),
])
def test_in_french_and_italian_a_team_named_after_its_players_is_two_people(client, lang, two, one):
    """The screenshot of a finished team match read "Carla & Anna gagne" in French: the verb
    after a team named after its players is plural there too."""
    made = client.post("/api/v1/matches", json={"teams": [{"players": ["Anna", "Carla"]},
                                                          {"name": "Lupi", "players": ["Bruno", "Dario"]}]})
    match = made.get_json()["id"]
    deck = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
    client.set_cookie("lang", lang)
    client.post(f"/api/v1/matches/{match}/hands", json={"piles": [deck[:22], deck[22:]], "sweeps": [0, 0]})
    page = shown(client, match)
    assert two in page
    client.post(f"/api/v1/matches/{match}/hands", json={"piles": [deck[10:], deck[:10]], "sweeps": [0, 0]})
    page = shown(client, match)
    assert one in page
