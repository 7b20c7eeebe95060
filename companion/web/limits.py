"""How often a phone may try: wrong PINs, wrong organiser's codes, new matches, deleted matches.
The ``limits`` library's moving windows, kept in memory.

- A PIN (``web.access``) or an organiser's code (``web.organiser``): 5 wrong tries a minute and
  10 an hour per address, never per PIN or per code across addresses: whoever knows a PIN is
  never refused because of other addresses' wrong tries. A right one does not count: the
  wrong ones are counted after the check, and the tries of one address are checked one at a
  time (a lock per address, among 64), so a burst of tries at once cannot pass the limit.
- A new match (the page, a rematch, the API): 20 an hour per phone; a match deleted (the page;
  the API deletes no match): 5 an hour per phone. A phone is its cookie's own id
  (``phone.phone_id``): a club behind one address (a relay, a NAT, a captive portal) is not one
  phone, where one guest used the club's 20 new matches in a second (issue 41, finding 4).
  A phone that drops its cookie is a new phone, so the address keeps a ceiling on its new
  phones: 30 an hour start or delete a match (``NEW_PHONES``). Each that does is known for a
  night (``phone.known``: its signed cookie says so) and from then counts against its own
  limits only: a guest who spends the ceiling with fresh cookies refuses only other new phones
  at that address, never a phone of the club that has started or deleted a match tonight.
  Requests with no cookie at all (a program that keeps none) share one phone per address, not
  counted among its new phones; the cookie each is given is known. The organiser is not limited.
- A code or a PIN sent from another site's page (``Sec-Fetch-Site`` cross-site or same-site, or
  an ``Origin`` that is not this host: five ``<img>`` of ``/organiser?code=WRONG`` in any page a
  member opened locked that address out) is refused without being checked, and never counts
  (``FromAnotherSite``). Over plain http to a club's box a browser sends neither header, so a
  link carrying a code checks nothing itself either: it answers a page that posts the code back
  with its CSRF token, and only that post counts (``templates/link_opened.html``): another
  site's ``<img>`` or frame checks nothing, and its form has no token.

An IPv6 address counts whole, not by its /64: every phone on a Wi-Fi shares the network's /64
(and every link-local fe80::/64), so counting by it would let one guest hold the whole club. A
guest who gives its phone many IPv6 addresses escapes the count: docs/running.md says so, and
the companion listens on IPv4 by default.

The organiser sees who is held (``held``: the address or the phone, what, until when) on the
organiser's page, and lets them try again (``lift``). The state is bounded: a moving window
keeps at most its limit's number of moments per key, the storage drops a key once its last
moment is older than its window (an hour at most), and ``_seen`` (who was counted, for the
organiser's list) holds 4,096 keys for an hour at most (in the shared file, with several
processes, an hour each).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import wraps
from typing import TYPE_CHECKING, Callable
from urllib.parse import urlsplit

from cachetools import TTLCache
from flask import Flask, Response, current_app, g, jsonify, make_response, render_template, request
from flask_babel import gettext as _, ngettext
from limits import RateLimitItem, parse, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..i18n import for_api
from ..rules.said import said, said_n
from .phone import known, made_known, phone_id

if TYPE_CHECKING:       # limit_store locks with fcntl, which Windows lacks: imported when shared
    from .limit_store import SQLiteStorage

TRIES = parse_many("5/minute;10/hour")      # wrong PINs, and wrong organiser's codes, each
NEW_MATCHES = parse("20/hour")      # per phone
DELETES = parse("5/hour")           # per phone
# Per address: the phones not known yet (``phone.known``) that start or delete a match. A club
# has a few dozen phones, and only those that start a match or delete one are counted, once a
# night each.
NEW_PHONES = parse("30/hour")
KINDS = ("pin", "organiser code", "new matches", "match deletes", "new phones")

# In memory, or, when the companion serves with several processes, in a SQLite file they share
# (``shared_between_processes``, ``limit_store``).
_windows = MovingWindowRateLimiter(MemoryStorage())
_stripes = [threading.Lock() for _ in range(64)]
SEEN_FOR = 3600


class Seen:
    """Who was counted: (kind, "address" or "phone", key) -> the address it was counted from,
    whom the organiser's list may name, for as long as a window holds (an hour). In memory; with
    several processes, ``limit_store.SQLiteStorage`` keeps it in their shared file with the same
    four methods."""

    def __init__(self) -> None:
        self._kept: TTLCache[tuple[str, str, str], str] = TTLCache(maxsize=4096, ttl=SEEN_FOR)
        self._lock = threading.Lock()

    def saw(self, kind: str, scope: str, key: str, address: str, ttl: float) -> None:
        with self._lock:
            self._kept[(kind, scope, key)] = address

    def seen(self) -> list[tuple[tuple[str, str, str], str]]:
        with self._lock:
            return list(self._kept.items())

    def forget_seen(self, kind: str, scope: str, key: str) -> bool:
        with self._lock:
            return self._kept.pop((kind, scope, key), None) is not None

    def forget_all_seen(self) -> None:
        with self._lock:
            self._kept.clear()


_seen: Seen | SQLiteStorage = Seen()


def address_key() -> str:
    """Whose tries these are: the request's address (the phone's, or the trusted proxy's word
    for it), written one way (an IPv6 address whole: see above)."""
    address = request.remote_addr or "?"
    try:
        parsed = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if parsed.version == 6 and parsed.ipv4_mapped:      # ::ffff:192.168.1.23 is 192.168.1.23
        return str(parsed.ipv4_mapped)
    return str(parsed)


def sent_from_another_site() -> bool:
    """The browser says a page of another site sent this request: Sec-Fetch-Site (another
    origin, even of the same site), or an Origin that is not this host."""
    if request.headers.get("Sec-Fetch-Site", "").lower() in ("cross-site", "same-site"):
        return True
    origin = request.headers.get("Origin")
    return origin is not None and urlsplit(origin).netloc.lower() != request.host.lower()


class Limited(Exception):
    """Too many tries from this address: ``wait``, whole seconds until the next is taken."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = max(1, math.ceil(wait))


