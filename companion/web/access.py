"""Who may change a score: a match's edit PIN, entered once per phone, and its rate limits.

Without a PIN a match is open to every phone at the table. With one, a phone can watch but not
record, edit or delete until the PIN is entered; the phone's signed session cookie then keeps
the match's *access key*, a random key made with the match and kept in its row: a restored store
or another store with a match of the same number never honours it.

Wrong PINs are limited per secret, not per match: a tournament's tables and a series of
rematches share one PIN, and guessing it takes as long as guessing one match's. Per address and
PIN 5 tries a minute; per PIN, whatever the address, 20 an hour (behind a proxy, or from many
addresses, a PIN of 4 digits still takes about 250 hours of guessing for even odds). An address
that entered the PIN right in the last 12 hours (a scorer's program sends it with every save)
is not held by the others' wrong tries, only by its own: a hostile guest cannot stop the night. A try is counted before the PIN is checked, in the same step as the
limit is checked, so a burst of tries at once cannot pass the limit; a phone already unlocked
never needs a try, so nobody's wrong guesses lock it out.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import defaultdict, deque
from functools import wraps
from typing import Callable

from flask import redirect, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from .. import store

LIMITS = {"address": (5, 60.0), "secret": (20, 3600.0)}   # tries, in seconds
TRUSTED_FOR = 12 * 3600.0       # an address that entered a PIN right is trusted this long

_tries: dict[tuple, deque[float]] = defaultdict(deque)
_trusted: dict[tuple[str, str], float] = {}     # (address, PIN hash): until when
_lock = threading.Lock()


def hash_pin(pin: str) -> str:
    return generate_password_hash(pin)


def new_access_key() -> str:
    return secrets.token_urlsafe(16)


def unlocked(match_id: int) -> bool:
    """This phone entered the PIN of this very match (not of another with its number)."""
    access = store.pin_and_key(store.get_db(), match_id)
    return bool(access and access[1] and access[1] in session.get("unlocked", []))


def needs_pin(match_id: int) -> bool:
    """True when the match has a PIN that this phone has not entered."""
    access = store.pin_and_key(store.get_db(), match_id)
    return bool(access and access[0]) and not unlocked(match_id)


class TooManyTries(Exception):
    """Too many wrong tries: ``wait`` is how many seconds until the next one is taken."""

    def __init__(self, wait: float = 60.0):
        super().__init__(wait)
        self.wait = max(1, math.ceil(wait))


def _take_a_try(secret: str) -> list[tuple]:
    """Count one try at ``secret`` (a PIN's hash) against every limit that holds this address,
    or raise TooManyTries saying how long until the next is taken: one step under one lock."""
    now = time.monotonic()
    address = request.remote_addr or "?"
    keys = [("address", address, secret)]
    with _lock:
        if _trusted.get((address, secret), 0.0) < now:
            keys.append(("secret", secret))
        waits = []
        for key in keys:
            tries, window = LIMITS[key[0]]
            recent = _tries[key]
            while recent and now - recent[0] > window:
                recent.popleft()
            if len(recent) >= tries:        # free again when the try that filled it is old
                waits.append(recent[len(recent) - tries] + window - now)
        if waits:
            raise TooManyTries(max(waits))
        for key in keys:
            _tries[key].append(now)
    return keys


def _give_back(keys: list[tuple], secret: str) -> None:
    """A right PIN does not count against the limits, and its address is trusted a while."""
    with _lock:
        for key in keys:
            if _tries[key]:
                _tries[key].pop()
        _trusted[(request.remote_addr or "?", secret)] = time.monotonic() + TRUSTED_FOR


def try_pin(match_id: int, pin: str) -> bool:
    """Check a PIN; remember the match's access key for this phone when right. Raises
    TooManyTries when this address, or anyone, has tried too often for this match."""
    access = store.pin_and_key(store.get_db(), match_id)
    if not access or not access[0] or not _right_pin(access[0], pin):
        return False
    _remember(access[1])
    session.permanent = True
    return True


def _right_pin(pin_hash: str, pin: str | None) -> bool:
    """Whether ``pin`` is the one hashed, counted against that PIN's limits (whichever match or
    tournament it guards); a right PIN gives its try back."""
    counted = _take_a_try(pin_hash)
    if check_password_hash(pin_hash, pin or ""):
        _give_back(counted, pin_hash)
        return True
    return False


def _remember(key: str) -> None:
    """This phone holds ``key`` (a match's access key, or a tournament's) from now on; it keeps
    the last 50."""
    session["unlocked"] = [*session.get("unlocked", [])[-49:], key]


def unlock_new(access_key: str) -> None:
    """The phone that creates a match with a PIN may record in it."""
    _remember(access_key)


def pin_required(view: Callable) -> Callable:
    """Send a phone without the match's PIN to the PIN page, then back here."""
    @wraps(view)
    def guarded(match_id: int, *args, **kwargs):
        if needs_pin(match_id):
            return redirect(url_for("table.enter_pin", match_id=match_id, next=request.full_path), code=303)
        return view(match_id, *args, **kwargs)
    return guarded


def tournament_unlocked(tournament_id: int, pin_hash: str | None) -> bool:
    """A tournament without a PIN is open; with one, to the phone that made it or entered it."""
    return not pin_hash or f"t{tournament_id}:{pin_hash[-16:]}" in session.get("unlocked", [])


def try_tournament_pin(tournament_id: int, pin_hash: str | None, pin: str | None) -> bool:
    """Check a tournament's PIN, within the same limits as a match's; remember it when right."""
    if not pin_hash:
        return True
    if not _right_pin(pin_hash, pin):
        return False
    unlock_tournament(tournament_id, pin_hash)
    return True


def unlock_tournament(tournament_id: int, pin_hash: str) -> None:
    _remember(f"t{tournament_id}:{pin_hash[-16:]}")
    session.permanent = True
