"""Every change to a hand leaves a trace (issue 41): "any guest can rewrite any hand of a match
without a PIN during the night, or decide a tournament table in one POST: the companion cannot
say who changed what, and the organiser cannot put it back except by hand." Now each change
(saved, changed, deleted, brought back, replaced in a conflict, a claim, the organiser's undo)
is kept with when, which phone ("phone 3", numbered per match in the order phones first
changed it) and the hand before it; the match page lists them, folded, and so does
``GET /api/v1/matches/<id>/changes``; the organiser undoes any of them in one tap."""

import pytest

from companion import store
from helpers import FOUR_NIL, HAND, counts_form, new_match, phone
from markup import attrs, count, texts

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")


def changes(client, match_id: int, **query) -> list[dict]:
    answer = client.get(f"/api/v1/matches/{match_id}/changes", query_string=query)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["changes"]


def hand_ids(client, match_id: int) -> list[int]:
    return [hand["id"] for hand in client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]]


def hand_of(client, match_id: int, hand_id: int) -> dict:
    return client.get(f"/api/v1/matches/{match_id}/hands/{hand_id}").get_json()["hand"]


@pytest.fixture
def phones(app):
    """Two phones at the table (not the organiser), each with its own cookie, on one address (a
    club's Wi-Fi behind one relay): the log tells them apart by their cookies, not the address."""
    return phone(app, "192.168.1.30"), phone(app, "192.168.1.30")


def test_each_change_through_the_pages_is_kept_with_its_phone_and_the_hand_before(client, phones):
    anna, bruno = phones
    match_id = new_match(client, options={"target": 1000})
    assert anna.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6, sweeps=(1, 0))).status_code == 303
    [hand_id] = hand_ids(client, match_id)
    saved = hand_of(client, match_id, hand_id)
    edited = bruno.post(f"/matches/{match_id}/hands/{hand_id}/edit",
                        data=counts_form(18, 4, 1, 1, version=1))
    assert edited.status_code == 303
    assert anna.post(f"/matches/{match_id}/hands/{hand_id}/delete", data={"version": "2"}).status_code == 303
    version = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    assert anna.post(f"/matches/{match_id}/hands/restore",
                     data={"hand": hand_id, "version": version}).status_code == 303
    log = changes(client, match_id)
    assert [(c["kind"], c["hand"], c["by"]["phone"], c["by"]["label"]) for c in log] == [
        ("restored", {"id": hand_id, "number": 1}, 1, "phone 1"),
        ("deleted", {"id": hand_id, "number": 1}, 1, "phone 1"),
        ("changed", {"id": hand_id, "number": 1}, 2, "phone 2"),
        ("saved", {"id": hand_id, "number": 1}, 1, "phone 1")]
    assert log[3]["before"] is None
    assert log[2]["before"] == {"entry": saved["entry"], "points": [5, 0], "deleted": False}
    assert log[2]["was"] == "it was Anna\u00a05 – Bruno\u00a00"     # a name with its points
    assert log[1]["before"]["points"] == [0, 4] and log[1]["before"]["deleted"] is False
    assert log[0]["before"]["deleted"] is True and log[0]["was"] == "it was deleted"
    assert not any(c["by"]["organiser"] or c["by"]["api"] for c in log)
    # The match page lists them, folded, each phone's own marked as its own.
    page = anna.get(f"/matches/{match_id}").get_data(as_text=True)
    assert count(page, "details#changes:not([open]) li[data-testid=change]") == 4
    lines = texts(page, "li[data-testid=change]")
    assert lines[0].startswith(f"#{log[0]['id']} · ") and "phone 1 (this phone)" in lines[0]
    assert "Hand 1 brought back" in lines[0]
    assert "phone 2" in lines[2] and "Hand 1 changed (it was Anna 5 – Bruno 0)" in lines[2]
    assert "phone 2 (this phone)" in texts(bruno.get(f"/matches/{match_id}"), "li[data-testid=change]")[2]
    assert count(page, "[data-testid=undo-change]") == 0          # a phone undoes nothing


