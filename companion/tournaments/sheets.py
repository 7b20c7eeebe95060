"""The standings as a spreadsheet takes them (issue 40): a row per entrant in the standings'
order, with the columns a club pastes into its own sheet: the place, the entrant (and a pair's
players), the match points, each tie-break's figure, won, drawn and lost, the games played, the
byes, the points scored and conceded, and the tie-break that put the row below the one above.
The pages word the columns in the page's language (``tournaments/views.py``); the JSON API
names them as its JSON does. Written as every CSV of the companion is (``web/exports.py``).

The tie-breaks' figures are the standings rows' own (``buchholz_cut1``, ``head_to_head``,
``sonneborn_berger``...), in the order the tournament's format applies them
(``standings.ORDERS``), each named by the words the standings use for that tie-break. A figure
no row has (head-to-head where it never applied) is left out. A withdrawn entrant is marked in a
column of its own, there only when someone withdrew.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from .model import Tournament
from .standings import ORDERS

# The rows' fields in the order a sheet gives them, after the place and the entrant: the points
# first, then the tie-breaks' figures (in the format's order), then the record.
FIRST = ("match_points",)
RECORD = ("won", "drawn", "lost", "played", "byes", "scored", "conceded")


def figure(value: Any) -> Any:
    """A row's figure as a spreadsheet reads it: a whole number as it is, a fraction (half a
    point of head-to-head) as a decimal, nothing for none, a yes as 1.

    >>> [figure(v) for v in (3, Fraction(3, 2), Fraction(4, 2), None, True)]
    [3, 1.5, 2, '', 1]
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)
    return value


def standings_rows(tournament: Tournament, label: Callable[[str], str],
                   tie_break: Mapping[str, str]) -> list[list[Any]]:
    """The standings' sheet: a header row, each column named by ``label`` (given "place",
    "entrant", "players", "tie_break" or a row's field), then a row per entrant; the tie-break
    that put a row below the one above as ``tie_break`` words it."""
    rows = tournament.standings()
    fields = {field.name for field in dataclasses.fields(rows[0])} if rows else set()
    figures = [name for name in ORDERS.get(tournament.format, ())
               if name in fields and name not in FIRST + RECORD
               and any(getattr(row, name) is not None for row in rows)]
    withdrawn = ["withdrawn"] if any(getattr(row, "withdrawn", False) for row in rows) else []
    columns = [*FIRST, *figures, *RECORD, *withdrawn]
    pairs = len(tournament.entrants[0]["players"]) > 1
    header = [label("place"), label("entrant"), *([label("players")] if pairs else []),
              *(label(name) for name in columns), label("tie_break")]
    sheet: list[list[Any]] = [header]
    for place, row in enumerate(rows, start=1):
        entrant = tournament.entrants[row.entrant]
        sheet.append([place, entrant["name"], *([", ".join(entrant["players"])] if pairs else []),
                      *(figure(getattr(row, name)) for name in columns),
                      tie_break.get(row.tie_break, row.tie_break) if row.tie_break else ""])
    return sheet
