"""One player per name a human reads (issue 41): "'Аnna' (Cyrillic А), 'Anna' + U+FE0F and
'Anna' + U+034F are separate players that display exactly as Anna, each with a record and a
rating, offered in the name suggestions." Names are now compared by what they look like
(``names.name_key``: UTS #39's skeleton, from Unicode's confusables, what shows as nothing
left out): a look-alike of a known player is that player, and two look-alikes at one table are
refused, saying whom one looks like. A store that holds look-alikes already flags them for the
organiser (migration 18)."""

import json
import sqlite3
import unicodedata

import pytest

from companion import create_app, store
from companion.names import KEY_MAX, NAME_MAX, name_key
from companion.store.checks import text_over_limit
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
        step(db)
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


# -- Compatibility forms (issue 41, what the review of finding 6 found) ------------------------
# A fullwidth letter, a superscript or subscript digit, a modifier capital and a capital I for a
# small l (as a sans-serif font draws them: alike) each made another player that reads as a
# known one. Each is now the letter it stands for (NFKC, as UTS #39 takes a name before its
# skeleton), and a capital I between a letter and a small letter is read as the l it is drawn as.
COMPATIBLE = [("\uff21\uff4e\uff4e\uff41", "Anna"), ("Player \uff11", "Player 1"),
              ("Player \u00b9", "Player 1"), ("Player \u2081", "Player 1"),
              ("\u1d2cnna", "Anna"), ("PIayer 1", "Player 1")]
COMPATIBLE_IDS = ["fullwidth Anna", "fullwidth 1", "superscript 1", "subscript 1",
                  "modifier capital A", "capital I for l"]


@pytest.mark.parametrize("typed, known", COMPATIBLE, ids=COMPATIBLE_IDS)
def test_a_compatibility_form_of_a_known_player_is_that_player(client, typed, known):
    client.post("/api/v1/matches", json={"players": [known, "Bruno"]})
    made = client.post("/api/v1/matches", json={"players": [typed, "Carla"]}).get_json()
    assert made["sides"][0] == {"name": known, "players": [known]}
    answer = client.post("/matches/new", data=match_form(player1=typed, player2="Zoe"))
    assert answer.status_code == 303, text(answer, "[role=alert]")
    assert client.get("/api/v1" + answer.headers["Location"]).get_json()["sides"][0]["name"] == known
    found = players(client)
    assert sorted(found) == sorted([known, "Bruno", "Carla", "Zoe"])
    assert found[known]["playing"] == 3


@pytest.mark.parametrize("typed, known", COMPATIBLE, ids=COMPATIBLE_IDS)
def test_a_compatibility_form_beside_its_letters_is_refused_saying_whom_it_looks_like(app, client, typed,
                                                                                     known):
    words = f"{typed} looks like {known}: two names that read the same would make the score unclear"
    refused = client.post("/api/v1/matches", json={"players": [known, typed]})
    assert refused.status_code == 400 and refused.get_json()["error"] == words
    page = client.post("/matches/new", data=match_form(player1=known, player2=typed))
    assert page.status_code == 400 and words in text(page, "[role=alert]")
    tournament = client.post("/api/v1/tournaments", json={
        "name": "Night", "format": "round-robin", "entrants": [known, "Bruno", typed]})
    assert tournament.status_code == 400 and "look" in tournament.get_json()["error"]
    made = client.post("/tournaments/new", data={"name": "Night", "format": "round-robin",
                                                  "variant": "classica", "seeding": "order",
                                                  "entrants": f"{known}\nBruno\n{typed}"})
    assert made.status_code == 400 and typed in text(made, ".error")
    assert players(client) == {}
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tournaments").fetchone() == (0,)


@pytest.mark.parametrize("typed, known", COMPATIBLE, ids=COMPATIBLE_IDS)
def test_a_player_is_not_renamed_as_a_compatibility_form_of_another(client, typed, known):
    client.post("/api/v1/matches", json={"players": [known, "Bruno"]})
    bruno = players(client)["Bruno"]["id"]
    answer = client.post(f"/players/{bruno}/rename", data={"name": typed})
    assert answer.status_code == 409
    assert f"There is already a player called {known}" in answer.get_data(as_text=True)
    assert sorted(players(client)) == sorted([known, "Bruno"])


