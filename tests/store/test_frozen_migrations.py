"""Frozen migrations (issue 44): a store left at any older version, holding rows as that version
kept them, is brought to today's by the start-up, and then holds what a store made today holds:
the same matches, hands, points and summaries, the same players, seats, totals and ratings. The
store of each older version is built by the migrations up to it, then given the rows of a store
made today as far as that version kept them (its tables, its columns): what a later migration
adds, it must work out again from them.

What a migration works out again may differ from what a save kept in three ways only, which the
comparison leaves out: a match's version (each summary worked out again bumps it, so the phones
showing it follow) and the hands' changed versions that follow it, the moments things were done
(a match finished, as m013 knows it, with its last hand), and what is made at random (the access
keys m005 makes) or from ratings as they were then (a round's chances, m016: "a table paired
before this migration has none"); and the rows of a log a version did not keep yet, or of the
tournaments a store older than m009 had none of.
"""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
import sqlite_utils
from flask import Flask

from companion import create_app, store
from companion.matches import Ledger
from companion.store import rerating
from companion.store.ratings import places
from helpers import HAND, finish, new_match, organiser

TIMES = {"created", "updated", "finished", "applied"}
# Poll bookkeeping: every summary a migration works out again bumps the match's version.
VERSIONS = {("matches", "version"), ("hands", "changed"), ("hands", "added")}
# Columns a migration fills otherwise than a save (random, or as it was then), by the level that
# made them: a store older than that has them made by the migration.
MADE_OTHERWISE = {("matches", "access_key"): 5, ("tournament_tables", "chances"): 16}
# Logs kept from the level that made them on: a store older had nothing to log; and the
# tournaments, which a store older than m009 had none of (their tables' matches it has).
LOGS = {"organiser_phones": 12, "player_changes": 12, "hand_changes": 18, "change_phones": 18,
        **dict.fromkeys(("tournaments", "tournament_rounds", "tournament_tables", "tournament_players"), 9)}


@pytest.fixture(scope="module")
def made_today(tmp_path_factory) -> str:
    """A store made by today's code: matches of two and of teams, finished and in play, a
    tournament whose first round is played at its tables, every rating worked out."""
    path = str(tmp_path_factory.mktemp("today") / "today.sqlite")
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": path})
    client = organiser(app)
    finish(client, new_match(client, players=["Anna", "bruno "], options={"target": 4}))
    teams = client.post("/api/v1/matches", json={
        "variant": "scopone", "options": {"target": 4}, "first_dealer": 1,
        "teams": [{"name": "Noi", "players": ["Anna", "Carla"]}, {"players": ["Dario", "Bruno"]}]})
    assert teams.status_code == 201, teams.get_json()
    finish(client, teams.get_json()["id"])
    finish(client, new_match(client, players=["Carla", "Élena"], options={"target": 4}))
    playing = new_match(client, players=["Dario", "Anna"], options={"target": 21})
    for _ in range(2):
        assert client.post(f"/api/v1/matches/{playing}/hands", json=HAND).status_code == 201
    made = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "entrants": ["Anna", "bruno", "Carla", "Dario"]})
    assert made.status_code == 201, made.get_json()
    assert client.post(f"/api/v1/tournaments/{made.get_json()['id']}/rounds", json={}).status_code == 201
    db = store.connect(path)
    try:
        store.settle_ratings(db)
        assert db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] > 4
        assert db.execute("SELECT COUNT(*) FROM tournament_tables").fetchone()[0] == 2
        assert db.execute("SELECT COUNT(*) FROM tournament_players").fetchone()[0] == 4
    finally:
        db.conn.close()
    store.stop_cleanly(path)
    return path


def at_level(path: str, level: int, rows_from: str) -> None:
    """A store at ``level``, made by the migrations up to it, holding ``rows_from``'s rows as far
    as its tables and columns go (its triggers set aside meanwhile: the rows are kept as they
    are, the totals among them)."""
    db = sqlite_utils.Database(sqlite3.connect(path, isolation_level=None))
    try:
        db.execute("PRAGMA synchronous = OFF")      # a file made for a test: no need to wait for the disk
        db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
        for version, step in enumerate(store.MIGRATIONS[:level], start=1):
            step(db)
            db.table("migrations").insert({"version": version, "applied": store.now()})
        triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        db.execute("ATTACH DATABASE ? AS today", [rows_from])
        for name, _sql in triggers:
            db.execute(f"DROP TRIGGER {name}")
        for table in db.table_names():
            if table != "migrations":
                columns = ", ".join(db.table(table).columns_dict)
                db.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM today.{table}")
        for _name, sql in triggers:
            db.execute(sql)
        db.execute("DETACH DATABASE today")
    finally:
        db.conn.close()


