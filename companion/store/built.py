"""Matches worked out once per version: the match model built from a match's rows is kept, so
the phones at a table that poll after a change share one piece of work; and which hands' lines
changed since the version a polling phone shows, so that it is sent only those."""

from __future__ import annotations

import threading
from typing import Any, Callable, NamedTuple

from cachetools import LRUCache

from .db import MAX_ID, Store, parsed_match, reading
from .matches import hand_rows, match_row, match_version

BUILT_KEPT = 256
# The latest version kept of each match, (store, match) -> version: what the next is built on.
_latest: dict[tuple[str, int], int] = {}


class _Built(LRUCache[tuple[str, int, int], Any]):
    """The matches built, by (store, match, version), the least recently used let go past
    ``BUILT_KEPT`` (cachetools' LRU: this module kept its own OrderedDict before issue 44), and
    with it the mark of its match's latest version, if it was that one."""

    def popitem(self) -> tuple[tuple[str, int, int], Any]:
        key, value = super().popitem()
        if _latest.get(key[:2]) == key[2]:
            del _latest[key[:2]]
        return key, value


# A match worked out from its rows is kept by (store, match, version): every change bumps the
# version, so the phones at a table that poll after a change share one piece of work, and
# nothing stale is ever served. A restore empties it (versions start again in another file).
# cachetools' caches are not safe across threads by themselves: every use holds the lock.
_built = _Built(BUILT_KEPT)
_built_lock = threading.Lock()


def built_match(db: Store, match_id: int, build: Callable[..., Any],
                on_earlier: bool = False) -> Any | None:
    """``build(row, hand_rows)`` for the match as it is now, worked out once per version; None
    if there is no such match. The row and its hands are read in one snapshot.

    ``on_earlier``: the match kept at an earlier version, if any, is built on (``build(row,
    hand_rows, kept)``, ``matches.build``): only the hands from the first one changed since are
    read (``hands.changed``), so that the first phone to poll after a hand is saved does not
    wait for the whole match to be read again."""
    if not 0 < match_id <= MAX_ID:
        return None
    path = db.path
    version = match_version(db, match_id)
    if version is None:
        return None
    key = (path, match_id, version)
    with _built_lock:
        if key in _built:
            return _built[key]          # and now the most recently used
        earlier = _built.get((path, match_id, _latest.get((path, match_id), -1)))
    with reading(db):
        row = match_row(db, match_id)
        if row is None:         # deleted a moment ago
            return None
        if on_earlier and earlier is not None and row["summary"] and earlier.version < row["version"]:
            # The hands stored before the first one changed since are the earlier's first ones.
            first = db.execute("SELECT MIN(number) FROM hands WHERE match_id = ? AND "
                               "(changed IS NULL OR changed > ?)", [match_id, earlier.version]).fetchone()[0]
            before = db.execute("SELECT COUNT(*) FROM hands WHERE match_id = ? AND deleted IS NULL "
                                "AND number < ?", [match_id, first]).fetchone()[0] if first is not None else None
            current = build(row, [] if first is None else list(db.query(
                "SELECT * FROM hands WHERE match_id = ? AND deleted IS NULL AND number >= ? "
                "ORDER BY number", [match_id, first])), earlier.hands[:before])
        else:
            current = build(row, hand_rows(db, match_id))
    key = (path, match_id, row["version"])
    with _built_lock:
        _built[key] = current           # the least recently used let go, if one must be
        if row["version"] >= _latest.get((path, match_id), -1):
            _latest[(path, match_id)] = row["version"]
    return current


# Who else must forget after a restore: the other processes of a server of several, each with
# its own matches built (companion.processes registers how they are told).
_elsewhere: list[Callable[[], None]] = []


def also_forget_elsewhere(tell: Callable[[], None]) -> None:
    """``tell()`` whenever a restore makes this process forget (``forget_built(everywhere=True)``)."""
    _elsewhere.append(tell)


