"""A restore takes data, not code: a backup whose schema is not exactly what this version builds
at its level (a trigger, a table or a view more, one of the companion's missing), or with a text
past the companion's limits, is refused in words, and the live store is left as it was."""

import hashlib
import html
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from companion import store
from companion.matches import Ledger
from companion.store.checks import schema_at
from helpers import HAND, new_match, one_hand_match, restore_backup

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")


def backup_of(client, tmp_path):
    """The store's backup as the organiser downloads it, as a file to change."""
    match_id = new_match(client, pin="123456")
    client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    path = tmp_path / "backup.sqlite"
    path.write_bytes(client.get("/backup/download").data)
    return path


def changed(path, *statements):
    conn = sqlite3.connect(path)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    return path


def state(app) -> str:
    """Everything the live store holds, schema and rows (read through a fresh connection)."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()
    finally:
        conn.close()


def restore(client, path, **headers):
    """The backup at ``path`` restored as the page sends it (helpers.restore_backup)."""
    return restore_backup(client, path.read_bytes(), headers, confirm="y", follow_redirects=True)


BLANK_PINS = ("CREATE TRIGGER blank_pins AFTER INSERT ON matches BEGIN "
              "UPDATE matches SET pin_hash = NULL WHERE id = NEW.id; END")


@pytest.mark.parametrize("statements, words", [
    ([BLANK_PINS], "it holds what the companion does not make (TRIGGER blank_pins)"),
    (["DROP TRIGGER seats_totals_insert"],
     "what the companion makes is missing from it (TRIGGER seats_totals_insert)"),
    (["CREATE TABLE notes (text TEXT)"], "it holds what the companion does not make (TABLE notes)"),
    (["CREATE VIEW pins AS SELECT pin_hash FROM matches"],
     "it holds what the companion does not make (VIEW pins)"),
    (["DROP INDEX idx_hands_match_id_key", "CREATE INDEX idx_hands_match_id_key ON hands (key)"],
     "it differs from what the companion makes (INDEX idx_hands_match_id_key)"),
], ids=["extra trigger", "totals trigger missing", "extra table", "extra view", "changed index"])
def test_a_backup_with_a_schema_of_its_own_is_refused(app, client, tmp_path, statements, words):
    """Found in review: a backup with a trigger that blanked every new match's PIN restored
    (303, "Restored") and the trigger then ran; one without the totals' triggers restored too,
    and the players' totals silently stopped being kept."""
    backup = changed(backup_of(client, tmp_path), *statements)
    before = state(app)
    page = restore(client, backup).get_data(as_text=True)
    assert f"Nothing restored: that file is not a Scopa companion backup: {words}." in page
    assert state(app) == before
    assert not list(tmp_path.glob("before-restore-*"))
    match_id = new_match(client, pin="654321")                    # the trigger never came in
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["pin"] is True


@pytest.mark.parametrize("statement, words", [
    ("UPDATE players SET name = '" + "x" * 5_000_000 + "' WHERE id = 1",
     "a name in it is longer than the companion allows (players, row 1)"),
    ("UPDATE matches SET sides = json_set(sides, '$[0].name', '" + "Anna" * 20 + "')",
     "a name in it is longer than the companion allows (matches, row 1)"),
    ("UPDATE matches SET pin_hash = 'pbkdf2:sha256:2000000000$salt$" + "0" * 64 + "'",
     "a PIN or access key in it is not one the companion makes (matches, row 1)"),
    ("UPDATE matches SET access_key = '" + "k" * 1000 + "'",
     "a PIN or access key in it is not one the companion makes (matches, row 1)"),
], ids=["5 MB player name", "long team name", "costly PIN hash", "long access key"])
def test_a_backup_with_a_text_past_the_limits_is_refused(app, client, tmp_path, statement, words):
    """Found in review: a 5 MB player name restored. A PIN hash of a cost the file chose would
    make every try of the PIN as slow as it likes."""
    backup = changed(backup_of(client, tmp_path), statement)
    before = state(app)
    page = restore(client, backup).get_data(as_text=True)
    assert f"Nothing restored: {words}." in page
    assert state(app) == before


def test_a_tournament_name_past_its_limit_is_refused(app, client, tmp_path):
    created = client.post("/api/v1/tournaments", json={
        "name": "Night", "format": "round-robin", "variant": "classica", "entrants": ["A", "B", "C"]})
    assert created.status_code == 201
    backup = changed(backup_of(client, tmp_path), "UPDATE tournaments SET name = '" + "n" * 61 + "'")
    page = restore(client, backup).get_data(as_text=True)
    assert "Nothing restored: a tournament&#39;s name in it is longer than the companion allows (row 1)." in page


def test_the_refusal_is_in_the_page_language(app, client, tmp_path):
    backup = changed(backup_of(client, tmp_path), BLANK_PINS)
    page = html.unescape(restore(client, backup, **{"Accept-Language": "it"}).get_data(as_text=True))
    assert ("Nessun ripristino: quel file non è un backup di questa app: contiene ciò che l'app "
            "non crea (TRIGGER blank_pins).") in page


