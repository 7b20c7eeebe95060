"""Who may change a score: a match's edit PIN, entered once per phone, and its rate limits.

Without a PIN a match is open to every phone at the table. With one, a phone can watch but not
record, edit or delete until the PIN is entered; the phone's signed session cookie then keeps
the match's *access key*, a random key made with the match and kept in its row: a restored store
or another store with a match of the same number never honours it.

Wrong PINs are limited per address only (``web.limits``: 5 a minute, 10 an hour), never per
PIN: a scorer who knows a tournament's or a match's PIN is never refused because of other
addresses' wrong tries. A PIN is 6 to 8 digits (``names.PIN_MIN``; older ones of 4 or 5 still
work), so 100 addresses trying all night still guess it with less than 1% odds
(docs/running.md). A right PIN does not count, and a phone already unlocked never needs a try.
Nor does the organiser, who holds every match's keys (``organiser``).

A right PIN costs its hash (scrypt: 100 to 250 ms of a core) once, not at every request: a
program sending ``X-Scopa-PIN`` with each hand keeps no cookie, and 16 connections doing so
took the phones' saves from 7 ms to a second (issue 41). So a PIN found right is remembered
for a night (``_right``) by the match's PIN hash and an HMAC of the PIN under a key made at
each start, never the PIN itself: the next time the same PIN costs an HMAC, a few
microseconds. The memory is bounded (4,096 PINs, the oldest forgotten first) and a changed PIN
(a new hash) is never taken for the old one. Wrong PINs are not remembered: each is checked,
and counted.

A PIN not remembered waits its turn for its hash, one at a time in a process, and the addresses
with no wrong PIN this hour go first (``_right_pin``): 20 guessing addresses made a table's first
right PIN wait 6.0 s behind their hashes (issue 41, r41-last).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from functools import wraps
from typing import Callable

from cachetools import TTLCache
from flask import Flask, current_app, has_app_context, redirect, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from ..store import reads as store
from ..store.checks import hash_method_fits
from . import limits
from .limits import Limited, checked, match_deletes, new_matches
from .organiser import is_organiser
from .pages import back_here
from .turns import Turns

# On a view that makes a match (the page, a rematch, the API): 20 an hour per address, the
# organiser not limited (web.limits).
new_match_limit = new_matches(exempt=is_organiser)
# On the view that deletes a match: 5 an hour per address, the organiser not limited.
match_delete_limit = match_deletes(exempt=is_organiser)


def hash_pin(pin: str) -> str:
    """The PIN hashed by werkzeug, with the app's ``PIN_HASH_METHOD`` (settings: werkzeug's own
    default, scrypt, unless set; the tests set a cheap one). ``check_password_hash`` reads a hash
    of any method, so checking a PIN is the same code whatever made its hash. Outside an app
    (a script), werkzeug's default."""
    method = current_app.config.get("PIN_HASH_METHOD") if has_app_context() else None
    return generate_password_hash(pin, method) if method else generate_password_hash(pin)


def check_hash_method(app: Flask) -> None:
    """Refuse to start with a ``PIN_HASH_METHOD`` whose hashes a restore of the store would
    refuse (``store.checks``: werkzeug's shapes, at costs no higher than its defaults) or that
    werkzeug does not know: a backup made with it could not be restored."""
    method = app.config.get("PIN_HASH_METHOD")
    if method and not hash_method_fits(method):
        raise ValueError(f"PIN_HASH_METHOD {method!r}: not a method of werkzeug's whose hashes "
                         f"a restore accepts (such as scrypt, or pbkdf2:sha256:600000)")


def new_access_key() -> str:
    return secrets.token_urlsafe(16)


def unlocked(match_id: int) -> bool:
    """This phone may record in this match: it entered the PIN of this very match (not of
    another with its number), or it is the organiser's, who may correct any match."""
    if is_organiser():
        return True
    access = store.pin_and_key(store.get_db(), match_id)
    return bool(access and access[1] and access[1] in session.get("unlocked", []))


def needs_pin(match_id: int) -> bool:
    """True when the match has a PIN that this phone has not entered (the organiser never
    needs one)."""
    access = store.pin_and_key(store.get_db(), match_id)
    return bool(access and access[0]) and not unlocked(match_id)


class TooManyTries(Limited):
    """Too many wrong PINs from this address: ``wait`` is how many seconds until the next one
    is taken."""

    def __init__(self, wait: float = 60.0):
        super().__init__(wait)


def try_pin(match_id: int, pin: str) -> bool:
    """Check a PIN; remember the match's access key for this phone when right. Raises
    TooManyTries when this address has tried too many wrong PINs."""
    pin_hash, key = store.pin_and_key(store.get_db(), match_id) or (None, None)
    # Every match has its access key (migration 005 gave the older ones theirs): one without
    # would honour no phone's, PIN or not.
    if not pin_hash or not key or not _right_pin(pin_hash, pin):
        return False
    _remember(key)
    session.permanent = True
    return True


