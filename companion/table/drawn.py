"""What the match page draws that is worth keeping between requests, kept here and not with the
match model (which holds no rendered HTML): the lines of the list of hands, the whole list, and
the chart of the running totals.

- A hand's line is kept by everything it is drawn from (its id, number, points and totals,
  whether it counts, the sides' names, the match's address, the page's language and locale): a
  line once drawn is drawn again only when one of those changes. So the first page after a
  change draws only the lines that changed, and costs about as much at 200 hands as at 1
  (``bench_growth``); a poll's lines (``_live_added.html``) are the same lines.
- The whole list and the chart are kept for one built match (``store.built_match`` works a match
  out once per version and shares it): every phone showing that version shares them. They are
  kept by the match object itself (a weak reference: none is kept alive by this, and a match
  built again after a restore, whose versions start over, is another object).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Callable, Hashable

from cachetools import LRUCache
from flask import current_app, get_template_attribute, url_for
from flask_babel import get_locale
from markupsafe import Markup

from ..i18n import regional
from ..matches import Hand, Match
from .charts import running_totals


class Kept:
    """A small LRU of drawn values (cachetools'), safe across the server's threads (every use
    holds its lock). A value may belong to an ``owner`` (a built match): it is kept by a weak
    reference to it, and found only while the object it was drawn from is the one asked about
    (``id`` may be reused once it is gone)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: LRUCache[Hashable, tuple[weakref.ref | None, Any]] = LRUCache(size)
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], Any], owner: object = None) -> Any:
        """The value kept for ``key`` (and ``owner``), else ``draw()``, kept."""
        with self._lock:
            found = self._kept.get(key)
        if found is not None and (owner is None or found[0] is not None and found[0]() is owner):
            return found[1]
        value = draw()
        with self._lock:
            self._kept[key] = (None if owner is None else weakref.ref(owner), value)
        return value

    def many(self, keys: list[Hashable], draw: Callable[[int], Any]) -> list[Any]:
        """The values kept for ``keys``, each missing one ``draw(i)`` (``i``, its place in
        ``keys``), kept: one look-up under the lock for a list of 200 hands."""
        with self._lock:
            found = [self._kept.get(key) for key in keys]
        drawn: dict[Hashable, tuple[weakref.ref | None, Any]] = {keys[i]: (None, draw(i)) for i, entry in enumerate(found) if entry is None}
        if drawn:
            with self._lock:
                self._kept.update(drawn)
        return [entry[1] if entry is not None else drawn[key][1] for key, entry in zip(keys, found)]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


# About a club night's lines in three languages (75 tables of 20 hands), 500 bytes each.
_lines = Kept(8192)
# The lists and charts of the matches last shown (every version a phone may still ask for).
_per_match = Kept(512)


def _language() -> tuple[str, str]:
    """The page's language, and the locale its figures are written in (``i18n.regional``)."""
    lang = str(get_locale())
    return lang, regional(lang)


def hand_lines(current: Match, hands: list[Hand]) -> list[Markup]:
    """The lines of ``hands`` in the list of every hand (``_hand_line.html``), in their order."""
    language = _language()
    names = current.names
    counted = current.outcome.hands_played
    room = 9 if len(names) == 2 else 14
    match_url = url_for("table.match", match_id=current.id)

    def draw(i: int) -> Markup:
        macro = get_template_attribute("table/_hand_line.html", "hand_line")
        return Markup(macro(hands[i], names, counted, room, match_url, language[0]))

    return _lines.many([(language, match_url, names, room, hand.id, hand.number, hand.points,
                         hand.totals_after, hand.number > counted) for hand in hands], draw)


def _for_match(current: Match, kind: Hashable, draw: Callable[[], Any]) -> Any:
    """``draw()`` once for this built match and ``kind``."""
    return _per_match.get((id(current), kind), draw, owner=current)


def history(current: Match) -> Markup:
    """The list of every hand (``_history.html``), newest first, drawn once per built match and
    language, of lines drawn once each (``hand_lines``). Shared by every phone, so it shows
    nothing of one phone's own."""
    # Drawn from the match and its lines alone: no context processor is needed (nor run).
    return _for_match(current, ("history", _language()), lambda: Markup(
        current_app.jinja_env.get_template("table/_history.html").render(
            match=current, lines=hand_lines(current, current.hands[::-1]))))


def chart(current: Match) -> dict[str, Any] | None:
    """The chart of the running totals (``charts.running_totals``), once per built match."""
    return _for_match(current, "chart", lambda: running_totals(current))


def forget() -> None:
    """Nothing kept: for a test that measures the drawing itself."""
    _lines.clear()
    _per_match.clear()