@pytest.mark.parametrize("typed, known", COMPATIBLE, ids=COMPATIBLE_IDS)
def test_a_tournament_entrant_written_in_a_compatibility_form_plays_as_the_known_player(client, typed, known):
    client.post("/api/v1/matches", json={"players": [known, "Bruno"]})
    made = client.post("/api/v1/tournaments", json={
        "name": "Night", "format": "round-robin", "entrants": [typed, "Dario", "Elena", "Franco"]})
    assert made.status_code == 201, made.get_json()
    started = client.post(f"/api/v1/tournaments/{made.get_json()['id']}/rounds", json={})
    assert started.status_code == 201, started.get_json()
    found = players(client)
    assert sorted(found) == sorted([known, "Bruno", "Dario", "Elena", "Franco"])
    assert found[known]["playing"] == 2


def test_what_reads_as_l_and_what_stays_i():
    """A capital I between a letter and a small letter is drawn as a sans-serif font draws an l
    ("PIayer" is Player, "MarceIlo" Marcello); anywhere else it is the I it is, in any
    case ("Ilaria", "ILARIA" and "ilaria" are one player, "llaria" another)."""
    assert name_key("PIayer") == name_key("Player") == name_key("pIayer")
    assert name_key("MarceIlo") == name_key("Marcello") and name_key("AIIa") == name_key("Alla")
    assert name_key("Ilaria") == name_key("ILARIA") == name_key("ilaria") != name_key("llaria")
    assert name_key("Anna Ilaria") == name_key("anna ilaria")
    assert name_key("D'Ippolito") == name_key("d'ippolito")
    assert name_key("P\u04c0ayer") == name_key("Player")     # a Cyrillic palochka, as the I
    assert name_key("Lia") != name_key("Ila") and name_key("Player 1") != name_key("Player 2")


def test_every_key_is_within_the_stores_bound():
    """NFKC makes U+FDFA 18 characters, and a restore refuses a key over KEY_MAX (store.checks):
    a character's key stays within KEY_MAX / NAME_MAX, its compatibility form's where that fits
    (U+FDFB's 8), the character as it is where it does not (U+FDFA's 18 would not)."""
    longest = max((chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000
                   and unicodedata.normalize("NFKC", chr(code)) != chr(code)),
                  key=lambda char: len(name_key(char)))
    assert len(name_key(longest)) <= KEY_MAX // NAME_MAX
    assert len(name_key("\ufdfb")) == 8 and name_key("\ufdfa") == name_key("\ufdfa")[:1]
    assert len(name_key("\ufdfa" * NAME_MAX)) <= KEY_MAX


def test_a_name_of_the_longest_forms_is_kept_within_the_bound(app, client):
    for name in ("\ufdfa" * NAME_MAX, "\ufdfb" * NAME_MAX, "\u321d" * NAME_MAX):
        assert client.post("/api/v1/matches", json={"players": [name, "Bruno"]}).status_code == 201
    with app.app_context():
        assert text_over_limit(store.get_db()) is None


