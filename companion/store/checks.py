"""Whether a file is a store this version may open: the checks the start-up and a restore share.

Both read the file without writing to it (``read_only``): SQLite's own check of its pages, and
its migration level (a store of a newer version is never opened: its schema is not this one's).
Both also ask for a schema that is exactly what this version builds at the file's level
(``schema_difference``: a trigger or a view is code, which runs on every save): every row of
SQLite's schema table is compared, SQLite's own names (``sqlite_%``) included, since SQLite runs a
trigger whatever its name, and a row written there with ``PRAGMA writable_schema`` is one. A
restore then asks more of a backup (``check_backup``), since it comes from outside: every text
the companion limits within its limit (``text_over_limit``), and no time in the future
(``time_in_future``).
"""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

import sqlite_utils

from ..names import KEY_MAX, NAME_MAX, TEAM_NAME_MAX, TOURNAMENT_NAME_MAX
from ..rules.said import Said, said
from .migrations import MIGRATIONS


class Unfit(Exception):
    """A file that is not a store this version may open: ``reason`` is "damaged", "not_store",
    "newer" (then ``level`` is the file's migration level) or "foreign" (its schema is not what
    this version builds at its level: ``problem`` says what differs); ``path``, the file."""

    def __init__(self, reason: str, level: int = 0, path: str = "", problem: Said | None = None):
        super().__init__(f"{reason}: {path}" if path else reason)
        self.reason, self.level, self.path, self.problem = reason, level, path, problem


def read_only(path: str) -> sqlite3.Connection:
    """``path`` opened so that nothing can be written to it. Without a WAL file beside it the
    file is opened as immutable, which makes no -wal or -shm file either; with one (a store
    stopped without a checkpoint) read-only, so what the WAL holds is read too (SQLite may then
    add a -shm file, never change the store's). Code in the file's schema is not trusted."""
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"       # file:///C:/... on Windows too
    if not Path(f"{path}-wal").exists():
        uri += "&immutable=1"
    conn = sqlite3.connect(uri, uri=True)
    conn.execute("PRAGMA trusted_schema=OFF")
    return conn


def examine(path: str, thorough: bool = False) -> int:
    """The migration level of the store at ``path`` (0: an empty file, a store to make), once
    SQLite's quick check (or with ``thorough`` its full integrity check) has passed; Unfit if it
    fails, if the file holds tables but not the companion's, if its level is newer than this
    version's, or if its schema holds what this version does not build at that level, or
    otherwise (a trigger of its own, whatever its name: "foreign"); with ``thorough`` (a
    restore), also if it lacks any of what this version builds."""
    try:
        return _level(path, thorough)
    except Unfit as unfit:
        raise Unfit(unfit.reason, unfit.level, str(path), unfit.problem) from None


def _level(path: str, thorough: bool) -> int:
    try:
        conn = read_only(path)
        try:
            check = "integrity_check" if thorough else "quick_check"
            if conn.execute(f"PRAGMA {check}").fetchone()[0] != "ok":
                raise Unfit("damaged")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "migrations" not in tables:
                if tables:
                    raise Unfit("not_store")
                return 0
            level = conn.execute("SELECT MAX(version) FROM migrations").fetchone()[0]
            if not isinstance(level, int) or level < 0:
                raise Unfit("not_store")
            if level > len(MIGRATIONS):
                raise Unfit("newer", level)
            if level and (problem := schema_difference(conn, level, missing=thorough)):
                raise Unfit("foreign", level, problem=problem)
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise Unfit("not_store" if "not a database" in str(error) else "damaged") from None
    return level


def _normal(sql: str | None) -> str:
    """A schema entry's SQL as written whatever the version of sqlite-utils that wrote it: its
    plain names unquoted ("id", [id], `id`), its spaces one."""
    text = re.sub(r'"(\w+)"|\[(\w+)\]|`(\w+)`', lambda m: next(g for g in m.groups() if g), sql or "")
    return " ".join(re.sub(r"\s*([(),])\s*", r" \1 ", text).split())


