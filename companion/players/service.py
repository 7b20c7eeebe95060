"""Every write to a player: a rename, a merge of two players who are one person, and the undo
of either from the player's log (the organiser's alone: the callers check it).

Each write returns what became of it as one of a closed set of frozen values and catches the
store's exceptions, as ``table.service`` does; the pages only word them, in a ``match``
statement that ends in ``assert_never``. A failure of the store itself still raises
``store.StorageError``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import store
from ..matches import Ledger
from ..names import tidy
from ..rules.said import Said


@dataclass(frozen=True)
class Renamed:
    """The player is called ``name`` now (tidied as every name is), in every match."""

    player_id: int
    name: str


@dataclass(frozen=True)
class NameTaken:
    """Another player is called ``name`` already: if they are one person, merge them."""

    name: str


@dataclass(frozen=True)
class Merged:
    """The player's matches are ``into``'s now, under ``into``'s name."""

    player_id: int
    into: int


@dataclass(frozen=True)
class PlayedTogether:
    """The two sat at the same match (``match_id``): two people, not merged."""

    match_id: int


@dataclass(frozen=True)
class RenameUndone:
    """A rename undone: player ``player_id`` is ``name`` again, no longer ``was``."""

    player_id: int
    name: str
    was: str


@dataclass(frozen=True)
class MergeUndone:
    """A merge undone: player ``player_id``, ``name``, has their matches back from ``other``."""

    player_id: int
    name: str
    other: str


@dataclass(frozen=True)
class CannotUndo:
    """The rename or merge can no longer be undone: ``why`` (something depends on it)."""

    why: Said


@dataclass(frozen=True)
class NoSuchPlayer:
    """No such player (or, for a merge, the other one is not there)."""


@dataclass(frozen=True)
class NoSuchChange:
    """The player's log has no change of that number."""


def rename(player_id: int, name: str) -> Renamed | NameTaken | NoSuchPlayer:
    """Call a player by another name, in every match they played, kept in the player's log."""
    try:
        store.rename_player(store.get_db(), player_id, name, Ledger)
    except store.NameTaken as taken:
        return NameTaken(taken.row["name"])
    except store.Gone:
        return NoSuchPlayer()
    return Renamed(player_id, tidy(name))


def merge(player_id: int, into: int) -> Merged | PlayedTogether | NoSuchPlayer:
    """One person entered as two players: ``player_id``'s matches become ``into``'s, kept in
    the log with which seats were whose, so that it can be undone."""
    try:
        store.merge_players(store.get_db(), player_id, into, Ledger)
    except store.PlayedTogether as together:
        return PlayedTogether(together.match_id)
    except store.Gone:
        return NoSuchPlayer()
    return Merged(player_id, into)


def undo(change_id: int) -> RenameUndone | MergeUndone | CannotUndo | NoSuchChange:
    """A rename or a merge undone from the player's log, while nothing depends on it."""
    try:
        change = store.undo_change(store.get_db(), change_id, Ledger)
    except store.Gone:
        return NoSuchChange()
    except store.CannotUndo as refused:
        return CannotUndo(refused.said)
    if change["kind"] == "rename":
        return RenameUndone(change["player_id"], change["old_name"], change["new_name"])
    return MergeUndone(change["player_id"], change["old_name"], change["new_name"])
