"""Storage: one SQLite file through sqlite-utils.

A match row keeps the rules it was created with and its sides; a hand row keeps what the players
entered (the cards of each pile, or the counts), never the points: scores, totals and the
outcome are worked out from the hands by the rules engine each time, so they live in one place.

The schema is a list of numbered migrations, applied in order on first use. Writes take the
write lock up front (``BEGIN IMMEDIATE``) so two phones saving at once wait for each other
instead of failing, and each save is one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from collections import OrderedDict
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, NamedTuple

import sqlite_utils
from flask import Flask, current_app, g

from .rules.said import Said, said


def _m001_matches_and_hands(db: sqlite_utils.Database) -> None:
    db["matches"].create({
        "id": int, "created": str, "rules": str, "sides": str, "first_dealer": int,
    }, pk="id", not_null={"created", "rules", "sides", "first_dealer"})
    db["hands"].create({
        "id": int, "match_id": int, "number": int, "entry": str, "created": str, "updated": str,
        "version": int, "key": str,
    }, pk="id", foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "number", "entry", "created", "updated", "version"},
        defaults={"version": 1})
    db["hands"].create_index(["match_id", "number"], unique=True)
    # The one-time key of the form a hand was saved from: the same form sent twice (a double
    # tap, a retried request, two phones) finds its hand already there.
    db["hands"].create_index(["match_id", "key"], unique=True)


def _m002_versions_and_pins(db: sqlite_utils.Database) -> None:
    # version: bumped by every write to a match's hands, so a phone polling the match learns
    # whether anything changed from one primary-key read. pin_hash: the edit PIN, if any.
    db["matches"].add_column("version", int, not_null_default=0)
    db["matches"].add_column("pin_hash", str)


def _m003_hand_identity(db: sqlite_utils.Database) -> None:
    # deleted: a deleted hand stays as a marked row, so its id is never reused (SQLite gives a
    # new row the largest id + 1) and a late or repeated delete cannot reach another hand.
    # previous: the entry an edit replaced, so the edit can be undone.
    db["hands"].add_column("deleted", str)
    db["hands"].add_column("previous", str)


def _m004_results_and_summaries(db: sqlite_utils.Database) -> None:
    # result: a hand's points, worked out when it is saved, so that showing a match adds up
    # stored points instead of scoring every hand again. summary and over: the match's outcome
    # kept in its row, so that listing thousands of matches reads no hands, and a save checks
    # the match's state from one row.
    from . import matches
    db["hands"].add_column("result", str)
    db["matches"].add_column("summary", str)
    db["matches"].add_column("over", int, not_null_default=0)
    db["matches"].create_index(["over", "id"])
    for row in list(db.query("SELECT * FROM matches")):
        row = _match(row)
        played = hand_rows(db, row["id"])
        current = matches.build(row, played)
        for hand in current.hands:
            if hand.result is not None:
                db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(hand.result), hand.id])
        _set_summary(db, row["id"], matches.summary_of(current.outcome, len(played),
                                                       matches.stats_of(current)))


def _m005_access_keys(db: sqlite_utils.Database) -> None:
    # access_key: what a phone that entered the PIN keeps in its cookie, random for each match,
    # so a phone unlocked for match 3 of one store is not for match 3 of a restored or other one.
    import secrets
    db["matches"].add_column("access_key", str)
    for (match_id,) in db.execute("SELECT id FROM matches").fetchall():
        db.execute("UPDATE matches SET access_key = ? WHERE id = ?", [secrets.token_urlsafe(16), match_id])


def _m006_outcomes_in_any_language(db: sqlite_utils.Database) -> None:
    # A match's outcome is kept as what was said with its figures, not as English text, so
    # that every phone reads it in its own language: the summaries are worked out again.
    from . import matches
    for row in list(db.query("SELECT * FROM matches")):
        row = _match(row)
        played = hand_rows(db, row["id"])
        current = matches.build(row, played)
        _set_summary(db, row["id"], matches.summary_of(current.outcome, len(played),
                                                       matches.stats_of(current)))


def _m007_rematches_archive_and_deletes(db: sqlite_utils.Database) -> None:
    # follows / followed_by: a "Rivincita" and the match it follows (the finished match's page
    # links to it). archived: kept, but out of the lists. deleted: a deleted match keeps its
    # row, emptied, so its id is never given to another match (an old link or a phone unlocked
    # for it never reaches a new one); its hands are removed.
    db["matches"].add_column("follows", int)
    db["matches"].add_column("followed_by", int)
    db["matches"].add_column("archived", int, not_null_default=0)
    db["matches"].add_column("deleted", str)
    db["matches"].create_index(["archived", "over", "id"])
    db["matches"].create_index(["archived", "id"])      # every match, newest first (the API)


# A side's figures kept in its players' seats: those a record adds up, then its best and worst hand.
SEAT_SUMS = ("hands", "points", "sweeps", "carte", "denari", "settebello", "primiera", "re_bello",
             "napola", "declarations")
SEAT_STATS = (*SEAT_SUMS, "best", "worst")


def _m008_players(db: sqlite_utils.Database) -> None:
    # players: the people who sit at the tables, known across matches by their name trimmed and
    # case-folded (key). A player merged into another keeps its row (merged_into), so its
    # number is never given to someone else and an old link finds whom it became.
    # seats: who sat on which side of each match, with that side's figures and result, kept
    # by every save (_keep_summary), so a record or the leaderboard is one grouped query over
    # seats, never a reading of hands. A hand's stored result gains its points item by item.
    from . import matches
    db["players"].create({"id": int, "name": str, "key": str, "created": str, "merged_into": int},
                         pk="id", not_null={"name", "key", "created"})
    db.execute("CREATE UNIQUE INDEX players_key ON players (key) WHERE merged_into IS NULL")
    db["seats"].create({"match_id": int, "side": int, "seat": int, "player_id": int,
                        "variant": str, "over": int, "won": int, "drawn": int,
                        **{name: int for name in SEAT_STATS}},
                       pk=("match_id", "side", "seat"),
                       foreign_keys=[("match_id", "matches", "id"), ("player_id", "players", "id")],
                       not_null={"player_id", "variant"},
                       defaults={name: 0 for name in ("over", "won", "drawn", *SEAT_SUMS)})
    db["seats"].create_index(["player_id", "match_id"])
    db["seats"].create_index(["variant"])         # the variants a record can be filtered by
    for row in list(db.query("SELECT * FROM matches WHERE deleted IS NULL ORDER BY id")):
        row = _match(row)
        played = hand_rows(db, row["id"])
        current = matches.build(row, played)
        for hand in current.hands:
            if hand.claim is None:
                hand.result = matches.result_of(hand.score)
                db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(hand.result), hand.id])
        sides = _seat_players(db, row["id"], row["sides"], row["rules"].get("preset", ""))
        if sides != row["sides"]:       # "anna" is the known "Anna": the outcome says so too
            db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(sides), row["id"]])
            current = matches.build({**row, "sides": sides}, hand_rows(db, row["id"]))
        _keep_summary(db, row["id"], matches.summary_of(current.outcome, len(played),
                                                        matches.stats_of(current)))


def _m009_tournaments(db: sqlite_utils.Database) -> None:
    # A tournament: its rules and entrants (a player, or a pair of players, each {name,
    # players}), its format and, for a Swiss, the rounds to play. Its rounds and their tables:
    # each table is an ordinary match (tournament_tables.match_id) between two entrants, by
    # their number in the tournament's list; a round's byes are kept with it. Standings are
    # worked out from the tables' matches, never stored.
    db["tournaments"].create({"id": int, "created": str, "name": str, "format": str, "rules": str,
                              "entrants": str, "rounds": int, "seeding": str, "pin_hash": str,
                              "version": int},
                             pk="id", not_null={"created", "name", "format", "rules", "entrants"},
                             defaults={"version": 0})
    # slots: the round's tables and byes in bracket order (a knockout's next round pairs the
    # winners of neighbouring slots): [{"table": 1}, {"bye": 4}, ...].
    db["tournament_rounds"].create({"tournament_id": int, "number": int, "byes": str, "slots": str,
                                    "created": str},
                                   pk=("tournament_id", "number"),
                                   foreign_keys=[("tournament_id", "tournaments", "id")])
    db["tournament_tables"].create({"tournament_id": int, "round": int, "number": int,
                                    "match_id": int, "first": int, "second": int},
                                   pk=("tournament_id", "round", "number"),
                                   foreign_keys=[("tournament_id", "tournaments", "id"),
                                                 ("match_id", "matches", "id")])
    db["tournament_tables"].create_index(["match_id"])


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [
    _m001_matches_and_hands, _m002_versions_and_pins, _m003_hand_identity,
    _m004_results_and_summaries, _m005_access_keys, _m006_outcomes_in_any_language,
    _m007_rematches_archive_and_deletes, _m008_players, _m009_tournaments]


def connect(path: str) -> sqlite_utils.Database:
    """Open the store, in autocommit mode: transactions are begun explicitly by ``writing``."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=10000")
    db = sqlite_utils.Database(conn)
    db.path = path      # names the store in the cache of worked-out matches
    return db


