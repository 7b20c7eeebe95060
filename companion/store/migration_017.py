"""Migration 17, frozen (issue 44): a team's name cut before issue 35 written whole. The names of
that day are copied here, so a later change to the live ones changes no released migration. The
match's summary, whose outcome names the team, is the rules of the game's, which are the live
code's: asked for (``ask_summaries``, m004), and worked out by the start-up after the
migrations, as a save keeps it (the seats, and the ratings asked for if its places change)."""

from __future__ import annotations

import json
from typing import Iterable

import sqlite_utils

from .migration_004 import ask_summaries, parsed_match
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


def m017_team_names_whole(db: sqlite_utils.Database) -> None:
    # A team named after its players was cut to 24 characters with a full stop before issue 35
    # ("Jean-Bapt. & Bartolomeo."); such a name, exactly as that rule made it, is written whole
    # (names.team_name), and its summary, whose outcome names it, worked out again (asked).
    # A name the players typed is left as it is.
    changed_matches = []
    for row in list(db.query("SELECT * FROM matches WHERE sides LIKE '%.%'")):
        match, changed = parsed_match(row), False
        for side in match["sides"]:
            players = side.get("players") or []
            if len(players) > 1 and side.get("name") == team_name_cut(players) != team_name(players):
                side["name"], changed = team_name(players), True
        if changed:
            db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(match["sides"]), row["id"]])
            changed_matches.append(row["id"])
    ask_summaries(db, changed_matches)
