"""Migration 17 (issue 35): a team named after its players was cut to 24 characters with a full
stop before issue 35 ("Jean-Bapt. & Bartolomeo."); a store kept from then is brought whole at
the next start, its outcome too, while a name the players typed stays as they typed it; a match
in the trash too, from the hands the trash brings back."""

from companion import store
from companion.matches import Ledger
from companion.store.migrations import MIGRATIONS
from helpers import finish

# What a store of before holds: the team's name as the old rule made it (store/migration_017.py's team_name_cut).
CUT = "Jean-Bapt. & Bartolomeo."
WHOLE = "Jean-Baptiste & Bartolomeo Giangiacomo"


def finished_with_a_cut_name(client) -> tuple[int, dict]:
    """A match of teams, the first named as the old rule cut it, played to its end: its id and
    its answer."""
    made = client.post("/api/v1/matches", json={"variant": "scopone", "first_dealer": 0, "teams": [
        {"name": CUT, "players": ["Jean-Baptiste", "Bartolomeo Giangiacomo"]},
        {"name": "I Lupi", "players": ["Marie-Amélie", "Massimiliana"]}]})
    assert made.status_code == 201, made.get_json()
    match_id = made.get_json()["id"]
    finish(client, match_id)
    return match_id, client.get(f"/api/v1/matches/{match_id}").get_json()


def test_a_team_name_cut_before_issue_35_is_written_whole(app, client):
    match_id, before = finished_with_a_cut_name(client)
    assert [side["name"] for side in before["sides"]] == [CUT, "I Lupi"]
    assert before["outcome"]["text"].startswith(CUT)

    with app.app_context():
        db = store.get_db()
        assert MIGRATIONS[16].__name__ == "m017_team_names_whole"
        with store.writing(db):
            MIGRATIONS[16](db)
        store.settle_summaries(db, Ledger)      # what the start-up does after the migrations

    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [side["name"] for side in after["sides"]] == [WHOLE, "I Lupi"]
    assert after["outcome"]["text"].startswith(WHOLE)
    assert after["totals"] == before["totals"]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Bartolomeo." not in page


def test_a_match_in_the_trash_is_worked_out_from_the_hands_it_brings_back(app, client):
    """The summary m017 asks for (issue 44) of a match deleted in the last day, still in the
    trash: worked out from the hands the trash brings back with it, so that brought back it shows
    its own outcome (before, from its hands not deleted: none, 0 to 0)."""
    match_id, before = finished_with_a_cut_name(client)
    with app.app_context():
        db = store.get_db()
        store.delete_match(db, match_id)
        with store.writing(db):
            MIGRATIONS[16](db)             # m017: the name written whole, its summary asked for
        assert store.settle_summaries(db, Ledger) == 1
        store.restore_match(db, match_id, Ledger)
    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert after["sides"][0]["name"] == WHOLE
    assert after["totals"] == before["totals"] and after["outcome"]["over"]
    assert after["outcome"]["text"].startswith(WHOLE)