def migrate(db: sqlite_utils.Database) -> int:
    """Apply the migrations not yet applied; returns the schema version."""
    with writing(db):
        db.execute("CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, applied TEXT)")
        done = {row["version"] for row in db.query("SELECT version FROM migrations")}
        for version, step in enumerate(MIGRATIONS, start=1):
            if version not in done:
                step(db)
                db["migrations"].insert({"version": version, "applied": now()})
    return len(MIGRATIONS)


class StorageError(Exception):
    """The store could not save: its disk is full, it is read-only, or it is not a companion
    store. Nothing of the write was kept (its transaction was rolled back)."""

    MESSAGES = {       # said: the pages show them in the phone's language
        "full": said("The server could not save: its disk is full. Nothing was saved; free some "
                     "space on the server, then try again."),
        "readonly": said("The server could not save: its store is read-only. Nothing was saved; "
                         "make the store writable on the server, then try again."),
        "damaged": said("The server's store is not a Scopa companion store, or it is damaged. "
                        "Nothing was saved; restore a backup on the server."),
        "busy": said("The server is busy saving for another phone. Nothing was saved; try again."),
        "other": said("The server could not save. Nothing was saved; try again."),
    }

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(detail or reason)
        self.reason = reason

    @property
    def message(self) -> Said:
        return self.MESSAGES[self.reason]

    @classmethod
    def of(cls, error: sqlite3.Error) -> "StorageError":
        text = str(error).lower()
        for words, reason in ((("full",), "full"), (("readonly", "read-only"), "readonly"),
                              (("not a database", "malformed", "no such table", "no such column"),
                               "damaged"),
                              (("locked", "busy"), "busy")):
            if any(word in text for word in words):
                return cls(reason, str(error))
        return cls("other", str(error))


