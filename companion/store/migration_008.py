"""Migration 8, frozen (issue 44): the players and their seats, each match's sides seated. The
seating of that day is copied here (the players' key is ``migration_names``'), so a later change
to the live one changes no released migration. The seats' figures come from each match's
summary, worked out again from its hands scored afresh: the rules of the game, which are the
live code's, so asked for (``ask_summaries``), and kept in the seats by the start-up after the
migrations, as a save keeps them."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from .migration_004 import ask_summaries, parsed_match
from .migration_names import name_key, tidy

# The seats' figures as m008 made their columns, kept as released: a figure added to
# companion.stats later comes with a migration of its own that adds its column.
M008_SUMS = ("hands", "points", "sweeps", "carte", "denari", "settebello", "primiera", "re_bello",
             "napola", "declarations")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def player_for(db: sqlite_utils.Database, name: str) -> tuple[int, str]:
    """The known player of that name (its id and name as first written), or a new one. (No
    player is merged into another while m008 runs: merges came later.)"""
    found = db.execute("SELECT id, name FROM players WHERE key = ? AND merged_into IS NULL",
                       [name_key(name)]).fetchone()
    if found:
        return found[0], found[1]
    table = db.table("players")
    table.insert({"name": tidy(name), "key": name_key(name), "created": now()})
    assert table.last_pk is not None, "right after an insert"
    return table.last_pk, tidy(name)


def seat_players(db: sqlite_utils.Database, match_id: int, sides: list[dict[str, Any]],
                 variant: str) -> list[dict[str, Any]]:
    """Seat each of the match's players (a known player, or a new one) and give back its sides
    with the known players' names; a side of one player is called by the player's name."""
    known = []
    for side_number, side in enumerate(sides):
        names = []
        for seat, name in enumerate(side["players"]):
            player_id, name = player_for(db, name)
            db.table("seats").insert({"match_id": match_id, "side": side_number, "seat": seat,
                                      "player_id": player_id, "variant": variant})
            names.append(name)
        solo = len(names) == 1 and name_key(side["name"]) == name_key(side["players"][0])
        known.append({**side, "name": names[0] if solo else side["name"], "players": names})
    return known


def m008_players(db: sqlite_utils.Database) -> None:
    # players: the people who sit at the tables, known across matches by their name trimmed and
    # case-folded (key). A player merged into another keeps its row (merged_into), so its
    # number is never given to someone else and an old link finds whom it became.
    # seats: who sat on which side of each match, with that side's figures and result, kept
    # by every save (keep_summary), so a record or the leaderboard is one grouped query over
    # seats, never a reading of hands. A hand's stored result gains its points item by item.
    db.table("players").create({"id": int, "name": str, "key": str, "created": str, "merged_into": int},
                         pk="id", not_null={"name", "key", "created"})
    db.execute("CREATE UNIQUE INDEX players_key ON players (key) WHERE merged_into IS NULL")
    db.table("seats").create({"match_id": int, "side": int, "seat": int, "player_id": int,
                        "variant": str, "over": int, "won": int, "drawn": int,
                        **{name: int for name in (*M008_SUMS, "best", "worst")}},
                       pk=("match_id", "side", "seat"),
                       foreign_keys=[("match_id", "matches", "id"), ("player_id", "players", "id")],
                       not_null={"player_id", "variant"},
                       defaults={name: 0 for name in ("over", "won", "drawn", *M008_SUMS)})
    db.table("seats").create_index(["player_id", "match_id"])
    db.table("seats").create_index(["variant"])         # the variants a record can be filtered by
    # Each summary is worked out from its hands' points as scored afresh, its outcome and its
    # figures alike, so that the two agree even where points were stored by an older scoring:
    # asked, for today's code to do after the migrations, which keeps the figures in the seats.
    matches = list(db.query("SELECT * FROM matches WHERE deleted IS NULL ORDER BY id"))
    for row in matches:
        row = parsed_match(row)
        sides = seat_players(db, row["id"], row["sides"], row["rules"].get("preset", ""))
        if sides != row["sides"]:       # "anna" is the known "Anna": the outcome says so too
            db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(sides), row["id"]])
    ask_summaries(db, [row["id"] for row in matches], rescore=True)
