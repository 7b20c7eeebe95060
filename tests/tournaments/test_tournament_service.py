"""tournaments.service without HTTP: a tournament made (or refused, nothing made), a late entrant
added, an entrant withdrawn or brought back, each saying what became of it as a typed outcome,
checked here against the store. How the pages and the API word each outcome:
test_tournaments.py and test_entrants.py; a round started: test_round_service.py."""

import pytest

from companion import store
from companion.tournament_facts import ENTRANTS_MOST
from companion.tournaments import service

ENTRANTS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.fixture
def in_request(app):
    """The service called as a view calls it: inside a request."""
    with app.test_request_context():
        yield


def make(format: str = "swiss", entrants=ENTRANTS, variant: str = "classica", **asked):
    return service.create(asked.get("name", "Giovedì"), format, variant, asked.get("options", {}),
                          entrants, asked.get("rounds"), asked.get("seeding"), asked.get("pin"))


def made(format: str = "swiss", entrants=ENTRANTS) -> int:
    outcome = make(format, entrants)
    assert isinstance(outcome, service.Made), outcome
    return outcome.tournament_id


def started(tournament_id: int) -> None:
    assert isinstance(service.start_next_round(service.load(tournament_id)), service.RoundMade)


def test_a_tournament_is_made_its_entrants_seeded_as_written_and_its_pin_hashed(in_request):
    outcome = make("round-robin", pin="135791")
    assert isinstance(outcome, service.Made)
    tournament = service.load(outcome.tournament_id)
    assert [(e["name"], e["seed"]) for e in tournament.entrants] == list(zip(ENTRANTS, [1, 2, 3, 4]))
    assert tournament.format == "round-robin" and tournament.seeding == "order" and tournament.has_pin


@pytest.mark.parametrize("asked, words", [
    ({"format": "league"}, "format must be one of: round-robin, swiss, knockout"),
    ({"entrants": ["Anna"]}, f"entrants must be a list of 2 to {ENTRANTS_MOST} names or pairs"),
    ({"entrants": "Anna, Bruno"}, f"entrants must be a list of 2 to {ENTRANTS_MOST} names or pairs"),
    ({"entrants": [f"Player {n}" for n in range(ENTRANTS_MOST + 1)]},
     f"entrants must be a list of 2 to {ENTRANTS_MOST} names or pairs"),
    ({"entrants": ["Anna", "anna"]}, "the same"),
    ({"entrants": ["Anna", {"name": "Nord", "players": ["B", "C"]}]}, "all players or all pairs"),
    ({"entrants": [{"name": "Nord", "players": ["B"]}, "C"]}, "a name, or a pair"),
    ({"rounds": 9}, "a Swiss tournament of 4 entrants has 1 to 3 rounds"),
    ({"rounds": True}, "a Swiss tournament of 4 entrants has 1 to 3 rounds"),
    ({"seeding": "coin"}, 'seeding must be "order", "draw" or "rating"'),
    ({"pin": "12"}, "A PIN is 6 to 8 digits from 0 to 9"),
    ({"name": ""}, "a tournament needs a name of 1 to 60 characters"),
    ({"name": " "}, "a tournament needs a name of 1 to 60 characters"),
    ({"variant": "poker"}, "variant must be one of"),
    ({"variant": {}}, "variant must be one of"),          # found by the API fuzzer: was a 500
    ({"variant": "scopone"}, "Scopone is played by four players in two teams of two"),      # the seating
])
def test_a_tournament_not_of_its_form_is_refused_in_words_and_nothing_made(in_request, asked, words):
    outcome = make(**asked)
    assert isinstance(outcome, service.Refused) and words in str(outcome.reason)
    assert store.tournament_rows(store.get_db(), None, limit=10) == []


def test_a_late_entrant_joins_from_the_next_round_with_the_points_given(in_request):
    night = made()
    assert service.add_entrant(night, ("Elena", ["Elena"]), 0) == service.Joined("Elena", 1, 0)     # before round 1
    started(night)
    assert service.add_entrant(night, ("Fabio", ["Fabio"]), 1) == service.Joined("Fabio", 2, 1)
    assert service.load(night).names[-2:] == ["Elena", "Fabio"]


def test_a_late_entrant_not_of_the_form_is_refused_and_nothing_changes(in_request):
    night = made()
    refused = service.add_entrant(night, ("Nord", ["Elena", "Fabio"]), 0)     # a pair among players
    assert isinstance(refused, service.Refused)
    refused = service.add_entrant(night, ("anna", ["anna"]), 0)         # named like an entrant
    assert isinstance(refused, service.Refused)
    assert service.load(night).names == ENTRANTS


def test_a_round_robin_under_way_takes_no_late_entrant(in_request):
    night = made("round-robin")
    started(night)
    refused = service.add_entrant(night, ("Elena", ["Elena"]), 0)
    assert isinstance(refused, service.NotNow) and "round robin's schedule" in str(refused.reason)
    assert service.load(night).names == ENTRANTS


def test_no_change_to_a_tournament_not_there(in_request):
    assert service.add_entrant(999_999, ("Elena", ["Elena"]), 0) == service.NoSuchTournament()
    assert service.withdraw(999_999, 1) == service.NoSuchTournament()
    assert service.bring_back(999_999, 1) == service.NoSuchTournament()


def test_an_entrant_withdrawn_before_round_1_is_off_the_list(in_request):
    night = made()
    assert service.withdraw(night, 2, "Bruno") == service.Removed("Bruno")
    assert service.load(night).names == ["Anna", "Carla", "Dario"]


def test_an_entrant_withdraws_once_and_comes_back_once(in_request):
    night = made()
    started(night)
    assert service.withdraw(night, 2) == service.Withdrawn("Bruno", 1)
    assert service.withdraw(night, 2) == service.AsItWas("Bruno", True)
    assert service.load(night).withdrawn(1) == 1
    assert service.bring_back(night, 2) == service.BroughtBack("Bruno")
    assert service.bring_back(night, 2) == service.AsItWas("Bruno", False)
    assert service.load(night).withdrawn(1) is None


def test_an_entrant_by_a_number_not_listed_or_no_longer_theirs_is_not_changed(in_request):
    night = made()
    assert service.withdraw(night, 9) == service.NoSuchEntrant(9)
    assert service.bring_back(night, 0) == service.NoSuchEntrant(0)
    moved = service.withdraw(night, 2, "Carla")         # the list read before Bruno left
    assert isinstance(moved, service.NotNow) and "number 2 is no longer Carla" in str(moved.reason)
    assert service.load(night).names == ENTRANTS
