"""Players as stored: the people who sit at the tables, known across matches by their name, their
records added up from their seats, and their renames and merges.

A player merged into another keeps its row (``merged_into``), so its number is never given to
someone else and an old link finds whom it became.
"""

from __future__ import annotations

from typing import Any

import sqlite_utils

from ..names import tidy
from .db import MakeLedger, parsed_match, writing
from .matches import Gone, rename_seat
from .seats import SEAT_SUMS, player_key
from .tournaments import rename_entrants


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
            since: str | None = None, page: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """Each player's record (or one player's), from the seats alone: ``matches``, ``won`` and
    ``drawn`` count finished matches, ``playing`` those still in play; the hands' figures
    (``hands``, ``points``, ``sweeps``, the hands in which their side took each item, ``best``
    and ``worst``) count every counted hand. Only the matches of ``variant`` and those started
    at ``since`` or later, when given.

    ``page`` (offset, limit): a page of the leaderboard, in its order (``players.records.ranked``
    says it: most won, best share won, most points per hand, then by name), so that a club of
    thousands of players is never read whole."""
    where, values = _filters(variant, since)
    if player_id is not None:
        where += " AND s.player_id = ?"
        values.append(player_id)
    sums = ", ".join(f"SUM(s.{name}) AS {name}" for name in SEAT_SUMS)
    dated = "JOIN matches m ON m.id = s.match_id " if since else ""
    order = ""
    if page:
        offset, limit = page
        order = _RANKED
        values += [limit, offset]
    return [dict(row) for row in db.query(
        "SELECT p.id, p.name, SUM(s.over) AS matches, SUM(s.won) AS won, SUM(s.drawn) AS drawn, "
        f"SUM(1 - s.over) AS playing, {sums}, MAX(s.best) AS best, MIN(s.worst) AS worst "
        f"FROM seats s {dated}JOIN players p ON p.id = s.player_id "
        f"WHERE {where} GROUP BY s.player_id{order}", values)]


# The sums written out, not by their names: inside an expression SQLite would read "won" as
# one seat's column rather than the sum named so.
_RANKED = (" ORDER BY SUM(s.won) DESC, COALESCE(1.0 * SUM(s.won) / NULLIF(SUM(s.over), 0), 0) DESC,"
           " COALESCE(1.0 * SUM(s.points) / NULLIF(SUM(s.hands), 0), 0) DESC, p.key, p.id"
           " LIMIT ? OFFSET ?")


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
    return [parsed_match(row) for row in db.query(
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
            ledger: MakeLedger) -> None:
    """Every match ``old`` sat at now seats ``new``, called ``name`` (each match's sides and
    outcome follow), and so do the tournaments' entrants."""
    rename_entrants(db, old_name, name)
    seats = db.execute("SELECT match_id, side, seat FROM seats WHERE player_id = ?", [old]).fetchall()
    db.execute("UPDATE seats SET player_id = ? WHERE player_id = ?", [new, old])
    for match_id, side, seat in seats:
        rename_seat(db, match_id, side, seat, name, ledger)


def rename_player(db: sqlite_utils.Database, player_id: int, name: str,
                  ledger: MakeLedger) -> None:
    """Call a player by another name, in every match they played. NameTaken if another player
    has it (merge them instead); Gone if there is no such player."""
    with writing(db):
        row = _active(db, player_id)
        taken = list(db.query("SELECT * FROM players WHERE key = ? AND merged_into IS NULL AND id != ?",
                              [player_key(name), player_id]))
        if taken:
            raise NameTaken(taken[0])
        name = tidy(name)
        if row["name"] == name:
            return
        db.execute("UPDATE players SET name = ?, key = ? WHERE id = ?",
                   [name, player_key(name), player_id])
        _reseat(db, player_id, player_id, row["name"], name, ledger)


def merge_players(db: sqlite_utils.Database, player_id: int, into: int,
                  ledger: MakeLedger) -> None:
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
