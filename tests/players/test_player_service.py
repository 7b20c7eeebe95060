"""players.service: every write to a player (a rename, a merge, the undo of either), each saying
what became of it as a typed outcome, checked here without HTTP, against the store. How the
pages word each outcome: test_players.py and test_rename_log.py."""

import pytest

from companion import store
from companion.players import service
from helpers import new_match


@pytest.fixture
def ids(client, app) -> dict[str, int]:
    """Anna and Bruno at one match, Carla and Dario at another; the test runs in a request."""
    new_match(client)
    new_match(client, players=["Carla", "Dario"])
    with app.test_request_context():
        db = store.get_db()
        yield {name: db.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()[0]
               for name in ("Anna", "Bruno", "Carla", "Dario")}


def name_of(player_id: int) -> str:
    return store.player_row(store.get_db(), player_id)["name"]


def test_a_player_is_renamed_in_every_match(ids):
    assert service.rename(ids["Anna"], "  Annina ") == service.Renamed(ids["Anna"], "Annina")
    assert name_of(ids["Anna"]) == "Annina"


def test_a_name_another_player_has_is_refused(ids):
    assert service.rename(ids["Anna"], "carla") == service.NameTaken("Carla")
    assert name_of(ids["Anna"]) == "Anna"


def test_no_rename_of_a_player_not_there(ids):
    assert service.rename(999_999, "Zoe") == service.NoSuchPlayer()


def test_two_players_who_are_one_person_are_merged(ids):
    assert service.merge(ids["Anna"], ids["Carla"]) == service.Merged(ids["Anna"], ids["Carla"])
    assert store.player_row(store.get_db(), ids["Anna"])["id"] == ids["Carla"]


def test_two_players_at_one_match_are_two_people(ids):
    together = service.merge(ids["Anna"], ids["Bruno"])
    assert isinstance(together, service.PlayedTogether) and together.match_id > 0
    assert store.player_row(store.get_db(), ids["Anna"])["id"] == ids["Anna"]


def test_no_merge_into_a_player_not_there(ids):
    assert service.merge(ids["Anna"], 999_999) == service.NoSuchPlayer()


def last_change(player_id: int) -> int:
    return store.player_changes(store.get_db(), player_id)[0]["id"]


def test_a_rename_and_a_merge_are_undone_from_the_log(ids):
    service.rename(ids["Anna"], "Annina")
    assert service.undo(last_change(ids["Anna"])) == service.RenameUndone(ids["Anna"], "Anna", "Annina")
    assert name_of(ids["Anna"]) == "Anna"
    service.merge(ids["Anna"], ids["Carla"])
    assert service.undo(last_change(ids["Carla"])) == service.MergeUndone(ids["Anna"], "Anna", "Carla")
    assert store.player_row(store.get_db(), ids["Anna"])["id"] == ids["Anna"]


def test_a_rename_something_depends_on_is_not_undone(ids):
    service.rename(ids["Anna"], "Annina")
    rename = last_change(ids["Anna"])
    service.rename(ids["Bruno"], "Anna")          # the old name is someone else's now
    refused = service.undo(rename)
    assert isinstance(refused, service.CannotUndo)
    assert name_of(ids["Anna"]) == "Annina"


def test_no_undo_of_a_change_not_there(ids):
    assert service.undo(999_999) == service.NoSuchChange()
