"""Players as stored: the people who sit at the tables, known across matches by their name, their
records added up from their seats, and their renames and merges.

A player merged into another keeps its row (``merged_into``), so its number is never given to
someone else and an old link finds whom it became. Every rename and merge is logged with what it
moved (``player_changes``: for a merge, the seats that were the merged player's), so nothing is
lost to one: it can be undone while nothing depends on it.
"""

from __future__ import annotations

import json
from typing import Any

from ..names import tidy
from ..rules.said import Said, said
from .db import MAX_ID, Store, now, parsed_match, writing
from .known import player_key
from .ledger import MakeLedger
from .matches import Gone, rename_seat
from .ratings import BY_RATING, rerate_matches
from .seats import SEAT_SUMS
from .tournaments import rename_entrants, rename_entrants_at


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


def find_players(db: Store, typed: str, leave_out: int,
                 limit: int = 20) -> list[dict[str, Any]]:
    """At most ``limit`` known players (id, name) whose name holds what was typed, in any case,
    by name; never ``leave_out``. A merge picks from these, not from a list of every player."""
    key = player_key(typed)
    if not key:
        return []
    pattern = "%" + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return [dict(row) for row in db.query(
        "SELECT id, name FROM players WHERE merged_into IS NULL AND id != ? "
        "AND key LIKE ? ESCAPE '\\' ORDER BY key = ? DESC, name COLLATE NOCASE LIMIT ?",
        [leave_out, pattern, key, limit])]


def player_names(db: Store, limit: int = 500) -> list[str]:
    """Known players' names, those who sat most often first: what a name field offers. Only
    players with a seat in a match that is not deleted: a deleted match's seats leave with it,
    so the names a spammer made leave the suggestions when the organiser deletes the spam. Nor a
    look-alike a store kept from before (``looks_like``, migration 18): typed, it is the player
    it reads as.

    Counted from ``player_totals`` (each player's seats per variant, kept by triggers), not the
    seats: a deleted match's seats leave the seats table (``trash``) and its totals with them,
    and the seats of 5,000 matches cost every new match page 15 ms (issue 41)."""
    return [row[0] for row in db.execute(
        "SELECT p.name FROM players p JOIN player_totals t ON t.player_id = p.id "
        "WHERE p.merged_into IS NULL AND p.looks_like IS NULL GROUP BY p.id HAVING SUM(t.seats) > 0 "
        "ORDER BY SUM(t.seats) DESC, p.name LIMIT ?", [limit]).fetchall()]


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


def records(db: Store, player_id: int | None = None, variant: str | None = None,
            since: str | None = None, page: tuple[int, int] | None = None,
            by_rating: bool = False) -> list[dict[str, Any]]:
    """Each player's record (or one player's): ``matches``, ``won`` and ``drawn`` count finished
    matches, ``playing`` those still in play; the hands' figures (``hands``, ``points``,
    ``sweeps``, the hands in which their side took each item, ``best`` and ``worst``) count
    every counted hand. Only the matches of ``variant`` and those started at ``since`` or later,
    when given.

    Read from the totals the store keeps for each player and variant (``player_totals``, kept
    by triggers on the seats), a few rows per player however many matches were played; a period
    (``since``) adds up the seats of its matches (``records_from_seats``).

    ``page`` (offset, limit): a page of the leaderboard, in its order (most won, best share won,
    most points per hand, then by name), so that a club of thousands of players is never read
    whole; ``by_rating``, the highest rating first (``ratings.BY_RATING``), then in that order."""
    if since:
        return records_from_seats(db, player_id, variant, since, page, by_rating)
    where, values = ["1"], []
    if variant:
        where.append("s.variant = ?")
        values.append(variant)
    return _summed(db, "player_totals s", "SUM(s.seats - s.over)", " AND ".join(where), values,
                   player_id, page, by_rating and (variant or ""))


def records_from_seats(db: Store, player_id: int | None = None,
                       variant: str | None = None, since: str | None = None,
                       page: tuple[int, int] | None = None, by_rating: bool = False) -> list[dict[str, Any]]:
    """``records`` added up from the seats themselves: for a period, and what the kept totals
    are checked against."""
    where, values = _filters(variant, since)
    dated = " JOIN matches m ON m.id = s.match_id" if since else ""
    return _summed(db, "seats s" + dated, "SUM(1 - s.over)", where, values, player_id, page,
                   by_rating and (variant or ""))


