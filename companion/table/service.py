"""Every write to a match, for the pages, the JSON API and the referee alike: a new match, a hand
added, changed, deleted or brought back, a claim (the referee's *chiamarsi fuori*).

Each write returns what became of it as one of a closed set of values (below), never a string
and never an exception for what a phone may meet at a busy table (another phone's hand, a
match deleted meanwhile, a form sent twice). The pages and the API only word them, each in its
own way (a page, a status and a JSON error); a ``match`` statement over the types says which.
A failure of the store itself still raises ``store.StorageError``, as every write does, but
for a hand added or changed: the hand's page keeps the form as it was left, so that store's
failure is one of their outcomes (``NotSaved``).

What a hand is, as both doors hand it over: its entry as stored (``{"mode": "piles", ...}``)
and its ``HandScore``, worked out once from it by ``matches.score_entry`` (the hand form's
``entry()`` and ``score``; the API's hand JSON, ``api.requests.HandIn``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from flask import has_request_context, request

from .. import store
from ..matches import Ledger, MatchOver, result_of
from ..rules import HandScore
from ..rules.said import Said, said
from ..web.access import hash_pin, new_access_key
from ..web.match_requests import NewMatch
from ..web.organiser import is_organiser
from ..web.phone import phone_id

# -- What became of a write ----------------------------------------------------------------


@dataclass(frozen=True)
class Created:
    """A new match: its id, and the key its creator's phone keeps (``access.unlock_new``), so
    that the phone that made a match with a PIN need not type it."""

    match_id: int
    access_key: str


@dataclass(frozen=True)
class Added:
    """A new hand: its id, its number, and the match's summary right after it."""

    hand_id: int
    number: int
    summary: dict[str, Any]


@dataclass(frozen=True)
class Repeated:
    """The same form (its one-time key) had already recorded this hand: counted once."""

    hand_id: int


@dataclass(frozen=True)
class Changed:
    """The hand's entry replaced (an edit, its undo, a replace): its version now."""

    hand_id: int
    version: int


@dataclass(frozen=True)
class Deleted:
    """Hands deleted: the match's version the delete left, from which it can be undone."""

    hand_ids: tuple[int, ...]
    version: int


@dataclass(frozen=True)
class Restored:
    """Deleted hands brought back (or already back: an Undo sent twice is done once)."""

    hand_ids: tuple[int, ...]


@dataclass(frozen=True)
class Taken:
    """Another phone recorded the hand this entry was made for ("Mano 3"): ``row`` is that
    hand; nothing was added."""

    row: dict[str, Any]


@dataclass(frozen=True)
class Duplicate:
    """The form's one-time key (Idempotency-Key) recorded a different entry: ``row`` is that
    hand; nothing was added."""

    row: dict[str, Any]


@dataclass(frozen=True)
class Stale:
    """The hand (or the match, for an undo or a delete) changed since the version the change was
    made from, or the change named none: ``row`` is the hand as it is now (None if it never was,
    or for a match)."""

    row: dict[str, Any] | None


@dataclass(frozen=True)
class NoSuchHand:
    """The hand to change, delete or bring back is not there (deleted, perhaps a moment ago on
    another phone)."""


@dataclass(frozen=True)
class NoSuchMatch:
    """The match is not there (deleted meanwhile on another phone: its hands are kept a day)."""


@dataclass(frozen=True)
class Undone:
    """The organiser's undo of a change: its hand is as it was before that change. ``change_id``,
    the undo's own change in the log; None when the hand was already so (sent twice)."""

    hand_id: int
    change_id: int | None


@dataclass(frozen=True)
class NoSuchChange:
    """The match has no change of that number."""


@dataclass(frozen=True)
class ClaimKept:
    """The hand to change is a chiamarsi fuori, checked by the referee's rules as it was
    recorded: it is never edited (``said``, in words: delete it, and check it again)."""

    said: Said = said("a claim cannot be edited: delete it, and check it again with the referee")


@dataclass(frozen=True)
class NotSaved:
    """The store could not save (its disk full, read-only, busy...): nothing was kept.
    ``said``: why, in words (``store.StorageError``'s message)."""

    said: Said


@dataclass(frozen=True)
class Over:
    """The match was won (perhaps meanwhile on another phone): no hand is added to it. ``said``,
    the refusal in the rules' words ("The match is over: Anna wins 11 to 7...")."""

    said: Said | str


Outcome = (Created | Added | Repeated | Changed | Deleted | Restored | Taken | Duplicate | Stale
           | NoSuchHand | NoSuchMatch | Over | Undone | NoSuchChange | ClaimKept | NotSaved)


# -- Who writes ----------------------------------------------------------------------------


def by() -> store.By:
    """Who makes this write, as the match's changes keep it: this phone (its own id, from its
    cookie: ``web.phone.phone_id``), whether it is the organiser, whether through the JSON API.
    A program that keeps no cookie is known by its address (one phone per address): an id
    made for it now would make each of its requests another phone."""
    if not has_request_context():
        return store.By()
    api = request.blueprint == "api"
    phone = phone_id(create=not api) or f"address {request.remote_addr}"
    return store.By(phone, is_organiser(), api)


# -- The writes ----------------------------------------------------------------------------


def new_match(request: NewMatch) -> Created:
    """A new match, as its request says (the page's form and the API's JSON alike): its PIN, if
    any, kept only hashed; the dealer drawn if none is chosen."""
    key = new_access_key()
    match_id = store.create_match(store.get_db(), request.rules.as_dict(), request.sides(),
                                  request.dealer(), hash_pin(request.pin) if request.pin else None,
                                  Ledger, key)
    return Created(match_id, key)