def started(path: str) -> None:
    """The store's start-up (``store.init_app``: checked, migrated, its ratings worked out), as
    the app makes it, without the rest of the app."""
    app = Flask(__name__)
    app.config["DATABASE"] = path
    store.init_app(app, Ledger)
    store.stop_cleanly(path)


def contents(path: str, level: int) -> dict[str, list[tuple]]:
    """Every table's rows, sorted, as compared: what a migration may fill otherwise left out."""
    db = sqlite_utils.Database(sqlite3.connect(path))
    try:
        found = {}
        for table in sorted(db.table_names()):
            if table == "migrations" or LOGS.get(table, 0) > level:
                continue
            columns = [name for name in db.table(table).columns_dict
                       if name not in TIMES and (table, name) not in VERSIONS
                       and MADE_OTHERWISE.get((table, name), 0) <= level]
            found[table] = sorted(
                tuple(round(value, 9) if isinstance(value, float) else value for value in row)
                for row in db.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall())
        return found
    finally:
        db.conn.close()


@pytest.mark.parametrize("level", range(1, len(store.MIGRATIONS)))
def test_a_store_of_an_older_version_comes_to_what_a_new_one_holds(level, made_today, tmp_path):
    path = str(tmp_path / f"level-{level}.sqlite")
    at_level(path, level, made_today)
    started(path)
    today, migrated = contents(made_today, level), contents(path, level)
    assert migrated.keys() == today.keys()
    for table in today:
        assert migrated[table] == today[table], table
    assert store.examine(path) == len(store.MIGRATIONS)


def test_the_comparison_sees_what_a_migration_works_out_otherwise(made_today, tmp_path):
    """The comparison can fail: a store of before the players (level 7) whose match is kept with
    another winner's summary is worked out again by m008 from its hands, not kept as it was; a
    store of before the ratings whose finished match lost its hands is rated otherwise."""
    path = str(tmp_path / "level-7.sqlite")
    at_level(path, 7, made_today)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM hands WHERE match_id = 1")
    started(path)
    today, migrated = contents(made_today, 7), contents(path, 7)
    assert {table for table in today if migrated[table] != today[table]} >= {
        "hands", "matches", "seats", "player_totals", "ratings", "rating_changes", "rated_matches"}


# -- What the migrations ask of today's code (issue 44) -------------------------------------------

def asked(path: str) -> list[tuple]:
    """The summaries asked for and not yet worked out: (match, rescore)."""
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT match_id, rescore FROM summary_work ORDER BY match_id").fetchall()


def test_a_stop_between_the_migrations_and_their_work_is_made_good_at_the_next_start(made_today, tmp_path):
    """A store from before the summaries (level 3) stopped once its migrations are written and
    before the work they asked for is done (a crash, a kill): the asks are in the store, written
    with the migrations, and the next start does the work, to what a store made today holds."""
    path = str(tmp_path / "level-3.sqlite")
    at_level(path, 3, made_today)
    db = store.connect(path)
    try:
        store.migrate(db)           # and stopped there
    finally:
        db.conn.close()
    with sqlite3.connect(path) as conn:
        matches = [row[0] for row in conn.execute("SELECT id FROM matches ORDER BY id")]
        assert conn.execute("SELECT COUNT(*) FROM matches WHERE summary IS NOT NULL").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM ratings").fetchone() == (0,)
        assert conn.execute("SELECT MAX(version) FROM migrations").fetchone() == (len(store.MIGRATIONS),)
    assert asked(path) == [(match_id, 1) for match_id in matches]
    started(path)
    assert asked(path) == []
    assert contents(path, 3) == contents(made_today, 3)


@pytest.fixture(scope="module")
def finished_out_of_order(tmp_path_factory) -> str:
    """A store made today whose first match finished a day after its second: Anna against Bruno
    (match 1, finished on the 2nd), Anna against Carla (match 2, finished on the 1st), so Anna's
    ratings follow match 2 first."""
    path = str(tmp_path_factory.mktemp("today") / "out-of-order.sqlite")
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": path})
    client = organiser(app)
    first = new_match(client, players=["Anna", "Bruno"], options={"target": 4})
    second = new_match(client, players=["Anna", "Carla"], options={"target": 4})
    finish(client, second)
    finish(client, first)
    db = store.connect(path)
    try:
        with store.writing(db):
            for match_id, day in ((first, "2026-01-02"), (second, "2026-01-01")):
                db.execute("UPDATE hands SET created = ? || 'T10:00:' || printf('%02d', number) || '+00:00' "
                           "WHERE match_id = ?", [day, match_id])
                db.execute("UPDATE rated_matches SET finished = (SELECT MAX(created) FROM hands "
                           "WHERE match_id = ?) WHERE match_id = ?", [match_id, match_id])
            store.rerate(db)
    finally:
        db.conn.close()
    store.stop_cleanly(path)
    return path