def try_key(match_id: int, key: str) -> bool:
    """A scorer's link from the organiser's page (``key``, the match's access key): when it is
    this match's, this phone records in it from now on, no PIN typed. A wrong key counts as a
    wrong PIN (there is nothing to guess in 128 random bits, but nothing is tried for free)."""
    _pin_hash, expected = store.pin_and_key(store.get_db(), match_id) or (None, None)
    if not expected:
        return False
    if not checked("pin", lambda: hmac.compare_digest(expected.encode(), key.encode()), TooManyTries):
        return False
    _remember(expected)
    session.permanent = True
    return True


# PINs found right: (the match's PIN hash, HMAC of the PIN) -> True, for a night (see above).
_right: TTLCache[tuple[str, bytes], bool] = TTLCache(maxsize=4096, ttl=12 * 3600)
_right_lock = threading.Lock()
_RIGHT_KEY = secrets.token_bytes(32)
# One PIN hashed at a time in a process: sixteen connections sending the same right PIN at
# once hashed it sixteen times (16 MB of memory and a core's 100-250 ms each) before the first
# was remembered; now the first hashes it and the others find it remembered when their turn
# comes, and wrong PINs take a core at most between them. The turns go to the addresses with
# the fewest wrong PINs this hour first (``_rank``): 20 wrong PINs sent at once from 20
# addresses made a table's first right PIN wait 6.0 s behind them (issue 41).
_hashing = Turns()
_LAST = max(item.amount for item in limits.TRIES)      # the rank of an address with no try left


def _rank() -> int | None:
    """This address's place in the queue for a hash: its wrong PINs this hour (0 for a phone
    that has not been wrong), or None when it is refused at once (another site's page sent it,
    or it has no try left). Read from the limits' own windows (the file the processes share,
    with several)."""
    return limits.wrong_tries("pin")


def _right_pin(pin_hash: str, pin: str | None) -> bool:
    """Whether ``pin`` is the one hashed; a wrong one counts against this address's tries. A
    PIN found right before costs an HMAC, not its hash (see above).

    A PIN not remembered waits for its turn to be hashed, one at a time in a process, before
    its address's tries are looked at (``checked``, which takes the address's lock, one among
    64 that addresses share: taken while waiting, a clean address sharing its lock with a
    guessing one would wait the whole queue). An address with no wrong PIN this hour goes
    before any with one (then the fewer wrong, then the first come): with any number N of
    guessing addresses, a clean address's right PIN waits for the hash in progress (100-250 ms
    of scrypt) and the clean ones queued before it, not for the N, as long as its process has a
    thread free for it (8 each: while more than 8 PIN checks wait in a process, the next request
    waits for a thread, and one is freed with each hash); with several processes, it may also
    wait for one hash of another process whose address shares its lock. Each address is clean
    for its first wrong PIN of the hour only."""
    seen = (pin_hash, hmac.new(_RIGHT_KEY, (pin or "").encode(), "sha256").digest())

    def right() -> bool:
        with _right_lock:
            if _right.get(seen):
                return True
        if not check_password_hash(pin_hash, pin or ""):
            return False
        with _right_lock:
            _right[seen] = True
        return True

    with _right_lock:
        if _right.get(seen):
            return True
    rank = _rank()
    if rank is None:        # refused at once; or, its minute just over, hashed after all others
        limits.refused("pin", TooManyTries)
        rank = _LAST
    # The turn first, then the address's lock (``checked``), always in that order: taken the
    # other way round (the lock held while waiting for a turn), the next in the queue, at an
    # address sharing the lock, took the turn and waited for the lock, and nothing was hashed
    # in that process again.
    with _hashing.turn(rank):
        return checked("pin", right, TooManyTries)


def _remember(key: str) -> None:
    """This phone holds ``key`` (a match's access key) from now on; it keeps the last 50 (the
    organiser, who starts a tournament's rounds, needs none of its tables' keys)."""
    session["unlocked"] = [*session.get("unlocked", [])[-49:], key]


def unlock_new(access_key: str) -> None:
    """The phone that creates a match with a PIN may record in it."""
    _remember(access_key)


def pin_required(view: Callable) -> Callable:
    """Send a phone without the match's PIN to the PIN page, then back here. The organiser goes
    through: a tournament's table, or a match in play with a PIN, is theirs to correct,
    archive or delete."""
    @wraps(view)
    def guarded(match_id: int, *args, **kwargs):
        if needs_pin(match_id):
            return pin_page(match_id, back_here())
        return view(match_id, *args, **kwargs)
    return guarded


def pin_page(match_id: int, back: str):
    """The PIN page for a phone that may not record in the match yet, then back to ``back``:
    where ``pin_required`` sends it, and a view that records outside ``/matches/<id>`` (the
    referee's claim) when ``needs_pin``."""
    return redirect(url_for("table.enter_pin", match_id=match_id, next=back), code=303)
