"""Migration 21 (issue 41, look-alike names in compatibility forms), in a module of its own, as
every migration is: once released, it never changes. It holds its own copy of the players' key as
it was released (``name_key`` below, ``names.name_key`` then): what it adds to m018's
(``migration_names``' copy, whose parts that did not change it reads) is each character's
compatibility form and a capital I read as the l it is drawn as.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from typing import Any

import sqlite_utils

from .migration_names import _IGNORED, _folded, _looks, tidy

# The store's bound on a key (names.KEY_MAX when released: store.checks refuses a restore over
# it), and each character's share of it (a name's NAME_MAX characters).
_KEY_MAX, _LETTER_KEY_MAX = 192, 8


def name_key(name: str) -> str:
    """The key that makes two names one player, as released with this migration.

    >>> name_key("\\uff21\\uff4e\\uff4e\\uff41") == name_key("Anna")
    True
    >>> name_key("PIayer \\u00b9") == name_key("Player 1")
    True
    >>> name_key("Ilaria") == name_key("llaria"), len(name_key("\\ufdfa" * 24)) <= _KEY_MAX
    (False, True)
    """
    text = _drawn_as_l(tidy("".join(_compatible(char) for char in tidy(name))))
    return unicodedata.normalize("NFC", _skeleton(text))


def _skeleton(text: str) -> str:
    return "".join(_folded(char) for char in unicodedata.normalize("NFD", text) if char not in _IGNORED)


@cache
def _compatible(char: str) -> str:
    form = unicodedata.normalize("NFKC", char)
    return form if len(_skeleton(form)) <= _LETTER_KEY_MAX else char


_CAPITAL_I_RUN = re.compile(r"(?<=[^\W\d_I])I+(?=[^\W\d_])")


def _drawn_as_l(text: str) -> str:
    text = "".join("I" if char.isupper() and _looks(char) == "l" else char for char in text)
    return _CAPITAL_I_RUN.sub(lambda run: "l" * len(run[0]) if run.string[run.end()].islower()
                              else run[0], text)


def flagged_key(key: str, player_id: int) -> str:
    """A look-alike's key: one no name typed can give (a line break in it), its id's, within
    the store's bound, beginning with the key it reads as (so the organiser's search for a
    player to merge finds it by that name)."""
    suffix = f"\n{player_id}"
    return key[:_KEY_MAX - len(suffix)] + suffix


def m021_look_alikes_in_compatibility_forms(db: sqlite_utils.Database) -> None:
    # A player's key now takes each character as the letter it stands for (NFKC: "Ａｎｎａ" in
    # fullwidth letters, "ᴬnna", "Player ¹", "Player ₁" and "Player １" are Anna and Player 1),
    # and a capital I between a letter and a small letter as the l it is drawn as ("PIayer 1").
    # Every key is worked out again by that key (this module's copy), and so is the tournaments'
    # index of the names their entrants hold, as m018 did.
    # Players who are now one name are flagged as m018 flags them, not merged: the first made
    # keeps the key, each later one keeps its records, a key no name typed can give
    # (``flagged_key``) and looks_like, the first one's id, which its page shows the organiser,
    # who merges them if they are one person. A player m018 flagged is flagged again by the key
    # it now has: still a look-alike of the first of its name, or, when that first one has since
    # been renamed or merged away, the first of its name itself, its flag gone (the page would
    # say it reads as a player called otherwise now).
    active = list(db.execute("SELECT id, name FROM players WHERE merged_into IS NULL ORDER BY id"))
    keys = {player_id: name_key(name) for player_id, name in active}
    first: dict[str, int] = {}
    for player_id, _name in active:
        first.setdefault(keys[player_id], player_id)
    for player_id, _name in active:                 # the unique index never sees two keys alike
        db.execute("UPDATE players SET key = ? WHERE id = ?", [f"\n{player_id}", player_id])
    for player_id, _name in active:
        key = keys[player_id]
        if first[key] == player_id:
            db.execute("UPDATE players SET key = ?, looks_like = NULL WHERE id = ?", [key, player_id])
        else:
            db.execute("UPDATE players SET key = ?, looks_like = ? WHERE id = ?",
                       [flagged_key(key, player_id), first[key], player_id])
    for player_id, name in list(db.execute("SELECT id, name FROM players WHERE merged_into IS NOT NULL")):
        db.execute("UPDATE players SET key = ? WHERE id = ?", [name_key(name), player_id])
    db.execute("DELETE FROM tournament_players")
    for tournament_id, entrants in list(db.execute("SELECT id, entrants FROM tournaments")):
        _index_entrants(db, tournament_id, json.loads(entrants))


def _index_entrants(db: sqlite_utils.Database, tournament_id: int,
                    entrants: list[dict[str, Any]]) -> None:
    """The keys of the names a tournament's entrants hold, in ``tournament_players`` (m011's
    index, by this key)."""
    keys = {name_key(name) for e in entrants for name in (e["name"], *e["players"])}
    db.table("tournament_players").insert_all(
        ({"tournament_id": tournament_id, "key": key} for key in sorted(keys)), ignore=True)
