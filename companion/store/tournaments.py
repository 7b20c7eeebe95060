"""Tournaments as stored: a tournament's rules and entrants, its rounds, and its tables, each an
ordinary match. Standings are worked out from the tables' matches, never stored.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .db import MAX_ID, Store, new_id, now, parsed_match, reading, writing
from .known import player_key
from .ledger import MakeLedger
from .matches import Gone, insert_match
from .ratings import chances_by_name


class RoundStarted(Exception):
    """A round was asked for that another phone (or a double tap) started already."""


class TournamentChanged(Exception):
    """The tournament changed (a round started, an entrant came or went) since it was read."""


# The matches of the tournament tables an entrant withdrew from before they were over (each
# entrant's ``left``, tournaments.model): never played, so never "in play" in a list, though their
# matches never end. Read from the entrants' JSON, a restored file's other values read as none.
LEFT_TABLES = (
    "SELECT j.value FROM tournaments x, "
    "json_each(CASE WHEN json_valid(x.entrants) THEN x.entrants END) AS e, "
    "json_each(CASE WHEN e.type = 'object' THEN CASE WHEN json_type(e.value, '$.left') = 'array' "
    "THEN json_extract(e.value, '$.left') END END) AS j "
    "WHERE x.entrants LIKE '%\"left\"%' AND j.type = 'integer'")


def create_tournament(db: Store, name: str, format: str, rules: dict[str, Any],
                      entrants: list[dict[str, Any]], rounds: int | None, seeding: str,
                      pin_hash: str | None) -> int:
    with writing(db):
        table = db.table("tournaments")
        table.insert({"created": now(), "name": name, "format": format, "rules": json.dumps(rules),
                      "entrants": json.dumps(entrants), "rounds": rounds, "seeding": seeding,
                      "pin_hash": pin_hash, "version": 0})
        tournament_id = new_id(table)
        index_entrants(db, tournament_id, entrants)
        return tournament_id


def index_entrants(db: Store, tournament_id: int,
                   entrants: list[dict[str, Any]]) -> None:
    """Which players' names a tournament's entrants hold (``tournament_players``, by the key that
    makes two names one player): a rename finds its few tournaments without reading them all."""
    keys = {player_key(name) for e in entrants for name in (e["name"], *e["players"])}
    db.table("tournament_players").insert_all(
        ({"tournament_id": tournament_id, "key": key} for key in sorted(keys)), ignore=True)


def rename_entrants(db: Store, old_name: str, name: str) -> list[list[int]]:
    """A player renamed (or merged into another, ``name``): every tournament's entrants follow,
    so its next round seats the same player. Returns where a name changed, each as [tournament,
    entrant, player] (player -1: the entrant's own name), so a merge can be undone. Only the
    tournaments that name the player are read (``tournament_players``): a rename holds the write
    lock for as short as it can."""
    changed: list[list[int]] = []
    for tournament_id, entrants in db.execute(
            "SELECT id, entrants FROM tournaments WHERE id IN "
            "(SELECT tournament_id FROM tournament_players WHERE key = ?)",
            [player_key(old_name)]).fetchall():
        entrants = json.loads(entrants)
        before = len(changed)
        for number, entrant in enumerate(entrants):
            if len(entrant["players"]) == 1 and player_key(entrant["name"]) == player_key(old_name):
                entrant["name"] = name
                changed.append([tournament_id, number, -1])
            for seat, player in enumerate(entrant["players"]):
                if player_key(player) == player_key(old_name):
                    entrant["players"][seat] = name
                    changed.append([tournament_id, number, seat])
        if len(changed) > before:
            db.execute("UPDATE tournaments SET entrants = ?, version = version + 1 WHERE id = ?",
                       [json.dumps(entrants), tournament_id])
            index_entrants(db, tournament_id, entrants)
    return changed


def rename_entrants_at(db: Store, where: list[list[int]], now_called: str,
                       name: str) -> None:
    """The names at ``where`` (as ``rename_entrants`` returned them) that still read
    ``now_called`` read ``name`` again: a merge undone."""
    by_tournament: dict[int, list[tuple[int, int]]] = {}
    for tournament_id, number, seat in where:
        by_tournament.setdefault(tournament_id, []).append((number, seat))
    for tournament_id, places in by_tournament.items():
        row = db.execute("SELECT entrants FROM tournaments WHERE id = ?", [tournament_id]).fetchone()
        if row is None:
            continue
        entrants, changed = json.loads(row[0]), False
        for number, seat in places:
            if number >= len(entrants):
                continue
            entrant = entrants[number]
            if seat == -1 and player_key(entrant["name"]) == player_key(now_called):
                entrant["name"], changed = name, True
            elif 0 <= seat < len(entrant["players"]) and player_key(entrant["players"][seat]) == player_key(now_called):
                entrant["players"][seat], changed = name, True
        if changed:
            db.execute("UPDATE tournaments SET entrants = ?, version = version + 1 WHERE id = ?",
                       [json.dumps(entrants), tournament_id])
            index_entrants(db, tournament_id, entrants)


def tournament_rows(db: Store, before: int | None = None,
                    limit: int = 20) -> list[dict[str, Any]]:
    """Tournaments newest first, at most ``limit``, those older than ``before`` when given:
    a club's list costs the same after years of nights."""
    where, values = ("WHERE id < ? ", [before]) if before else ("", [])
    return [_tournament(row) for row in db.query(
        f"SELECT * FROM tournaments {where}ORDER BY id DESC LIMIT ?", [*values, limit])]


def _tournament(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "rules": json.loads(row["rules"]), "entrants": json.loads(row["entrants"])}


def tournament_state(db: Store, tournament_id: int) -> dict[str, Any] | None:
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
                   "chances": kept_chances(row["chances"]),
                   "match": parsed_match({"rules": row["m_rules"], "sides": row["m_sides"],
                                    "summary": row["m_summary"], "id": row["match_id"],
                                    "version": row["m_version"], "deleted": row["m_deleted"],
                                    "first_dealer": row["m_first_dealer"]})}
                  for row in db.query(
            "SELECT t.round, t.number, t.match_id, t.first, t.second, t.chances, m.rules AS m_rules, "
            "m.sides AS m_sides, m.summary AS m_summary, m.version AS m_version, "
            "m.deleted AS m_deleted, m.first_dealer AS m_first_dealer FROM tournament_tables t JOIN matches m ON m.id = t.match_id "
            "WHERE t.tournament_id = ? ORDER BY t.round, t.number", [tournament_id])]
    return {"tournament": _tournament(rows[0]), "rounds": rounds, "tables": tables}