def forget_built(everywhere: bool = False) -> None:
    """Every match built forgotten in this process; ``everywhere``, in the other serving
    processes too (a restore: versions start again in the restored file)."""
    with _built_lock:
        _built.clear()
        _latest.clear()
        _per_match.clear()
    if everywhere:
        for tell in _elsewhere:
            tell()


# A value worked out from each match's row (a line of the CSV of every match, in a language),
# kept by (store, kind, match) with the version it was worked out at: a list of every match
# then reads only the rows changed since, and a guest's request for it costs a read of the
# matches' ids and versions, not the work of 5,000 rows (issue 32). A restore empties it. The
# least recently used let go past PER_MATCH_KEPT (it was emptied whole before issue 44).
PER_MATCH_KEPT = 100_000
_per_match: LRUCache[tuple[str, str, int], tuple[int, Any]] = LRUCache(PER_MATCH_KEPT)


def each_match(db: Store, kind: str, work: Callable[[dict[str, Any]], Any],
               among: tuple[str, list[Any]] | None = None) -> list[Any]:
    """``work(row)`` for every match not deleted (archived ones too), in the order of their ids,
    each worked out once per version of its match and ``kind`` (say ``"csv en"``). ``among``:
    a query of the ids and versions of the matches wanted, in their order, instead (a page of
    a list: ``matches.listed_versions``)."""
    path = db.path
    sql, values = among or ("SELECT id, version FROM matches WHERE deleted IS NULL ORDER BY id", [])
    with reading(db):
        versions = db.execute(sql, values).fetchall()
        with _built_lock:
            found = [(_per_match.get((path, kind, match_id)), match_id, version) for match_id, version in versions]
        kept = {match_id: entry[1] for entry, match_id, version in found if entry is not None and entry[0] == version}
        stale = [match_id for match_id, _version in versions if match_id not in kept]
        fresh: dict[int, tuple[int, Any]] = {}
        for start in range(0, len(stale), 500):
            chunk = stale[start:start + 500]
            for row in db.query(f"SELECT * FROM matches WHERE id IN ({', '.join('?' * len(chunk))})", chunk):
                row = parsed_match(row)
                fresh[row["id"]] = (row["version"], work(row))
    with _built_lock:
        _per_match.update({(path, kind, match_id): entry for match_id, entry in fresh.items()})
    return [kept[match_id] if match_id in kept else fresh[match_id][1] for match_id, _version in versions]


class ChangedLines(NamedTuple):
    """What changed in a match's list of hands since a version a phone shows (``changed_since``):
    ``version``, the match's now; ``hands``, the ids of the hands (not deleted) from the first
    one changed since onwards, in order: their lines are new, or their numbers or running totals
    may have moved; ``shown``, the ids of the lines the phone may show of those and of the hands
    deleted since (all but the hands added since), to take away before the new ones go in."""

    version: int
    hands: list[int]
    shown: list[int]


def changed_since(db: Store, match_id: int, since: int) -> ChangedLines | None:
    """Which hands' lines changed since version ``since``, from each hand's ``changed`` and
    ``added`` (the match's version at which its row last changed, and was added: kept by
    triggers, migration 14): a few rows read through an index, however long the match. None if
    there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    with reading(db):
        version = match_version(db, match_id)
        if version is None:
            return None
        rows = db.execute(
            "SELECT id, deleted IS NOT NULL, changed IS NULL OR changed > ?, added > ? FROM hands "
            "WHERE match_id = ? AND number >= (SELECT MIN(number) FROM hands "
            "WHERE match_id = ? AND (changed IS NULL OR changed > ?)) ORDER BY number",
            [since, since, match_id, match_id, since]).fetchall()
    return ChangedLines(version, [hand for hand, deleted, _changed, _new in rows if not deleted],
                        [hand for hand, deleted, changed, new in rows
                         if not new and (changed or not deleted)])