def test_a_backup_of_an_older_level_still_restores(tmp_path):
    """A store made by an older version is what that version built: it passes, and is brought to
    this version's schema (the schema is compared at the file's own migration level)."""
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    db = store.connect(str(path))
    db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
    for version, step in enumerate(store.MIGRATIONS[:12], start=1):
        step(db)
        db["migrations"].insert({"version": version, "applied": "2025-01-01"})
    db.conn.close()
    conn.close()
    store.check_backup(str(path), Ledger)
    conn = sqlite3.connect(path)
    level = conn.execute("SELECT MAX(version) FROM migrations").fetchone()[0]
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite%'")}
    conn.close()
    assert level == len(store.MIGRATIONS)
    assert names == {name for _, name in schema_at(len(store.MIGRATIONS)) if not name.startswith("sqlite")}


def test_a_backup_of_another_page_size_restores(app, client, tmp_path):
    """Found while testing: SQLite's backup API cannot change a WAL store's page size, so such a
    backup passed every check and then failed to copy ("readonly"); it is rewritten first."""
    backup = backup_of(client, tmp_path)
    conn = sqlite3.connect(backup, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("PRAGMA page_size=16384")
    conn.execute("VACUUM")
    conn.close()
    client.post(f"/api/v1/matches/{new_match(client)}/hands", json=HAND)      # a later match
    page = restore(client, backup).get_data(as_text=True)
    assert "Restored." in page
    assert [m["id"] for m in client.get("/api/v1/matches").get_json()["matches"]] == [1]


def finished_matches(client) -> None:
    """Two matches of one hand each, finished one after the other: totals and ratings to keep."""
    for players in (["Anna", "Bruno"], ["Carla", "Anna"]):
        one_hand_match(client, players)


DERIVED = ("player_totals", "ratings", "rating_changes", "rating_work")


def derived(app) -> dict:
    """What the companion works out of the matches and keeps: every row of it."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return {table: sorted(conn.execute(f"SELECT * FROM {table}")) for table in DERIVED}
    finally:
        conn.close()


def test_what_the_companion_works_out_is_worked_out_again(app, client, tmp_path):
    """Found in review: a backup whose totals said a player won 999 matches, whose ratings gave
    one a mu of 1000, and which asked for a re-rating of its own, restored as it was."""
    finished_matches(client)
    backup = backup_of(client, tmp_path)
    honest = derived(app)
    assert honest["ratings"] and honest["player_totals"] and not honest["rating_work"]
    changed(backup, "UPDATE player_totals SET won = 999, over = 999, seats = 999 WHERE player_id = 1",
            "DELETE FROM player_totals WHERE player_id = 2",
            "UPDATE ratings SET mu = 1000, ordinal = 1000 WHERE player_id = 1",
            "UPDATE rating_changes SET mu = 1000",
            "INSERT INTO rating_work (finished, match_id) VALUES (NULL, NULL)")
    client.post(f"/api/v1/matches/{new_match(client)}/hands", json=HAND)      # a later match
    assert "Restored." in restore(client, backup).get_data(as_text=True)
    assert derived(app) == honest


FUTURE = "9999-12-31T00:00:00+00:00"


@pytest.mark.parametrize("statement, where", [
    (f"UPDATE rated_matches SET finished = '{FUTURE}'", "rated_matches, row 1"),
    (f"UPDATE hands SET created = '{FUTURE}' WHERE id = 2", "hands, row 2"),
    (f"UPDATE players SET created = '{FUTURE}' WHERE id = 3", "players, row 3"),
], ids=["match finished", "hand", "player"])
def test_a_time_in_the_future_is_refused(app, client, tmp_path, statement, where):
    """Found in review: a match "finished in 9999" restored, and so could never become the
    club's record (web.record): every phone could go on changing it."""
    finished_matches(client)
    backup = changed(backup_of(client, tmp_path), statement)
    before = state(app)
    page = restore(client, backup).get_data(as_text=True)
    assert (f"Nothing restored: a time in it is in the future ({where}: {FUTURE}); if this "
            "computer&#39;s clock is behind, set it right first.") in page
    assert state(app) == before
    assert not list(tmp_path.glob("before-restore-*"))


def test_a_clock_a_little_ahead_still_restores(app, client, tmp_path):
    """Two computers' clocks differ a little: a time a minute ahead of this one's is no reason
    to refuse a backup."""
    finished_matches(client)
    ahead = (datetime.now(timezone.utc) + timedelta(minutes=1)).isoformat(timespec="seconds")
    backup = changed(backup_of(client, tmp_path), f"UPDATE rated_matches SET finished = '{ahead}' WHERE match_id = 2")
    assert "Restored." in restore(client, backup).get_data(as_text=True)
