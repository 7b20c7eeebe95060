"""Who is served first when a serving process is busy (issue 41): the phones at the tables before
the guests' costly reads.

A process answers with one core at most, and a page a guest may ask for costs it up to ~40 ms
(a player's page, a hand's form, the leaderboard over a period). Sixteen guests each asking one
again 100 ms after its answer want nearly four cores: on a two-core machine, whatever is shaved
off each page, the requests queue, and a phone's save queued behind them waited hundreds of
milliseconds (bench_guest's floods). So the waitress of each process (``listening.PhonesFirst``)
keeps two queues: what this module says goes *first*, and the reads that cost little, are served
by the next free thread; the reads of a route that costs more (``listening.COSTLY``: its recent
requests' own CPU time, as the process measured it) wait in a queue of their own, and only a few
of them are served at once (``listening.READS_AT_ONCE``), so that the process always has
threads, and its core a share, for the tables. A read is never refused for it: it waits its turn.

First, whoever sends it:

- every write (POST, PUT, DELETE...), but for the questions the API and the hand's preview answer
  without changing anything (``ASKING``), which cost what a read costs, and for the writes to a
  match past a table's pace (``PACE``: 30 a minute per match and process, where a table saves a
  hand every few minutes and a phone's outbox sends a dozen at once when the Wi-Fi comes back),
  which wait in the costly reads' queue: sixteen guests saving a hand every 100 ms each, 160
  writes a second against SQLite's one writer, made every table's save wait its turn behind
  theirs. Such a write is never refused, it waits its turn; the organiser's phone goes first
  still. The phones whose signed cookie says they created or scored the match keep a pace of
  their own, apart from every other sender's: a write is counted before its PIN is checked, and
  a guest's writes refused for want of it must not make the table's own saves wait;
- what a phone at a table asks over and over and costs next to nothing: a match's poll, the
  pages' files (``/static``), ``/healthz``;
- anything a phone asks about a match it created or scored (its signed cookie says so:
  ``phone.played_here``), a hand's form and the match page included;
- anything the organiser's phone asks (its signed cookie holds the organiser's key, within its
  night: ``organiser.key_in``; the key itself is checked by the page, as always).

It is worked out in waitress's loop, before any thread or the app sees the request, from the
request line and the session cookie alone: no store, no Flask request. A cookie that does not
bear the app's signature, or is past its lifetime, counts as none, so a guest cannot make itself
a table's phone by writing one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Flask
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import HTTPException

from . import organiser, phone

# POSTs that answer a question and change nothing: as costly to ask over and over as a page.
ASKING = {"api.score", "api.captures", "api.deal", "api.claim", "table.preview"}
# What a phone at a table asks every 2 s, or once per page, for next to nothing.
CHEAP = {"static", "site.healthz", "table.poll"}
READING = {"GET", "HEAD"}
# A table's pace: the writes to one match that go first, in any minute, in one serving process.
PACE = parse("30/minute")
# The route said for a write to a match past its pace: served with the costly reads.
CROWDED = "a match's write past a table's pace"


class Precedence:
    """``read(method, path, cookie)`` for ``app``: the route of a guest's read (its endpoint),
    or None for a request that goes first (the module's docstring)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._cookie = re.compile(r"(?:^|;)\s*" + re.escape(app.config["SESSION_COOKIE_NAME"]) + r"=([^;\s]*)")
        self._serializer: Any = None
        self._paces = MovingWindowRateLimiter(MemoryStorage())

    def read(self, method: str, path: str, cookie: str | None) -> str | None:
        try:
            endpoint, arguments = self.app.url_map.bind("localhost").match(path, method=method)
        except HTTPException:           # no such page, or not by this method: answered at once
            return None
        if endpoint in CHEAP:
            return None
        session = self._session(cookie)
        if method not in READING and endpoint not in ASKING:
            if "match_id" not in arguments or organiser.key_in(session):
                return None
            # A table's phones keep a pace of their own: a write is counted before the app
            # checks its PIN, so a guest who knew only a match's number filled its pace with
            # 30 writes refused 403, and the table's saves then waited with the costly reads.
            whose = "its phones" if self._played(session, arguments) else "others"
            return None if self._paces.hit(PACE, "writes", str(arguments["match_id"]), whose) else CROWDED
        if organiser.key_in(session) or self._played(session, arguments):
            return None
        return endpoint

    @staticmethod
    def _played(session: dict, arguments: Mapping[str, Any]) -> bool:
        """The phone's signed cookie says it created or scored the match asked about."""
        return "match_id" in arguments and arguments["match_id"] in phone.matches_in(session)

    def _session(self, cookie: str | None) -> dict:
        """The session the cookie holds, if the app signed it and it is within its lifetime."""
        found = self._cookie.search(cookie) if cookie else None
        if not found:
            return {}
        if self._serializer is None:
            self._serializer = self.app.session_interface.get_signing_serializer(self.app)  # type: ignore[attr-defined]  # Flask's SecureCookieSessionInterface
        if self._serializer is None:        # no secret key: no session
            return {}
        try:
            value = self._serializer.loads(found.group(1).strip('"'),
                                           max_age=int(self.app.permanent_session_lifetime.total_seconds()))
        except Exception:       # noqa: BLE001 - a cookie not the app's, in any way: none
            return {}
        return value if isinstance(value, dict) else {}