def test_a_conflict_replacement_is_kept_as_such_with_the_other_phones_hand(client, phones):
    anna, bruno = phones
    match_id = new_match(client)
    assert anna.post(f"/api/v1/matches/{match_id}/hands", json=FOUR_NIL).status_code == 201
    mine = counts_form(18, 6, 0, 1, sweeps=(0, 2), key="k9", number="1")
    asked = bruno.post(f"/matches/{match_id}/hands/new", data=mine)
    assert asked.status_code == 409
    [hand_id] = hand_ids(client, match_id)
    replaced = bruno.post(f"/matches/{match_id}/hands/new", data={
        **mine, "resolve": "replace", "replace_id": str(hand_id), "replace_version": "1"})
    assert replaced.status_code == 303
    log = changes(client, match_id)
    assert [(c["kind"], c["by"]["phone"], c["by"]["api"]) for c in log] == [
        ("replaced", 2, False), ("saved", 1, True)]
    assert log[0]["before"]["points"] == [4, 0] and log[0]["before"]["entry"]["mode"] == "tallies"
    assert log[1]["by"]["label"] == "phone 1, through the API"


def test_a_claim_is_kept_and_a_tournament_table_decided_in_one_post_is_too(client, app):
    """The review's table: 0-0 to "over, winner Marco" in one POST by a guest, a claim or a hand
    of ten scope and every point."""
    night = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "entrants": ["Marco", "Luca"],
        "options": {"claims": True}}).get_json()
    started = client.post(f"/api/v1/tournaments/{night['id']}/rounds", json={}).get_json()
    table = started["rounds"][0]["tables"][0]["match"]
    guest = phone(app, "192.168.1.66")
    ten = {"tallies": [{"cards": 30, "coins": 8, "settebello": True, "primiera": True, "sweeps": 10},
                       {"cards": 10, "coins": 2, "settebello": False, "sweeps": 0}]}
    decided = guest.post(f"/api/v1/matches/{table}/hands", json=ten)
    assert decided.status_code == 201 and decided.get_json()["match"]["outcome"]["over"]
    [made] = changes(client, table)
    assert (made["kind"], made["by"]["label"], made["what"]) == ("saved", "phone 1, through the API",
                                                                "hand 1 saved")
    # Undone by the organiser: the table is 0-0 again, and its log says so.
    undone = client.post(f"/api/v1/matches/{table}/changes/{made['id']}/undo", json={})
    assert undone.status_code == 200
    assert undone.get_json()["match"]["totals"] == [0, 0]
    assert undone.get_json()["change"]["kind"] == "undone" and undone.get_json()["change"]["undoes"] == made["id"]
    # A claim, recorded by the referee's page, is kept as a claim.
    claimed = guest.post(f"/referee/claim?match={table}", data={"claimer": "1", "c_1c": "1"})
    assert claimed.status_code == 303
    newest = changes(client, table)[0]
    assert (newest["kind"], newest["what"], newest["before"]) == ("claim", "hand 1: a claim recorded", None)
    # The guest's page has a cookie: a phone of its own, after the address its API call came
    # from without one (phone 1) and the organiser (phone 2).
    assert newest["by"]["api"] is False and newest["by"]["phone"] == 3


