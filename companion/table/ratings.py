"""The players' ratings as the match page shows them beside the match (store.ratings): each
side's chance to win before the first hand, what the match did to each rating once it is over.
Part of the live region, so a phone watching sees both come and go."""

from __future__ import annotations

from typing import Any

from ..matches import Match
from ..store import reads as store


def ratings_part(current: Match, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The players' ratings beside the match: before its first hand, each side's chance to win
    (a tournament's ``table``, as ``store.table_of`` gives it: the chances kept as its round
    started); once it is over, what it did to each player's rating."""
    db = store.get_db()
    over = bool(current.outcome and current.outcome.over)
    chances = None
    if not current.recorded and not over:
        chances = (table["chances"] if table is not None else
                   store.chances_by_name(db, [side["players"] for side in current.sides]))
    return {"chances": chances, "rating_changes": store.match_rating_changes(db, current.id) if over else []}
