"""Deleted matches: out of every list and every record at once, kept a day so the organiser can
bring one back from the *Deleted* list, then gone for good.

A deleted match keeps its row (its id is never given to another match) with its sides, summary,
PIN and access key; its hands stay, marked deleted with it; its seats leave the seats table (the
records add up seats alone) and wait in the row's ``trash``, with the ids of the hands it took.
After ``KEPT``, ``purge_deleted`` empties the row and removes the hands, as a delete did before.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable

from ..rules.said import Said, said
from .db import MAX_ID, Store, now, parsed_match, writing
from .known import player_row
from .ledger import MakeLedger
from .matches import Gone, InTournament, match_version, rename_seat
from .ratings import rerate_matches

KEPT = timedelta(days=1)
AT_ONCE = 100       # matches one request deletes or brings back (a page lists at most 40)


class CannotRestore(Exception):
    """A deleted match that cannot come back as it was: ``said`` says why."""

    def __init__(self, why: Said):
        super().__init__(why)


def _since(moment: datetime | None = None) -> str:
    """The oldest deletion still kept, in the stored form (ISO, UTC)."""
    return ((moment or datetime.now(timezone.utc)) - KEPT).isoformat(timespec="seconds")


class MatchChanged(Exception):
    """The match changed (another phone's hand, an edit, a rematch) since the version a delete
    was confirmed at: nothing was deleted."""


def delete_match(db: Store, match_id: int, version: int | None = None) -> None:
    """Delete a match: gone from the lists and the records now, kept a day for the organiser.
    Only at ``version``, if given (the one the player confirmed the delete at), checked in the
    delete's own transaction: another phone's write lands before it (MatchChanged) or after it,
    never between the check and the delete. InTournament for a tournament's table (its result
    makes the standings); Gone if there is no such match (or it was deleted already)."""
    with writing(db):
        at = match_version(db, match_id)          # None past MAX_ID too, which SQLite cannot bind
        if at is None:
            raise Gone(match_id)
        if version is not None and at != version:
            raise MatchChanged(match_id)
        _delete(db, match_id)
        rerate_matches(db, [match_id])      # out of its players' ratings too
        _purge(db)


def delete_matches(db: Store, match_ids: Iterable[int]) -> list[int]:
    """Delete several matches at once (the organiser's tidy-up after spam), each as
    ``delete_match`` does, in one transaction: the ids deleted. A tournament's table, or a
    match gone already, is left as it is."""
    deleted = []
    with writing(db):
        for match_id in dict.fromkeys(match_ids):
            if not 0 < match_id <= MAX_ID:
                continue
            try:
                _delete(db, match_id)
            except (InTournament, Gone):
                continue
            deleted.append(match_id)
        rerate_matches(db, deleted)         # the ratings worked out again once, for them all
        _purge(db)
    return deleted


def _delete(db: Store, match_id: int) -> None:
    table = db.execute("SELECT t.number, n.name FROM tournament_tables t JOIN tournaments n "
                       "ON n.id = t.tournament_id WHERE t.match_id = ?", [match_id]).fetchone()
    if table:
        raise InTournament(*table)
    stamp = now()
    hands = [row[0] for row in db.execute(
        "SELECT id FROM hands WHERE match_id = ? AND deleted IS NULL", [match_id]).fetchall()]
    seats = [dict(row) for row in db.query("SELECT * FROM seats WHERE match_id = ?", [match_id])]
    changed = db.execute("UPDATE matches SET deleted = ?, trash = ?, version = version + 1 "
                         "WHERE id = ? AND deleted IS NULL",
                         [stamp, json.dumps({"hands": hands, "seats": seats}), match_id]).rowcount
    if not changed:
        raise Gone(match_id)
    db.execute("UPDATE hands SET deleted = ? WHERE match_id = ? AND deleted IS NULL", [stamp, match_id])
    db.execute("DELETE FROM seats WHERE match_id = ?", [match_id])
    # The match it was the rematch of offers a new one again, on every phone showing it.
    db.execute("UPDATE matches SET followed_by = NULL, version = version + 1 WHERE followed_by = ?",
               [match_id])


def deleted_matches(db: Store) -> list[dict[str, Any]]:
    """The matches deleted in the last day, newest deletion first: what the organiser may bring
    back."""
    return [parsed_match(row) for row in db.query(
        "SELECT * FROM matches WHERE deleted >= ? AND trash IS NOT NULL ORDER BY deleted DESC, id DESC",
        [_since()])]


def restore_match(db: Store, match_id: int, ledger: MakeLedger) -> None:
    """Bring a match deleted in the last day back as it was: its hands, its seats (each player's
    record counts it again; a player merged since is seated as whom they became), the rematch
    link of the match it follows. Gone if it was not deleted, or too long ago; CannotRestore
    when two of its players have become one since."""
    with writing(db):
        _restore(db, match_id, ledger)
        rerate_matches(db, [match_id])      # in its players' ratings again, where it finished


def restore_matches(db: Store, match_ids: Iterable[int],
                    ledger: MakeLedger) -> tuple[list[int], list[tuple[int, Said]]]:
    """Bring several deleted matches back at once (the Undo of ``delete_matches``), each as
    ``restore_match`` does, in one transaction: the ids back, and those that could not come
    back with why."""
    back: list[int] = []
    refused: list[tuple[int, Said]] = []
    with writing(db):
        for match_id in dict.fromkeys(match_ids):
            try:
                _restore(db, match_id, ledger)
            except Gone:
                refused.append((match_id, said("it was deleted more than a day ago")))
                continue
            except CannotRestore as why:
                refused.append((match_id, why.args[0]))
                continue
            back.append(match_id)
        rerate_matches(db, back)
    return back, refused


def _restore(db: Store, match_id: int, ledger: MakeLedger) -> None:
    rows = list(db.query("SELECT * FROM matches WHERE id = ? AND deleted >= ? AND trash IS NOT NULL",
                         [match_id, _since()])) if 0 < match_id <= MAX_ID else []
    if not rows:
        raise Gone(match_id)
    row, trash = rows[0], json.loads(rows[0]["trash"])
    seated = []
    for seat in trash["seats"]:
        player = player_row(db, seat["player_id"])
        if player is None:
            raise Gone(match_id)
        seated.append((seat, player))
    players = [player["id"] for _seat, player in seated]
    if len(set(players)) < len(players):
        twice = next(p for _s, p in seated if players.count(p["id"]) > 1)
        raise CannotRestore(said("two of its players were merged into {name} since", name=twice["name"]))
    db.execute("UPDATE matches SET deleted = NULL, trash = NULL, version = version + 1 WHERE id = ?",
               [match_id])
    if trash["hands"]:
        db.execute(f"UPDATE hands SET deleted = NULL WHERE match_id = ? AND id IN "
                   f"({', '.join('?' * len(trash['hands']))})", [match_id, *trash["hands"]])
    sides = json.loads(row["sides"])
    for seat, player in seated:
        db.table("seats").insert({**seat, "player_id": player["id"]})
        if sides[seat["side"]]["players"][seat["seat"]] != player["name"]:    # renamed since
            rename_seat(db, match_id, seat["side"], seat["seat"], player["name"], ledger)
    if row["follows"]:
        db.execute("UPDATE matches SET followed_by = ?, version = version + 1 "
                   "WHERE id = ? AND followed_by IS NULL AND deleted IS NULL", [match_id, row["follows"]])


def purge_deleted(db: Store) -> int:
    """The matches deleted more than a day ago, gone for good: how many."""
    if db.execute("SELECT 1 FROM matches WHERE trash IS NOT NULL AND deleted < ? LIMIT 1",
                  [_since()]).fetchone() is None:
        return 0
    with writing(db):
        return _purge(db)


def _purge(db: Store) -> int:
    old = [row[0] for row in db.execute("SELECT id FROM matches WHERE trash IS NOT NULL AND deleted < ?",
                                        [_since()]).fetchall()]
    for match_id in old:
        db.execute("DELETE FROM hands WHERE match_id = ?", [match_id])
        db.execute("DELETE FROM hand_changes WHERE match_id = ?", [match_id])
        db.execute("DELETE FROM change_phones WHERE match_id = ?", [match_id])
        db.execute("UPDATE matches SET sides = '[]', summary = NULL, pin_hash = NULL, access_key = NULL, "
                   "trash = NULL WHERE id = ?", [match_id])
    return len(old)