def test_the_organiser_undoes_any_change_in_one_tap(app, client, phones):
    anna, bruno = phones
    match_id = new_match(client)
    anna.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    [hand_id] = hand_ids(client, match_id)
    before = hand_of(client, match_id, hand_id)
    bruno.put(f"/api/v1/matches/{match_id}/hands/{hand_id}", json={**FOUR_NIL, "version": 1})
    assert hand_of(client, match_id, hand_id)["points"] == [4, 0]
    edit = changes(client, match_id)[0]
    # Not a phone: the page's button is the organiser's, the POST answers the organiser's 403.
    assert bruno.post(f"/matches/{match_id}/changes/{edit['id']}/undo").status_code == 403
    assert bruno.post(f"/api/v1/matches/{match_id}/changes/{edit['id']}/undo", json={}).status_code == 403
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert attrs(page, "li[data-testid=change] form", "action")[0] == f"/matches/{match_id}/changes/{edit['id']}/undo"
    undone = client.post(f"/matches/{match_id}/changes/{edit['id']}/undo", follow_redirects=True)
    assert f"Change {edit['id']} undone: hand 1 is as it was before it" in undone.get_data(as_text=True)
    after = hand_of(client, match_id, hand_id)
    assert (after["entry"], after["points"]) == (before["entry"], before["points"])
    assert after["version"] == 3                  # a phone's stale edit is refused, as after any change
    newest = changes(client, match_id)[0]
    assert (newest["kind"], newest["undoes"], newest["by"]["organiser"]) == ("undone", edit["id"], True)
    assert newest["before"]["points"] == [4, 0]
    # Sent twice: done once.
    again = client.post(f"/api/v1/matches/{match_id}/changes/{edit['id']}/undo", json={})
    assert again.status_code == 200 and again.get_json()["change"] is None
    assert len(changes(client, match_id)) == 3
    # Undoing the save takes the hand away; undoing that brings it back.
    saved = changes(client, match_id)[-1]
    client.post(f"/api/v1/matches/{match_id}/changes/{saved['id']}/undo", json={})
    assert hand_ids(client, match_id) == []
    client.post(f"/api/v1/matches/{match_id}/changes/{changes(client, match_id)[0]['id']}/undo", json={})
    assert hand_ids(client, match_id) == [hand_id]


def test_the_log_is_paged_and_refuses_what_is_not_there(client):
    match_id = new_match(client, options={"target": 1000})
    for _ in range(5):
        client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    first = client.get(f"/api/v1/matches/{match_id}/changes?limit=2").get_json()
    assert [c["hand"]["number"] for c in first["changes"]] == [5, 4]
    second = client.get(first["next"]).get_json()
    assert [c["hand"]["number"] for c in second["changes"]] == [3, 2]
    assert client.get(second["next"]).get_json() == {
        "changes": changes(client, match_id)[4:], "next": None}
    assert client.get(f"/api/v1/matches/{match_id}/changes?limit=201").status_code == 400
    assert client.get("/api/v1/matches/999/changes").status_code == 404
    assert client.post(f"/api/v1/matches/{match_id}/changes/999/undo", json={}).status_code == 404
    assert client.post(f"/matches/{match_id}/changes/999/undo").status_code == 404
    other = new_match(client)
    assert client.post(f"/api/v1/matches/{other}/changes/1/undo", json={}).status_code == 404


def test_a_failed_write_keeps_no_change(client, monkeypatch):
    """The change is kept in the write's own transaction: a save that fails keeps neither."""
    match_id = new_match(client)

    def broken(*args, **kwargs):
        raise store.StorageError("full")

    monkeypatch.setattr("companion.store.matches.keep_summary", broken)
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 503
    assert changes(client, match_id) == []


def test_one_change_and_a_page_of_them_are_read_alike(client, app):
    """``store.change_row`` (the undo's and the change page's reading) and ``change_rows`` (the
    log's) read a change one way: before, one change kept its organiser and API marks as the
    0 and 1 of its row, a page of them as bools."""
    match_id = new_match(client)
    hand = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).get_json()["hand"]
    client.put(f"/api/v1/matches/{match_id}/hands/{hand['id']}", json={**HAND, "version": 1})
    with app.app_context():
        db = store.get_db()
        page = store.change_rows(db, match_id)
        one = [store.change_row(db, match_id, row["id"]) for row in page]
        assert one == page and len(page) == 2
        assert all(row["organiser"] is True and row["api"] is True for row in one + page)
