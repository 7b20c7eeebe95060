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
from typing import Any, Iterable

from .. import store
from ..matches import Ledger
from ..rules.said import Said, said
from ..web.access import new_access_key
from .service import NoSuchMatch, Stale

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


@dataclass(frozen=True)
class Archived:
    """The match is out of the lists (``archived``), or back in them."""

    archived: bool


@dataclass(frozen=True)
class MatchDeleted:
    """The match is deleted: kept a day, for the organiser to bring back."""

    match_id: int


@dataclass(frozen=True)
class InTournament:
    """The match is a tournament's table (``table``, of ``tournament``: its name): its result
    makes the standings, so it is never deleted."""

    table: int
    tournament: str


@dataclass(frozen=True)
class Rated:
    """The match counts in the players' ratings (``rated``), or is left out of them."""

    rated: bool


@dataclass(frozen=True)
class MatchesDeleted:
    """The matches ticked that were deleted (none, when all were gone already or tournaments'
    tables), each kept a day."""

    match_ids: tuple[int, ...]


@dataclass(frozen=True)
class MatchesRestored:
    """Deleted matches brought back, with their hands; ``refused``, each one that was not, with
    why (deleted more than a day ago, two of its players merged since)."""

    match_ids: tuple[int, ...]
    refused: tuple[tuple[int, Said], ...]


@dataclass(frozen=True)
class MatchRestored:
    """A match deleted in the last day is back as it was: its hands, its players' records."""

    match_id: int


@dataclass(frozen=True)
class GoneForGood:
    """No match of that id was deleted in the last day: deleted longer ago, or never."""


@dataclass(frozen=True)
class NotRestored:
    """The deleted match cannot come back (``why``: two of its players merged since)."""

    why: Said


@dataclass(frozen=True)
class RoundMade:
    """A tournament's round ``number`` started: its tables made matches."""

    number: int


@dataclass(frozen=True)
class RoundTaken:
    """Round ``number`` was started already (asked twice, or from two phones): nothing made.
    ``said``: that in words, the page's and the API's alike."""

    number: int

    @property
    def said(self) -> Said:
        return said("round {number} was already started (perhaps on another phone)", number=self.number)


@dataclass(frozen=True)
class PairedStale:
    """The tournament changed since the round was paired (an entrant joined or left): nothing
    made; pair it again."""


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


def archive(match_id: int, archived: bool) -> Archived | NoSuchMatch:
    """Put a match out of the lists (it stays, with its link), or back."""
    try:
        store.archive_match(store.get_db(), match_id, archived)
    except store.Gone:
        return NoSuchMatch()
    return Archived(archived)


def delete_match(match_id: int, made_from: int | None) -> MatchDeleted | Stale | InTournament | NoSuchMatch:
    """Delete a whole match, only at the version the player confirmed it at (``made_from``),
    checked in the delete's own write: Stale (its row None) if it changed since on another
    phone, even a moment before, or if no version was given."""
    if made_from is None:
        return Stale(None) if store.match_version(store.get_db(), match_id) is not None else NoSuchMatch()
    try:
        store.delete_match(store.get_db(), match_id, made_from)
    except store.MatchChanged:
        return Stale(None)
    except store.Gone:
        return NoSuchMatch()
    except store.InTournament as refused:
        return InTournament(refused.table, refused.tournament)
    return MatchDeleted(match_id)


def set_rated(match_id: int, rated: bool) -> Rated | NoSuchMatch:
    """The organiser leaves a match out of the players' ratings (``rated`` False), or counts it
    again (the caller checks it is the organiser); its players' ratings from it on are worked
    out again. The page's switch and the API's PUT alike."""
    if not store.set_rated(store.get_db(), match_id, rated):
        return NoSuchMatch()
    return Rated(rated)


def delete_matches(match_ids: Iterable[int]) -> MatchesDeleted:
    """The organiser's tidy-up of a list (spam from a guest's phone): the matches ticked
    deleted at once, each kept a day as one deleted match is. A tournament's table, or a match
    gone already, is left as it is."""
    return MatchesDeleted(tuple(store.delete_matches(store.get_db(), match_ids)))


def restore_matches(match_ids: Iterable[int]) -> MatchesRestored:
    """The Undo of ``delete_matches`` (and the organiser's page's "bring back"): every match
    back at once, with its hands, its players' records and ratings."""
    back, refused = store.restore_matches(store.get_db(), match_ids, Ledger)
    return MatchesRestored(tuple(back), tuple(refused))


def restore_match(match_id: int) -> MatchRestored | GoneForGood | NotRestored:
    """A match deleted in the last day back as it was, from the organiser's page: its hands, its
    seats (a player merged since is seated as whom they became), its players' ratings."""
    try:
        store.restore_match(store.get_db(), match_id, Ledger)
    except store.Gone:
        return GoneForGood()
    except store.CannotRestore as refused:
        return NotRestored(refused.args[0])
    return MatchRestored(match_id)


def purge_deleted() -> int:
    """The matches deleted more than a day ago, gone for good (their hands, their changes):
    how many. Done whenever the organiser's page lists the deleted matches, as at each start."""
    return store.purge_deleted(store.get_db())


def round_tables(tournament_id: int, number: int, slots: list[tuple[Any, ...]],
                 version: int) -> RoundMade | RoundTaken | PairedStale:
    """A tournament's round ``number`` as ``tournaments.service`` paired it from the tournament
    at ``version``: each table's slot (``("table", first, second, sides, dealer)``) made a match
    with the tournament's rules and PIN (no phone keeps its key: the organiser, who starts
    rounds, records at every table, and a table's scorer has its link), the byes and rests
    kept, all in one write."""
    try:
        store.start_round(store.get_db(), tournament_id, number, slots, Ledger, new_access_key, version)
    except store.RoundStarted:
        return RoundTaken(number)
    except (store.TournamentChanged, store.Gone):
        return PairedStale()
    return RoundMade(number)
