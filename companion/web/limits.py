"""How often one address may try: wrong PINs, wrong organiser's codes, new matches, deleted
matches. One use of
Flask-Limiter (and the ``limits`` library it brings), with its storage in memory, or, when the
companion serves with several processes, in a SQLite file they share (``limit_store``).

Every limit is per address, never per PIN or per code across addresses: whoever knows a PIN
is never refused because of other addresses' wrong tries, so no guest can lock a table, a
tournament or the organiser out. An IPv6 address counts whole, not by its /64: every phone on a
Wi-Fi shares the network's /64 (and every link-local fe80::/64), so counting by it would let one
guest hold the whole club. A guest who gives its phone many IPv6 addresses escapes the count:
docs/running.md says so, and the companion listens on IPv4 by default.

- A PIN (``web.access``) or an organiser's code (``web.organiser``): 5 wrong tries a minute and
  10 an hour per address. A right one does not count: the wrong ones are counted after the
  check, and the tries of one address are checked one at a time (a lock per address, among 64),
  so a burst of tries at once cannot pass the limit.
- A new match (the page, a rematch, the API): 20 an hour per address, a few more than a table
  plays; the organiser is not limited.
- A match deleted (the page; the API deletes no match): 5 an hour per address. A match without a
  PIN is every phone's to delete, so one guest could otherwise empty the lists in a second and
  leave the organiser to bring each back; the organiser is not limited.

The state is bounded: the moving windows keep at most a limit's number of moments per address
(10 for tries, 20 for new matches, 5 for deletes), and the storage drops a key once its last moment is older
than its window (an hour at most). So it holds the addresses seen trying in the last hour, no
more: on a club's network, its phones.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from typing import Callable

from flask import Flask, g, jsonify, render_template, request
from flask_babel import ngettext
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse_many

from ..i18n import for_api
from ..rules.said import said_n

TRIES = parse_many("5/minute;10/hour")      # wrong PINs, and wrong organiser's codes, each
NEW_MATCHES = "20/hour"
DELETES = "5/hour"
DELETES_SCOPE = "match deletes"


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


# The storage is the app's RATELIMIT_STORAGE_URI: memory, or the SQLite file the serving
# processes share (``shared_between_processes``).
limiter = Limiter(key_func=address_key, strategy="moving-window")
_stripes = [threading.Lock() for _ in range(64)]


class Limited(Exception):
    """Too many tries from this address: ``wait``, whole seconds until the next is taken."""

    def __init__(self, wait: float):
        super().__init__(wait)
        self.wait = max(1, math.ceil(wait))


def _wait(kind: str, key: str) -> float:
    """Seconds until this address may try ``kind`` again; 0 when it may now."""
    waits = [limiter.limiter.get_window_stats(item, kind, key).reset_time - time.time()
             for item in TRIES if not limiter.limiter.test(item, kind, key)]
    return max(waits, default=0.0)


def checked(kind: str, right: Callable[[], bool], refusal: type[Limited] = Limited) -> bool:
    """``right()`` (a PIN's or a code's check), counted against this address's tries of
    ``kind`` when it is wrong. Raises ``refusal`` (a Limited), checking nothing, when the
    address has none left."""
    key = address_key()
    with _one_at_a_time(key):
        wait = _wait(kind, key)
        if wait > 0:
            raise refusal(wait)
        if right():
            return True
        for item in TRIES:
            limiter.limiter.hit(item, kind, key)
        return False


def _one_at_a_time(key: str):
    """The tries of one address checked one at a time: a lock among 64 in this process, and, where
    the counts are shared between processes, across them too (``limit_store``)."""
    shared = getattr(limiter.limiter.storage, "locked", None)
    return shared(key) if shared else _stripes[hash(key) % len(_stripes)]


def new_matches(exempt: Callable[[], bool]):
    """The limit on new matches, for a view that makes one (pages and API share it): counted
    when a match is made (a 201, or the 303 to it), not for a form refused."""
    return limiter.shared_limit(NEW_MATCHES, scope="new matches", exempt_when=exempt,
                                methods=["POST"], deduct_when=lambda answer: answer.status_code in (201, 303))


def match_deletes(exempt: Callable[[], bool]):
    """The limit on deleting a match: counted only when the view says a match was deleted
    (``deleted_one``), not for a confirmation asked again, a tournament's table refused or a
    PIN asked for."""
    return limiter.shared_limit(DELETES, scope=DELETES_SCOPE, exempt_when=exempt, methods=["POST"],
                                deduct_when=lambda answer: bool(g.get("scopa_deleted_match")))


def deleted_one() -> None:
    """This request deleted a match: it counts against its address's deletes."""
    g.scopa_deleted_match = True


def wait_of(error: RateLimitExceeded) -> int:
    """Whole seconds until this request's refused new match (or delete) would be taken."""
    breached = [limit for limit in limiter.current_limits if limit.breached]
    if not breached:
        return 60
    return max(1, math.ceil(max(limit.window.reset_time for limit in breached) - time.time()))


FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


def init_app(app: Flask) -> None:
    """Each app its own storage (a fresh one: the tests' apps never share their counts); a
    refused new match or delete answered in the phone's language; and, once, a word on the log when a
    proxy seems to be in front without --trust-proxy: every phone then has its address, and
    shares its limits."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded):
        minutes = max(1, math.ceil(wait_of(error) / 60))
        retry = {"Retry-After": str(wait_of(error))}
        if error.limit.scope == DELETES_SCOPE:
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


def shared_between_processes(app: Flask, folder: str) -> None:
    """The counts kept in a SQLite file in ``folder``, which every serving process forked from
    this one uses (``companion.processes``): a guest's tries count the same whichever process
    answers them. The storage is made again; the limiter's hooks stay registered once."""
    from . import limit_store
    app.config["RATELIMIT_STORAGE_URI"] = f"{limit_store.SCHEME}://{folder}/limits.sqlite"
    limiter.init_app(app)


def reset() -> None:
    """Every count forgotten (the tests' ``fresh_rate_limit``); nothing to forget before the
    first app is made."""
    if limiter.initialized:
        limiter.reset()