@contextmanager
def writing(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One transaction that holds the write lock from its start.

    A failure of the store itself (disk full, read-only file, not a database) rolls back and
    raises StorageError; the thread's connection is dropped, so that the next request opens a
    fresh one and saving works again as soon as the cause is gone."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    except (sqlite3.OperationalError, sqlite3.DatabaseError) as error:
        if isinstance(error, sqlite3.IntegrityError):
            raise
        if db.conn.in_transaction:
            try:
                db.conn.rollback()
            except sqlite3.Error:
                pass
        _forget(db)
        raise StorageError.of(error) from error


@contextmanager
def reading(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Reads that must see one state of the store (a WAL snapshot), whatever phones save."""
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.execute("COMMIT")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# Each server thread keeps its connection from one request to the next: opening one costs about
# 0.4 ms, more than answering a poll. A request still has the connection to itself, and ends with
# no transaction left open.
_threads = threading.local()


def get_db() -> sqlite_utils.Database:
    """The request's connection: this thread's, opened on its first request."""
    if "db" not in g:
        kept = _threads.__dict__.setdefault("connections", {})
        path = current_app.config["DATABASE"]
        if path not in kept:
            kept[path] = connect(path)
        g.db = kept[path]
    return g.db


def _forget(db: sqlite_utils.Database) -> None:
    """Stop reusing a connection that failed: the next request of this thread opens another."""
    kept = _threads.__dict__.get("connections", {})
    for path, conn in list(kept.items()):
        if conn is db:
            del kept[path]


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    if db.conn.in_transaction:
        db.conn.rollback()
    if db not in _threads.__dict__.get("connections", {}).values():
        db.conn.close()     # dropped after a failure


def init_app(app: Flask) -> None:
    try:
        db = connect(app.config["DATABASE"])
        try:
            migrate(db)
        finally:
            db.conn.close()
    except sqlite3.DatabaseError as error:      # not a store at all, or an unreadable one
        raise StorageError.of(error) from error
    app.teardown_appcontext(close_db)


# -- Matches and hands -------------------------------------------------------------------------

def create_match(db: sqlite_utils.Database, rules: dict[str, Any], sides: list[dict[str, Any]],
                 first_dealer: int, pin_hash: str | None = None,
                 ledger: Callable[[dict[str, Any]], Any] | None = None,
                 access_key: str | None = None) -> int:
    """A new match; ``ledger`` (``matches.Ledger``) gives its summary before any hand;
    ``access_key`` is what a phone that entered its PIN keeps."""
    with writing(db):
        return _insert_match(db, rules, sides, first_dealer, pin_hash, ledger, access_key)


def _insert_match(db: sqlite_utils.Database, rules: dict[str, Any], sides: list[dict[str, Any]],
                  first_dealer: int, pin_hash: str | None,
                  ledger: Callable[[dict[str, Any]], Any] | None, access_key: str | None,
                  follows: int | None = None) -> int:
    summary = ledger({"rules": rules, "sides": sides}).start() if ledger else None
    table = db["matches"]
    table.insert({"created": now(), "rules": json.dumps(rules), "sides": json.dumps(sides),
                  "first_dealer": first_dealer, "version": 0, "pin_hash": pin_hash,
                  "summary": json.dumps(summary) if summary else None, "over": 0,
                  "access_key": access_key, "follows": follows})
    match_id = table.last_pk
    known = _seat_players(db, match_id, sides, rules.get("preset", ""))
    if known != sides:          # a name typed as "anna " is the known "Anna"
        db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(known), match_id])
    if summary:
        _keep_seats(db, match_id, summary)
    return match_id


def rematch(db: sqlite_utils.Database, match_id: int, first_dealer: int,
            ledger: Callable[[dict[str, Any]], Any], access_key: str) -> tuple[int, bool]:
    """The "Rivincita" of a finished match: the same sides, rules and PIN, ``first_dealer``
    dealing first. Two phones (or a double tap) asking at once get the same one: returns its
    id and whether it was made now. Gone if the match is not there; MatchNotOver if it is
    still being played."""
    with writing(db):
        row = db.execute("SELECT rules, sides, pin_hash, over, followed_by FROM matches "
                         "WHERE id = ? AND deleted IS NULL", [match_id]).fetchone()
        if row is None:
            raise Gone(match_id)
        rules, sides, pin_hash, over, followed_by = row
        if followed_by and db.execute("SELECT 1 FROM matches WHERE id = ? AND deleted IS NULL",
                                      [followed_by]).fetchone():
            return followed_by, False
        if not over:
            raise MatchNotOver(match_id)
        new_id = _insert_match(db, json.loads(rules), json.loads(sides), first_dealer, pin_hash,
                               ledger, access_key, follows=match_id)
        # The finished match's page links to it: every phone polling it learns of it.
        db.execute("UPDATE matches SET followed_by = ?, version = version + 1 WHERE id = ?",
                   [new_id, match_id])
        return new_id, True


def archive_match(db: sqlite_utils.Database, match_id: int, archived: bool) -> None:
    """Put a match out of the lists (it stays, with its link), or back."""
    with writing(db):
        changed = db.execute("UPDATE matches SET archived = ?, version = version + 1 "
                             "WHERE id = ? AND deleted IS NULL", [int(archived), match_id]).rowcount
    if not changed:
        raise Gone(match_id)


def delete_match(db: sqlite_utils.Database, match_id: int) -> None:
    """Delete a match and its hands for good. Its row stays, emptied and marked, so its id is
    never reused."""
    with writing(db):
        table = db.execute("SELECT t.number, n.name FROM tournament_tables t JOIN tournaments n "
                           "ON n.id = t.tournament_id WHERE t.match_id = ?", [match_id]).fetchone()
        if table:
            raise InTournament(*table)
        changed = db.execute("UPDATE matches SET deleted = ?, sides = '[]', summary = NULL, "
                             "pin_hash = NULL, access_key = NULL, version = version + 1 "
                             "WHERE id = ? AND deleted IS NULL", [now(), match_id]).rowcount
        if not changed:
            raise Gone(match_id)
        db.execute("DELETE FROM hands WHERE match_id = ?", [match_id])
        db.execute("DELETE FROM seats WHERE match_id = ?", [match_id])
        # The match it was the rematch of offers a new one again, on every phone showing it.
        db.execute("UPDATE matches SET followed_by = NULL, version = version + 1 WHERE followed_by = ?",
                   [match_id])


MAX_ID = 2**63 - 1   # SQLite's largest integer: a bigger id in a URL names no match


def match_version(db: sqlite_utils.Database, match_id: int) -> int | None:
    """The match's version, from one primary-key read: what a polling phone compares."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = db.execute("SELECT version FROM matches WHERE id = ? AND deleted IS NULL", [match_id]).fetchone()
    return row[0] if row else None


def _set_summary(db: sqlite_utils.Database, match_id: int, summary: dict[str, Any]) -> None:
    """Bump the match's version (every phone polling it learns of the change) and keep its
    new summary."""
    db.execute("UPDATE matches SET version = version + 1, summary = ?, over = ? WHERE id = ?",
               [json.dumps(summary), int(summary["over"]), match_id])


def _keep_summary(db: sqlite_utils.Database, match_id: int, summary: dict[str, Any]) -> None:
    """The match's new summary, and each side's figures and result in its players' seats."""
    _set_summary(db, match_id, summary)
    _keep_seats(db, match_id, summary)


def _keep_seats(db: sqlite_utils.Database, match_id: int, summary: dict[str, Any]) -> None:
    over, winner = bool(summary["over"]), summary["winner"]
    for side, stats in enumerate(summary.get("stats") or []):
        db.execute("UPDATE seats SET over = ?, won = ?, drawn = ?, "
                   + ", ".join(f"{name} = ?" for name in SEAT_STATS)
                   + " WHERE match_id = ? AND side = ?",
                   [int(over), int(over and winner == side), int(over and winner is None),
                    *[stats[name] for name in SEAT_STATS], match_id, side])


def _match(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "rules": json.loads(row["rules"]), "sides": json.loads(row["sides"]),
            "summary": json.loads(row["summary"]) if row.get("summary") else None}


def match_row(db: sqlite_utils.Database, match_id: int) -> dict[str, Any] | None:
    if not 0 < match_id <= MAX_ID:
        return None
    rows = list(db.query("SELECT * FROM matches WHERE id = ? AND deleted IS NULL", [match_id]))
    return _match(rows[0]) if rows else None


def match_rows(db: sqlite_utils.Database, over: bool | None = None, before: int | None = None,
               limit: int | None = None, archived: bool = False) -> list[dict[str, Any]]:
    """Matches, newest first: all of them, or those over (or not), older than ``before``, at
    most ``limit``; those archived only when ``archived``, never the deleted. Read from the
    matches' rows alone (their summaries), never their hands."""
    where, values = ["archived = ?", "deleted IS NULL"], [int(archived)]
    if over is not None:
        where.append("over = ?")
        values.append(int(over))
    if before is not None:
        where.append("id < ?")
        values.append(before)
    sql = "SELECT * FROM matches" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        values.append(limit)
    return [_match(row) for row in db.query(sql, values)]


def series_rows(db: sqlite_utils.Database, match_id: int) -> list[dict[str, Any]]:
    """The match and those it is the "Rivincita" of, back to the first (a deleted match ends
    the chain): each one's id and summary, oldest first."""
    rows = db.execute(
        "WITH RECURSIVE chain(id, follows) AS ("
        " SELECT id, follows FROM matches WHERE id = ? AND deleted IS NULL"
        " UNION ALL SELECT m.id, m.follows FROM matches m JOIN chain ON m.id = chain.follows"
        " WHERE m.deleted IS NULL) "
        "SELECT m.id, m.summary FROM matches m JOIN chain ON m.id = chain.id ORDER BY m.id",
        [match_id]).fetchall()
    return [{"id": row_id, "summary": json.loads(summary) if summary else None}
            for row_id, summary in rows]


# A match worked out from its rows is kept by (store, match, version): every change bumps the
# version, so the phones at a table that poll after a change share one piece of work, and
# nothing stale is ever served. A restore empties it (versions start again in another file).
_built: OrderedDict[tuple[str, int, int], Any] = OrderedDict()
_built_lock = threading.Lock()
BUILT_KEPT = 256


def built_match(db: sqlite_utils.Database, match_id: int, build: Callable[..., Any]) -> Any | None:
    """``build(row, hand_rows)`` for the match as it is now, worked out once per version; None
    if there is no such match. The row and its hands are read in one snapshot."""
    if not 0 < match_id <= MAX_ID:
        return None
    path = getattr(db, "path", "")
    version = match_version(db, match_id)
    if version is None:
        return None
    key = (path, match_id, version)
    with _built_lock:
        if key in _built:
            _built.move_to_end(key)
            return _built[key]
    with reading(db):
        row = match_row(db, match_id)
        current = build(row, hand_rows(db, match_id))
    key = (path, match_id, row["version"])
    with _built_lock:
        _built[key] = current
        while len(_built) > BUILT_KEPT:
            _built.popitem(last=False)
    return current


def forget_built() -> None:
    with _built_lock:
        _built.clear()


def hand_rows(db: sqlite_utils.Database, match_id: int) -> list[dict[str, Any]]:
    """The match's hands in the order they were played (deleted ones left out). Entries and
    results stay JSON text: ``matches.build`` reads them as it needs them."""
    return list(db.query(
        "SELECT * FROM hands WHERE match_id = ? AND deleted IS NULL ORDER BY number", [match_id]))


def hand_row(db: sqlite_utils.Database, match_id: int, hand_id: int) -> dict[str, Any] | None:
    """One hand of the match by its id, deleted or not."""
    if not 0 < hand_id <= MAX_ID:
        return None
    rows = list(db.query("SELECT * FROM hands WHERE match_id = ? AND id = ?", [match_id, hand_id]))
    return rows[0] if rows else None


class Conflict(Exception):
    """The hand was changed by another phone since the version an edit or delete was made from."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"hand {row['id']} is at version {row['version']}")
        self.row = row


class Gone(Exception):
    """The hand is not there (any more): deleted, perhaps a moment ago on another phone."""


class InTournament(Exception):
    """A tournament's table: its result makes the standings, so the match is corrected, never
    deleted."""

    def __init__(self, table: int, tournament: str):
        super().__init__(table, tournament)
        self.table, self.tournament = table, tournament


class MatchNotOver(Exception):
    """A rematch asked of a match still being played."""


class Taken(Exception):
    """Another phone recorded the hand this entry was made for: ``row`` is that hand."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"hand {row['id']} was recorded meanwhile")
        self.row = row


class KeyReused(Exception):
    """A one-time key already used for a different entry: ``row`` is the hand it recorded."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"that key recorded hand {row['id']}")
        self.row = row


class Saved(NamedTuple):
    """A hand added: its id; False when the same form had already recorded it; and, for a new
    hand, its number and the match's summary right after it."""

    id: int
    created: bool
    number: int | None = None
    summary: dict[str, Any] | None = None


def add_hand(db: sqlite_utils.Database, match_id: int, entry: dict[str, Any],
             result: dict[str, Any] | None, ledger: Callable[[dict[str, Any]], Any],
             key: str | None = None, number: int | None = None) -> Saved:
    """Append a hand, with the points it was scored at (``result``).

    A key already used finds that hand instead (``created`` False), so a form sent twice, even by
    two phones at once, counts once; the same key with another entry raises KeyReused.
    ``number`` is the hand the entry was made for ("Mano 3"): if another phone recorded that
    hand meanwhile, Taken is raised with it and nothing is added. ``ledger`` (``matches.Ledger``,
    made from the match's row read inside the transaction) works out the match's new summary
    from its summary so far, and refuses the hand when the match was won meanwhile on another
    phone."""
    with writing(db):
        if key is not None:
            row = db.execute("SELECT id, entry FROM hands WHERE match_id = ? AND key = ?",
                             [match_id, key]).fetchone()
            if row is not None:
                if json.loads(row[1]) != entry:
                    raise KeyReused(hand_row(db, match_id, row[0]))
                return Saved(row[0], False)
        if number is not None:
            there = list(db.query("SELECT * FROM hands WHERE match_id = ? AND deleted IS NULL "
                                  "ORDER BY number LIMIT 1 OFFSET ?", [match_id, number - 1]))
            if there:
                raise Taken(there[0])
        row = match_row(db, match_id)
        if row is None:             # deleted meanwhile on another phone
            raise Gone(match_id)
        summary = row["summary"] or ledger(row).after_change(hand_rows(db, match_id))
        after = ledger(row).after_add(summary, entry, result)
        order = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM hands WHERE match_id = ?",
                           [match_id]).fetchone()[0]
        stamp = now()
        hands = db["hands"]
        hands.insert({"match_id": match_id, "number": order, "entry": json.dumps(entry),
                      "result": json.dumps(result) if result else None,
                      "created": stamp, "updated": stamp, "version": 1, "key": key})
        _keep_summary(db, match_id, after)
        return Saved(hands.last_pk, True, after["hands"], after)


def _resettle(db: sqlite_utils.Database, match_id: int, ledger: Callable[[dict[str, Any]], Any]) -> None:
    """After a change to earlier hands: the summary worked out again from every hand."""
    _keep_summary(db, match_id, ledger(match_row(db, match_id)).after_change(hand_rows(db, match_id)))


def _current(db: sqlite_utils.Database, match_id: int, hand_id: int, version: int) -> dict[str, Any]:
    """The hand as it is, if it is still at ``version``; else Gone or Conflict."""
    row = hand_row(db, match_id, hand_id)
    if row is None or row["deleted"]:
        raise Gone()
    if row["version"] != version:
        raise Conflict(row)
    return row


def update_hand(db: sqlite_utils.Database, match_id: int, hand_id: int, entry: dict[str, Any],
                result: dict[str, Any] | None, version: int,
                ledger: Callable[[dict[str, Any]], Any]) -> int:
    """Replace a hand's entry if it is still at ``version`` (the one the edit was made from):
    an edit never overwrites another phone's. The entry it replaces is kept, so the edit can be
    undone. The same edit sent twice is done once. Returns the hand's version."""
    with writing(db):
        try:
            row = _current(db, match_id, hand_id, version)
        except Conflict as conflict:
            if json.loads(conflict.row["entry"]) == entry:     # already done: a double tap
                return conflict.row["version"]
            raise
        db.execute("UPDATE hands SET entry = ?, result = ?, previous = ?, updated = ?, "
                   "version = version + 1 WHERE id = ?",
                   [json.dumps(entry), json.dumps(result) if result else None, row["entry"],
                    now(), hand_id])
        _resettle(db, match_id, ledger)
        return version + 1


def delete_hands(db: sqlite_utils.Database, match_id: int, versions: dict[int, int],
                 ledger: Callable[[dict[str, Any]], Any]) -> None:
    """Delete hands, each only if still at the version given (hand id -> version), all or none.

    A deleted hand's row is kept, marked deleted: its id is never given to another hand, so a
    delete sent twice or late finds it gone rather than deleting some other hand."""
    with writing(db):
        for hand_id, version in versions.items():
            _current(db, match_id, hand_id, version)
            db.execute("UPDATE hands SET deleted = ?, version = version + 1 WHERE id = ?",
                       [now(), hand_id])
        _resettle(db, match_id, ledger)


# -- Players -----------------------------------------------------------------------------------

class NameTaken(Exception):
    """Another player already has that name: ``row`` is that player (merge them instead)."""

    def __init__(self, row: dict[str, Any]):
        super().__init__(f"player {row['id']} is called {row['name']}")
        self.row = row


class PlayedTogether(Exception):
    """Two players who sat at the same match are two people: they cannot be merged."""

    def __init__(self, match_id: int):
        super().__init__(f"both sat at match {match_id}")
        self.match_id = match_id


def player_key(name: str) -> str:
    """How a typed name finds its player: trimmed, case-folded ("anna " is Anna)."""
    return name.strip().casefold()


def _player_for(db: sqlite_utils.Database, name: str) -> tuple[int, str]:
    """The known player of that name (its id and name as first written), or a new one."""
    found = db.execute("SELECT id, name FROM players WHERE key = ? AND merged_into IS NULL",
                       [player_key(name)]).fetchone()
    if found:
        return found[0], found[1]
    merged = db.execute("SELECT merged_into FROM players WHERE key = ? ORDER BY id DESC LIMIT 1",
                        [player_key(name)]).fetchone()
    if merged:          # a name merged into another player ("Annna" into "Anna") finds that one
        target = player_row(db, merged[0])
        if target:
            return target["id"], target["name"]
    table = db["players"]
    table.insert({"name": name.strip(), "key": player_key(name), "created": now()})
    return table.last_pk, name.strip()


def _seat_players(db: sqlite_utils.Database, match_id: int, sides: list[dict[str, Any]],
                  variant: str) -> list[dict[str, Any]]:
    """Seat each of the match's players (a known player, or a new one) and give back its sides
    with the known players' names; a side of one player is called by the player's name."""
    known = []
    for side_number, side in enumerate(sides):
        names = []
        for seat, name in enumerate(side["players"]):
            player_id, name = _player_for(db, name)
            db["seats"].insert({"match_id": match_id, "side": side_number, "seat": seat,
                                "player_id": player_id, "variant": variant})
            names.append(name)
        solo = len(names) == 1 and player_key(side["name"]) == player_key(side["players"][0])
        known.append({**side, "name": names[0] if solo else side["name"], "players": names})
    return known


def player_row(db: sqlite_utils.Database, player_id: int) -> dict[str, Any] | None:
    """A player by number; one merged into another is that other."""
    for _ in range(100):
        if not 0 < player_id <= MAX_ID:
            return None
        rows = list(db.query("SELECT * FROM players WHERE id = ?", [player_id]))
        if not rows:
            return None
        if rows[0]["merged_into"] is None:
            return rows[0]
        player_id = rows[0]["merged_into"]
    return None


def player_list(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Every known player (id, name), by name."""
    return [dict(row) for row in db.query(
        "SELECT id, name FROM players WHERE merged_into IS NULL ORDER BY name COLLATE NOCASE")]


def player_names(db: sqlite_utils.Database, limit: int = 500) -> list[str]:
    """Known players' names, those who sat most often first: what a name field offers."""
    return [row[0] for row in db.execute(
        "SELECT p.name FROM players p LEFT JOIN seats s ON s.player_id = p.id "
        "WHERE p.merged_into IS NULL GROUP BY p.id ORDER BY COUNT(s.match_id) DESC, p.name "
        "LIMIT ?", [limit]).fetchall()]


def _filters(variant: str | None, since: str | None) -> tuple[str, list[Any]]:
    # A deleted match's seats are deleted with it: matches are read only for their dates.
    where, values = ["1"], []
    if variant:
        where.append("s.variant = ?")
        values.append(variant)
    if since:
        where.append("m.created >= ?")
        values.append(since)
    return " AND ".join(where), values


def records(db: sqlite_utils.Database, player_id: int | None = None, variant: str | None = None,
            since: str | None = None) -> list[dict[str, Any]]:
    """Each player's record (or one player's), from the seats alone: ``matches``, ``won`` and
    ``drawn`` count finished matches, ``playing`` those still in play; the hands' figures
    (``hands``, ``points``, ``sweeps``, the hands in which their side took each item, ``best``
    and ``worst``) count every counted hand. Only the matches of ``variant`` and those started
    at ``since`` or later, when given."""
    where, values = _filters(variant, since)
    if player_id is not None:
        where += " AND s.player_id = ?"
        values.append(player_id)
    sums = ", ".join(f"SUM(s.{name}) AS {name}" for name in SEAT_SUMS)
    dated = "JOIN matches m ON m.id = s.match_id " if since else ""
    return [dict(row) for row in db.query(
        "SELECT p.id, p.name, SUM(s.over) AS matches, SUM(s.won) AS won, SUM(s.drawn) AS drawn, "
        f"SUM(1 - s.over) AS playing, {sums}, MAX(s.best) AS best, MIN(s.worst) AS worst "
        f"FROM seats s {dated}JOIN players p ON p.id = s.player_id "
        f"WHERE {where} GROUP BY s.player_id", values)]


def head_to_head(db: sqlite_utils.Database, player_id: int, variant: str | None = None,
                 since: str | None = None) -> list[dict[str, Any]]:
    """The player against each opponent (a player on another side) in finished matches: how
    many, won by the player's side, won by the opponent's (with three sides, a match can be
    won by neither)."""
    where, values = _filters(variant, since)
    return [dict(row) for row in db.query(
        "SELECT o.player_id AS id, p.name, COUNT(*) AS matches, SUM(s.won) AS won, "
        "SUM(o.won) AS lost, SUM(s.drawn) AS drawn "
        "FROM seats s JOIN seats o ON o.match_id = s.match_id AND o.side != s.side "
        "JOIN players p ON p.id = o.player_id JOIN matches m ON m.id = s.match_id "
        f"WHERE s.player_id = ? AND s.over = 1 AND {where} "
        "GROUP BY o.player_id ORDER BY matches DESC, p.name", [player_id, *values])]


def extreme_hand(db: sqlite_utils.Database, player_id: int, best: bool, variant: str | None = None,
                 since: str | None = None) -> dict[str, Any] | None:
    """The match where the player's side had its best (or worst) hand, and that hand's points."""
    where, values = _filters(variant, since)
    column = "best" if best else "worst"
    rows = list(db.query(
        f"SELECT s.match_id, s.{column} AS points FROM seats s JOIN matches m ON m.id = s.match_id "
        f"WHERE s.player_id = ? AND s.{column} IS NOT NULL AND {where} "
        f"ORDER BY s.{column} {'DESC' if best else 'ASC'}, s.match_id DESC LIMIT 1",
        [player_id, *values]))
    return rows[0] if rows else None


def player_match_rows(db: sqlite_utils.Database, player_id: int, variant: str | None = None,
                      since: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The player's last matches, newest first."""
    where, values = _filters(variant, since)
    return [_match(row) for row in db.query(
        f"SELECT m.* FROM seats s JOIN matches m ON m.id = s.match_id "
        f"WHERE s.player_id = ? AND {where} ORDER BY m.id DESC LIMIT ?",
        [player_id, *values, limit])]


def variants_played(db: sqlite_utils.Database) -> list[str]:
    return [row[0] for row in db.execute("SELECT DISTINCT variant FROM seats ORDER BY variant")]


def _active(db: sqlite_utils.Database, player_id: int) -> dict[str, Any]:
    rows = list(db.query("SELECT * FROM players WHERE id = ? AND merged_into IS NULL", [player_id]))
    if not rows:
        raise Gone(player_id)
    return rows[0]


def _reseat(db: sqlite_utils.Database, old: int, new: int, old_name: str, name: str,
            ledger: Callable[[dict[str, Any]], Any]) -> None:
    """Every match ``old`` sat at now seats ``new``, called ``name``: its sides are rewritten
    and its summary (whose outcome names the sides) worked out again, its version bumped so
    the phones showing it follow. A tournament's entrants follow too, so its next round seats
    the same player."""
    for tournament_id, entrants in db.execute("SELECT id, entrants FROM tournaments").fetchall():
        entrants = json.loads(entrants)
        renamed = [{**e, "name": name if len(e["players"]) == 1 and player_key(e["name"]) == player_key(old_name)
                    else e["name"],
                    "players": [name if player_key(p) == player_key(old_name) else p for p in e["players"]]}
                   for e in entrants]
        if renamed != entrants:
            db.execute("UPDATE tournaments SET entrants = ?, version = version + 1 WHERE id = ?",
                       [json.dumps(renamed), tournament_id])
    seats = db.execute("SELECT match_id, side, seat FROM seats WHERE player_id = ?", [old]).fetchall()
    db.execute("UPDATE seats SET player_id = ? WHERE player_id = ?", [new, old])
    for match_id, side, seat in seats:
        row = match_row(db, match_id)
        if row is None:
            continue
        sides = row["sides"]
        sides[side]["players"][seat] = name
        if len(sides[side]["players"]) == 1:
            sides[side]["name"] = name
        db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(sides), match_id])
        row["sides"] = sides
        _keep_summary(db, match_id, ledger(row).after_change(hand_rows(db, match_id)))


def rename_player(db: sqlite_utils.Database, player_id: int, name: str,
                  ledger: Callable[[dict[str, Any]], Any]) -> None:
    """Call a player by another name, in every match they played. NameTaken if another player
    has it (merge them instead); Gone if there is no such player."""
    with writing(db):
        row = _active(db, player_id)
        taken = list(db.query("SELECT * FROM players WHERE key = ? AND merged_into IS NULL AND id != ?",
                              [player_key(name), player_id]))
        if taken:
            raise NameTaken(taken[0])
        if row["name"] == name.strip():
            return
        db.execute("UPDATE players SET name = ?, key = ? WHERE id = ?",
                   [name.strip(), player_key(name), player_id])
        _reseat(db, player_id, player_id, row["name"], name.strip(), ledger)


def merge_players(db: sqlite_utils.Database, player_id: int, into: int,
                  ledger: Callable[[dict[str, Any]], Any]) -> None:
    """One person entered as two players: ``player_id``'s matches become ``into``'s, under
    ``into``'s name. PlayedTogether if they sat at one match; Gone if either is not there."""
    with writing(db):
        merged = _active(db, player_id)
        target = _active(db, into)
        if player_id == into:
            return
        together = db.execute("SELECT a.match_id FROM seats a JOIN seats b ON b.match_id = a.match_id "
                              "WHERE a.player_id = ? AND b.player_id = ? LIMIT 1",
                              [player_id, into]).fetchone()
        if together:
            raise PlayedTogether(together[0])
        _reseat(db, player_id, into, merged["name"], target["name"], ledger)
        db.execute("UPDATE players SET merged_into = ? WHERE id = ? OR merged_into = ?",
                   [into, player_id, player_id])


# -- Tournaments -------------------------------------------------------------------------------

class RoundStarted(Exception):
    """A round was asked for that another phone (or a double tap) started already."""


def create_tournament(db: sqlite_utils.Database, name: str, format: str, rules: dict[str, Any],
                      entrants: list[dict[str, Any]], rounds: int | None, seeding: str,
                      pin_hash: str | None) -> int:
    with writing(db):
        table = db["tournaments"]
        table.insert({"created": now(), "name": name, "format": format, "rules": json.dumps(rules),
                      "entrants": json.dumps(entrants), "rounds": rounds, "seeding": seeding,
                      "pin_hash": pin_hash, "version": 0})
        return table.last_pk


def tournament_rows(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    return [_tournament(row) for row in db.query("SELECT * FROM tournaments ORDER BY id DESC")]


def _tournament(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "rules": json.loads(row["rules"]), "entrants": json.loads(row["entrants"])}


def tournament_state(db: sqlite_utils.Database, tournament_id: int) -> dict[str, Any] | None:
    """A tournament's row, its rounds (with their byes) and every table with its match's row,
    read in one snapshot."""
    if not 0 < tournament_id <= MAX_ID:
        return None
    with reading(db):
        rows = list(db.query("SELECT * FROM tournaments WHERE id = ?", [tournament_id]))
        if not rows:
            return None
        rounds = [{**row, "byes": json.loads(row["byes"]), "slots": json.loads(row["slots"])}
                  for row in db.query(
            "SELECT number, byes, slots FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
            [tournament_id])]
        tables = [{**{k: v for k, v in row.items() if not k.startswith("m_")},
                   "match": _match({"rules": row["m_rules"], "sides": row["m_sides"],
                                    "summary": row["m_summary"], "id": row["match_id"],
                                    "version": row["m_version"], "deleted": row["m_deleted"],
                                    "first_dealer": row["m_first_dealer"]})}
                  for row in db.query(
            "SELECT t.round, t.number, t.match_id, t.first, t.second, m.rules AS m_rules, "
            "m.sides AS m_sides, m.summary AS m_summary, m.version AS m_version, "
            "m.deleted AS m_deleted, m.first_dealer AS m_first_dealer FROM tournament_tables t JOIN matches m ON m.id = t.match_id "
            "WHERE t.tournament_id = ? ORDER BY t.round, t.number", [tournament_id])]
    return {"tournament": _tournament(rows[0]), "rounds": rounds, "tables": tables}


def tournament_version(db: sqlite_utils.Database, tournament_id: int) -> str | None:
    """What changes when anything on a tournament's board changes: its own version and the
    versions of its tables' matches (a board polls this)."""
    if not 0 < tournament_id <= MAX_ID:
        return None
    row = db.execute(
        "SELECT t.version, (SELECT COALESCE(SUM(m.version), 0) FROM tournament_tables x "
        "JOIN matches m ON m.id = x.match_id WHERE x.tournament_id = t.id) "
        "FROM tournaments t WHERE t.id = ?", [tournament_id]).fetchone()
    return None if row is None else f"{row[0]}.{row[1]}"


def start_round(db: sqlite_utils.Database, tournament_id: int, number: int,
                slots: list[tuple[int, int | None, list[dict[str, Any]] | None, int]],
                ledger: Callable[[dict[str, Any]], Any], access_key: Callable[[], str]) -> None:
    """Round ``number``, its slots in order: a table (first entrant, second entrant, the match's
    sides, who deals first), made an ordinary match with the tournament's rules and PIN, or a
    bye (entrant, None, None, 0). RoundStarted if that round exists already (asked twice, or
    from two phones): nothing is made twice."""
    with writing(db):
        row = db.execute("SELECT rules, pin_hash, (SELECT COUNT(*) FROM tournament_rounds "
                         "WHERE tournament_id = ?) FROM tournaments WHERE id = ?",
                         [tournament_id, tournament_id]).fetchone()
        if row is None:
            raise Gone(tournament_id)
        rules, pin_hash, played = json.loads(row[0]), row[1], row[2]
        if played != number - 1:
            raise RoundStarted(number)
        order, byes, table_number = [], [], 0
        for first, second, sides, dealer in slots:
            if second is None:
                byes.append(first)
                order.append({"bye": first})
                continue
            table_number += 1
            match_id = _insert_match(db, rules, sides, dealer, pin_hash, ledger, access_key())
            db["tournament_tables"].insert({"tournament_id": tournament_id, "round": number,
                                            "number": table_number, "match_id": match_id,
                                            "first": first, "second": second})
            order.append({"table": table_number})
        db["tournament_rounds"].insert({"tournament_id": tournament_id, "number": number,
                                        "byes": json.dumps(byes), "slots": json.dumps(order),
                                        "created": now()})
        db.execute("UPDATE tournaments SET version = version + 1 WHERE id = ?", [tournament_id])


# -- Backup and restore ------------------------------------------------------------------------

class NotABackup(Exception):
    """An uploaded file that is not a store this app can restore."""


def backup_to(path: str, target: str) -> None:
    """Copy the live store at ``path`` into ``target`` with SQLite's backup API: consistent even
    while phones are saving, which copying the file (and its WAL) is not."""
    source = sqlite3.connect(path, timeout=10)
    destination = sqlite3.connect(target)
    try:
        with destination:
            source.backup(destination)
    finally:
        destination.close()
        source.close()


def _schema_at(level: int) -> dict[str, set[str]]:
    """The tables and columns a store has at a migration level: the migrations applied to an
    empty store in memory."""
    db = sqlite_utils.Database(sqlite3.connect(":memory:", isolation_level=None))
    db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
    for step in MIGRATIONS[:level]:
        step(db)
    return {name: {column.name for column in db[name].columns} for name in db.table_names()}


def check_backup(path: str) -> None:
    """Refuse, with what is wrong, anything but a whole companion store this version can run:
    SQLite's integrity check, the companion's tables and columns at the file's migration level
    (not newer than this version's), then, once brought to this version's schema, every match
    worked out by the rules engine. The file at ``path`` is brought to this version's schema."""
    plain = said("that file is not a Scopa companion backup")
    try:
        conn = sqlite3.connect(path)
        try:
            if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise NotABackup(said("the file is damaged (SQLite's integrity check fails)"))
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "migrations" not in tables:
                raise NotABackup(plain)
            level = conn.execute("SELECT COALESCE(MAX(version), 0) FROM migrations").fetchone()[0]
            columns = {name: {row[1] for row in conn.execute(f'PRAGMA table_info("{name}")')}
                       for name in tables}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        raise NotABackup(plain) from None
    if not isinstance(level, int) or not 1 <= level:
        raise NotABackup(plain)
    if level > len(MIGRATIONS):
        raise NotABackup(said("that backup was made by a newer version of the companion: update it first"))
    for table, needed in _schema_at(level).items():
        if not needed <= columns.get(table, set()):
            raise NotABackup(said("that file is not a Scopa companion backup (its {table} table is "
                                      "not the companion's)", table=table))
    from .matches import build
    db = connect(path)
    match_id = None
    try:
        migrate(db)
        for row in list(db.query("SELECT * FROM matches WHERE deleted IS NULL")):
            match_id = row["id"]
            build(_match(row), hand_rows(db, match_id))
    except Exception as problem:     # anything at all: the backup is refused, never served
        if match_id is None:
            raise NotABackup(said("it cannot be read ({problem})", problem=str(problem))) from None
        raise NotABackup(said("match {number} in it cannot be read ({problem})",
                              number=match_id, problem=str(problem))) from None
    finally:
        db.conn.close()


def keep_copy(path: str, folder: Path) -> Path:
    """Save the live store beside it before a restore, under a name no other copy has."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    for attempt in range(1000):
        target = folder / f"before-restore-{stamp}{f'-{attempt}' if attempt else ''}.sqlite"
        try:
            with open(target, "x"):       # claimed: no other restore writes here
                pass
        except FileExistsError:
            continue
        backup_to(path, str(target))
        return target
    raise OSError("no free name for the safety copy")


def restore_from(path: str, backup: str) -> Path:
    """Replace the live store at ``path`` with the backup file ``backup``, once it is checked
    whole, after saving the live store beside it (returned). The copy goes through SQLite's
    backup API into the live database, so other connections see either the old store or the
    new one."""
    check_backup(backup)
    keep = keep_copy(path, Path(path).parent)
    forget_built()
    source = sqlite3.connect(backup)
    destination = sqlite3.connect(path, timeout=30)
    try:
        source.backup(destination)
    finally:
        source.close()
        destination.close()
    db = connect(path)
    try:
        migrate(db)     # already done on the checked copy; kept for safety
    finally:
        db.conn.close()
    forget_built()
    return keep
