"""Migration 19 (issue 42): Cirulla's piccola stops at the 6 (RULES §11). A store kept from
before, whose hands counted the piccola as far as the run went (to the King: 10), is brought to
the rule at the next start: each hand's kept points, the match's totals and outcome, and its
breakdown say the same thing."""

import json

from companion import store
from companion.matches import Ledger
from companion.rules import deck
from companion.store.db import parsed_match
from companion.store.matches import hand_rows, keep_summary
from companion.store.migrations import MIGRATIONS

EVERYTHING = [str(card) for card in deck()]
FIRST = [f"{value}d" for value in range(1, 11)] + ["7c", "7s", "7b", "6c", "6s", "6b", "1c", "1s",
                                                    "5c", "5s", "5b"]
SECOND = [card for card in EVERYTHING if card not in FIRST]
MIGRATION = next(step for step in MIGRATIONS if step.__name__ == "m019_cirulla_piccola_to_six")


def as_before_issue_42(db, match_id):
    """The hands' kept points as the old piccola counted them (10 for every coin), and the
    summary worked out from them, as a store of before holds them."""
    for hand_id, kept in db.execute("SELECT id, result FROM hands WHERE match_id = ?", [match_id]).fetchall():
        result = json.loads(kept)
        if result["items"][0].get("piccola") == 6:
            result["items"][0]["piccola"] = 10
            result["points"][0] += 4
        db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(result), hand_id])
    row = parsed_match(next(db.query("SELECT * FROM matches WHERE id = ?", [match_id])))
    keep_summary(db, match_id, Ledger(row).after_change(hand_rows(db, match_id)))


def test_a_piccola_kept_to_the_king_is_brought_to_the_six(app, client):
    made = client.post("/api/v1/matches", json={"variant": "cirulla", "options": {"target": 40},
                                                "players": ["Anna", "Bruno"], "first_dealer": 0})
    match_id = made.get_json()["id"]
    for _ in range(2):
        saved = client.post(f"/api/v1/matches/{match_id}/hands", json={"piles": [FIRST, SECOND],
                                                                         "sweeps": [3, 1]})
        assert saved.status_code == 201, saved.get_json()
    with app.app_context():
        db = store.get_db()
        with store.writing(db):
            as_before_issue_42(db, match_id)
    before = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert before["totals"] == [44, 2] and before["outcome"]["over"]      # 40 passed, by the old piccola

    with app.app_context():
        db = store.get_db()
        with store.writing(db):
            MIGRATION(db)
        store.settle_summaries(db, Ledger)      # what the start-up does after the migrations

    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert after["totals"] == [36, 2] and not after["outcome"]["over"]    # 2 x (22 - 4): on to 40
    assert [hand["points"] for hand in after["hands"]] == [[18, 1], [18, 1]]
    # The breakdown, scored again from the cards, says what the kept points say.
    assert all(hand["breakdown"] and {line["item"]: line["points"] for line in hand["breakdown"]}["piccola"]
               == [6, 0] for hand in after["hands"])
