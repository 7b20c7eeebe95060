"""Issue 32: the ratings a change to an old match needs are worked out after its write, outside
the write lock (store/rerate.py), and still equal a replay with the library from scratch."""

import threading

from test_ratings import MIRROR, answered, assert_same, expected

from companion import create_app, store
from companion.store import rerating as rerate
from helpers import HAND, new_match, one_hand_match, phone

GAMES = [(["Anna", "Bruno"], HAND), (["Bruno", "Carla"], HAND), (["Anna", "Carla"], MIRROR),
         (["Anna", "Bruno"], MIRROR), (["Carla", "Bruno"], HAND), (["Anna", "Carla"], HAND)]


def _edit_first_hand(client, match_id):
    first = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    edited = client.put(f"/api/v1/matches/{match_id}/hands/{first['id']}",
                        json={**MIRROR, "version": first["version"]})
    assert edited.status_code == 200, edited.get_json()


def test_the_write_of_an_old_match_holds_no_rerating(app, client):
    """The edit's own transaction asks for the re-rating and holds none of it: nothing in it
    touches the rating changes, however many matches finished after the edited one."""
    ids = [one_hand_match(client, players, hand) for players, hand in GAMES]
    statements = []
    with app.app_context():
        db = store.get_db()         # the test client's requests run on this thread's connection
        db.conn.set_trace_callback(statements.append)
        try:
            _edit_first_hand(client, ids[0])
        finally:
            db.conn.set_trace_callback(None)
    begin = statements.index("BEGIN IMMEDIATE")
    inside = statements[begin:statements.index("COMMIT", begin)]
    assert any("INSERT INTO rating_work" in sql for sql in inside)
    assert not [sql for sql in inside if "rating_changes" in sql or "INTO ratings" in sql]
    # Done after it, in a write of its own, and right.
    assert any("INSERT INTO rating_changes" in sql for sql in statements[statements.index("COMMIT", begin):])
    assert_same(answered(client), expected(client, ids))
    with app.app_context():
        assert not rerate.waiting(store.get_db())


def test_a_save_while_an_old_match_is_rerated_is_not_held(app, client, monkeypatch):
    """While the ratings after an old match are being worked out, another phone's save goes
    through (with the old way, inside the edit's write, it waited for the lock: busy)."""
    ids = [one_hand_match(client, players, hand) for players, hand in GAMES]
    fresh = new_match(client, players=["Dario", "Elena"])
    computed, saves = rerate.compute, []

    def under_way(db, start):
        work = computed(db, start)
        if not saves:       # the re-rating is under way: a phone saves meanwhile
            def save():
                saves.append(phone(app).post(f"/api/v1/matches/{fresh}/hands", json=HAND).status_code)
            worker = threading.Thread(target=save)
            worker.start()
            worker.join()
        return work

    monkeypatch.setattr(rerate, "compute", under_way)
    _edit_first_hand(client, ids[0])
    assert saves == [201]
    assert client.get(f"/api/v1/matches/{fresh}").get_json()["totals"] == [5, 0]
    assert_same(answered(client), expected(client, ids))


def test_a_change_made_during_a_rerating_is_rated_in_the_next_round(app, client, monkeypatch):
    """An old match changed while the ratings after another are worked out: the round writes
    what it worked out (nothing asked meanwhile is lost), and the next round rates again from
    the match changed meanwhile."""
    ids = [one_hand_match(client, players, hand) for players, hand in GAMES]
    computed, rounds = rerate.compute, []

    def under_way(db, start):
        work = computed(db, start)
        rounds.append(start[1] if start else None)
        if len(rounds) == 1:        # another phone's edit, whose thread leaves this one the work
            worker = threading.Thread(target=lambda: _edit_first_hand(app.test_client(), ids[1]))
            worker.start()
            worker.join()
        return work

    monkeypatch.setattr(rerate, "compute", under_way)
    _edit_first_hand(client, ids[4])
    assert rounds == [ids[4], ids[1]]
    assert_same(answered(client), expected(client, ids))


def test_rerating_asked_before_a_crash_is_done_at_the_next_start(app, client, monkeypatch):
    ids = [one_hand_match(client, players, hand) for players, hand in GAMES]
    monkeypatch.setattr(rerate, "settle_ratings", lambda db: 0)     # the companion stops here
    _edit_first_hand(client, ids[0])
    with app.app_context():
        assert rerate.waiting(store.get_db())
    assert answered(client) != expected(client, ids)
    monkeypatch.undo()
    create_app(app.config)          # started again: the work asked for is done
    assert_same(answered(client), expected(client, ids))
