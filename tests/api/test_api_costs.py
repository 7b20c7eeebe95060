"""What a guest's read of the API costs (issue 41: no guest request over 50 ms at 5,000 matches),
proved by counting, never by timing: a match's hands come a page at a time and each hand is worded
once, a list of matches words each match once per version, and the rules stored in 5,000 rows are
checked once. tests/benchmarks/bench_guest.py has the figures."""

import dataclasses

import pytest

from companion import store
from companion.api import answers, matches as api_matches
from companion.api.queries import HandsQuery, MatchesLimit
from companion.rules.rulesets import RulesError, rules_for, rules_from_dict
from helpers import HAND, new_match

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

OTHER = {"piles": HAND["piles"][::-1], "sweeps": [0, 1]}      # 0 - 5


def hands_of(client, match_id, count, first=0):
    """``count`` hands saved, each unlike the others (its sweeps, from ``first``): their ids."""
    return [client.post(f"/api/v1/matches/{match_id}/hands",
                        json={**(HAND if n % 2 else OTHER), "sweeps": [n, 1]}).get_json()["hand"]["id"]
            for n in range(first, first + count)]


def test_a_matchs_hands_come_a_page_at_a_time(client):
    """Found in review (issue 41): GET /api/v1/matches/<id> carried every hand, worded afresh
    (184 ms for 200 hands). ``limit`` (at most 200, the default) and ``after`` (a hand's
    number) page them, ``hands_next`` links the next page: followed, they give every hand once,
    in order, as the whole answer does."""
    match_id = new_match(client, options={"target": 1000})
    ids = hands_of(client, match_id, 7)
    whole = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [hand["id"] for hand in whole["hands"]] == ids and whole["hands_next"] is None
    seen, page = [], f"/api/v1/matches/{match_id}?limit=3"
    while page:
        answer = client.get(page).get_json()
        assert len(answer["hands"]) <= 3 and answer["totals"] == whole["totals"]
        seen += answer["hands"]
        page = answer["hands_next"]
    assert seen == whole["hands"]
    assert client.get(f"/api/v1/matches/{match_id}?after=7").get_json()["hands"] == []
    refused = client.get(f"/api/v1/matches/{match_id}?limit=201")
    assert refused.status_code == 400 and refused.get_json()["error"] == "limit is at most 200"


def test_a_match_of_more_hands_than_a_page_is_paged_by_default(client, monkeypatch):
    class FourAPage(HandsQuery):        # a page of 4 hands by default (200 in the real one)
        limit: MatchesLimit = 4
    monkeypatch.setattr(api_matches, "HandsQuery", FourAPage)
    match_id = new_match(client, options={"target": 1000})
    ids = hands_of(client, match_id, 6)
    first = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [hand["id"] for hand in first["hands"]] == ids[:4]
    assert client.get(first["hands_next"]).get_json()["hands"] == \
        client.get(f"/api/v1/matches/{match_id}?after=4").get_json()["hands"]


def test_each_hand_is_worded_once_per_language(client, monkeypatch):
    """A match asked for again, or after a hand is added, words only the hands not worded yet
    (in that language); their answer is the same as when worded afresh."""
    worded = []
    real = answers.breakdown_json
    monkeypatch.setattr(answers, "breakdown_json", lambda hand, words=None: worded.append(hand) or real(hand, words))
    match_id = new_match(client, options={"target": 1000}, players=["Wanda", "Zeno"])
    hands_of(client, match_id, 5)
    worded.clear()
    first = client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Language": "it"}).get_json()
    assert len(worded) == 5
    again = client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Language": "it"}).get_json()
    assert len(worded) == 5 and again == first
    hands_of(client, match_id, 1, first=5)
    worded.clear()
    client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Language": "it"})
    assert len(worded) == 1
    english = client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Language": "en"}).get_json()
    assert len(worded) == 7 and english["hands"][0]["breakdown"] != first["hands"][0]["breakdown"]
    answers._breakdowns.clear()
    assert client.get(f"/api/v1/matches/{match_id}", headers={"Accept-Language": "it"}).get_json()["hands"][:5] \
        == first["hands"]


def test_a_list_of_matches_words_each_match_once_per_version(client, monkeypatch):
    """``GET /api/v1/matches?limit=200`` worded 200 summaries at every request (60 ms at 5,000
    matches, 500 under load); now each once per version of its match and language, the same
    bytes."""
    ids = [new_match(client) for _ in range(4)]
    first = client.get("/api/v1/matches?limit=3")
    summaries = []
    real = api_matches.match_summary
    monkeypatch.setattr(api_matches, "match_summary", lambda *args: summaries.append(args) or real(*args))
    again = client.get("/api/v1/matches?limit=3")
    assert summaries == [] and again.data == first.data
    assert [m["id"] for m in again.get_json()["matches"]] == ids[:0:-1]
    client.post(f"/api/v1/matches/{ids[-1]}/hands", json=HAND)
    summaries.clear()
    changed = client.get("/api/v1/matches?limit=3").get_json()
    assert len(summaries) == 1 and changed["matches"][0]["totals"] == [5, 0]
    following = client.get(changed["next"]).get_json()
    assert [m["id"] for m in following["matches"]] == [ids[0]] and following["next"] is None


def test_stored_rules_are_read_as_checked_as_before():
    """rules_from_dict keeps each rule set it checked (a club's 5,000 matches share a few), and
    as_dict reads the items without deep copies: the same rules and the same dict as before,
    and a stored value of the wrong type still refused, though it equals a kept one (True == 1)."""
    rules = rules_for("napola", {"target": 31, "cappotto": True})
    assert rules.as_dict() == dataclasses.asdict(rules) and list(rules.as_dict()) == list(dataclasses.asdict(rules))
    assert rules_from_dict(rules.as_dict()) == rules
    with pytest.raises(RulesError, match="cappotto must be true or false"):
        rules_from_dict({**rules.as_dict(), "cappotto": 1})
    with pytest.raises(RulesError, match="target must be a whole number"):
        rules_from_dict({**rules.as_dict(), "target": [31]})


def test_the_matches_versions_are_read_from_an_index(app):
    """The CSV of every match and the API's list read the ids and versions of the matches not
    deleted (store.each_match) at every request: SQLite scanned every row of matches, each
    with its rules and summary (6 MB at 5,000 matches). Migration 20's index holds them."""
    with app.app_context():
        db = store.get_db()
        plan = " ".join(row[3] for row in db.execute(
            "EXPLAIN QUERY PLAN SELECT id, version FROM matches WHERE deleted IS NULL ORDER BY id"))
    assert "COVERING INDEX" in plan and "SCAN" not in plan, plan