class FromAnotherSite(Exception):
    """A code or a PIN sent by another site's page: not checked, not counted."""


class TooMany(Limited):
    """Too many new matches (or deletes: ``kind``) from this phone, or, ``scope`` "address", too
    many new phones at its address."""

    def __init__(self, kind: str, wait: float, scope: str = "phone"):
        super().__init__(wait)
        self.kind = kind
        self.scope = scope


def _one_at_a_time(key: str):
    """The tries of one key checked one at a time: a lock among 64 in this process, and, where
    the counts are shared between processes, across them too (``limit_store``)."""
    shared = getattr(_windows.storage, "locked", None)
    return shared(key) if shared else _stripes[hash(key) % len(_stripes)]


def shared_between_processes(folder: str) -> None:
    """The counts kept in a SQLite file in ``folder``, which every serving process forked from
    this one uses (``companion.processes``): a guest's tries count the same whichever process
    answers them; so is who was counted, for the organiser's list of who is held."""
    global _windows, _seen
    from .limit_store import SCHEME, SQLiteStorage
    storage = SQLiteStorage(f"{SCHEME}://{folder}/limits.sqlite")
    _windows, _seen = MovingWindowRateLimiter(storage), storage


def _enabled() -> bool:
    return bool(current_app.config.get("RATELIMIT_ENABLED", True))


def _counted(items: list[RateLimitItem], kind: str, scope: str, key: str) -> None:
    for item in items:
        _windows.hit(item, kind, scope, key)
    _seen.saw(kind, scope, key, address_key(), SEEN_FOR)


def _wait(items: list[RateLimitItem], kind: str, scope: str, key: str) -> float:
    """Seconds until ``key`` may try ``kind`` again; 0 when it may now."""
    waits = [_windows.get_window_stats(item, kind, scope, key).reset_time - time.time()
             for item in items if not _windows.test(item, kind, scope, key)]
    return max(waits, default=0.0)


