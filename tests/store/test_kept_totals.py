"""The totals kept for the leaderboard (issue 24, point 5): each player's seats added up, per
variant, kept by triggers on the seats, so that the leaderboard and the API read a few rows per
player however many matches were played. They must never drift from the seats: after any series
of saves, edits, deletes and their undo, matches deleted and brought back, renames, merges and
their undo, they equal the seats added up again."""

import json
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from copied_store import app_on_a_copy
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import create_app, store, use_store
from companion.matches import Ledger
from helpers import examples, organiser, random_hand

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina"]
VARIANTS = ["classica", "re-bello", "scopone", "scopa-d-assi"]
OPERATIONS = ("match", "hand", "hand", "hand", "edit", "delete_hand", "undo_delete", "delete_match",
              "restore_match", "rename", "merge", "undo_change")


def kept_pairs(db) -> dict:
    return {(row["player_id"], row["variant"]): row for row in db.query(
        "SELECT * FROM player_totals ORDER BY player_id, variant")}


def summed_pairs(db) -> dict:
    """The seats added up again, by player and variant: what the kept totals must hold."""
    return {(row["player_id"], row["variant"]): row for row in db.query(
        "SELECT player_id, variant, COUNT(*) AS seats, SUM(over) AS over, SUM(won) AS won, "
        "SUM(drawn) AS drawn, " + ", ".join(f"SUM({name}) AS {name}" for name in store.SEAT_SUMS)
        + ", MAX(best) AS best, MIN(worst) AS worst FROM seats GROUP BY player_id, variant "
        "ORDER BY player_id, variant")}


def check_kept(db) -> None:
    assert kept_pairs(db) == summed_pairs(db)
    for variant in (None, *VARIANTS):
        assert store.records(db, variant=variant) == store.records_from_seats(db, variant=variant)
        for page in ((0, 3), (3, 3), (0, 100)):           # the leaderboard's order, page by page
            assert (store.records(db, variant=variant, page=page)
                    == store.records_from_seats(db, variant=variant, page=page))
    for (player_id,) in db.execute("SELECT id FROM players").fetchall():
        assert store.records(db, player_id) == store.records_from_seats(db, player_id)


class Club:
    """A club's nights, one random operation at a time, through the API and the store."""

    def __init__(self, client, db, rng: random.Random):
        self.client, self.db, self.rng = client, db, rng
        self.deleted_hands: list[tuple[int, list[int], int]] = []     # (match, hands, version)
        self.deleted_matches: list[int] = []
        self.renamed = 0

    def names(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM players WHERE merged_into IS NULL")]

    def matches(self, playing: bool | None = None) -> list[dict]:
        rows = self.db.query("SELECT id, sides, over FROM matches WHERE deleted IS NULL")
        return [row for row in rows if playing is None or bool(row["over"]) != playing]

    def do(self, operation: str) -> None:
        getattr(self, operation)()

    def match(self) -> None:
        rng, known = self.rng, self.names() + NAMES
        variant = rng.choice(VARIANTS)
        if variant == "scopone" or rng.random() < 0.2:
            names = rng.sample(sorted(set(known)), 4)
            body = {"teams": [{"players": names[:2]}, {"players": names[2:]}]}
        else:
            body = {"players": rng.sample(sorted(set(known)), rng.choice((2, 2, 3)))}
        if variant == "scopone":
            body["options"] = {"target": 21}
        answer = self.client.post("/api/v1/matches", json={**body, "variant": variant})
        assert answer.status_code == 201, answer.get_json()

    def hand(self) -> None:
        playing = self.matches(playing=True)
        if playing:
            row = self.rng.choice(playing)
            answer = self.client.post(f"/api/v1/matches/{row['id']}/hands",
                                      json=random_hand(len(json.loads(row["sides"])), self.rng))
            assert answer.status_code == 201, answer.get_json()

    def _a_hand(self) -> tuple[dict, dict] | None:
        with_hands = [row for row in self.matches() if self.db.execute(
            "SELECT 1 FROM hands WHERE match_id = ? AND deleted IS NULL", [row["id"]]).fetchone()]
        if not with_hands:
            return None
        row = self.rng.choice(with_hands)
        hand = self.rng.choice(store.hand_rows(self.db, row["id"]))
        return row, hand

    def edit(self) -> None:
        found = self._a_hand()
        if found and json.loads(found[1]["entry"])["mode"] != "claim":
            row, hand = found
            answer = self.client.put(f"/api/v1/matches/{row['id']}/hands/{hand['id']}",
                                     json=random_hand(len(json.loads(row["sides"])), self.rng),
                                     headers={"If-Match": f'"{hand["version"]}"'})
            assert answer.status_code == 200, answer.get_json()

    def delete_hand(self) -> None:
        found = self._a_hand()
        if found:
            row, hand = found
            version = store.delete_hands(self.db, row["id"], {hand["id"]: hand["version"]}, Ledger)
            self.deleted_hands.append((row["id"], [hand["id"]], version))

    def undo_delete(self) -> None:
        if self.deleted_hands:
            match_id, hands, version = self.deleted_hands.pop()
            try:
                store.restore_hands(self.db, match_id, hands, version, Ledger)
            except (store.Conflict, store.Gone):
                pass                 # changed since: the Undo is refused, nothing moves

    def delete_match(self) -> None:
        rows = self.matches()
        if rows:
            match_id = self.rng.choice(rows)["id"]
            store.delete_match(self.db, match_id)
            self.deleted_matches.append(match_id)

    def restore_match(self) -> None:
        if self.deleted_matches:
            try:
                store.restore_match(self.db, self.deleted_matches.pop(), Ledger)
            except store.CannotRestore:
                pass

    def rename(self) -> None:
        players = self.db.execute("SELECT id FROM players WHERE merged_into IS NULL").fetchall()
        if players:
            self.renamed += 1
            store.rename_player(self.db, self.rng.choice(players)[0], f"Renamed {self.renamed}", Ledger)

    def merge(self) -> None:
        players = [row[0] for row in self.db.execute("SELECT id FROM players WHERE merged_into IS NULL")]
        if len(players) > 1:
            one, into = self.rng.sample(players, 2)
            try:
                store.merge_players(self.db, one, into, Ledger)
            except store.PlayedTogether:
                pass

    def undo_change(self) -> None:
        last = self.db.execute("SELECT id FROM player_changes WHERE undone IS NULL "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        if last:
            try:
                store.undo_change(self.db, last[0], Ledger)
            except store.CannotUndo:
                pass


@pytest.fixture(scope="module")
def club_app(migrated_store, tmp_path_factory):
    """One companion for the module's generated nights, each on a store of its own
    (``a_club``): making an app for each was a third of a night's time (issue 44)."""
    return app_on_a_copy(migrated_store, tmp_path_factory.mktemp("club") / "t.sqlite", WTF_CSRF_ENABLED=False)


def a_club(app, migrated_store, folder: str):
    """``app`` pointed at a fresh copy of the migrated store in ``folder`` (``companion.use_store``,
    as tests/conftest.py's ``made_for`` does): its organiser's client, and a connection to it."""
    path = Path(folder) / "t.sqlite"
    shutil.copy(migrated_store, path)
    use_store(app, str(path))
    return organiser(app), store.connect(str(path))


@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.sampled_from(OPERATIONS), min_size=10, max_size=60), st.integers(0, 2**32))
def test_the_kept_totals_equal_the_seats_added_up_after_any_series_of_changes(club_app, migrated_store,
                                                                              operations, seed):
    with tempfile.TemporaryDirectory() as folder:
        client, db = a_club(club_app, migrated_store, folder)
        try:
            club = Club(client, db, random.Random(seed))
            for _ in range(3):
                club.match()
            for operation in operations:
                club.do(operation)
                assert kept_pairs(db) == summed_pairs(db), operation
            check_kept(db)
        finally:
            db.conn.close()
            store.stop_cleanly(str(Path(folder) / "t.sqlite"))


