"""A round started through the services, without HTTP: ``tournaments.service.start_next_round``
pairs it and says what became of it (RoundMade, RoundTaken, NotNow); its tables are made matches
by the table's door, ``table.match_service.round_tables``. How the page and the API word each
outcome: test_tournaments.py and test_entrants.py."""

import pytest

from companion import store
from companion.table import match_service
from companion.tournaments import service

ENTRANTS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def night(client, app) -> int:
    """A round robin of four, with a PIN for its tables; the test runs inside a request."""
    made = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "options": {"target": 5}, "entrants": ENTRANTS,
        "pin": "135791"})
    assert made.status_code == 201, made.get_json()
    with app.test_request_context():
        yield made.get_json()["id"]


def test_a_round_is_made_its_tables_matches_with_the_tournaments_rules_and_pin(night):
    assert service.start_next_round(service.load(night)) == match_service.RoundMade(1)
    state = store.tournament_state(store.get_db(), night)
    assert [r["number"] for r in state["rounds"]] == [1] and len(state["tables"]) == 2
    for table in state["tables"]:
        row = store.match_row(store.get_db(), table["match_id"])
        assert row["rules"]["target"] == 5 and row["pin_hash"] and row["access_key"]
        assert {side["name"] for side in row["sides"]} == {ENTRANTS[table["first"]], ENTRANTS[table["second"]]}


def test_a_round_started_meanwhile_is_not_made_twice(night):
    read = service.load(night)
    assert service.start_next_round(read) == match_service.RoundMade(1)
    assert service.start_next_round(read) == match_service.RoundTaken(1)     # the other phone's
    assert len(store.tournament_state(store.get_db(), night)["tables"]) == 2


def test_no_round_while_one_is_played(night):
    service.start_next_round(service.load(night))
    refused = service.start_next_round(service.load(night))
    assert isinstance(refused, service.NotNow) and str(refused.reason) == "round 1 is still being played"
    assert len(store.tournament_state(store.get_db(), night)["rounds"]) == 1


def test_tables_paired_from_an_older_reading_are_not_made(night):
    read = service.load(night)
    assert match_service.round_tables(night, 1, [("bye", 0)], read.version + 1) == match_service.PairedStale()
    assert match_service.round_tables(999_999, 1, [("bye", 0)], 0) == match_service.PairedStale()
    assert store.tournament_state(store.get_db(), night)["rounds"] == []