def checked(kind: str, right: Callable[[], bool], refusal: type[Limited] = Limited) -> bool:
    """``right()`` (a PIN's or a code's check), counted against this address's tries of
    ``kind`` when it is wrong. Raises ``refusal`` (a Limited), checking nothing, when the
    address has none left; FromAnotherSite, checking and counting nothing, for a request
    another site's page sent."""
    if sent_from_another_site():
        raise FromAnotherSite()
    key = address_key()
    with _one_at_a_time(key):
        if _enabled():
            wait = _wait(TRIES, kind, "address", key)
            if wait > 0:
                raise refusal(wait)
        if right():
            return True
        if _enabled():
            _counted(TRIES, kind, "address", key)
        return False


def _limited(kind: str, item: RateLimitItem, exempt: Callable[[], bool],
             done: Callable[[Response], bool]) -> Callable[[Callable], Callable]:
    """A view's POST counted against this phone's ``kind`` (``item``), and, for a phone not
    known yet, against its address's new phones, when ``done`` says its answer did it; refused
    (TooMany) before it runs when either has none left. The posts of one address are taken one
    at a time, so that a burst cannot pass the limit."""
    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def limited(*args, **kwargs):
            if request.method != "POST" or not _enabled() or exempt():
                return view(*args, **kwargs)
            address = address_key()
            # A request with no cookie at all (a program, a script) is its address's one phone
            # without a cookie; its own id is made now too, and counted, so that it carries its
            # count on in the cookie it is given. That phone is bounded by its own limit, so it
            # is not counted among the address's new phones (a program would use them up); the
            # cookie it is given is known, as a new phone's is (at most 20 an hour an address).
            cookieless = current_app.config["SESSION_COOKIE_NAME"] not in request.cookies
            phone = phone_id()
            new = not cookieless and not known()
            keys = [(kind, item, "phone", f"no cookie at {address}" if cookieless else phone)]
            if new:
                keys.append(("new phones", NEW_PHONES, "address", address))
            with _one_at_a_time(address):
                waits = [(_wait([limit], what, scope, key), scope) for what, limit, scope, key in keys]
                wait, scope = max(waits)
                if wait > 0:
                    raise TooMany(kind, wait, scope)
                answer = make_response(view(*args, **kwargs))
                if done(answer):
                    for what, limit, scope, key in keys + ([(kind, item, "phone", phone)] if cookieless else []):
                        _counted([limit], what, scope, key)
                    if cookieless or new:
                        made_known()
            return answer
        return limited
    return decorator


def new_matches(exempt: Callable[[], bool]) -> Callable[[Callable], Callable]:
    """The limit on new matches, for a view that makes one (pages and API share it): counted
    when a match is made (a 201, or the 303 to it), not for a form refused."""
    return _limited("new matches", NEW_MATCHES, exempt, lambda answer: answer.status_code in (201, 303))


def match_deletes(exempt: Callable[[], bool]) -> Callable[[Callable], Callable]:
    """The limit on deleting a match: counted only when the view says a match was deleted
    (``deleted_one``), not for a confirmation asked again, a tournament's table refused or a
    PIN asked for."""
    return _limited("match deletes", DELETES, exempt, lambda answer: bool(g.get("scopa_deleted_match")))


def deleted_one() -> None:
    """This request deleted a match: it counts against its phone's and address's deletes."""
    g.scopa_deleted_match = True


# -- Who is held, for the organiser ---------------------------------------------------------------

@dataclass(frozen=True)
class Held:
    """A phone or an address held by a limit: ``kind`` (one of KINDS), ``scope`` ("phone" or
    "address"), ``key`` (the phone's id or the address), the ``address`` it was counted from,
    and ``until`` (seconds since the epoch)."""
    kind: str
    scope: str
    key: str
    address: str
    until: float

    @property
    def until_stamp(self) -> str:
        """``until`` as the store writes a time (ISO, UTC), for ``i18n.when``."""
        return datetime.fromtimestamp(self.until, timezone.utc).isoformat(timespec="seconds")


def _items(kind: str) -> list[RateLimitItem]:
    return {"new matches": [NEW_MATCHES], "match deletes": [DELETES], "new phones": [NEW_PHONES]}.get(kind, list(TRIES))