def _summed(db: Store, source: str, playing: str, where: str, values: list[Any],
            player_id: int | None, page: tuple[int, int] | None,
            rated: str | bool = False) -> list[dict[str, Any]]:
    """The records grouped by player from ``source`` (the seats, or the kept totals: both have
    the seats' columns, added up), in the leaderboard's order when a page is asked; ``rated``
    (a variant, "" for all of them, or False): the highest rating there first."""
    values = list(values)
    if player_id is not None:
        where += " AND s.player_id = ?"
        values.append(player_id)
    sums = ", ".join(f"SUM(s.{name}) AS {name}" for name in SEAT_SUMS)
    order = ""
    if page:
        offset, limit = page
        order = _RANKED if rated is False else BY_RATING + _RANKED.removeprefix(" ORDER BY")
        values += [limit, offset] if rated is False else [rated, limit, offset]
    return [dict(row) for row in db.query(
        "SELECT p.id, p.name, SUM(s.over) AS matches, SUM(s.won) AS won, SUM(s.drawn) AS drawn, "
        f"{playing} AS playing, {sums}, MAX(s.best) AS best, MIN(s.worst) AS worst "
        f"FROM {source} JOIN players p ON p.id = s.player_id "
        f"WHERE {where} GROUP BY s.player_id{order}", values)]


# The sums written out, not by their names: inside an expression SQLite would read "won" as
# one seat's column rather than the sum named so. The kept totals have the seats' columns, so
# this one order serves both.
_RANKED = (" ORDER BY SUM(s.won) DESC, COALESCE(1.0 * SUM(s.won) / NULLIF(SUM(s.over), 0), 0) DESC,"
           " COALESCE(1.0 * SUM(s.points) / NULLIF(SUM(s.hands), 0), 0) DESC, p.name COLLATE NOCASE, p.id"
           " LIMIT ? OFFSET ?")


