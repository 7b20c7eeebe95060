"""Issue 32, finding 10: spam is cheap to undo. One phone made thousands of matches, pushing the
real ones off the home page, and cleaning up was one delete a match. The organiser ticks matches
in the lists and deletes them with one POST; each is kept a day as one deleted match is, and
the notice's Undo brings them all back."""

import sqlite3

import pytest
from werkzeug.datastructures import MultiDict

from helpers import HAND, match_form, new_match, notice, phone
from markup import count


def spam(app, count: int) -> list[int]:
    """``count`` matches made from guests' phones through the new match page: their ids."""
    made = []
    for number in range(count):
        answer = phone(app, f"192.168.1.{100 + number}").post(
            "/matches/new", data=match_form(player1=f"Spam {number}", player2="Bot"))
        assert answer.status_code == 303
        made.append(int(answer.headers["Location"].rsplit("/", 1)[1]))
    return made


def kept(database: str) -> dict[int, tuple]:
    """Each match's id: whether it is deleted, its version, its hands not deleted."""
    with sqlite3.connect(database) as conn:
        return {row[0]: (row[1] is not None, row[2], row[3]) for row in conn.execute(
            "SELECT m.id, m.deleted, m.version, (SELECT COUNT(*) FROM hands h "
            "WHERE h.match_id = m.id AND h.deleted IS NULL) FROM matches m")}


def test_thirty_spam_matches_deleted_at_once_and_all_back_with_the_undo(app, client, app_config):
    real = [new_match(client), new_match(client)]
    for match_id in real:
        assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    junk = spam(app, 30)
    before = kept(app_config["DATABASE"])

    # The organiser sees a box beside each match of the home page; a phone sees none.
    home = client.get("/").get_data(as_text=True)
    # (the home page lists the 20 newest in play: the spam pushed the real ones off it)
    assert count(home, 'input[name="match"][form="selected"]') == 20
    assert 'action="/matches/delete"' in home
    guest = phone(app)
    assert "select-match" not in guest.get("/").get_data(as_text=True)

    # A phone cannot delete them: 403, and nothing changed.
    refused = guest.post("/matches/delete", data={"match": junk, "next": "/"})
    assert refused.status_code == 403 and kept(app_config["DATABASE"]) == before

    # The organiser deletes the 30 with one POST.
    answer = client.post("/matches/delete", data={"match": junk, "next": "/"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    after = kept(app_config["DATABASE"])
    assert all(after[match_id][0] for match_id in junk)
    assert {m: after[m] for m in real} == {m: before[m] for m in real}     # the real ones untouched
    home = client.get("/").get_data(as_text=True)
    assert "Spam" not in home and "30 matches deleted: for a day the organiser can bring them back." in home
    deleted_list = client.get("/organiser").get_data(as_text=True)      # kept a day, as one match is
    assert all(f"/organiser/deleted/{match_id}/restore" in deleted_list for match_id in junk)

    # The notice's one Undo brings every one of them back, with nothing else changed.
    offer = notice(home)
    assert offer.action == "/matches/restore"
    assert sorted(int(v) for name, v in offer.fields if name == "match") == sorted(junk)
    assert guest.post(offer.action, data=MultiDict(offer.fields)).status_code == 403
    assert all(kept(app_config["DATABASE"])[match_id][0] for match_id in junk)
    back = client.post(offer.action, data=MultiDict(offer.fields), follow_redirects=True)
    assert "30 matches are back, with their hands." in back.get_data(as_text=True)
    restored = kept(app_config["DATABASE"])
    assert all(not restored[match_id][0] for match_id in junk)
    assert {m: restored[m] for m in real} == {m: before[m] for m in real}
    assert len(client.get("/api/v1/matches?limit=200").get_json()["matches"]) == 32


def test_a_tournament_table_among_the_ticked_stays(client, app_config):
    night = client.post("/api/v1/tournaments", json={"name": "Sera", "format": "round-robin",
                                                     "entrants": ["A", "B", "C", "D"]}).get_json()
    started = client.post(f"/api/v1/tournaments/{night['id']}/rounds", json={}).get_json()
    table = started["rounds"][0]["tables"][0]["match"]
    casual = new_match(client)
    client.post("/matches/delete", data={"match": [table, casual]})
    state = kept(app_config["DATABASE"])
    assert not state[table][0] and state[casual][0]


def test_nothing_ticked_or_too_much_is_said_and_nothing_deleted(client, app_config):
    match_id = new_match(client)
    nothing = client.post("/matches/delete", data={"next": "/"}, follow_redirects=True)
    assert "Tick the matches to delete first." in nothing.get_data(as_text=True)
    too_many = client.post("/matches/delete", data={"match": list(range(1, 102))}, follow_redirects=True)
    assert "At most 100 matches at once." in too_many.get_data(as_text=True)
    assert not kept(app_config["DATABASE"])[match_id][0]


@pytest.mark.parametrize("language, words", [
    ("it", "Elimina le partite spuntate"), ("fr", "Supprimer les parties cochées"),
    ("en", "Delete the ticked matches")])
def test_the_organisers_delete_button_in_the_phones_language(client, language, words):
    new_match(client)
    assert words in client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