# Tables SQLite makes by itself (ANALYZE and PRAGMA optimize make the statistics; AUTOINCREMENT
# makes sqlite_sequence), as SQLite writes them: a store may hold them though no migration made
# them. They hold no code, and a restore never copies their rows.
_SQLITE_OWN = {("table", name): _normal(sql) for name, sql in (
    ("sqlite_sequence", "CREATE TABLE sqlite_sequence(name,seq)"),
    ("sqlite_stat1", "CREATE TABLE sqlite_stat1(tbl,idx,stat)"),
    ("sqlite_stat4", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)"))}


def schema_of(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """Every row of a store's schema table, by its kind and name, with the table it is on and
    its SQL normalised: SQLite's own entries included (an index SQLite made for a table's
    constraint, ``sqlite_autoindex_seats_1``, has no SQL), since SQLite runs a trigger whatever
    it is called. A name written twice (only ``writable_schema`` can) is kept once more, under
    a name of its own, so that it is found as what the companion does not make."""
    found: dict[tuple[str, str], str] = {}
    for kind, name, table, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        key, entry = (str(kind), str(name)), f"{table}: {_normal(sql)}"
        if _SQLITE_OWN.get(key) == _normal(sql):
            continue
        while key in found:
            key = (key[0], f"{key[1]} (again)")
        found[key] = entry
    return found


@lru_cache(maxsize=None)
def schema_at(level: int) -> dict[tuple[str, str], str]:
    """The schema this version builds at a migration level: the migrations applied to an empty
    store in memory (once per level: the start-up compares every store with it). Treat the
    answer as read-only: it is shared."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        db = sqlite_utils.Database(conn)
        db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied TEXT)")
        for step in MIGRATIONS[:level]:
            step(db)
        return schema_of(conn)
    finally:
        conn.close()


def schema_difference(conn: sqlite3.Connection, level: int, missing: bool = True) -> Said | None:
    """What in the store's schema is not what this version builds at ``level``, said; None when
    nothing is. The first such entry is named (by SQL's own words: TRIGGER blank_pins). Without
    ``missing`` (the start-up's check) only what could run: an entry the companion does not
    make, and a trigger or a view of its own that is otherwise; a table or an index it lacks or
    has otherwise (a store part-way through its migrations) is a backup's business."""
    found, built = schema_of(conn), schema_at(level)
    compared = found.keys() & built.keys()
    if not missing:
        compared = {key for key in compared if key[0] in ("trigger", "view")}
    for problem, keys in ((said("it holds what the companion does not make ({what})"), found.keys() - built.keys()),
                          (said("what the companion makes is missing from it ({what})"),
                           built.keys() - found.keys() if missing else set()),
                          (said("it differs from what the companion makes ({what})"),
                           {key for key in compared if found[key] != built[key]})):
        if keys:
            kind, name = min(keys)
            return Said(problem.text, {"what": f"{kind.upper()} {name}"})
    return None


# The PIN hashes werkzeug makes (``generate_password_hash``), at costs no higher than its own
# defaults: a hash of a cost the file chose would make every try of a PIN as slow as it likes.
_PIN_HASH = re.compile(r"(?:scrypt:(\d{1,6}):(\d{1,2}):(\d{1,2})|pbkdf2:sha256(?::(\d{1,7}))?)"
                       r"\$[A-Za-z0-9]{1,64}\$[0-9a-f]{64,128}")
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")       # an access key (secrets.token_urlsafe)


def pin_hash_fits(text: object) -> bool:
    shape = _PIN_HASH.fullmatch(text) if isinstance(text, str) else None
    if shape is None:
        return False
    n, r, p, rounds = (int(part) if part else 0 for part in shape.groups())
    return n * r * p <= 32768 * 8 and rounds <= 1_000_000


def hash_method_fits(method: str) -> bool:
    """Whether werkzeug knows ``method`` and the hashes it makes are ones a restore accepts
    (``pin_hash_fits``): the settings refuse any other (``SCOPA_PIN_HASH_METHOD``), whose
    backups could not be restored. Its shape first, so that a costly method is not run to be
    refused (werkzeug's own "scrypt" and "pbkdf2" are at its default costs), then one hash made
    by it. (A bare "scrypt" was refused before issue 45, where the docs offered it.)

    >>> hash_method_fits("pbkdf2:sha256:1000"), hash_method_fits("scrypt"), hash_method_fits("pbkdf2")
    (True, True, True)
    >>> hash_method_fits("scrypt:65536:8:1"), hash_method_fits("md5"), hash_method_fits("scrypt:1:2")
    (False, False, False)
    """
    if method not in ("scrypt", "pbkdf2") and not pin_hash_fits(f"{method}$salt${'0' * 64}"):
        return False
    from werkzeug.security import generate_password_hash
    try:
        return pin_hash_fits(generate_password_hash("000000", method))
    except (ValueError, TypeError):
        return False


def _key_fits(text: object) -> bool:
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


def _over(text: str, most: int = NAME_MAX) -> str:
    """SQL true when ``text`` is not a text of 1 to ``most`` characters."""
    return f"(typeof({text}) != 'text' OR length({text}) NOT BETWEEN 1 AND {most})"


_SIDE, _ENTRANT = "json_extract(s.value, '$.name')", "json_extract(e.value, '$.name')"
# Each text the companion limits: what it is, its table, and SQL that finds a row over its limit.
# (A name is kept tidied, so no longer than NAME_MAX; a player's key, names.name_key, may be
# longer: KEY_MAX.)
_LIMITS = [
    ("name", "players",
     f"SELECT id FROM players WHERE {_over('name')} OR {_over('key', KEY_MAX)}"),
    ("name", "player_changes",
     f"SELECT id FROM player_changes WHERE {_over('old_name')} OR {_over('new_name')}"),
    ("name", "matches",
     "SELECT m.id FROM matches m, json_each(m.sides) s LEFT JOIN json_each(s.value, '$.players') p "
     f"WHERE {_over(_SIDE, TEAM_NAME_MAX)} OR (p.id IS NOT NULL AND {_over('p.value')})"),
    ("tournament", "tournaments",
     f"SELECT id FROM tournaments WHERE {_over('name', TOURNAMENT_NAME_MAX)}"),
    ("name", "tournaments",
     "SELECT t.id FROM tournaments t, json_each(t.entrants) e LEFT JOIN json_each(e.value, '$.players') p "
     f"WHERE {_over(_ENTRANT)} OR (p.id IS NOT NULL AND {_over('p.value')})"),
]
_SHAPES = [("matches", "SELECT id, pin_hash FROM matches WHERE pin_hash IS NOT NULL", pin_hash_fits),
           ("tournaments", "SELECT id, pin_hash FROM tournaments WHERE pin_hash IS NOT NULL",
            pin_hash_fits),
           ("matches", "SELECT id, access_key FROM matches WHERE access_key IS NOT NULL",
            _key_fits)]


def text_over_limit(db: sqlite_utils.Database) -> Said | None:
    """The first text of a store (at this version's schema) over the limit the companion keeps
    to, said (what it is and its row); None when every one is within it. A name longer than a
    phone shows, or a PIN hash of a cost of the file's choosing, never comes in by a restore."""
    for what, table, query in _LIMITS:
        row = db.execute(f"{query} LIMIT 1").fetchone()
        if row and what == "tournament":
            return said("a tournament's name in it is longer than the companion allows (row {id})",
                        id=row[0])
        if row:
            return said("a name in it is longer than the companion allows ({table}, row {id})",
                        table=table, id=row[0])
    for table, query, fits in _SHAPES:
        for row_id, text in db.execute(query):
            if not fits(text):
                return said("a PIN or access key in it is not one the companion makes ({table}, "
                            "row {id})", table=table, id=row_id)
    return None


# Every time the companion keeps (each written by the server's own clock, ``db.now``; a phone
# sends none): its table, the column naming its row, and the time's columns.
_TIMES = [("matches", "id", ("created", "deleted")), ("hands", "id", ("created", "updated", "deleted")),
          ("rated_matches", "match_id", ("finished",)), ("players", "id", ("created",)),
          ("player_changes", "id", ("created", "undone")), ("tournaments", "id", ("created",)),
          ("tournament_rounds", "tournament_id", ("created",)), ("migrations", "version", ("applied",)),
          ("hand_changes", "id", ("created",))]
CLOCKS_DIFFER = timedelta(minutes=10)   # two computers' clocks may differ by this much


def time_in_future(db: sqlite_utils.Database) -> Said | None:
    """The first time a store keeps that is later than this computer's clock (by more than
    ``CLOCKS_DIFFER``), said with its row; None when there is none. Compared as the companion
    compares them, as texts (web.record): a match "finished in 9999" would never become the
    club's record, and would come after every match in the ratings' order."""
    limit = (datetime.now(timezone.utc) + CLOCKS_DIFFER).isoformat(timespec="seconds")
    for table, key, columns in _TIMES:
        for column in columns:
            row = db.execute(f"SELECT {key}, {column} FROM {table} WHERE {column} > ? LIMIT 1",
                             [limit]).fetchone()
            if row:
                return said("a time in it is in the future ({table}, row {id}: {time}); if this "
                            "computer's clock is behind, set it right first",
                            table=table, id=row[0], time=str(row[1]))
    return None
