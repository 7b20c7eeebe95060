"""One player per name a human reads (issue 41): "'Аnna' (Cyrillic А), 'Anna' + U+FE0F and
'Anna' + U+034F are separate players that display exactly as Anna, each with a record and a
rating, offered in the name suggestions." Names are now compared by what they look like
(``names.name_key``: UTS #39's skeleton, from Unicode's confusables, what shows as nothing
left out): a look-alike of a known player is that player, and two look-alikes at one table are
refused, saying whom one looks like. A store that holds look-alikes already flags them for the
organiser (migration 18)."""

import sqlite3

import pytest

from companion import create_app, store
from companion.matches import Ledger
from helpers import ORGANISER_CODE, match_form, organiser
from markup import attrs, text

CYRILLIC_A, CYRILLIC_M = "\u0410", "\u041c"
LOOK_ALIKES = [f"{CYRILLIC_A}nna", "Anna\ufe0f", "An\u034fna", "\u0391\u039d\u039d\u0391"]


def players(client) -> dict[str, dict]:
    return {p["name"]: p for p in client.get("/api/v1/players").get_json()["players"]}


@pytest.mark.parametrize("typed", LOOK_ALIKES, ids=["cyrillic A", "U+FE0F", "U+034F", "greek capitals"])
def test_a_look_alike_of_a_known_player_is_that_player_through_the_api(client, typed):
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    made = client.post("/api/v1/matches", json={"players": [typed, "Carla"]}).get_json()
    assert made["sides"][0] == {"name": "Anna", "players": ["Anna"]}
    known = players(client)
    assert sorted(known) == ["Anna", "Bruno", "Carla"]
    assert known["Anna"]["playing"] == 2           # the same record (and so the same rating)


def test_a_look_alike_typed_on_the_new_match_form_is_that_player(client):
    client.post("/api/v1/matches", json={"players": ["Marco", "Bruno"]})
    answer = client.post("/matches/new", data=match_form(player1=f"{CYRILLIC_M}arco", player2="Zoe"))
    assert answer.status_code == 303, text(answer, "[role=alert]")
    match = client.get("/api/v1" + answer.headers["Location"]).get_json()
    assert match["sides"][0]["name"] == "Marco"
    assert sorted(players(client)) == ["Bruno", "Marco", "Zoe"]


def test_two_look_alikes_at_one_table_are_refused_saying_whom_one_looks_like(client):
    words = f"{CYRILLIC_A}nna looks like Anna: two names that read the same would make the score unclear"
    refused = client.post("/api/v1/matches", json={"players": ["Anna", f"{CYRILLIC_A}nna"]})
    assert refused.status_code == 400 and refused.get_json()["error"] == words
    page = client.post("/matches/new", data=match_form(player1="Anna", player2=f"{CYRILLIC_A}nna"))
    assert page.status_code == 400 and words in page.get_data(as_text=True)
    italian = client.post("/api/v1/matches", json={"players": ["Anna", f"{CYRILLIC_A}nna"]},
                          headers={"Accept-Language": "it"}).get_json()["error"]
    assert italian.startswith(f"{CYRILLIC_A}nna sembra Anna")
    tournament = client.post("/api/v1/tournaments", json={
        "name": "Night", "format": "round-robin", "entrants": ["Anna", "Bruno", f"{CYRILLIC_A}nna"]})
    assert tournament.status_code == 400 and tournament.get_json()["error"] == words
    assert players(client) == {}
    # Only the case differs: "Two players have the same name", as the page says it.
    same = client.post("/api/v1/matches", json={"players": ["Anna", "anna"]}).get_json()["error"]
    assert same == "Two players have the same name: the score would be unclear"


def old_store(path) -> None:
    """A store of the version before (migration 17), whose players' keys were their names
    case-folded: Anna, and two look-alikes of hers, each a player with a match."""
    db = store.connect(str(path))
    db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
    for version, step in enumerate(store.MIGRATIONS[:17], start=1):
        step(db, Ledger)
        db["migrations"].insert({"version": version, "applied": "2026-01-01T00:00:00+00:00"})
    for name in ("Anna", f"{CYRILLIC_A}nna", "Bruno", "Anna\ufe0f"):
        db["players"].insert({"name": name, "key": name.casefold(), "created": "2026-01-01T00:00:00+00:00"})
    db.conn.close()


def test_a_store_holding_look_alikes_flags_them_for_the_organiser(tmp_path):
    path = tmp_path / "old.sqlite"
    old_store(path)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(path),
                      "WTF_CSRF_ENABLED": False, "ORGANISER_CODE": ORGANISER_CODE})
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT id, name, key, looks_like FROM players ORDER BY id").fetchall()
    conn.close()
    anna, cyrillic, bruno, selector = rows
    assert anna[3] is None and cyrillic[3] == anna[0] and selector[3] == anna[0] and bruno[3] is None
    assert len({row[2] for row in rows}) == 4       # each keeps a key of its own: none is lost
    client = organiser(app)
    # A look-alike typed now is Anna, the first of them.
    made = client.post("/api/v1/matches", json={"players": [f"{CYRILLIC_A}nna", "Bruno"]}).get_json()
    assert made["sides"][0]["name"] == "Anna"
    # Nor is the look-alike offered by the name fields, though it has a match of its own.
    other = client.post("/api/v1/matches", json={"players": ["Carla", "Dario"]}).get_json()["id"]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE seats SET player_id = ? WHERE match_id = ? AND side = 0", [cyrillic[0], other])
    offered = attrs(client.get("/matches/new"), "datalist#known-players option", "value")
    assert sorted(offered) == ["Anna", "Bruno", "Dario"]
    # The organiser sees the flag on the look-alike's page, and merges it from there.
    page = client.get(f"/players/{cyrillic[0]}")
    assert text(page, "[data-testid=looks-like]").startswith(f"{CYRILLIC_A}nna reads as Anna, another player")
    link = attrs(page, "[data-testid=looks-like] a", "href")[0]
    assert link == f"/players/{cyrillic[0]}/merge?into={anna[0]}"
    assert client.post(link).status_code == 303
    assert client.get(f"/players/{cyrillic[0]}").headers["Location"].endswith(f"/players/{anna[0]}")
    assert "looks-like" not in client.get(f"/players/{anna[0]}").get_data(as_text=True)
