"""One rule written once: the name and PIN limits, the key that makes two names the same player,
a record's figures, the seats of each layout, the pile count's singular, and finding a hand.

The strongest checks change the one place (``companion/names.py``, ``companion/stats.py``) in a
copy of the companion, then ask every door (the pages' forms, the JSON API, the tournaments, the
store, the OpenAPI document): a door holding a copy of its own still says the old rule, and
fails here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import names, stats, store
from companion.api.openapi import SPEC
from companion.api.openapi_ratings import RATING
from companion.i18n import COOKIE
from companion.matches import no_stats
from companion.players.records import empty_record
from companion.table.forms import PLAYER_COUNTS
from markup import attr

ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / "companion"


def changed_companion(tmp_path: Path, changes: dict[str, dict[str, str]], probe: str,
                      migrated_store: Path) -> dict:
    """Run ``probe`` (Python, with ``app``, ``client``, a test client, and ``answers``, a dict
    it fills) in a copy of the companion whose files had ``changes`` made ({"names.py": {old:
    new}}); returns ``answers``. Its store is a copy of ``migrated_store``: the migrations are
    frozen (they import nothing the changes touch), so the changed companion's own would make
    the same store, at half a second of CPU (issue 44)."""
    shutil.copy(migrated_store, tmp_path / "t.sqlite")
    for folder in ("companion", "templates", "static"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name, swaps in changes.items():
        path = tmp_path / "companion" / name
        source = path.read_text()
        for old, new in swaps.items():
            assert source.count(old) == 1, f"{name} no longer says {old!r}"
            source = source.replace(old, new)
        path.write_text(source)
    script = textwrap.dedent("""
        import json, pathlib, sys
        from companion import create_app
        assert pathlib.Path(sys.modules["companion"].__file__).parent == pathlib.Path("companion").resolve()
        app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                          "DATABASE": "t.sqlite", "ORGANISER_CODE": "T3S-TKY"})
        client = app.test_client()
        client.environ_base["HTTP_X_SCOPA_ORGANISER"] = "T3S-TKY"     # the organiser's
        answers = {}
    """) + textwrap.dedent(probe) + "\nprint(json.dumps(answers))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, env={**os.environ, "SCOPA_LANG": "en"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


MATCH_FORM = {"layout": "2", "player1": "Anna", "player2": "Bruno", "first_dealer": "0",
              "preset": "classica", "deck": "40", "bonus_suit": "d", "primiera": "standard",
              "missing_suit": "loses", "napola": "off", "declarations": "off", "target": "11",
              "capture": "standard", "void_deal": "kings", "pack": "italian"}

ASK_EVERY_DOOR = f"""
    form = {MATCH_FORM!r}

    def page(response):
        return response.status_code, response.get_data(as_text=True)

    def api(path, body):
        response = client.post(path, json=body)
        return response.status_code, response.get_json().get("error")

    tournament = {{"name": "Circolo", "format": "round-robin", "entrants": ["Anna", "Bruno"]}}
    answers["form name"] = page(client.post("/matches/new", data={{**form, "player1": "Annabel"}}))
    answers["form pin"] = page(client.post("/matches/new", data={{**form, "pin": "1234"}}))
    answers["form pin 5"] = client.post("/matches/new", data={{**form, "pin": "12345"}}).status_code
    answers["form same"] = page(client.post("/matches/new", data={{**form, "player1": "Al Bo",
                                                                   "player2": "albo"}}))
    answers["api name"] = api("/api/v1/matches", {{"players": ["Annabel", "Bruno"]}})
    answers["api pin"] = api("/api/v1/matches", {{"players": ["Anna", "Bruno"], "pin": "1234"}})
    answers["api pin 5"] = api("/api/v1/matches", {{"players": ["Anna", "Bruno"], "pin": "12345"}})
    answers["api same"] = api("/api/v1/matches", {{"players": ["Al Bo", "albo"]}})
    answers["tournament name"] = api("/api/v1/tournaments", {{**tournament, "entrants": ["Annabel", "Bruno"]}})
    answers["tournament pin"] = api("/api/v1/tournaments", {{**tournament, "pin": "1234"}})
    answers["tournament same"] = api("/api/v1/tournaments", {{**tournament,
                                                              "entrants": ["Al Bo", "albo"]}})
    answers["tournament page"] = page(client.post("/tournaments/new", data={{
        "name": "Circolo", "format": "round-robin", "variant": "classica", "seeding": "order",
        "entrants": "Annabel\\nBruno"}}))
    # The store finds a player by the same key: "Al Bo" again as "albo" is one player.
    client.post("/api/v1/matches", json={{"players": ["Al Bo", "Bruno"]}})
    client.post("/api/v1/matches", json={{"players": ["albo", "Carla"]}})
    answers["players"] = sorted(p["name"] for p in client.get("/api/v1/players").get_json()["players"])
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    answers["openapi name"] = schemas["NewMatch"]["properties"]["players"]["anyOf"][0]["items"]["maxLength"]
    pins = [schemas[s]["properties"]["pin"] for s in ("NewMatch", "NewTournament")]
    answers["openapi pins"] = [pin.get("pattern") or pin["anyOf"][0]["pattern"] for pin in pins]
