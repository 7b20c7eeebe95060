"""The scores to take away: CSV a spreadsheet opens (LibreOffice, Excel), written with the
standard library's ``csv``.

UTF-8 with a byte order mark, so Excel reads accents and emoji as such; a header row in the
page's language; every field quoted. A name a spreadsheet would take for a formula (``=``,
``+``, ``-``, ``@``) gets a leading apostrophe, shown by none of them, as OWASP advises. No PIN,
key or other secret is ever written.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any, Iterable

from flask_babel import gettext as _

from ..i18n import item_label, say, variant_title
from ..matches import Match
from ..rules.scoring import ITEMS

FORMULA = ("=", "+", "-", "@", "\t", "\r")
# Excel set up for Italian or French splits a CSV file on ";" whatever its quotes say (and
# others on ","): a formula character after one, past any spaces and quotes, would begin a
# cell of its own there. ``Ugo;=1+1`` is written ``Ugo;'=1+1``.
AFTER_SEPARATOR = re.compile(r"(?<=[;,])([\s\"]*)(?=[=+\-@\t\r])")


def cell(value: Any) -> Any:
    """A value as written: numbers as they are, text made safe from formulas wherever a
    spreadsheet may start a cell.

    >>> [cell(v) for v in (3, "Anna", "=1+1", "Ugo;=1+1", "Ugo; -2", "Rossi, Anna")]
    [3, 'Anna', "'=1+1", "Ugo;'=1+1", "Ugo; '-2", 'Rossi, Anna']
    """
    if not isinstance(value, str):
        return value
    value = AFTER_SEPARATOR.sub(r"\1'", value)
    return "'" + value if value.startswith(FORMULA) else value


def to_csv(rows: Iterable[list[Any]], mark: bool = True) -> str:
    """The rows as CSV, every field quoted (numbers too: a spreadsheet still reads them as
    numbers), after the byte-order mark that tells a spreadsheet it is UTF-8 (unless ``mark``
    is False: lines to add to a file begun)."""
    out = io.StringIO()
    if mark:
        out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()


def match_rows(match: Match) -> list[list[Any]]:
    """One row per hand and side: the hand's number, the side, each point item in force in
    this match, the hand's total and the running total. A hand played after the match's end
    says "not counted" in place of a running total; a claim has no points."""
    items = [item for item in ITEMS if any(
        hand.score and any(line.item == item for line in hand.score.lines) for hand in match.hands)]
    rows = [[_("Hand"), _("Side"), *[item_label(item, match.rules) for item in items],
             _("Hand total"), _("Running total")]]
    counted = match.outcome.hands_played
    for hand in match.hands:
        for side, name in enumerate(match.names):
            points = hand.score.points(side) if hand.score else {}
            rows.append([hand.number, name, *[points.get(item, 0) for item in items],
                         hand.points[side],
                         hand.totals_after[side] if hand.number <= counted else _("not counted")])
    return rows


def matches_header() -> list[Any]:
    """The columns of the CSV of every match: number, date, variant, state, hands, and each
    side with its total (up to four sides)."""
    header = [_("Match"), _("Date"), _("Variant"), _("Result"), _("Hands")]
    for number in range(1, 5):
        header += [_("Side %(number)s", number=number), _("Total %(number)s", number=number)]
    return header


def match_line(match: Match) -> list[Any]:
    """A match's row in the CSV of every match."""
    row = [match.id, match.created[:16].replace("T", " "), variant_title(match.rules.preset),
           say(match.outcome.text) if match.outcome.reason != "playing" else _("in play"),
           match.recorded]
    for name, total in zip(match.names, match.totals):
        row += [name, total]
    return row


def matches_rows(matches: Iterable[Match]) -> list[list[Any]]:
    """One row per match (``match_line``) under the header."""
    return [matches_header(), *(match_line(match) for match in matches)]
