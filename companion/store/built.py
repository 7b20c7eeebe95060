"""Matches worked out once per version: the match model built from a match's rows is kept, so
the phones at a table that poll after a change share one piece of work."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

import sqlite_utils

from .db import MAX_ID, reading
from .matches import hand_rows, match_row, match_version

# A match worked out from its rows is kept by (store, match, version): every change bumps the
# version, so the phones at a table that poll after a change share one piece of work, and
# nothing stale is ever served. A restore empties it (versions start again in another file).
_built: OrderedDict[tuple[str, int, int], Any] = OrderedDict()
_built_lock = threading.Lock()
BUILT_KEPT = 256


def built_match(db: sqlite_utils.Database, match_id: int, build: Callable[..., Any]) -> Any | None:
    """``build(row, hand_rows)`` for the match as it is now, worked out once per version; None
    if there is no such match. The row and its hands are read in one snapshot."""
    if not 0 < match_id <= MAX_ID:
        return None
    path = getattr(db, "path", "")
    version = match_version(db, match_id)
    if version is None:
        return None
    key = (path, match_id, version)
    with _built_lock:
        if key in _built:
            _built.move_to_end(key)
            return _built[key]
    with reading(db):
        row = match_row(db, match_id)
        current = build(row, hand_rows(db, match_id))
    key = (path, match_id, row["version"])
    with _built_lock:
        _built[key] = current
        while len(_built) > BUILT_KEPT:
            _built.popitem(last=False)
    return current


def forget_built() -> None:
    with _built_lock:
        _built.clear()