def test_a_long_night_with_every_kind_of_change_keeps_the_totals(app, client):
    """The same, over one long series, each kind of change many times over."""
    db = store.connect(app.config["DATABASE"])
    try:
        club = Club(client, db, random.Random(24))
        for _ in range(6):
            club.match()
        for step in range(400):
            club.do(OPERATIONS[step % len(OPERATIONS)] if step % 3 else "hand")
        assert db.execute("SELECT COUNT(*) FROM player_totals").fetchone()[0] > 5
        assert db.execute("SELECT COUNT(*) FROM player_changes WHERE kind = 'merge'").fetchone()[0]
        check_kept(db)
    finally:
        db.conn.close()


def test_a_store_from_before_the_kept_totals_gets_them(app, client):
    """A store made before migration 14 (its seats filled, no totals) has them filled in."""
    db = store.connect(app.config["DATABASE"])
    club = Club(client, db, random.Random(5))
    for _ in range(4):
        club.match()
    for _ in range(30):
        club.hand()
    expected = summed_pairs(db)
    assert expected
    version = store.MIGRATIONS.index(next(m for m in store.MIGRATIONS if m.__name__ == "m014_kept_not_worked_out_again")) + 1
    db.conn.close()
    with sqlite3.connect(app.config["DATABASE"]) as conn:       # as it was before migration 14
        conn.execute("DROP TABLE player_totals")
        for trigger in ("insert", "delete", "update"):
            conn.execute(f"DROP TRIGGER seats_totals_{trigger}")
        for extreme in ("best", "worst"):
            conn.execute(f"DROP INDEX idx_seats_player_id_variant_{extreme}")
        for trigger in ("insert", "update", "sides"):
            conn.execute(f"DROP TRIGGER hands_changed_{trigger}")
        conn.execute("DROP INDEX idx_hands_match_id_changed")
        conn.execute("ALTER TABLE hands DROP COLUMN changed")
        conn.execute("ALTER TABLE hands DROP COLUMN added")
        conn.execute("DELETE FROM migrations WHERE version = ?", [version])
    create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": app.config["DATABASE"]})
    db = store.connect(app.config["DATABASE"])
    try:
        assert kept_pairs(db) == expected
        check_kept(db)
    finally:
        db.conn.close()


def test_the_leaderboard_reads_the_kept_totals_not_the_seats(client, monkeypatch):
    """Whatever the seats say, the leaderboard and the API without a period show the kept
    totals: proof that they read them (a period still adds up its seats)."""
    for _ in range(2):
        client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    db = store.connect(client.application.config["DATABASE"])
    try:
        db.execute("UPDATE player_totals SET won = 7, over = 9 WHERE player_id = 1")
    finally:
        db.conn.close()
    players = client.get("/api/v1/players").get_json()["players"]
    anna = next(row for row in players if row["name"] == "Anna")
    assert (anna["won"], anna["matches"]) == (7, 9)
    assert "7 of 9" in client.get("/players").get_data(as_text=True)
    dated = client.get("/api/v1/players?since=2000-01-01").get_json()["players"]
    assert next(row for row in dated if row["name"] == "Anna")["won"] == 0
