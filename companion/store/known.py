"""Players known by name: the key that makes two typed names one player, and the player a
name or a number finds (one merged into another is that other). Read by the seats, which seat a
new player when none is known, and by the ratings, which rate the players a name finds."""

from __future__ import annotations

from typing import Any

from ..names import name_key
from .db import MAX_ID, Store


def player_key(name: str) -> str:
    """How a typed name finds its player: by the key that makes two names the same player
    (``names.name_key``: "anna " is Anna), so a match the forms let in seats two players."""
    return name_key(name)


def known_player(db: Store, name: str) -> tuple[int, str] | None:
    """The known player of that name (its id and name as first written), or None."""
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
    return None


def player_row(db: Store, player_id: int) -> dict[str, Any] | None:
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
