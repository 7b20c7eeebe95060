"""Migration 17 (issue 35): a team named after its players was cut to 24 characters with a full
stop before issue 35 ("Jean-Bapt. & Bartolomeo."); a store kept from then is brought whole at
the next start, its outcome too, while a name the players typed stays as they typed it."""

from companion import store
from companion.matches import Ledger
from companion.store.migrations import MIGRATIONS
from helpers import finish


def test_a_team_name_cut_before_issue_35_is_written_whole(app, client):
    # What a store of before holds: the team's name as the old rule made it (store/migration_017.py's team_name_cut).
    cut = "Jean-Bapt. & Bartolomeo."
    made = client.post("/api/v1/matches", json={"variant": "scopone", "first_dealer": 0, "teams": [
        {"name": cut, "players": ["Jean-Baptiste", "Bartolomeo Giangiacomo"]},
        {"name": "I Lupi", "players": ["Marie-Amélie", "Massimiliana"]}]})
    assert made.status_code == 201, made.get_json()
    match_id = made.get_json()["id"]
    finish(client, match_id)
    before = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [side["name"] for side in before["sides"]] == [cut, "I Lupi"]
    assert before["outcome"]["text"].startswith(cut)

    with app.app_context():
        db = store.get_db()
        assert MIGRATIONS[16].__name__ == "m017_team_names_whole"
        with store.writing(db):
            MIGRATIONS[16](db)
        store.settle_summaries(db, Ledger)      # what the start-up does after the migrations

    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [side["name"] for side in after["sides"]] == ["Jean-Baptiste & Bartolomeo Giangiacomo", "I Lupi"]
    assert after["outcome"]["text"].startswith("Jean-Baptiste & Bartolomeo Giangiacomo")
    assert after["totals"] == before["totals"]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Bartolomeo." not in page
