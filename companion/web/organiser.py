"""Who is the organiser: the person running the night, who alone changes what belongs to the whole
club (renaming and merging players, tournaments, any match whatever its PIN, the backups).

The organiser is
- a browser that opened the organiser's link, or typed its code on /organiser, for a night:
  until it logs out, or 12 hours after it was last used (``NIGHT``): a phone, or the machine
  that runs the companion, which opens the link the command prints for it ("On this machine").
  Its signed cookie keeps a random key of its own, never the code, and until when it holds;
  the store keeps the key's hash (``store.organiser``). So a restart, which prints a fresh
  code, does not log the organiser's phone out in the middle of a night (the code only lets a
  phone in; logging out, or *Log out every phone*, is what takes the key back), a logged-out
  cookie copied beforehand is worth nothing, and a phone left logged in (lent, lost, sold) is
  no longer the organiser's the next day. The rest of the cookie (the PINs a phone entered)
  lasts its 31 days;
- a program that sends the code in the ``X-Scopa-Organiser`` header, with each request.

No address is the organiser, not even the machine's own: a relay on the machine (socat,
stunnel, a proxy that adds no header or rewrites ``Host``) makes every phone's request come
from 127.0.0.1, and nothing tells it apart from the machine's own browser.

The code is ``ORGANISER_CODE`` in the app's config: the ``scopa-companion`` command sets a fresh
one at each start, or the club's own (``SCOPA_ORGANISER_PIN``, ``--organiser-pin-file``).
Without one (``flask run``) nobody is the organiser.

Wrong codes are limited per address only (``web.limits``: 5 a minute, 10 an hour), checked in
constant time. No limit counts everyone's tries together: that is the limit a guest could fill
from a few addresses to lock the right code out for the night. The code is long instead: a fresh
one is 6 characters out of 31 (887 million), so 100 addresses at 10 tries an hour need about 50
years for even odds. A phone that is already the organiser's never tries at all.
"""

from __future__ import annotations

import hmac
import secrets
import sqlite3
import time
from functools import wraps
from typing import Any, Callable, Mapping

from flask import Flask, current_app, g, has_request_context, render_template, request, session

from ..settings import normalised_code as normalised
from ..store import organiser as phones, reads as store
from .limits import FromAnotherSite, Limited, checked
from .pages import back_here, on_this_site

HEADER = "X-Scopa-Organiser"
SESSION_KEY = "organiser"
UNTIL_KEY = "organiser_until"       # when the key stops counting: seconds since the epoch
NIGHT = 12 * 3600                   # a night long, from the last use
RENEWED_AFTER = 10 * 60             # the cookie written again at most every 10 minutes of use
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"    # no 0/O, 1/I/L: read aloud or typed, never mixed up


def new_code() -> str:
    """A fresh code, as ``K7P-2QX``: six characters, the dash only for reading."""
    drawn = "".join(secrets.choice(ALPHABET) for _ in range(6))
    return f"{drawn[:3]}-{drawn[3:]}"


class TooManyCodes(Limited):
    """This address sent too many wrong codes: ``wait`` seconds before the next try counts."""


def right_code(code: Any) -> bool:
    """Whether ``code`` is the organiser's; a wrong one counts against this address's tries.
    False when no code is set. Raises TooManyCodes."""
    expected = current_code()
    if not expected:
        return False
    given = normalised(code) if isinstance(code, str) else ""
    return checked("organiser code", lambda: hmac.compare_digest(
        given.encode(), normalised(expected).encode()), TooManyCodes)


def current_code() -> str | None:
    return current_app.config.get("ORGANISER_CODE") or None


def _phone_key() -> str | None:
    """The organiser's key this phone's cookie holds, while its night lasts."""
    return key_in(session)


def key_in(cookie: Mapping) -> str | None:
    """The organiser's key a session cookie's contents hold, while its night lasts (also read
    before the app sees a request: ``web.precedence``). A cookie from before the night's limit
    (no ``UNTIL_KEY``) holds none: its phone opens the link again."""
    key, until = cookie.get(SESSION_KEY), cookie.get(UNTIL_KEY)
    if not isinstance(key, str):
        return None
    if not isinstance(until, (int, float)) or isinstance(until, bool) or until <= time.time():
        return None
    return key


def is_this_phone() -> bool:
    """This phone logged in as the organiser, within 12 hours of its last use (whatever the
    machine or a header say); its night starts again as it is used."""
    key = _phone_key()
    if not key:
        return False
    try:
        known = phones.is_organiser_phone(store.get_db(), key)
    except (store.StorageError, sqlite3.Error):     # a store that cannot be read: nobody's
        return False
    if known and session[UNTIL_KEY] - time.time() < NIGHT - RENEWED_AFTER:
        session[UNTIL_KEY] = int(time.time()) + NIGHT
    return known


def is_organiser() -> bool:
    """A browser logged in as the organiser, or a request with the right code in
    X-Scopa-Organiser (never an address). Worked out once per request; a header with too many
    wrong codes behind it leaves ``g.organiser_wait`` (seconds) for the answer to say."""
    if "organiser" not in g:
        g.organiser = is_this_phone()
        if not g.organiser and request.headers.get(HEADER) is not None:
            try:
                g.organiser = right_code(request.headers[HEADER])
            except TooManyCodes as limit:
                g.organiser_wait = limit.wait
            except FromAnotherSite:         # not tried: nobody's (web.limits)
                pass
    return g.organiser


def log_in() -> None:
    """This phone is the organiser's from now on, until it logs out or is left unused for 12
    hours."""
    key = secrets.token_urlsafe(24)
    phones.add_organiser_phone(store.get_db(), key)
    session[SESSION_KEY] = key
    session[UNTIL_KEY] = int(time.time()) + NIGHT
    session.permanent = True
    g.pop("organiser", None)


def log_out() -> None:
    """This phone is no longer the organiser's: its key is taken back, not only forgotten."""
    key = session.pop(SESSION_KEY, None)
    session.pop(UNTIL_KEY, None)
    if isinstance(key, str):
        phones.remove_organiser_phone(store.get_db(), key)
    g.pop("organiser", None)


def log_out_everyone() -> int:
    """Every phone is no longer the organiser's, this one too (a lost phone, another organiser
    next week): how many were."""
    return phones.remove_organiser_phones(store.get_db())


def _referrer() -> str:
    """The page the request came from, when it is this site's; else empty."""
    referrer = request.referrer or ""
    root = request.host_url.rstrip("/")
    return on_this_site(referrer[len(root):] if referrer.startswith(root) else "", "")


def refuse(message: str):
    """The page a phone that is not the organiser's gets instead: 403, with what to ask for and
    the way to type the code (then on to this page, or for a form, the page it was sent from)."""
    back = _referrer()
    after = back_here() if request.method == "GET" else back
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
