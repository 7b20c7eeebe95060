"""Issue 26, "smaller": names are tidied the one way at every door (NFC, nothing that shows as
nothing), so two names that look the same are one player, and a pairs tournament never names a
team like a player."""

import sqlite3

from companion import create_app, store
from companion.names import name_key, tidy

ZERO_WIDTH = "An\u200bna"               # looks like "Anna" on every phone
DECOMPOSED = "Jose\u0301"              # "José" typed as e + combining accent
COMPOSED = "Jos\u00e9"


def players(client) -> list[str]:
    return sorted(p["name"] for p in client.get("/api/v1/players").get_json()["players"])


def test_tidy_keeps_what_shows_and_drops_what_does_not():
    assert tidy(ZERO_WIDTH) == "Anna"
    assert tidy(DECOMPOSED) == COMPOSED
    assert tidy(" Anna\u00a0\u2028 Maria\u202e ") == "Anna Maria"
    assert tidy("\u3164") == ""                   # the Hangul filler some use as a "blank" name
    assert name_key("ANNA\u200d") == name_key("anna")


def test_a_name_with_a_zero_width_character_is_the_same_player(client):
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    client.post("/api/v1/matches", json={"players": [ZERO_WIDTH, "Carla"]})
    client.post("/matches/new", data={"layout": "2", "player1": DECOMPOSED, "player2": "Bruno",
                                      "first_dealer": "0", "preset": "classica"})
    client.post("/api/v1/matches", json={"players": [COMPOSED, "Carla"]})
    assert players(client) == ["Anna", "Bruno", "Carla", COMPOSED]


def test_two_names_that_differ_only_by_an_invisible_character_cannot_sit_at_one_table(client):
    answer = client.post("/api/v1/matches", json={"players": ["Anna", ZERO_WIDTH]})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "Two players have the same name: the score would be unclear"
    page = client.post("/matches/new", data={"layout": "2", "player1": "Anna", "player2": ZERO_WIDTH,
                                             "first_dealer": "0", "preset": "classica"})
    assert page.status_code == 400 and "Two players have the same name" in page.get_data(as_text=True)
    assert players(client) == []


def test_an_invisible_name_is_no_name(client):
    answer = client.post("/api/v1/matches", json={"players": ["\u200b\u200b", "Bruno"]})
    assert answer.get_json() == {"error": "Give a name to each of the 2 players"}
    assert answer.status_code == 400


def test_a_pairs_tournament_refuses_a_team_named_like_a_player(client):
    answer = client.post("/api/v1/tournaments", json={
        "name": "Circolo", "format": "round-robin", "variant": "scopone",
        "entrants": [{"name": "Anna", "players": ["Bruno", "Carla"]},
                     {"name": "Sud", "players": ["Anna", "Dario"]}]})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "Two players have the same name: the score would be unclear"
    fine = client.post("/api/v1/tournaments", json={
        "name": "Circolo\u200b", "format": "round-robin", "variant": "scopone",
        "entrants": [{"name": "Nord", "players": ["Bruno", "Carla"]},
                     {"name": "Sud", "players": ["Anna", "Dario"]}]})
    assert fine.status_code == 201, fine.get_json()
    assert client.get(fine.headers["Location"]).get_json()["name"] == "Circolo"


def test_an_older_store_gets_its_players_keys_tidied(app, client):
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    with sqlite3.connect(app.config["DATABASE"]) as conn:      # as m008's rule keyed a name
        conn.execute("INSERT INTO players (name, key, created) VALUES (?, ?, '2026-01-01')",
                     [f"Jose\u0301 {ZERO_WIDTH}", f"jose\u0301 {ZERO_WIDTH.casefold()}"])
        conn.execute("INSERT INTO players (name, key, created) VALUES (?, ?, '2026-01-01')",
                     [ZERO_WIDTH, ZERO_WIDTH.casefold()])      # would now be Anna's key
        conn.execute("DELETE FROM migrations WHERE version = 10")
    store.forget_built()
    again = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": app.config["DATABASE"]})
    with again.app_context():
        db = store.get_db()
        keys = dict(db.execute("SELECT name, key FROM players").fetchall())
    assert keys[f"Jose\u0301 {ZERO_WIDTH}"] == f"{COMPOSED} anna".casefold()
    assert keys[ZERO_WIDTH] == ZERO_WIDTH.casefold()           # Anna's key is taken: kept apart
    assert keys["Anna"] == "anna"