def add_hand(match_id: int, entry: dict[str, Any], score: HandScore, *, key: str | None = None,
             number: int | None = None) -> Added | Repeated | Taken | Duplicate | Over | NoSuchMatch | NotSaved:
    """A new hand (``key``, the form's one-time key; ``number``, the hand the form was opened
    for): another phone's hand is never counted twice nor overwritten."""
    return _added(match_id, entry, result_of(score), key, number)


def claim(match_id: int, claimer: int, piles: list[list[str]],
          sweeps: list[int]) -> Added | Over | NoSuchMatch | NotSaved:
    """A checked chiamarsi fuori, recorded as the match's next hand (the model works out whether
    it ends the match)."""
    entry = {"mode": "claim", "claimer": claimer, "piles": piles, "sweeps": sweeps}
    outcome = _added(match_id, entry, None, None, None)
    # without a form's key or number: never Repeated, Duplicate nor Taken
    assert isinstance(outcome, Added | Over | NoSuchMatch | NotSaved), outcome
    return outcome


def _added(match_id: int, entry: dict[str, Any], result: dict[str, Any] | None, key: str | None,
           number: int | None) -> Added | Repeated | Taken | Duplicate | Over | NoSuchMatch | NotSaved:
    try:
        saved = store.add_hand(store.get_db(), match_id, entry, result, Ledger, key=key,
                               number=number, by=by())
    except store.StorageError as failure:
        return NotSaved(failure.message)
    except store.Taken as taken:
        return Taken(taken.row)
    except store.KeyReused as reused:
        return Duplicate(reused.row)
    except store.Gone:
        return NoSuchMatch()
    except MatchOver as over:
        return Over(over.args[0])
    if not saved.created:
        return Repeated(saved.id)
    assert saved.number is not None and saved.summary is not None, "a hand just added has both"
    return Added(saved.id, saved.number, saved.summary)


def change_hand(match_id: int, hand_id: int, entry: dict[str, Any], score: HandScore | None,
                made_from: int | None, *,
                replacing: bool = False) -> Changed | Stale | NoSuchHand | ClaimKept | NotSaved:
    """Replace a hand's entry, only from the version the change was made from (``made_from``;
    None cannot be checked, so it is Stale): an edit never overwrites another phone's. The entry
    it replaces is kept, so the edit can be undone; the same change sent twice is done once.
    A claim is never changed (``ClaimKept``: only added, it never becomes another hand).
    ``replacing``: the conflict screen's choice, replacing another phone's hand (so logged)."""
    db = store.get_db()
    row = store.hand_row(db, match_id, hand_id)
    if row is not None and is_claim(row):
        return ClaimKept()
    if made_from is None:
        return Stale(row)
    try:
        version = store.update_hand(db, match_id, hand_id, entry,
                                    None if score is None else result_of(score), made_from, Ledger,
                                    by=by(), kind="replaced" if replacing else "changed")
    except store.StorageError as failure:
        return NotSaved(failure.message)
    except store.Conflict as conflict:
        return Stale(conflict.row)
    except store.Gone:
        return NoSuchHand()
    return Changed(hand_id, version)


def is_claim(row: dict[str, Any]) -> bool:
    """Whether a stored hand is a chiamarsi fuori (its entry's mode)."""
    entry: dict[str, Any] = json.loads(row["entry"])
    return entry.get("mode") == "claim"


def delete_hands(match_id: int, versions: Mapping[int, int | None]) -> Deleted | Stale | NoSuchHand:
    """Delete hands, each only if still at the version given (hand id -> version), all or none."""
    db = store.get_db()
    unnamed = [hand_id for hand_id, version in versions.items() if version is None]
    if unnamed:
        return Stale(store.hand_row(db, match_id, unnamed[0]))
    try:
        left = store.delete_hands(db, match_id, {hand_id: version for hand_id, version in versions.items()
                                                 if version is not None}, Ledger, by=by())
    except store.Conflict as conflict:
        return Stale(conflict.row)
    except store.Gone:
        return NoSuchHand()
    return Deleted(tuple(versions), left)


def restore_hands(match_id: int, hand_ids: Iterable[int],
                  version: int) -> Restored | Stale | NoSuchHand:
    """Undo a delete: the hands come back with their ids and entries, in their places, if the
    match is still at ``version`` (the one the delete left). NoSuchHand if the match or one of
    the hands is not there."""
    hand_ids = tuple(hand_ids)
    try:
        store.restore_hands(store.get_db(), match_id, hand_ids, version, Ledger, by=by())
    except store.Conflict as conflict:
        return Stale(conflict.row)
    except store.Gone:
        return NoSuchHand()
    return Restored(hand_ids)


def undo_change(match_id: int, change_id: int) -> Undone | NoSuchChange | NoSuchMatch:
    """The organiser's undo of any change of the match (the caller checks it is the organiser):
    the hand as it was before that change, the undo kept in the log as a change of its own."""
    db = store.get_db()
    change = store.change_row(db, match_id, change_id)
    if change is None:
        return NoSuchChange()
    try:
        logged = store.undo_hand_change(db, match_id, change_id, Ledger, by=by())
    except store.NoSuchChange:
        return NoSuchChange()
    except store.Gone:
        return NoSuchMatch()
    return Undone(change["hand_id"], logged)
