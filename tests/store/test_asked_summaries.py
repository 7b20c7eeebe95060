"""The summaries a migration asks for (issue 44) and a deleted match: a match deleted in the last
day, still in the trash, is worked out from the hands the trash brings back with it, so that
brought back it shows its own outcome."""

from companion import store
from companion.matches import Ledger
from companion.store.migrations import MIGRATIONS
from helpers import finish


def test_a_match_in_the_trash_is_worked_out_from_the_hands_it_brings_back(app, client):
    cut = "Jean-Bapt. & Bartolomeo."       # a name as the rule before issue 35 cut it (m017)
    made = client.post("/api/v1/matches", json={"variant": "scopone", "first_dealer": 0, "teams": [
        {"name": cut, "players": ["Jean-Baptiste", "Bartolomeo Giangiacomo"]},
        {"name": "I Lupi", "players": ["Marie-Amélie", "Massimiliana"]}]})
    assert made.status_code == 201, made.get_json()
    match_id = made.get_json()["id"]
    finish(client, match_id)
    before = client.get(f"/api/v1/matches/{match_id}").get_json()
    with app.app_context():
        db = store.get_db()
        store.delete_match(db, match_id)
        with store.writing(db):
            MIGRATIONS[16](db)             # m017: the name written whole, its summary asked for
        assert store.settle_summaries(db, Ledger) == 1
        store.restore_match(db, match_id, Ledger)
    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert after["sides"][0]["name"] == "Jean-Baptiste & Bartolomeo Giangiacomo"
    assert after["totals"] == before["totals"] and after["outcome"]["over"]
    assert after["outcome"]["text"].startswith("Jean-Baptiste & Bartolomeo Giangiacomo")
