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
- A phone the organiser's QR of the night let in (``phone.admitted``, ``web.welcome``) counts
  against those limits of its own only: nothing another phone at its address does refuses it.
  Its address lets 60 phones in a night at most (``ADMISSIONS``), so that whoever holds the
  token makes at most 60 × 20 = 1,200 matches an hour there.
- Every other phone, new or known, also counts against its address's ceiling (``CEILINGS``):
  120 new matches and 20 deletes an hour. Nothing in a request tells a club's phone from a
  script behind the same address; the QR does, and the refusal says to ask for it. A phone
  that drops its cookie is a new phone, so the address also counts its new phones: 30 an hour
  that start or delete a match (``NEW_PHONES``); each that does is known for a night
  (``phone.known``), so that a guest with fresh cookies refuses the other new phones there
  before it fills the ceiling. Requests with no cookie at all (a program that keeps none)
  share one phone per address, not counted among its new phones; the cookie each is given is
  not known (each was a phone of its own: some 1,000 matches an hour from one address, in
  issue 41's last review), so it is a new phone when it comes back. The organiser is not
  limited. So one address makes at most 120 matches an hour without the QR, and 1,200 more
  with it.
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
moment is older than its window (an hour; a night for the phones let in), and ``_seen`` (who
was counted, for the organiser's list) holds 4,096 keys for as long (in the shared file, with
several processes, as long each).
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

from cachetools import TLRUCache
from flask import Response, current_app, g, make_response, request
from limits import RateLimitItem, parse, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .phone import admitted, known, made_known, phone_id

if TYPE_CHECKING:       # limit_store locks with fcntl, which Windows lacks: imported when shared
    from .limit_store import SQLiteStorage

TRIES = parse_many("5/minute;10/hour")      # wrong PINs, and wrong organiser's codes, each
NEW_MATCHES = parse("20/hour")      # per phone
DELETES = parse("5/hour")           # per phone
# Per address: the phones not known yet (``phone.known``) that start or delete a match. A club
# has a few dozen phones, and only those that start a match or delete one are counted, once a
# night each.
NEW_PHONES = parse("30/hour")
# Per address, the ceiling on the new matches and the deletes of the phones the organiser's QR
# has not let in (``phone.admitted``), new or known: a club's busiest hour behind one address is
# some 20 tables of two finishing a match every 15 to 20 minutes, 60 to 80 matches (a
# tournament's tables are the organiser's, not counted); 120 leaves half as much again for
# rematches and matches abandoned. A few matches a night are deleted by mistake: 20 an hour.
CEILINGS = {"new matches": parse("120/hour"), "match deletes": parse("20/hour")}
# Per address, the phones the organiser's QR lets in, a night: a club has a few dozen phones,
# and a phone let in is counted once a night. A guest with the token can let in no more.
ADMISSIONS = parse("60 per 12 hours")
ADMITTED_FOR = 12 * 3600
KINDS = ("pin", "organiser code", "new matches", "match deletes", "new phones", "admissions")

# In memory, or, when the companion serves with several processes, in a SQLite file they share
# (``shared_between_processes``, ``limit_store``).
_windows = MovingWindowRateLimiter(MemoryStorage())
_stripes = [threading.Lock() for _ in range(64)]
SEEN_FOR = 3600


class Seen:
    """Who was counted: (kind, "address" or "phone", key) -> the address it was counted from,
    whom the organiser's list may name, for as long as its window holds (an hour; a night for
    the phones let in). In memory; with
    several processes, ``limit_store.SQLiteStorage`` keeps it in their shared file with the same
    four methods."""

    def __init__(self) -> None:
        self._kept: TLRUCache[tuple[str, str, str], tuple[str, float]] = TLRUCache(
            maxsize=4096, ttu=lambda _key, value, now: now + value[1])
        self._lock = threading.Lock()

    def saw(self, kind: str, scope: str, key: str, address: str, ttl: float) -> None:
        with self._lock:
            self._kept[(kind, scope, key)] = (address, ttl)

    def seen(self) -> list[tuple[tuple[str, str, str], str]]:
        with self._lock:
            return [(key, address) for key, (address, _ttl) in self._kept.items()]

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
    """Too many new matches (or deletes: ``kind``) from this phone, or, ``scope`` "address",
    from its address: its new phones (``limit`` "new phones") or its ceiling for the phones the
    organiser's QR has not let in (``limit`` the same as ``kind``)."""

    def __init__(self, kind: str, wait: float, scope: str = "phone", limit: str | None = None):
        super().__init__(wait)
        self.kind = kind
        self.scope = scope
        self.limit = limit or kind


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
    _seen.saw(kind, scope, key, address_key(), ADMITTED_FOR if kind == "admissions" else SEEN_FOR)


def _wait(items: list[RateLimitItem], kind: str, scope: str, key: str) -> float:
    """Seconds until ``key`` may try ``kind`` again; 0 when it may now."""
    waits = [_windows.get_window_stats(item, kind, scope, key).reset_time - time.time()
             for item in items if not _windows.test(item, kind, scope, key)]
    return max(waits, default=0.0)


def refused(kind: str, refusal: type[Limited] = Limited) -> None:
    """What ``checked`` refuses before it checks anything: FromAnotherSite for a request another
    site's page sent, ``refusal`` when this address has no try of ``kind`` left."""
    if sent_from_another_site():
        raise FromAnotherSite()
    if _enabled():
        wait = _wait(TRIES, kind, "address", address_key())
        if wait > 0:
            raise refusal(wait)


def wrong_tries(kind: str) -> int | None:
    """This address's wrong tries of ``kind`` in the last hour (``web.access`` queues the PIN
    hashes by it); None when it has no try left, or another site's page sent the request."""
    key = address_key()
    if sent_from_another_site() or not all(_windows.test(item, kind, "address", key) for item in TRIES):
        return None
    hour = max(TRIES, key=lambda item: item.get_expiry())
    return hour.amount - _windows.get_window_stats(hour, kind, "address", key).remaining


def checked(kind: str, right: Callable[[], bool], refusal: type[Limited] = Limited) -> bool:
    """``right()`` (a PIN's or a code's check), counted against this address's tries of
    ``kind`` when it is wrong. Raises ``refusal`` (a Limited), checking nothing, when the
    address has none left; FromAnotherSite, checking and counting nothing, for a request
    another site's page sent."""
    refused(kind, refusal)
    key = address_key()
    with _one_at_a_time(key):
        refused(kind, refusal)
        if right():
            return True
        if _enabled():
            _counted(TRIES, kind, "address", key)
        return False


def _limited(kind: str, item: RateLimitItem, exempt: Callable[[], bool],
             done: Callable[[Response], bool]) -> Callable[[Callable], Callable]:
    """A view's POST counted against this phone's ``kind`` (``item``), when ``done`` says its
    answer did it; for a phone the organiser's QR has not let in, also against its address's
    ceiling (``CEILINGS``), and for one not known yet, against its address's new phones.
    Refused (TooMany) before it runs when any has none left. The posts of one address are
    taken one at a time, so that a burst cannot pass the limit."""
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
            # cookie it is given is not known (each would be a phone with 20 an hour of its
            # own: issue 41's review), so it is a new phone when it comes back with it.
            cookieless = current_app.config["SESSION_COOKIE_NAME"] not in request.cookies
            phone = phone_id()
            new = False
            if admitted():          # one of the club's: its own limits, nobody else's
                keys = [(kind, item, "phone", phone)]
            else:
                new = not cookieless and not known()
                keys = [(kind, item, "phone", f"no cookie at {address}" if cookieless else phone),
                        (kind, CEILINGS[kind], "address", address)]
                if new:
                    keys.append(("new phones", NEW_PHONES, "address", address))
            with _one_at_a_time(address):
                waits = [(_wait([limit], what, scope, key), scope, what) for what, limit, scope, key in keys]
                wait, scope, what = max(waits)
                if wait > 0:
                    raise TooMany(kind, wait, scope, what)
                answer = make_response(view(*args, **kwargs))
                if done(answer):
                    for what, limit, scope, key in keys + ([(kind, item, "phone", phone)] if cookieless else []):
                        _counted([limit], what, scope, key)
                    if new:
                        made_known()
            return answer
        return limited
    return decorator


def admission() -> bool:
    """Whether this address may let one more phone in by the organiser's QR tonight
    (``ADMISSIONS``): counted if so."""
    if not _enabled():
        return True
    address = address_key()
    with _one_at_a_time(address):
        if _wait([ADMISSIONS], "admissions", "address", address) > 0:
            return False
        _counted([ADMISSIONS], "admissions", "address", address)
        return True


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


def _items(kind: str, scope: str) -> list[RateLimitItem]:
    if scope == "address" and kind in CEILINGS:
        return [CEILINGS[kind]]
    return {"new matches": [NEW_MATCHES], "match deletes": [DELETES], "new phones": [NEW_PHONES],
            "admissions": [ADMISSIONS]}.get(kind, list(TRIES))


def held() -> list[Held]:
    """Every phone and address held now, the longest held first."""
    found = []
    for (kind, scope, key), address in _seen.seen():
        wait = _wait(_items(kind, scope), kind, scope, key)
        if wait > 0:
            found.append(Held(kind, scope, key, address, time.time() + wait))
    return sorted(found, key=lambda h: -h.until)


def lift(kind: str, scope: str, key: str) -> bool:
    """``key`` may try ``kind`` again at once: its count forgotten. False if it was not held."""
    if kind not in KINDS or scope not in ("phone", "address"):
        return False
    known = _seen.forget_seen(kind, scope, key)
    for item in _items(kind, scope):
        _windows.clear(item, kind, scope, key)
    return known


def lift_every(kind: str) -> int:
    """Every phone and address counted for ``kind`` may try again at once (the organiser's
    renewed QR: its admissions start afresh); how many were. Those the organiser's list no
    longer names (past its 4,096) keep their count."""
    return sum(lift(kind, scope, key) for (counted, scope, key), _address in _seen.seen() if counted == kind)


def reset() -> None:
    """Every count forgotten (the tests' ``fresh_rate_limit``)."""
    _windows.storage.reset()
    _seen.forget_all_seen()