"""


def test_the_name_and_pin_rules_are_changed_for_every_door_in_one_place(tmp_path, migrated_store):
    """Names of at most 5 characters, PINs of 5 to 8 digits, and inner spaces not telling two
    names apart: changed in companion/names.py alone, every door says so (a new match's page and
    API in the same words, issue 44)."""
    seen = changed_companion(tmp_path, {"names.py": {
        "NAME_MAX = 24": "NAME_MAX = 5",
        "PIN_MIN, PIN_MAX = 6, 8": "PIN_MIN, PIN_MAX = 5, 8",
        # The key (names.name_key, by what a name looks like) and the spelling a look-alike is
        # told from (names.look_alike), both without inner spaces.
        'text = _drawn_as_l(tidy("".join(_compatible(char) for char in tidy(name))))':
            'text = _drawn_as_l("".join(tidy("".join(_compatible(char) for char in tidy(name))).split()))',
        "tidy(seen[key]).casefold() != tidy(name).casefold()":
            '"".join(tidy(seen[key]).split()).casefold() != "".join(tidy(name).split()).casefold()'}},
        ASK_EVERY_DOOR, migrated_store)
    status, text = seen["form name"]
    assert status == 400 and "A name has at most 5 characters" in text
    status, text = seen["form pin"]
    assert status == 400 and "A PIN is 5 to 8 digits from 0 to 9" in text
    assert seen["form pin 5"] == 303
    status, text = seen["form same"]
    assert status == 400 and "Two players have the same name" in text
    assert seen["api name"] == [400, "A name has at most 5 characters: shorten this one"]
    assert seen["api pin"] == [400, "A PIN is 5 to 8 digits from 0 to 9"]
    assert seen["api pin 5"][0] == 201
    assert seen["api same"] == [400, "Two players have the same name: the score would be unclear"]
    assert seen["tournament name"] == [400, "every name must be 1 to 5 characters"]
    assert seen["tournament pin"] == [400, "A PIN is 5 to 8 digits from 0 to 9"]
    assert seen["tournament same"] == [400, "Two players have the same name: the score would be unclear"]
    status, text = seen["tournament page"]
    assert status == 400 and "Every name must be 1 to 5 characters" in text      # a sentence (issue 42)
    assert seen["players"] == ["Al Bo", "Anna", "Bruno", "Carla"]
    assert seen["openapi name"] == 5
    assert seen["openapi pins"] == ["^[0-9]{5,8}$"] * 2


RECORD_OF_EVERY_DOOR = """
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    listed = client.get("/api/v1/players").get_json()["players"][0]
    answers["api"] = sorted(listed)
    answers["empty"] = sorted(client.get(f"/api/v1/players/{listed['id']}?variant=scopone").get_json())
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    answers["openapi"] = sorted(schemas["Player"]["required"])
    from companion import store
    from companion.matches import no_stats
    with app.app_context():
        db = store.get_db()
        answers["store"] = sorted(store.records(db)[0])
        answers["columns"] = sorted(db["seats"].columns_dict)
    answers["model"] = sorted(no_stats(1)[0])