def store_of_version_20(path) -> None:
    """A store of the version before compatibility forms were read (migration 20), its players
    keyed as m018 keyed them: Anna and a fullwidth "Ａｎｎａ", "PIayer 1" and a later "Player 1",
    each a player of their own; "Аnna" (its A Cyrillic), which m018 flagged as Anna's look-alike;
    a tournament whose entrant is "Ａｎｎａ"."""
    from companion.store.migration_names import name_key as m018_key
    db = store.connect(str(path))
    db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
    for version, step in enumerate(store.MIGRATIONS[:20], start=1):
        step(db)
        db["migrations"].insert({"version": version, "applied": "2026-01-01T00:00:00+00:00"})
    for name in ("Anna", FULLWIDTH_ANNA, "Bruno", "PIayer 1", "Player 1"):
        db["players"].insert({"name": name, "key": m018_key(name), "created": "2026-01-01T00:00:00+00:00"})
    db["players"].insert({"name": f"{CYRILLIC_A}nna", "key": f"{CYRILLIC_A.casefold()}nna\n6",
                          "looks_like": 1, "created": "2026-01-01T00:00:00+00:00"})
    entrants = [{"name": name, "players": [name]} for name in (FULLWIDTH_ANNA, "Bruno")]
    db["tournaments"].insert({"created": "2026-01-01T00:00:00+00:00", "name": "Night", "format": "swiss",
                              "rules": "{}", "entrants": json.dumps(entrants)})
    db["tournament_players"].insert_all([{"tournament_id": 1, "key": m018_key(FULLWIDTH_ANNA)},
                                         {"tournament_id": 1, "key": "bruno"}])
    db.conn.close()


FULLWIDTH_ANNA = "\uff21\uff4e\uff4e\uff41"


def test_a_store_holding_compatibility_forms_flags_them_for_the_organiser(tmp_path):
    """Migration 21 works every key out again by the new key, and flags the players it makes one
    name as m018 does: the first made keeps the key, each later one its records and looks_like."""
    path = tmp_path / "old.sqlite"
    store_of_version_20(path)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(path),
                      "WTF_CSRF_ENABLED": False, "ORGANISER_CODE": ORGANISER_CODE})
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT id, name, key, looks_like FROM players ORDER BY id").fetchall()
        indexed = {key for (key,) in conn.execute("SELECT key FROM tournament_players")}
    anna, fullwidth, bruno, capital_i, player, cyrillic = rows
    assert [row[3] for row in rows] == [None, anna[0], None, None, capital_i[0], anna[0]]
    assert anna[2] == "anna" and capital_i[2] == "player l" and bruno[2] == "bruno"
    assert fullwidth[2] == f"anna\n{fullwidth[0]}" and player[2] == f"player l\n{player[0]}"
    assert cyrillic[2] == f"anna\n{cyrillic[0]}"   # still Anna's look-alike, by the new key
    assert indexed == {"anna", "bruno"}             # a rename of Anna finds the tournament
    with app.app_context():
        assert text_over_limit(store.get_db()) is None
    client = organiser(app)
    made = client.post("/api/v1/matches", json={"players": ["\u1d2cnna", "Player \u2081"]}).get_json()
    assert [side["name"] for side in made["sides"]] == ["Anna", "PIayer 1"]
    page = client.get(f"/players/{fullwidth[0]}")
    looks_like = text(page, "[data-testid=looks-like]")
    assert looks_like.startswith(f"{FULLWIDTH_ANNA} reads as Anna, another player")


def test_a_look_alike_whose_first_was_renamed_is_the_player_of_its_name_again(tmp_path):
    """m018 flagged "Аnna" as Anna's look-alike; Anna has since been renamed Anna Rossi, so no
    player reads as "Аnna" any more: m021 gives it its name's key, and takes its flag away."""
    path = tmp_path / "old.sqlite"
    store_of_version_20(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE players SET name = 'Anna Rossi', key = 'anna rossi' WHERE id = 1")
        conn.execute("DELETE FROM players WHERE id = 2")
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(path), "ORGANISER_CODE": ORGANISER_CODE})
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT key, looks_like FROM players WHERE id = 6").fetchone() == ("anna", None)


def test_migration_21_keys_names_as_the_companion_does_when_released():
    """m021 holds its own copy of the key (a released migration never changes): the same key as
    names.name_key for every character a compatibility form changes, and the review's names."""
    from companion.store.migration_021 import name_key as m021_key
    names = [chr(code) for code in range(0x110000) if not 0xD800 <= code < 0xE000
             and unicodedata.normalize("NFKC", chr(code)) != chr(code)]
    names += [typed for typed, _known in COMPATIBLE] + ["McIntyre", "AIIa", "IIa", "P\u04c0ayer", "ILARIA"]
    assert [m021_key(name) for name in names] == [name_key(name) for name in names]
