"""table.match_service: every write to a match as a whole (a rematch, archive, delete, bring
back, "not rated", a round's tables), each saying what became of it as a typed outcome, checked
here without HTTP, against the store. How the pages and the API word each outcome is checked
by their own tests (test_table.py, test_after_the_match.py, test_delete_selected.py,
test_not_rated.py, test_matches_api.py)."""

import pytest

from companion import store
from companion.table import match_service, service
from helpers import new_match, one_hand_match


@pytest.fixture
def in_request(app):
    """The service called as a view calls it: inside a request (its writes say which phone)."""
    with app.test_request_context():
        yield


@pytest.fixture
def finished(client) -> int:
    return one_hand_match(client)


@pytest.fixture
def playing(client) -> int:
    return new_match(client)


def test_a_finished_match_gets_its_rematch_once(finished, in_request):
    first = match_service.rematch(finished, 1)
    assert isinstance(first, match_service.Rematched) and first.access_key
    row = store.match_row(store.get_db(), first.match_id)
    assert row["follows"] == finished and row["first_dealer"] == 1
    again = match_service.rematch(finished, 1)      # another phone, or a double tap
    assert again == match_service.Rematched(first.match_id, None)


def test_a_match_still_played_has_no_rematch(playing, in_request):
    assert match_service.rematch(playing, 1) == match_service.NotOver()
    assert store.match_row(store.get_db(), playing)["followed_by"] is None


def test_no_rematch_of_a_match_not_there(in_request):
    assert match_service.rematch(999_999, 0) == service.NoSuchMatch()
