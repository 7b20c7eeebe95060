"""table.match_service: every write to a match as a whole (a rematch, archive, delete, bring
back, "not rated", a round's tables), each saying what became of it as a typed outcome, checked
here without HTTP, against the store. How the pages and the API word each outcome is checked
by their own tests (test_table.py, test_after_the_match.py, test_delete_selected.py,
test_not_rated.py, test_matches_api.py)."""

from contextlib import contextmanager

import pytest

from companion import store
from companion.matches import Ledger, score_entry
from companion.rules import rules_for
from companion.store import trash
from companion.table import match_service, service
from helpers import HAND, new_match, one_hand_match


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


def test_a_match_archived_leaves_the_lists_and_comes_back(playing, in_request):
    assert match_service.archive(playing, True) == match_service.Archived(True)
    assert store.match_row(store.get_db(), playing)["archived"] == 1
    assert match_service.archive(playing, False) == match_service.Archived(False)
    assert store.match_row(store.get_db(), playing)["archived"] == 0


def test_no_archive_of_a_match_not_there(in_request):
    assert match_service.archive(999_999, True) == service.NoSuchMatch()


def test_a_match_is_deleted_at_the_version_confirmed(playing, in_request):
    version = store.match_version(store.get_db(), playing)
    assert match_service.delete_match(playing, version) == match_service.MatchDeleted(playing)
    assert store.match_version(store.get_db(), playing) is None
    assert [row["id"] for row in store.deleted_matches(store.get_db())] == [playing]
    assert match_service.delete_match(playing, version) == service.NoSuchMatch()


@pytest.mark.parametrize("made_from", [None, 7])
def test_a_match_changed_since_the_delete_was_confirmed_stays(playing, in_request, made_from):
    assert match_service.delete_match(playing, made_from) == service.Stale(None)
    assert store.match_version(store.get_db(), playing) is not None


def another_phones_hand(match_id: int) -> service.Added:
    hand = {"mode": "piles", **HAND}
    added = service.add_hand(match_id, hand, score_entry(hand, rules_for("classica"), ("Anna", "Bruno")))
    assert isinstance(added, service.Added), added
    return added


@pytest.fixture
def hand_as_the_delete_begins(monkeypatch):
    """Another phone records a hand at the worst moment for a delete: once the delete has been
    asked for at the version its page was drawn at, just before it takes the write lock
    (``store.writing``, which makes any other write wait until it is done). The hands recorded
    so, as a list (empty until a delete begins)."""
    real, recorded = trash.writing, []

    @contextmanager
    def after_another_phones_hand(db):
        if not recorded:
            match_id = db.execute("SELECT max(id) FROM matches").fetchone()[0]
            recorded.append(another_phones_hand(match_id))
        with real(db) as same:
            yield same

    monkeypatch.setattr(trash, "writing", after_another_phones_hand)
    return recorded


def test_a_hand_recorded_as_the_delete_begins_keeps_the_match(playing, in_request, hand_as_the_delete_begins):
    """Two phones at once: one deletes the match at the version it was shown at, the other
    records a hand as that delete begins. The version used to be read, then the match deleted
    in a write of its own: the hand landed between the two and went with the match, unseen by
    the player who confirmed the delete. The check is the delete's own write now: the hand is
    before it, and the delete is refused as changed, nothing lost."""
    drawn = store.match_version(store.get_db(), playing)
    assert match_service.delete_match(playing, drawn) == service.Stale(None)
    [added] = hand_as_the_delete_begins
    assert store.hand_row(store.get_db(), playing, added.hand_id)["deleted"] is None
    assert store.match_version(store.get_db(), playing) == drawn + 1