def tournament_version(db: Store, tournament_id: int) -> str | None:
    """What changes when anything on a tournament's board changes: its own version and the
    versions of its tables' matches (a board polls this)."""
    if not 0 < tournament_id <= MAX_ID:
        return None
    row = db.execute(
        "SELECT t.version, (SELECT COALESCE(SUM(m.version), 0) FROM tournament_tables x "
        "JOIN matches m ON m.id = x.match_id WHERE x.tournament_id = t.id) "
        "FROM tournaments t WHERE t.id = ?", [tournament_id]).fetchone()
    return None if row is None else f"{row[0]}.{row[1]}"


def set_entrants(db: Store, tournament_id: int, version: int,
                 entrants: list[dict[str, Any]]) -> None:
    """The tournament's entrants now (one joined, withdrew or came back), written only if the
    tournament is still at ``version``, as it was read: TournamentChanged otherwise (a round
    started meanwhile, or another change), Gone if it is no more."""
    with writing(db):
        row = db.execute("SELECT version FROM tournaments WHERE id = ?", [tournament_id]).fetchone()
        if row is None:
            raise Gone(tournament_id)
        if (row[0] or 0) != version:
            raise TournamentChanged(tournament_id)
        db.execute("UPDATE tournaments SET entrants = ?, version = version + 1 WHERE id = ?",
                   [json.dumps(entrants), tournament_id])
        index_entrants(db, tournament_id, entrants)


Slot = tuple[Any, ...]


