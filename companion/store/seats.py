"""Who sat where: each match's seats, a seat a player on a side, found among the known players
by the name typed, and keeping that side's figures, so that a record or the leaderboard is one
grouped query over seats, never a reading of hands."""

from __future__ import annotations

from typing import Any

from ..names import tidy
from ..stats import EXTREMES, SUMS
from .db import Store, new_id, now
from .known import known_player, player_key
from .ratings import settle

# What each seat keeps of its side's figures (companion.stats): the sums a record adds up, and
# the best and worst hand.
SEAT_SUMS = SUMS
SEAT_STATS = (*SUMS, *EXTREMES)


def player_for(db: Store, name: str) -> tuple[int, str]:
    """The known player of that name (its id and name as first written), or a new one."""
    known = known_player(db, name)
    if known:
        return known
    table = db.table("players")
    table.insert({"name": tidy(name), "key": player_key(name), "created": now()})
    return new_id(table), tidy(name)


def seat_players(db: Store, match_id: int, sides: list[dict[str, Any]],
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
        solo = len(names) == 1 and player_key(side["name"]) == player_key(side["players"][0])
        known.append({**side, "name": names[0] if solo else side["name"], "players": names})
    return known



def keep_seats(db: Store, match_id: int, summary: dict[str, Any]) -> None:
    over, winner = bool(summary["over"]), summary["winner"]
    for side, stats in enumerate(summary.get("stats") or []):
        db.execute("UPDATE seats SET over = ?, won = ?, drawn = ?, "
                   + ", ".join(f"{name} = ?" for name in SEAT_STATS)
                   + " WHERE match_id = ? AND side = ?",
                   [int(over), int(over and winner == side), int(over and winner is None),
                    *[stats[name] for name in SEAT_STATS], match_id, side])
    settle(db, match_id, summary)       # its players' ratings, if it finished or its places changed
