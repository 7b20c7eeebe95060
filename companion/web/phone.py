"""What this phone did at the tables: the matches it created or scored, newest last, kept in
its signed session cookie (the one that keeps the PINs it entered, ``access``: a phone has one
identity, not two). "Same players as last time" offers this phone's last match, not the club's
newest, which is another table's at a club evening."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Mapping
from typing import Any, Literal, overload

from flask import session

SESSION_KEY = "played"
ID_KEY = "phone"
KNOWN_KEY = "known"
ADMITTED_KEY = "admitted"
KNOWN_FOR = 12 * 3600       # a night: then a phone is new again, and shows itself again
_AN_ID = re.compile(r"[0-9a-f]{16}")
KEPT = 8            # matches remembered: enough to skip the deleted ones and a tournament's tables


def played_here(match_id: int) -> None:
    """This phone created or scored ``match_id`` just now: it is its last match."""
    played = matches_here()
    if played[-1:] == [match_id]:
        return                      # already its last: the cookie is not written again
    played = [m for m in played if m != match_id]
    session[SESSION_KEY] = [*played[-(KEPT - 1):], match_id]
    session.permanent = True


def matches_here() -> list[int]:
    """The matches this phone created or scored, the last one last (a cookie from elsewhere
    that does not hold a list of ids counts as none)."""
    return matches_in(session)


def matches_in(held: Mapping[str, Any]) -> list[int]:
    """``matches_here`` of a session read outside a request (``web.precedence``)."""
    played = held.get(SESSION_KEY)
    if not isinstance(played, list):
        return []
    return [m for m in played if isinstance(m, int) and not isinstance(m, bool)]


@overload
def phone_id(create: Literal[True] = True) -> str: ...
@overload
def phone_id(create: bool) -> str | None: ...
def phone_id(create: bool = True) -> str | None:
    """This phone's own identity: a random id kept in its signed session cookie, made the first
    time it is needed (``create``) and kept as long as the cookie. Anything a phone does that the
    companion counts or records per phone (its limits, the changes it made) is keyed by it; a
    phone that drops its cookies is a new phone, which is why an address keeps a coarser limit.
    ``None`` for a phone without one when ``create`` is false."""
    value = session.get(ID_KEY)
    if isinstance(value, str) and _AN_ID.fullmatch(value):
        return value
    if not create:
        return None
    value = secrets.token_hex(8)
    session[ID_KEY] = value
    session.permanent = True
    return value


def known() -> bool:
    """This phone has shown itself here within a night (``KNOWN_FOR``): it started or deleted a
    match as a new phone, counted then against its address's new phones (``web.limits``), and
    its signed cookie says when. Its limits are then its own alone, whatever a guest at the same
    address does. Nothing a guest can make for free proves it: a cookie's age or the matches it
    scored would not (any page gives a cookie, any hand a match scored), so a guest could make
    thousands before a flood."""
    stamp = session.get(KNOWN_KEY)
    if not isinstance(stamp, int) or isinstance(stamp, bool):
        return False
    return 0 <= time.time() - stamp < KNOWN_FOR


def made_known() -> None:
    """This phone has just shown itself (``known``): from now, for a night."""
    session[KNOWN_KEY] = int(time.time())
    session.permanent = True


def admitted() -> bool:
    """The organiser's QR of the night let this phone in (``web.welcome``), less than a night
    (``KNOWN_FOR``) ago: its signed cookie says when. It is then limited as itself alone, never
    by what another phone at its address did (``web.limits``)."""
    stamp = session.get(ADMITTED_KEY)
    if not isinstance(stamp, int) or isinstance(stamp, bool):
        return False
    return 0 <= time.time() - stamp < KNOWN_FOR


def admit() -> None:
    """This phone opened the organiser's QR of the night: one of the club's, from now, for a
    night. Its id is made now if it has none (``phone_id``), in the same signed cookie: a copy of
    that cookie is this phone, with its limits, not a phone let in with an id of its own made on
    its first match (one admission was as many phones as a guest made copies)."""
    session[ADMITTED_KEY] = int(time.time())
    phone_id()
    session.permanent = True
