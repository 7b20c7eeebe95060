"""A match's changes as the pages list them: every change to a hand (``store.changes``, whose
``who``, ``what`` and ``was`` the API words too) with when, which phone ("phone 3", numbered per
match in the order phones first changed it; the organiser; a program through the API) and what
the hand was before. Read once per page, never by the poll: the match page's list is drawn with
the page, and again when it is opened (``table/_changes.html``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..i18n import page_language, when
from ..matches import Match
from ..store import reads as store
from ..web.phone import phone_id

SHOWN = 20      # changes on the match page (the newest); the changes' page shows the rest


def clock(stamp: str, language: str) -> str:
    """When a change was made: its time alone on the day it was made, else its date too."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError):
        return ""
    full = when(stamp, language)
    return full.rsplit(", ", 1)[-1] if moment.date() == datetime.now().astimezone().date() else full


def lines(current: Match, before: int | None = None, limit: int = SHOWN) -> dict[str, Any]:
    """The match's changes, newest first (``limit`` of them, older than ``before``), each with
    its words, and the change to list the next page from (``older``), if there are more."""
    db = store.get_db()
    rows = store.change_rows(db, current.id, before, limit + 1)
    mine = store.phone_number(db, current.id, phone_id(create=False))
    language = page_language()
    shown = [{**row, "who": store.who(row, mine), "what": store.what(row),
              "was": store.was(row, current.names),
              "at": clock(row["created"], language)} for row in rows[:limit]]
    return {"changes": shown, "older": rows[limit - 1]["id"] if len(rows) > limit else None}