def start_round(db: Store, tournament_id: int, number: int, slots: list[Slot],
                ledger: MakeLedger, access_key: Callable[[], str], version: int | None = None) -> None:
    """Round ``number``, its slots in order: ``("table", first entrant, second entrant, the
    match's sides, who deals first)``, made an ordinary match with the tournament's rules and
    PIN; ``("bye", entrant)``; ``("rest", entrant)``, who has no game (their opponent withdrew: a forfeit win);
    ``("empty",)``, a knockout's slot both of whose entrants withdrew. Each table keeps its
    sides' chances to win from the ratings as the round starts (``chances``): what its pages
    show until it begins, whatever results move the ratings after. RoundStarted if that round
    exists already (asked twice, or from two phones): nothing is made twice. TournamentChanged
    if the tournament is no longer at ``version`` (given: the one its slots were paired from),
    an entrant having joined or left meanwhile."""
    with writing(db):
        row = db.execute("SELECT rules, pin_hash, (SELECT COUNT(*) FROM tournament_rounds "
                         "WHERE tournament_id = ?), version FROM tournaments WHERE id = ?",
                         [tournament_id, tournament_id]).fetchone()
        if row is None:
            raise Gone(tournament_id)
        rules, pin_hash, played = json.loads(row[0]), row[1], row[2]
        if played != number - 1:
            raise RoundStarted(number)
        if version is not None and (row[3] or 0) != version:
            raise TournamentChanged(tournament_id)
        order: list[dict[str, int]] = []
        byes, table_number = [], 0
        for kind, *given in slots:
            if kind in ("bye", "rest"):
                byes += given[:1] if kind == "bye" else []
                order.append({kind: given[0]})
                continue
            if kind == "empty":
                order.append({"empty": 1})
                continue
            first, second, sides, dealer = given
            table_number += 1
            match_id = insert_match(db, rules, sides, dealer, pin_hash, ledger, access_key())
            chances = chances_by_name(db, [side["players"] for side in sides])
            db.table("tournament_tables").insert({"tournament_id": tournament_id, "round": number,
                                            "number": table_number, "match_id": match_id,
                                            "first": first, "second": second,
                                            "chances": json.dumps(chances)})
            order.append({"table": table_number})
        db.table("tournament_rounds").insert({"tournament_id": tournament_id, "number": number,
                                        "byes": json.dumps(byes), "slots": json.dumps(order),
                                        "created": now()})
        db.execute("UPDATE tournaments SET version = version + 1 WHERE id = ?", [tournament_id])