def held() -> list[Held]:
    """Every phone and address held now, the longest held first."""
    found = []
    for (kind, scope, key), address in _seen.seen():
        wait = _wait(_items(kind), kind, scope, key)
        if wait > 0:
            found.append(Held(kind, scope, key, address, time.time() + wait))
    return sorted(found, key=lambda h: -h.until)


def lift(kind: str, scope: str, key: str) -> bool:
    """``key`` may try ``kind`` again at once: its count forgotten. False if it was not held."""
    if kind not in KINDS or scope not in ("phone", "address"):
        return False
    known = _seen.forget_seen(kind, scope, key)
    for item in _items(kind):
        _windows.clear(item, kind, scope, key)
    return known


def reset() -> None:
    """Every count forgotten (the tests' ``fresh_rate_limit``)."""
    _windows.storage.reset()
    _seen.forget_all_seen()


# -- Refusals in words -------------------------------------------------------------------------------

FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


def init_app(app: Flask) -> None:
    """A refused new match or delete, and a code or PIN from another site's page, answered in
    the phone's language; and, once, a word on the log when a proxy seems to be in front
    without --trust-proxy: every phone then has its address, and shares its limits."""
    @app.errorhandler(TooMany)
    def too_many(error: TooMany):
        minutes = max(1, math.ceil(error.wait / 60))
        retry = {"Retry-After": str(error.wait)}
        if error.scope == "address" and request.path.startswith("/api/"):
            return jsonify({"error": for_api(said_n(
                "too many new phones at this address this hour: wait {n} minute, then try again, "
                "or ask the organiser",
                "too many new phones at this address this hour: wait {n} minutes, then try again, "
                "or ask the organiser", minutes))}), 429, retry
        if error.scope == "address":        # a phone new here, among too many at its address
            return render_template("error.html", message=ngettext(
                "Too many phones new to the companion have started or deleted matches from this "
                "network this hour: wait %(num)d minute, then try again, or ask the organiser.",
                "Too many phones new to the companion have started or deleted matches from this "
                "network this hour: wait %(num)d minutes, then try again, or ask the organiser.",
                minutes)), 429, retry
        if error.kind == "match deletes":
            return render_template("error.html", message=ngettext(
                "Too many matches deleted from this phone: wait %(num)d minute, then try again, "
                "or ask the organiser.",
                "Too many matches deleted from this phone: wait %(num)d minutes, then try again, "
                "or ask the organiser.", minutes)), 429, retry
        if request.path.startswith("/api/"):
            return jsonify({"error": for_api(said_n(
                "too many new matches from this address: wait {n} minute, then try again",
                "too many new matches from this address: wait {n} minutes, then try again",
                minutes))}), 429, retry
        return render_template("error.html", message=ngettext(
            "Too many new matches from this phone: wait %(num)d minute, then try again.",
            "Too many new matches from this phone: wait %(num)d minutes, then try again.",
            minutes)), 429, retry

    @app.errorhandler(FromAnotherSite)
    def from_another_site(_error: FromAnotherSite):
        if request.path.startswith("/api/"):
            return jsonify({"error": for_api(said(
                "this request comes from another site's page: nothing was done"))}), 403
        return render_template("error.html", message=_(
            "This came from another site's page, so it was not tried: open the companion "
            "yourself and try again.")), 403

    @app.before_request
    def proxy_in_front() -> None:
        if (app.config.get("TRUST_PROXY") or app.extensions.get("scopa.proxy_said")
                or not any(header in request.headers for header in FORWARDING)):
            return
        app.extensions["scopa.proxy_said"] = True
        app.logger.warning(
            "scopa-companion: a request from %(peer)s carries forwarding headers (X-Forwarded-For): "
            "if a reverse proxy at %(peer)s is in front, every phone has its address and shares "
            "its limits on PINs, new and deleted matches; if that proxy sets X-Forwarded-For itself (nginx "
            "with proxy_set_header), start with --trust-proxy %(peer)s; never for a relay that "
            "passes the phones' own headers on (socat): docs/running.md. Said once.",
            {"peer": request.remote_addr})
