"""The match page's live region and what its poll sends: which targets an answer swaps is
decided here, and each target is drawn by one partial (``templates/table/_live_*.html``) that
writes its own out-of-band mark. The match page includes the same partials.

The targets, each its partial:

- ``_live_poll.html``: the empty ``#live-poll`` that polls every 2 s with the version the page
  shows; what a changed poll swaps itself (the others go out of band); once another phone has
  moved the match to the archive, a sign that says so, with the way home, which polls no more;
- ``_live.html``: the whole of ``#live``, made of the parts (``live_parts``): the scoreboard,
  the next hand, the hands after the end, the ratings, and once a hand is recorded the last
  hand, the chart and the list of every hand;
- a poll from a phone a few versions behind (``live_delta``) sends each part but the list by
  its id, then ``_live_removed.html`` (the lines to take away) and ``_live_added.html`` (those
  to put at the top of the list);
- ``_live_undo_gone.html``: the Undo of a delete taken away, once the match has changed.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import get_flashed_messages, url_for

from ..matches import Hand, Match
from ..rules.scoring import ITEMS
from ..store import reads as store
from ..web.access import unlocked
from ..web.pages import join_url
from ..web.record import may_change
from . import drawn
from .ratings import ratings_part


def series_of(current: Match) -> dict[str, Any] | None:
    """The count of a series of rematches up to this match: matches won by each side (and
    drawn), once the match is a "Rivincita"."""
    if current.follows is None:
        return None
    won, draws = [0] * len(current.sides), 0
    for row in store.series_rows(store.get_db(), current.id):
        summary = row["summary"]
        if summary and summary["over"]:
            if summary["winner"] is None:
                draws += 1
            else:
                won[summary["winner"]] += 1
    return {"won": won, "drawn": draws,
            "score": " – ".join(f"{name} {count}" for name, count in zip(current.names, won))}


def match_url(match_id: int) -> str:
    """The match page's whole address, as the other phones at the table open it."""
    return join_url().rstrip("/") + url_for("table.match", match_id=match_id)


def live_part(current: Match) -> dict[str, Any]:
    """What the live region shows besides the match, read here for both pages that draw it (the
    match page and its poll, which draws it only when the match changed): the series of
    rematches; the tournament table it is, if it is one (one indexed read: its page leads back
    to the tournament, and offers no rematch); the address other phones open, to share the
    result; whether this phone may record (its session holds the PIN's key, and the match is
    not yet the club's record, web.record), which is never kept with the match; the players'
    ratings (``ratings_part``); and the chart, drawn once per version (``drawn``)."""
    table = store.table_of(store.get_db(), current.id)
    return {"match": current, "items": ITEMS, "series": series_of(current),
            "table": table, "share_url": match_url(current.id),
            "may_record": (not current.has_pin or unlocked(current.id)) and may_change(current.id),
            "record": not may_change(current.id), "chart": drawn.chart(current),
            **ratings_part(current, table)}


def live_parts(current: Match) -> list[str]:
    """The parts of ``#live``, in their order: the last hand, the chart and the list of every
    hand only once a hand is recorded."""
    parts = ["score", "next", "after_end", "ratings"]
    if current.hands:
        parts += ["last", "chart", "hands"]
    return [f"table/_live_{part}.html" for part in parts]


def undo_id(match_id: int) -> str:
    """The id of the notice offering the Undo of a delete (hands.offer_undo)."""
    return f"undo-match-{match_id}"


def undo_offered(match_id: int) -> bool:
    """Whether the page shows the Undo of a delete of this match's hands (a notice flashed for
    this page): its poll then says so (``undo=1``), and the poll that brings a change takes the
    Undo away, since it no longer holds."""
    return any(isinstance(notice, dict) and notice.get("id") == undo_id(match_id)
               for notice in get_flashed_messages(category_filter=["action"]))


def page(current: Match) -> dict[str, Any]:
    """What the match page draws of the live region: ``#live-poll`` and the whole of ``#live``
    (table/match.html includes them)."""
    return {**live_part(current), "oob": False, "parts": live_parts(current),
            "undo": undo_offered(current.id), "hands_list": drawn.history(current) if current.hands else None}


# A changed poll sends a phone only the lines that changed when there are at most this many;
# else (an old hand edited or deleted in a long match, a phone long asleep) the whole live region.
DELTA_LINES = 12


class Delta(NamedTuple):
    """What a phone showing an earlier version lacks of the list of hands: ``lines``, the hands
    whose lines are new or changed, and ``removed``, the ids of the lines it shows of those and
    of the hands deleted since, to take away first."""

    lines: list[Hand]
    removed: list[int]

    @property
    def selector(self) -> str:
        """The lines to take away, as htmx's ``delete:`` swap names them."""
        return ",".join(f"#hand-{hand_id}" for hand_id in self.removed)


def live_delta(current: Match, since: int | None) -> Delta | None:
    """What a phone showing version ``since`` of the match needs of the list of hands to show
    ``current``. None when the whole live region must be sent: a version this match never had
    (another store, restored), the store moved on since the match was built, too many lines,
    or no line left as it was (the list itself may be new to the phone)."""
    if since is None or not 0 <= since < current.version:
        return None
    changed = store.changed_since(store.get_db(), current.id, since)
    if changed is None or changed.version != current.version or len(changed.hands) > DELTA_LINES:
        return None
    if len(changed.hands) >= len(current.hands) and (changed.hands or changed.shown or not current.hands):
        return None
    sent = set(changed.hands)
    return Delta([hand for hand in current.hands if hand.id in sent], changed.shown)


def swapped(current: Match, delta: Delta | None, undo_shown: bool) -> list[str]:
    """The partials a changed poll answers with, in order, one per target: the new
    ``#live-poll``, then out of band the whole of ``#live``, or (``delta``) each of its parts
    but the list, the lines taken away and the lines put at the top; and the Undo taken away
    from a page that showed it (``undo_shown``)."""
    if delta is None:
        targets = ["table/_live_poll.html", "table/_live.html"]
    else:
        targets = ["table/_live_poll.html", *(part for part in live_parts(current) if part != "table/_live_hands.html")]
        if delta.removed:
            targets.append("table/_live_removed.html")
        if delta.lines:
            targets.append("table/_live_added.html")
    if undo_shown:
        targets.append("table/_live_undo_gone.html")
    return targets


def poll_answer(current: Match, since: int | None, undo_shown: bool,
                archived_shown: bool = False) -> dict[str, Any]:
    """What table/_swaps.html draws for a changed poll: the partials ``swapped`` chooses (each
    out of band but the new ``#live-poll``) and what they read. A match archived since the page
    was drawn (``archived_shown``: the page showed it archived already) turns ``#live-poll``
    into the sign that says so (``archived_now``), and the page polls no more."""
    delta = live_delta(current, since)
    whole = delta is None and current.hands
    return {**live_part(current), "oob": True, "undo": False, "delta": delta,
            "archived_now": current.archived and not archived_shown,
            "swaps": swapped(current, delta, undo_shown), "parts": live_parts(current),
            "undo_id": undo_id(current.id),
            "hands_list": drawn.history(current) if whole else None,
            "added": drawn.hand_lines(current, delta.lines[::-1]) if delta else []}