def table_of(db: Store, match_id: int) -> dict[str, Any] | None:
    """The tournament table a match is, if it is one: its number, its round, the tournament's
    id and name, its sides' chances to win as its round started (None if it has none), and
    whether an entrant left it unfinished (``left``: it is not played). One read by the match's
    index: the match page asks it at every render."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = db.execute("SELECT t.number, t.round, n.id, n.name, t.chances, "
                     f"n.entrants LIKE '%\"left\"%' AND t.match_id IN ({LEFT_TABLES}) "
                     "FROM tournament_tables t JOIN tournaments n ON n.id = t.tournament_id "
                     "WHERE t.match_id = ?", [match_id]).fetchone()
    if row is None:
        return None
    return {**dict(zip(("table", "round", "tournament_id", "tournament"), row)),
            "chances": kept_chances(row[4]), "left": bool(row[5])}


def kept_chances(text: str | None) -> list[float] | None:
    """A table's kept chances (``tournament_tables.chances``): its two sides' shares, or None for
    a table without them, or for anything else a restored file may hold there (shown as none,
    never a 500).

    >>> kept_chances("[0.56, 0.44]"), kept_chances(None), kept_chances("[1, 2]"), kept_chances("{")
    ([0.56, 0.44], None, None, None)
    """
    try:
        chances = json.loads(text) if isinstance(text, str) and len(text) < 100 else None
    except ValueError:
        return None
    if (isinstance(chances, list) and len(chances) == 2
            and all(isinstance(c, (int, float)) and not isinstance(c, bool) and 0 <= c <= 1 for c in chances)):
        return [float(c) for c in chances]
    return None


def last_casual_match(db: Store, among: list[int] | None = None) -> dict[str, Any] | None:
    """The newest match not deleted that is no tournament's table (a table's players are the
    tournament's pairing, not a group that sat down to play): "last time", as the new match
    page offers it. Archived or not: out of the list is not out of mind. ``among``: only
    these matches, the last of the list that is such a match (a phone's, in the order it
    played them), None if none is."""
    casual = "deleted IS NULL AND NOT EXISTS (SELECT 1 FROM tournament_tables t WHERE t.match_id = m.id)"
    if among is None:
        rows = list(db.query(f"SELECT * FROM matches m WHERE {casual} ORDER BY id DESC LIMIT 1"))
        return parsed_match(rows[0]) if rows else None
    ids = [m for m in among if 0 < m <= MAX_ID][-20:]
    if not ids:
        return None
    found = {row["id"]: row for row in db.query(
        f"SELECT * FROM matches m WHERE {casual} AND id IN ({', '.join('?' * len(ids))})", ids)}
    last = next((m for m in reversed(ids) if m in found), None)
    return None if last is None else parsed_match(found[last])


def listed_rows(db: Store, over: bool | None = None, before: int | None = None,
                limit: int = 20, archived: bool = False) -> list[dict[str, Any]]:
    """The matches a list shows, newest first (as ``match_rows`` reads them), a tournament's
    tables as one row: its newest table in the list, with ``tournament`` saying how its night
    stands ({id, name, round, tables, playing}: its latest round, that round's tables and those
    still in play); ``tournament`` None for any other match. Finished, a tournament shows only
    once no table of it is in play (it is listed in play until then); a table an entrant left
    unfinished is never in play (LEFT_TABLES). Two reads, each a page's
    worth: the rows, stopping at ``limit`` by the matches' index (a table whose tournament has a
    newer one in the same list is skipped, so a tournament is never listed twice, across pages
    too); then the tournaments among them."""
    where, values = ["m.archived = ?", "m.deleted IS NULL"], [int(archived)]
    same = "y.archived = m.archived AND y.deleted IS NULL"
    if over is not None:
        where.append("m.over = ?")
        values.append(int(over))
        same += " AND y.over = m.over"
        if not over:
            where.append(f"m.id NOT IN ({LEFT_TABLES})")
            same += f" AND y.id NOT IN ({LEFT_TABLES})"
    if before is not None:
        where.append("m.id < ?")
        values.append(before)
    newest = ("t.tournament_id IS NULL OR NOT EXISTS (SELECT 1 FROM tournament_tables x JOIN matches y "
              f"ON y.id = x.match_id WHERE x.tournament_id = t.tournament_id AND y.id > m.id AND {same})")
    where.append(f"({newest})")
    if over:
        where.append("(t.tournament_id IS NULL OR NOT EXISTS (SELECT 1 FROM tournament_tables x "
                     "JOIN matches y ON y.id = x.match_id WHERE x.tournament_id = t.tournament_id "
                     f"AND y.over = 0 AND y.deleted IS NULL AND y.id NOT IN ({LEFT_TABLES})))")
    with reading(db):
        rows = [parsed_match(row) for row in db.query(
            "SELECT m.*, t.tournament_id AS in_tournament FROM matches m "
            "LEFT JOIN tournament_tables t ON t.match_id = m.id "
            f"WHERE {' AND '.join(where)} ORDER BY m.id DESC LIMIT ?", [*values, limit])]
        ids = sorted({row["in_tournament"] for row in rows if row["in_tournament"]})
        nights = {} if not ids else {row[0]: dict(zip(("id", "name", "round", "tables", "playing"), row))
                                     for row in db.execute(
            f"SELECT n.id, n.name, r.round, COUNT(*), SUM(m.over = 0 AND m.id NOT IN ({LEFT_TABLES})) "
            "FROM tournaments n "
            "JOIN tournament_tables r ON r.tournament_id = n.id AND r.round = "
            "(SELECT MAX(round) FROM tournament_tables WHERE tournament_id = n.id) "
            f"JOIN matches m ON m.id = r.match_id WHERE n.id IN ({', '.join('?' * len(ids))}) "
            "GROUP BY n.id", ids)}
    return [{**row, "tournament": nights.get(row["in_tournament"])} for row in rows]
