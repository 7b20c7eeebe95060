"""A finished match is the club's record (issue 32): once it finished more than ``RECORD_AFTER``
ago, or before the companion was last started, only the organiser changes it (its hands, whether
it is archived, deleting it). A phone at the table can still correct a match it has just
finished; a guest cannot rewrite last month's, nor an old match's PIN-less hands, and spam (or a
correction) of an old match's result is the organiser's to make.

The pages (``record_guarded``) and the JSON API (``api.matches``) ask the same question,
``may_change``; when the match finished is ``store.finished_at``, kept with the ratings' order.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import wraps
from typing import Callable

from flask import current_app
from flask_babel import gettext as _

from ..store import reads as store
from .organiser import is_organiser, refuse

RECORD_AFTER = timedelta(hours=3)       # a night's matches stay the players' to correct


def started() -> str:
    """The moment this companion started (ISO, UTC), as the store writes moments."""
    return current_app.config["STARTED"]


def is_record(match_id: int) -> bool:
    """The match finished more than ``RECORD_AFTER`` ago, or before the companion started."""
    finished = store.finished_at(store.get_db(), match_id)
    if finished is None:
        return False
    since = (datetime.now(timezone.utc) - RECORD_AFTER).isoformat(timespec="seconds")
    return finished < since or finished < started()


def may_change(match_id: int) -> bool:
    """This phone may change the match: it is not yet the club's record, or this is the
    organiser."""
    return is_organiser() or not is_record(match_id)


def record_refusal() -> str:
    return _("This match finished more than three hours ago, or before the companion was last "
             "started: it is the club's record now. Ask the organiser to change it.")


def record_guarded(view: Callable) -> Callable:
    """A view that changes a match: a phone that is not the organiser's gets the organiser's
    403 page when the match is the club's record, and nothing changes."""
    @wraps(view)
    def guarded(match_id: int, *args, **kwargs):
        if not may_change(match_id):
            return refuse(record_refusal())
        return view(match_id, *args, **kwargs)
    return guarded