def test_the_page_asks_again_when_a_hand_lands_as_the_delete_begins(client, hand_as_the_delete_begins):
    """The same race through the page: refused with the conflict's words (409), the match and
    the other phone's hand still there."""
    match_id = new_match(client)
    drawn = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    refused = client.post(f"/matches/{match_id}/delete", data={"version": drawn})
    assert refused.status_code == 409 and hand_as_the_delete_begins
    assert ("The match changed on another phone since you opened this page: here it is now."
            in refused.get_data(as_text=True))
    assert len(client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]) == 1


def test_a_tournaments_table_is_never_deleted(client, in_request):
    made = client.post("/api/v1/tournaments", json={
        "name": "Night", "format": "round-robin", "entrants": ["Anna", "Bruno"]}).get_json()
    assert client.post(f"/api/v1/tournaments/{made['id']}/rounds", json={}).status_code == 201
    [match_id] = [row["match_id"] for row in store.tournament_state(store.get_db(), made["id"])["tables"]]
    refused = match_service.delete_match(match_id, store.match_version(store.get_db(), match_id))
    assert refused == match_service.InTournament(1, "Night")
    assert store.match_version(store.get_db(), match_id) is not None


def test_a_match_left_out_of_the_ratings_counts_again_when_asked(finished, in_request):
    assert match_service.set_rated(finished, False) == match_service.Rated(False)
    assert store.match_row(store.get_db(), finished)["unrated"] == 1
    assert match_service.set_rated(finished, True) == match_service.Rated(True)
    assert store.match_row(store.get_db(), finished)["unrated"] == 0


def test_no_rating_switch_for_a_match_not_there(in_request):
    assert match_service.set_rated(999_999, False) == service.NoSuchMatch()


def test_the_matches_ticked_are_deleted_and_come_back_together(client, in_request):
    ticked = [new_match(client), new_match(client)]
    assert match_service.delete_matches([*ticked, 999_999]) == match_service.MatchesDeleted(tuple(ticked))
    assert [store.match_version(store.get_db(), m) for m in ticked] == [None, None]
    assert match_service.restore_matches(ticked) == match_service.MatchesRestored(tuple(ticked), ())
    assert None not in [store.match_version(store.get_db(), m) for m in ticked]


def test_matches_gone_already_are_neither_deleted_nor_brought_back(playing, in_request):
    assert match_service.delete_matches([999_999]) == match_service.MatchesDeleted(())
    back = match_service.restore_matches([playing])     # never deleted: nothing to bring back
    assert back.match_ids == () and [match_id for match_id, _why in back.refused] == [playing]
    assert store.match_version(store.get_db(), playing) == 0


def test_a_match_deleted_today_comes_back_from_the_organisers_page(playing, in_request):
    match_service.delete_match(playing, 0)
    assert match_service.restore_match(playing) == match_service.MatchRestored(playing)
    assert store.match_version(store.get_db(), playing) is not None
    assert match_service.restore_match(playing) == match_service.GoneForGood()     # not deleted now


def test_a_deleted_match_whose_players_became_one_stays_deleted(client, in_request):
    match_id = new_match(client, players=["Anna", "Bruna"])
    other = new_match(client, players=["Carla", "Dario"])
    anna, bruna = (store.get_db().execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()[0]
                   for name in ("Anna", "Bruna"))
    match_service.delete_match(match_id, 0)
    store.merge_players(store.get_db(), bruna, anna, Ledger)
    refused = match_service.restore_match(match_id)
    assert isinstance(refused, match_service.NotRestored) and refused.why.values["name"] == "Anna"
    assert store.match_version(store.get_db(), match_id) is None
    assert store.match_version(store.get_db(), other) == 0


def test_matches_deleted_over_a_day_ago_are_purged_for_good(playing, in_request):
    match_service.delete_match(playing, 0)
    assert match_service.purge_deleted() == 0              # a day is kept
    store.get_db().execute("UPDATE matches SET deleted = '2000-01-01T00:00:00+00:00' WHERE id = ?", [playing])
    assert match_service.purge_deleted() == 1
    assert match_service.restore_match(playing) == match_service.GoneForGood()
