"""A player's record worked out from the sums the store keeps: the rates (matches won, points and
sweeps per hand, how often their side took each item): what the players' pages and the JSON
API both show. The leaderboard's order is the store's (``store.records`` with ``page``)."""

from __future__ import annotations

from typing import Any

from ..stats import EXTREMES, MATCHES, SUMS, TAKEN


def rated(row: dict[str, Any]) -> dict[str, Any]:
    """A record with its rates: matches won of those finished, points and sweeps per hand, and
    the share of hands in which the player's side took each item."""
    hands = row["hands"] or 0
    return {**row,
            "win_rate": row["won"] / row["matches"] if row["matches"] else None,
            "per_hand": row["points"] / hands if hands else None,
            "sweeps_per_hand": row["sweeps"] / hands if hands else None,
            "rates": {item: row[item] / hands if hands else 0 for item in TAKEN}}



def empty_record(player: dict[str, Any]) -> dict[str, Any]:
    """The record of a player with no match in the chosen variant and period."""
    return rated({"id": player["id"], "name": player["name"],
                  **{name: 0 for name in (*MATCHES, *SUMS)}, **{name: None for name in EXTREMES}})
