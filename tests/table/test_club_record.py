"""Issue 32: a finished match is the club's record. Once it finished more than three hours ago,
or before the companion was last started, only the organiser changes it, on the pages and
through the API alike; a phone at the table still corrects the match it has just finished."""

from datetime import datetime, timedelta, timezone

import pytest

from companion import create_app, store
from helpers import HAND, one_hand_match, phone
from markup import text

MIRROR = {"piles": HAND["piles"][::-1], "sweeps": HAND["sweeps"][::-1]}


def finished_match(client) -> tuple[int, dict]:
    """A match of one hand, won by Anna: its id and its hand as the API gives it."""
    match_id = one_hand_match(client)
    return match_id, client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]


def finished_ago(app, match_id: int, ago: timedelta) -> None:
    """As if the match had finished ``ago``."""
    moment = (datetime.now(timezone.utc) - ago).isoformat(timespec="seconds")
    db = store.connect(app.config["DATABASE"])
    try:
        with store.writing(db):
            db.execute("UPDATE rated_matches SET finished = ? WHERE match_id = ?", [moment, match_id])
    finally:
        db.conn.close()


def running_for(app, hours: int) -> None:
    """As if the companion had started ``hours`` ago."""
    app.config["STARTED"] = (datetime.now(timezone.utc) - timedelta(hours=hours)).isoformat(timespec="seconds")


def state(client, match_id: int) -> dict:
    return client.get(f"/api/v1/matches/{match_id}").get_json()


def refused_everywhere(app, match_id: int, hand: dict, lang: str = "en") -> None:
    """Every change a phone could make to the match: the organiser's 403 each time, nothing
    changed."""
    guest = phone(app)
    before = state(guest, match_id)
    headers = {"Accept-Language": lang}
    pages = [("get", f"/matches/{match_id}/hands/{hand['id']}/edit", {}),
             ("post", f"/matches/{match_id}/hands/{hand['id']}/edit", {"mode": "tallies"}),
             ("post", f"/matches/{match_id}/hands/{hand['id']}/delete", {"version": hand["version"]}),
             ("post", f"/matches/{match_id}/hands/{hand['id']}/undo", {}),
             ("post", f"/matches/{match_id}/hands/restore", {"version": before["version"], "hand": hand["id"]}),
             ("post", f"/matches/{match_id}/hands/after-end/delete", {"hand": f"{hand['id']}:1"}),
             ("post", f"/matches/{match_id}/archive", {"archived": "1"}),
             ("post", f"/matches/{match_id}/delete", {"version": before["version"]}),
             ("get", f"/matches/{match_id}/hands/new", {})]
    for method, url, data in pages:
        answer = getattr(guest, method)(url, data=data, headers=headers)
        assert answer.status_code == 403, (url, answer.status_code)
        assert 'data-testid="error"' in answer.get_data(as_text=True)
    for method, body in (("put", {**MIRROR, "version": hand["version"]}), ("delete", None)):
        answer = getattr(guest, method)(f"/api/v1/matches/{match_id}/hands/{hand['id']}?version={hand['version']}",
                                        json=body, headers=headers)
        assert answer.status_code == 403, answer.get_json()
        assert "organiser" in answer.get_json()["error"].lower()
    assert state(guest, match_id) == before
    assert guest.get("/api/v1/matches?state=finished").get_json()["matches"][0]["id"] == match_id


def test_a_phone_cannot_change_a_match_finished_four_hours_ago(app, client):
    running_for(app, 5)         # the three hours alone: it finished after the start
    match_id, hand = finished_match(client)
    finished_ago(app, match_id, timedelta(hours=4))
    refused_everywhere(app, match_id, hand)
    page = phone(app).get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'data-testid="record"' in page and "Move to the archive" not in page
    assert f"/hands/{hand['id']}/edit" not in page


def test_a_phone_cannot_change_a_match_finished_before_the_companion_started(app, app_config, client):
    match_id, hand = finished_match(client)
    finished_ago(app, match_id, timedelta(minutes=10))
    restarted = create_app(app_config)          # started now: the match finished before
    refused_everywhere(restarted, match_id, hand)


def corrects(asker, match_id: int, hand: dict) -> None:
    """``asker`` edits the finished match's hand (through the API: the other side wins now),
    then deletes it (through the page), each accepted."""
    edited = asker.put(f"/api/v1/matches/{match_id}/hands/{hand['id']}", json={**MIRROR, "version": hand["version"]})
    assert edited.status_code == 200, edited.get_json()
    assert state(asker, match_id)["outcome"]["winner"] == 1
    again = state(asker, match_id)["hands"][0]
    assert asker.post(f"/matches/{match_id}/hands/{again['id']}/delete",
                      data={"version": again["version"]}).status_code == 303
    assert state(asker, match_id)["hands"] == []


def test_the_organiser_changes_the_club_record(app, client):
    match_id, hand = finished_match(client)
    finished_ago(app, match_id, timedelta(hours=4))
    corrects(client, match_id, hand)


def test_a_phone_still_corrects_a_match_finished_a_minute_ago(app, client):
    running_for(app, 2)
    match_id, hand = finished_match(client)
    finished_ago(app, match_id, timedelta(minutes=1))
    corrects(phone(app), match_id, hand)


@pytest.mark.parametrize("lang, words", [("it", "Chiedi all'organizzatore"), ("en", "Ask the organiser"),
                                         ("fr", "Demandez à l’organisateur")])
def test_the_refusal_says_what_to_ask_in_the_phones_language(app, client, lang, words):
    match_id, hand = finished_match(client)
    finished_ago(app, match_id, timedelta(hours=4))
    answer = phone(app).post(f"/matches/{match_id}/hands/{hand['id']}/delete", data={"version": hand["version"]},
                             headers={"Accept-Language": lang})
    assert answer.status_code == 403
    assert words in text(answer, "body")