def test_a_store_from_before_the_summaries_is_rated_in_the_order_its_matches_finished(
        finished_out_of_order, tmp_path):
    """A store from before the summaries (level 3) has no summary when m013 places the finished
    matches for the ratings: the start-up works the summaries out, places each finished match
    where m013 would have (its last hand: match 2 before match 1, not in the order they are
    worked out), and rates them so: its seats, totals and ratings are those of the store made
    today."""
    path = str(tmp_path / "level-3.sqlite")
    at_level(path, 3, finished_out_of_order)
    started(path)
    assert contents(path, 3) == contents(finished_out_of_order, 3)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT match_id, finished FROM rated_matches ORDER BY finished").fetchall() == [
            (2, "2026-01-01T10:00:01+00:00"), (1, "2026-01-02T10:00:01+00:00")]
        assert conn.execute("SELECT COUNT(*) FROM seats WHERE over = 1").fetchone() == (4,)
        assert conn.execute("SELECT COUNT(*) FROM rating_changes WHERE variant = ''").fetchone() == (4,)


def test_a_backup_from_before_the_summaries_is_restored_with_them_worked_out(made_today, tmp_path):
    """A restore brings the backup's file up by the migrations, then works out what they asked
    for before its rows are copied and checked: the store it would put in place holds what a
    store made today holds, with nothing left asked."""
    path = str(tmp_path / "backup-level-3.sqlite")
    at_level(path, 3, made_today)
    fresh = store.check_backup(path, Ledger)
    try:
        assert asked(str(fresh)) == [] and asked(path) == []
        assert contents(str(fresh), 3) == contents(made_today, 3)
    finally:
        fresh.unlink()


def other_winner(db, match_id: int) -> None:
    """The match kept with a summary that says the other side won (as an older version's scoring
    could have it), placed and rated so."""
    summary = json.loads(db.execute("SELECT summary FROM matches WHERE id = ?", [match_id]).fetchone()[0])
    summary["winner"] = 1 - summary["winner"]
    db.execute("UPDATE matches SET summary = ? WHERE id = ?", [json.dumps(summary), match_id])
    db.execute("UPDATE rated_matches SET places = ? WHERE match_id = ?", [json.dumps(places(summary)), match_id])


def test_a_summary_worked_out_again_whose_places_change_asks_for_the_ratings(made_today, tmp_path, monkeypatch):
    """A summary a migration asked for that the work finds with other places (match 1, kept as
    won by the other side and rated so) keeps its place in the order and asks for the ratings
    from it on (``rating_work``), as a save does; worked out, they are the store made today's."""
    path = str(tmp_path / "stale.sqlite")
    shutil.copy(made_today, path)
    db = store.connect(path)
    try:
        with store.writing(db):
            other_winner(db, 1)
            store.rerate(db)
            db.execute("INSERT INTO summary_work (match_id) VALUES (1)")
        finished = db.execute("SELECT finished FROM rated_matches WHERE match_id = 1").fetchone()[0]
        monkeypatch.setattr(rerating, "settle_ratings", lambda db: 0)      # the asks left to see
        assert store.settle_summaries(db, Ledger) == 1
        assert db.execute("SELECT finished, match_id FROM rating_work").fetchall() == [(finished, 1)]
        assert db.execute("SELECT finished FROM rated_matches WHERE match_id = 1").fetchone() == (finished,)
        monkeypatch.undo()
        store.settle_ratings(db)
    finally:
        db.conn.close()
    level = len(store.MIGRATIONS)
    assert asked(path) == [] and contents(path, level) == contents(made_today, level)


def test_a_store_from_before_m006_is_rated_from_its_summaries_worked_out_again(made_today, tmp_path):
    """A store of level 5 whose match 1 is kept with a summary today's rules do not give (the
    other side won): m013 runs before the work the migrations asked for, and whatever it made of
    that summary, the store ends with today's summary, places, seats and ratings."""
    path = str(tmp_path / "level-5.sqlite")
    at_level(path, 5, made_today)
    with sqlite3.connect(path) as conn:
        summary = json.loads(conn.execute("SELECT summary FROM matches WHERE id = 1").fetchone()[0])
        summary["winner"] = 1 - summary["winner"]
        conn.execute("UPDATE matches SET summary = ? WHERE id = 1", [json.dumps(summary)])
    started(path)
    assert contents(path, 5) == contents(made_today, 5)