def head_to_head(db: Store, player_id: int, variant: str | None = None,
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


def extreme_hand(db: Store, player_id: int, best: bool, variant: str | None = None,
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


def player_match_rows(db: Store, player_id: int, variant: str | None = None,
                      since: str | None = None, limit: int = 10) -> list[dict[str, Any]]:
    """The player's last matches, newest first."""
    where, values = _filters(variant, since)
    return [parsed_match(row) for row in db.query(
        f"SELECT m.* FROM seats s JOIN matches m ON m.id = s.match_id "
        f"WHERE s.player_id = ? AND {where} ORDER BY m.id DESC LIMIT ?",
        [player_id, *values, limit])]


def variants_played(db: Store) -> list[str]:
    """The variants someone has a seat in, from the kept totals (a few rows per player)."""
    return [row[0] for row in db.execute("SELECT DISTINCT variant FROM player_totals ORDER BY variant")]


def _active(db: Store, player_id: int) -> dict[str, Any]:
    rows = list(db.query("SELECT * FROM players WHERE id = ? AND merged_into IS NULL", [player_id]))
    if not rows:
        raise Gone(player_id)
    return rows[0]


def _reseat(db: Store, old: int, new: int, old_name: str, name: str,
            ledger: MakeLedger) -> tuple[list[list[int]], list[list[int]]]:
    """Every match ``old`` sat at now seats ``new``, called ``name`` (each match's sides and
    outcome follow), and so do the tournaments' entrants. Returns the seats moved, each as
    [match, side, seat], and where the entrants were renamed."""
    entrants = rename_entrants(db, old_name, name)
    seats = db.execute("SELECT match_id, side, seat FROM seats WHERE player_id = ?", [old]).fetchall()
    db.execute("UPDATE seats SET player_id = ? WHERE player_id = ?", [new, old])
    for match_id, side, seat in seats:
        rename_seat(db, match_id, side, seat, name, ledger)
    return [list(place) for place in seats], entrants


def _log(db: Store, kind: str, player_id: int, into: int | None, old_name: str,
         new_name: str, details: dict[str, Any]) -> None:
    db.table("player_changes").insert({"kind": kind, "player_id": player_id, "into_id": into,
                                 "old_name": old_name, "new_name": new_name,
                                 "details": json.dumps(details), "created": now()})


def _name_free(db: Store, name: str, player_id: int) -> None:
    taken = list(db.query("SELECT * FROM players WHERE key = ? AND merged_into IS NULL AND id != ?",
                          [player_key(name), player_id]))
    if taken:
        raise NameTaken(taken[0])


def rename_player(db: Store, player_id: int, name: str,
                  ledger: MakeLedger) -> None:
    """Call a player by another name, in every match they played, and keep it in the player's
    log. NameTaken if another player has it (merge them instead); Gone if there is no such
    player."""
    with writing(db):
        row = _active(db, player_id)
        _name_free(db, name, player_id)
        name = tidy(name)
        if row["name"] == name:
            return
        db.execute("UPDATE players SET name = ?, key = ?, looks_like = NULL WHERE id = ?",
                   [name, player_key(name), player_id])
        _reseat(db, player_id, player_id, row["name"], name, ledger)
        _log(db, "rename", player_id, None, row["name"], name, {})


def merge_players(db: Store, player_id: int, into: int,
                  ledger: MakeLedger) -> None:
    """One person entered as two players: ``player_id``'s matches become ``into``'s, under
    ``into``'s name. PlayedTogether if they sat at one match; Gone if either is not there.
    The log keeps which seats were ``player_id``'s, so the merge can be undone."""
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
        before = [row[0] for row in db.execute("SELECT id FROM players WHERE merged_into = ?",
                                               [player_id]).fetchall()]
        seats, entrants = _reseat(db, player_id, into, merged["name"], target["name"], ledger)
        rerate_matches(db, [match_id for match_id, _side, _seat in seats])
        db.execute("UPDATE players SET merged_into = ? WHERE id = ? OR merged_into = ?",
                   [into, player_id, player_id])
        _log(db, "merge", player_id, into, merged["name"], target["name"],
             {"seats": seats, "merged": before, "entrants": entrants})


# -- The log of renames and merges, and undoing one -----------------------------------------------

class CannotUndo(Exception):
    """A rename or merge that can no longer be undone: ``said`` says why."""

    def __init__(self, why: Said):
        super().__init__(why)
        self.said = why


def _blocker(db: Store, change: dict[str, Any]) -> Said | None:
    """Why this change cannot be undone now, or None. It can while nothing depends on it: no
    later rename or merge of either player stands, and the old name is nobody else's."""
    if change["undone"]:
        return said("this change was undone already")
    players = [change["player_id"], change["into_id"] or change["player_id"]]
    later = db.execute("SELECT 1 FROM player_changes WHERE id > ? AND undone IS NULL AND "
                       "(player_id IN (?, ?) OR into_id IN (?, ?)) LIMIT 1",
                       [change["id"], *players, *players]).fetchone()
    if later:
        return said("a later rename or merge of these players must be undone first")
    if db.execute("SELECT 1 FROM players WHERE key = ? AND merged_into IS NULL AND id != ?",
                  [player_key(change["old_name"]), change["player_id"]]).fetchone():
        return said("another player is now called {name}", name=change["old_name"])
    return None


def player_changes(db: Store, player_id: int, limit: int = 10) -> list[dict[str, Any]]:
    """The player's last renames and merges (those merged into them included), newest first,
    each with ``blocked``: why it cannot be undone now, or None."""
    rows = [dict(row) for row in db.query(
        "SELECT id, kind, player_id, into_id, old_name, new_name, created, undone "
        "FROM player_changes WHERE player_id = ? OR into_id = ? ORDER BY id DESC LIMIT ?",
        [player_id, player_id, limit])]
    return [{**row, "blocked": _blocker(db, row)} for row in rows]


def undo_change(db: Store, change_id: int, ledger: MakeLedger) -> dict[str, Any]:
    """Undo a rename (the old name back, in every match) or a merge (the seats that were the
    merged player's back to them, under their name; the players merged into them before, theirs
    again). Returns the change; Gone if there is none; CannotUndo, with why, when something
    depends on it."""
    with writing(db):
        rows = [dict(row) for row in db.query("SELECT * FROM player_changes WHERE id = ?",
                                              [change_id])] if 0 < change_id <= MAX_ID else []
        if not rows:
            raise Gone(change_id)
        change = rows[0]
        why = _blocker(db, change)
        if why:
            raise CannotUndo(why)
        details = json.loads(change["details"])
        player_id = change["player_id"]
        if change["kind"] == "rename":
            db.execute("UPDATE players SET name = ?, key = ? WHERE id = ?",
                       [change["old_name"], player_key(change["old_name"]), player_id])
            _reseat(db, player_id, player_id, change["new_name"], change["old_name"], ledger)
        else:
            _unmerge(db, change, details, ledger)
        db.execute("UPDATE player_changes SET undone = ? WHERE id = ?", [now(), change_id])
        return change


def _unmerge(db: Store, change: dict[str, Any], details: dict[str, Any],
             ledger: MakeLedger) -> None:
    player_id, into, name = change["player_id"], change["into_id"], change["old_name"]
    now_called = db.execute("SELECT name FROM players WHERE id = ?", [into]).fetchone()[0]
    db.execute("UPDATE players SET merged_into = NULL WHERE id = ?", [player_id])
    for merged in details["merged"]:
        db.execute("UPDATE players SET merged_into = ? WHERE id = ? AND merged_into = ?",
                   [player_id, merged, into])
    for match_id, side, seat in details["seats"]:
        moved = db.execute("UPDATE seats SET player_id = ? WHERE match_id = ? AND side = ? AND seat = ? "
                           "AND player_id = ?", [player_id, match_id, side, seat, into]).rowcount
        if moved:           # a match deleted since has no seats left
            rename_seat(db, match_id, side, seat, name, ledger)
    rename_entrants_at(db, details["entrants"], now_called, name)
    rerate_matches(db, [match_id for match_id, _side, _seat in details["seats"]])
