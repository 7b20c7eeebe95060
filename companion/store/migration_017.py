"""Migration 17, frozen (issue 44): a team's name cut before issue 35 written whole. The names and
the keeping of a summary of that day are copied here (``keep_summary``: the seats as m008 keeps
them, the match placed for the ratings as m013 places it), so a later change to the live ones
changes no released migration; migration 19 keeps its summaries the same way, from here. The
summary itself is the model's ``Ledger``'s, handed in: the rules of the game are not the
store's. The ratings are the live code's to work out: a migration that changes what they are
worked out from asks for them (``rating_work``, m015), as a write does, and the start-up works
them out after the migrations (``store.init_app``; a restore rates every match again)."""

from __future__ import annotations

import json
from typing import Any, Iterable

import sqlite_utils

from .ledger import MakeLedger
from .migration_004 import hand_rows, parsed_match, set_summary
from .migration_008 import keep_seats, now
from .migration_013 import places
from .migration_names import tidy


def team_name(players: Iterable[str]) -> str:
    """A team's name when none is given, as issue 35 made it: its players' names whole."""
    return " & ".join(tidy(name) for name in players)


def team_name_cut(players: Iterable[str]) -> str:
    """A team's name as the companion made it before issue 35: its players' names cut to 24
    characters, the longest first, letter by letter, with a full stop.

    >>> team_name_cut(["Jean-Baptiste", "Bartolomeo Giangiacomo"]), team_name_cut(["Anna", "Bruno"])
    ('Jean-Bapt. & Bartolomeo.', 'Anna & Bruno')
    """
    names = [tidy(name) for name in players]
    room = 24 - len(" & ") * (len(names) - 1)
    while sum(map(len, names)) > room:
        longest = max(range(len(names)), key=lambda i: len(names[i]))
        name = names[longest]
        names[longest] = (name[:-2] if name.endswith(".") else name[:-1]).rstrip(" -") + "."
    return " & ".join(names)


def keep_summary(db: sqlite_utils.Database, match_id: int, summary: dict[str, Any]) -> None:
    """The match's new summary, each side's figures in its seats, and, if whether it is over or
    its places changed, its place in the order of ratings kept and the ratings from it on asked
    for. A match finishing now finishes now; one corrected keeps the moment it finished."""
    set_summary(db, match_id, summary)
    keep_seats(db, match_id, summary)
    row = db.execute("SELECT finished, places FROM rated_matches WHERE match_id = ?", [match_id]).fetchone()
    new = places(summary)
    old = json.loads(row[1]) if row and row[1] else None
    if new == old:
        return
    if new is None:                 # no longer finished: out of the order until it ends again
        finished = row[0]
        db.execute("UPDATE rated_matches SET places = NULL WHERE match_id = ?", [match_id])
    else:
        finished = row[0] if old is not None else now()
        db.execute("INSERT INTO rated_matches (match_id, finished, places) VALUES (?, ?, ?) "
                   "ON CONFLICT (match_id) DO UPDATE SET finished = excluded.finished, "
                   "places = excluded.places", [match_id, finished, json.dumps(new)])
    db.execute("INSERT INTO rating_work (finished, match_id) VALUES (?, ?)", [finished, match_id])


def m017_team_names_whole(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # A team named after its players was cut to 24 characters with a full stop before issue 35
    # ("Jean-Bapt. & Bartolomeo."); such a name, exactly as that rule made it, is written whole
    # (names.team_name), and its summary, whose outcome names it, worked out again. A name the
    # players typed is left as it is.
    for row in list(db.query("SELECT * FROM matches WHERE sides LIKE '%.%'")):
        match, changed = parsed_match(row), False
        for side in match["sides"]:
            players = side.get("players") or []
            if len(players) > 1 and side.get("name") == team_name_cut(players) != team_name(players):
                side["name"], changed = team_name(players), True
        if changed:
            db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(match["sides"]), row["id"]])
            keep_summary(db, row["id"], ledger(match).after_change(hand_rows(db, row["id"])))