"""


def test_a_records_figures_are_changed_for_every_door_in_one_place(tmp_path, migrated_store):
    """A figure taken out of companion/stats.py is gone from the model, the store's sums, the
    API, an empty record and the OpenAPI document; the seats table keeps the column its
    migration made (migrations are never changed)."""
    seen = changed_companion(tmp_path, {"stats.py": {'"napola", "declarations")': '"napola")'}},
                             RECORD_OF_EVERY_DOOR, migrated_store)
    for door in ("api", "openapi", "store", "model"):
        assert "declarations" not in seen[door], door
        assert "napola" in seen[door], door
    assert "declarations" not in seen["empty"] and "head_to_head" in seen["empty"]
    assert "declarations" in seen["columns"]


def test_a_records_figures_agree_everywhere(client):
    """Today's lists, from the one: the model's stats, the seats' columns, the store's sums,
    the API's answer and the OpenAPI document."""
    assert set(no_stats(1)[0]) == {*stats.SUMS, *stats.EXTREMES}
    assert store.SEAT_STATS == (*stats.SUMS, *stats.EXTREMES)
    # A player's record, then their rating (store.ratings: kept apart from the record's sums).
    assert list(SPEC["components"]["schemas"]["Player"]["required"]) == [*stats.RECORD, *RATING]
    assert set(empty_record({"id": 1, "name": "Anna"})) >= set(stats.RECORD)
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    player = client.get("/api/v1/players").get_json()["players"][0]
    assert set(player) == {*stats.RECORD, *RATING}
    with client.application.app_context():
        db = store.get_db()
        assert set(store.records(db)[0]) == set(stats.RECORD)
        # A figure the seats have no column for needs a migration that adds it.
        assert set(store.SEAT_STATS) <= set(db["seats"].columns_dict)


def test_names_are_the_same_player_by_the_stores_key():
    assert store.player_key("  ANNA ") == names.name_key("  ANNA ") == "anna"
    assert names.valid_pin("12345678") and not names.valid_pin("123456789")
    assert names.name_fits("x" * names.NAME_MAX) and not names.name_fits("x" * (names.NAME_MAX + 1))


def test_the_new_match_form_gives_the_script_the_servers_seats(client):
    page = client.get("/matches/new").get_data(as_text=True)
    assert json.loads(attr(page, "form.card.new-match", "data-seats")) == PLAYER_COUNTS
    script = (ROOT / "static" / "companion.js").read_text()
    assert "dataset.seats" in script
    assert not re.search(r'"2x3"\s*:', script), "companion.js holds a copy of the seats"


@pytest.mark.parametrize("lang, singular", [("it", [1]), ("en", [1]), ("fr", [0, 1]), ("es", [1])])
def test_the_pile_count_says_the_singular_as_the_server_does(client, lang, singular):
    client.set_cookie(COOKIE, lang)
    match = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno", "Carla"]}).get_json()
    page = client.get(f"/matches/{match['id']}/hands/new").get_data(as_text=True)
    forms = json.loads(attr(page, "[data-count-forms]", "data-count-forms"))
    assert forms["one"] == singular
    script = (ROOT / "static" / "companion.js").read_text()
    assert "forms.one" in script and '"fr"' not in script, "companion.js holds a plural rule"


def test_a_hand_is_found_by_match_hand_only():
    """``Match.hand`` finds a hand by its id; nothing else looks for one by hand."""
    allowed = {COMPANION / "matches.py"}
    found = [f"{path.relative_to(ROOT)}:{n}" for path in COMPANION.rglob("*.py") if path not in allowed
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\b\w+\.id == (hand_id|hand\.id)\b", line)]
    assert found == []
