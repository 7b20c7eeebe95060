"""Who may change a score: a match's edit PIN, entered once per phone, and its rate limit.

Without a PIN a match is open to every phone at the table. With one, a phone can watch but not
record, edit or delete until the PIN is entered; the phone then keeps it in its signed session
cookie. Wrong PINs are counted per address and match: five in a minute and the next tries wait.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from functools import wraps
from typing import Callable

from flask import redirect, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from . import store

TRIES = 5
WINDOW = 60.0

_failures: dict[tuple[str, int], deque[float]] = defaultdict(deque)
_lock = threading.Lock()


def hash_pin(pin: str) -> str:
    return generate_password_hash(pin)


def unlocked(match_id: int) -> bool:
    return match_id in session.get("unlocked", [])


def needs_pin(match_id: int) -> bool:
    """True when the match has a PIN that this phone has not entered."""
    if not 0 < match_id <= store.MAX_ID:
        return False
    row = store.get_db().execute("SELECT pin_hash FROM matches WHERE id = ?", [match_id]).fetchone()
    return bool(row and row[0]) and not unlocked(match_id)


class TooManyTries(Exception):
    pass


def try_pin(match_id: int, pin: str) -> bool:
    """Check a PIN; remember it for this phone when right. Raises TooManyTries when this address
    has failed too often for this match in the last minute."""
    key = (request.remote_addr or "?", match_id)
    with _lock:
        recent = _failures[key]
        while recent and time.monotonic() - recent[0] > WINDOW:
            recent.popleft()
        if len(recent) >= TRIES:
            raise TooManyTries()
    row = store.get_db().execute("SELECT pin_hash FROM matches WHERE id = ?", [match_id]).fetchone()
    if row and row[0] and check_password_hash(row[0], pin or ""):
        session["unlocked"] = sorted({*session.get("unlocked", []), match_id})
        session.permanent = True
        return True
    with _lock:
        _failures[key].append(time.monotonic())
    return False


def pin_required(view: Callable) -> Callable:
    """Send a phone without the match's PIN to the PIN page, then back here."""
    @wraps(view)
    def guarded(match_id: int, *args, **kwargs):
        if needs_pin(match_id):
            return redirect(url_for("table.enter_pin", match_id=match_id, next=request.full_path), code=303)
        return view(match_id, *args, **kwargs)
    return guarded
