"""Who is the organiser: the person running the night, who alone changes what belongs to the whole
club (renaming and merging players, tournaments, any match whatever its PIN, the backups).

The organiser is
- the machine that runs the companion (``is_local``), always;
- a phone that opened the organiser's link, or typed its code on /organiser, until it logs out.
  Its signed cookie keeps a random key of its own, never the code; the store keeps the key's
  hash (``store.organiser``). So a restart, which prints a fresh code, does not log the
  organiser's phone out in the middle of a night (the code only lets a phone in; logging out,
  or *Log out every phone*, is what takes the key back), and a logged-out cookie copied
  beforehand is worth nothing;
- a program that sends the code in the ``X-Scopa-Organiser`` header, with each request.

The code is ``ORGANISER_CODE`` in the app's config: the ``scopa-companion`` command sets a fresh
one at each start, or the club's own (``--organiser-pin``). Without one (the tests, ``flask
run``) only the machine itself is the organiser.

Wrong codes are limited per address only, 5 a minute and 20 an hour, checked in constant time.
No limit counts everyone's tries together: that is the limit a guest could fill from a few
addresses to lock the right code out for the night. The code is long instead: a fresh one is 6
characters out of 31 (887 million), so 100 addresses at 20 tries an hour need about 25 years for
even odds. A phone that is already the organiser's, and the machine, never try at all.
"""

from __future__ import annotations

import hmac
import secrets
import sqlite3
import threading
import time
from collections import defaultdict, deque
from functools import wraps
from typing import Any, Callable

from flask import Flask, current_app, g, has_request_context, render_template, request, session

from .. import store
from .pages import is_local, on_this_site

HEADER = "X-Scopa-Organiser"
SESSION_KEY = "organiser"
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"    # no 0/O, 1/I/L: read aloud or typed, never mixed up
LIMITS = ((5, 60.0), (20, 3600.0))              # (tries, in seconds), for each address

_tries: dict[str, deque[float]] = defaultdict(deque)
_lock = threading.Lock()


def new_code() -> str:
    """A fresh code, as ``K7P-2QX``: six characters, the dash only for reading."""
    drawn = "".join(secrets.choice(ALPHABET) for _ in range(6))
    return f"{drawn[:3]}-{drawn[3:]}"


def normalised(code: str) -> str:
    """A code as typed (lower case, spaces, dashes) as it is compared: "k7p 2qx" is K7P-2QX."""
    return "".join(ch for ch in code.upper() if not ch.isspace() and ch != "-")


class TooManyCodes(Exception):
    """This address sent too many wrong codes: ``wait`` seconds before the next try counts."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = wait


def _take_a_try(address: str) -> None:
    """Count one try for this address, or raise TooManyCodes saying how long until one frees."""
    now = time.monotonic()
    with _lock:
        recent = _tries[address]
        longest = max(window for _, window in LIMITS)
        while recent and now - recent[0] > longest:
            recent.popleft()
        for tries, window in LIMITS:
            inside = [moment for moment in recent if now - moment <= window]
            if len(inside) >= tries:
                raise TooManyCodes(window - (now - inside[-tries]))
        recent.append(now)
        if len(_tries) > 10_000:            # addresses that stopped trying: forgotten
            for stale in [a for a, d in _tries.items() if not d or now - d[-1] > longest]:
                del _tries[stale]


def _give_back(address: str) -> None:
    with _lock:
        if _tries[address]:
            _tries[address].pop()


def right_code(code: Any) -> bool:
    """Whether ``code`` is the organiser's, counted against this address's limits (a right code
    gives its try back). False when no code is set. Raises TooManyCodes."""
    expected = current_code()
    if not expected:
        return False
    address = request.remote_addr or "?"
    _take_a_try(address)
    given = normalised(code) if isinstance(code, str) else ""
    if hmac.compare_digest(given.encode(), normalised(expected).encode()):
        _give_back(address)
        return True
    return False


def current_code() -> str | None:
    return current_app.config.get("ORGANISER_CODE") or None


def _phone_key() -> str | None:
    key = session.get(SESSION_KEY)
    return key if isinstance(key, str) else None


def is_this_phone() -> bool:
    """This phone logged in as the organiser (whatever the machine or a header say)."""
    key = _phone_key()
    if not key:
        return False
    try:
        return store.is_organiser_phone(store.get_db(), key)
    except (store.StorageError, sqlite3.Error):     # a store that cannot be read: nobody's
        return False


def is_organiser() -> bool:
    """The machine itself, a phone logged in as the organiser, or a request with the right code
    in X-Scopa-Organiser. Worked out once per request; a header with too many wrong codes
    behind it leaves ``g.organiser_wait`` (seconds) for the answer to say."""
    if "organiser" not in g:
        g.organiser = is_local() or is_this_phone()
        if not g.organiser and request.headers.get(HEADER) is not None:
            try:
                g.organiser = right_code(request.headers[HEADER])
            except TooManyCodes as limit:
                g.organiser_wait = limit.wait
    return g.organiser


def log_in() -> None:
    """This phone is the organiser's from now on, until it logs out."""
    key = secrets.token_urlsafe(24)
    store.add_organiser_phone(store.get_db(), key)
    session[SESSION_KEY] = key
    session.permanent = True
    g.pop("organiser", None)


def log_out() -> None:
    """This phone is no longer the organiser's: its key is taken back, not only forgotten."""
    key = session.pop(SESSION_KEY, None)
    if isinstance(key, str):
        store.remove_organiser_phone(store.get_db(), key)
    g.pop("organiser", None)


def _referrer() -> str:
    """The page the request came from, when it is this site's; else empty."""
    referrer = request.referrer or ""
    root = request.host_url.rstrip("/")
    return on_this_site(referrer[len(root):] if referrer.startswith(root) else "", "")


def refuse(message: str):
    """The page a phone that is not the organiser's gets instead: 403, with what to ask for and
    the way to type the code (then on to this page, or for a form, the page it was sent from)."""
    back = _referrer()
    after = request.full_path.rstrip("?") if request.method == "GET" else back
    return render_template("organiser_only.html", message=message, after=after, back=back), 403


def organiser_required(message: Callable[[], str]) -> Callable[[Callable], Callable]:
    """Only the organiser gets through; another phone gets ``message()`` (in its language, such as
    "Ask the organiser to rename a player.") on a 403 page, and nothing changes."""
    def guard(view: Callable) -> Callable:
        @wraps(view)
        def guarded(*args, **kwargs):
            if not is_organiser():
                return refuse(message())
            return view(*args, **kwargs)
        return guarded
    return guard


def init_app(app: Flask) -> None:
    """``organiser`` in every page: whether this phone sees the organiser's controls. Worked out
    before the page renders (a template never reads the store)."""
    @app.context_processor
    def organiser_of_the_page() -> dict[str, Any]:
        return {"organiser": has_request_context() and is_organiser()}
