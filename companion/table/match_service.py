"""Every write to a match as a whole, for the pages and the JSON API alike: a rematch, a match
archived or back, deleted (one, or those the organiser ticked) or brought back, left out of the
ratings or counted again, and the matches a tournament's round makes. ``service`` holds the
writes to a match's hands, and the outcomes both share (``NoSuchMatch``, ``Stale``).

As there, each write returns what became of it as one of a closed set of frozen values and
catches the store's exceptions; the callers only word them, in a ``match`` statement that ends
in ``assert_never``. A failure of the store itself still raises ``store.StorageError``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import store
from ..matches import Ledger
from ..web.access import new_access_key
from .service import NoSuchMatch

# -- What became of a write ----------------------------------------------------------------


@dataclass(frozen=True)
class Rematched:
    """The finished match's rematch: its id, and the key the asking phone keeps when it was
    made now (None when another phone, or a double tap, made it already)."""

    match_id: int
    access_key: str | None


@dataclass(frozen=True)
class NotOver:
    """The match is still being played: no rematch yet."""


# -- The writes ----------------------------------------------------------------------------


def rematch(match_id: int, first_dealer: int) -> Rematched | NotOver | NoSuchMatch:
    """The next match with the same players, rules and PIN, ``first_dealer`` dealing first.
    Asked twice (two phones, a double tap), it is made once: the second asker gets the same."""
    key = new_access_key()
    try:
        new_id, made = store.rematch(store.get_db(), match_id, first_dealer, Ledger, key)
    except store.Gone:
        return NoSuchMatch()
    except store.MatchNotOver:
        return NotOver()
    return Rematched(new_id, key if made else None)
