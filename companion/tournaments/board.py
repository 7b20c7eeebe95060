"""The board for the wall, laid out: which of the round's tables and which rows of the standings
each page shows, and how long a page stays (plain Python: no Flask).

The board is drawn in ``u``, a hundredth of a 16:9 screen's height (static/companion.css), so a
screen of 1280x720 and one of 3840x2160 show the same board, only sharper: how many rows fit a
panel is known here, before anything is drawn, from the sizes below (each is the CSS's, named
there). A panel that holds every row shows them all; otherwise its rows are cut into pages of
about as many rows each (30 tables: 10, 10, 10, never 11, 11, 8), and the board's script turns
them together, a page every few seconds, so that every table has been on the screen within
``CYCLE`` seconds. The server, not the script, decides the pages: a screen without JavaScript
gets the same pages (``?page=``, turned by its refresh), and a refresh swapped in while a page
shows draws that very page.

A row's lines are counted in the type the board draws (``names.drawn_width``): a table of two is
one line where both names fit on it, else a name a line; the standings' names are on one line
(``names.one_line_form``), cut short to the room their row's figures leave them. A night that
fits the screen with a quarter larger type is drawn in it (``ROOMY``).

>>> [len(page) for page in paged([1.0] * 30, 10.5)]
[10, 10, 10]
>>> [len(page) for page in paged([1.0] * 25, 10.5)]
[9, 9, 7]
>>> paged([1.0, 1.0], 10.5)
[[0, 1]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..names import drawn_width, line_pieces

CYCLE = 40          # seconds within which every page of a panel has been shown
TURN = 8            # seconds a page stays, fewer where a panel has more than CYCLE / TURN pages
ROOMY = 1.25        # the type of a night that fits the screen at a quarter larger: drawn so

# The tables' panel (the left column under the QR code), in u: what its rows may fill, once its
# heading is drawn (one line, or two when the round is over and says so): the screen's 100 less
# its padding (4), the QR code's row (22) and the gap (2), the panel's padding (4) and heading
# (5.8), and a little for a browser that rounds up.
TABLES_HEIGHT = 100 - 4 - 22 - 2 - 4 - 5.8 - 0.6
HEADING_LINE = 4.8
# A table's row: its padding and rule, the live score's line (4.1 u type, line-height 1.1) and
# a line of its names (3.5 u, 1.1): the type is ``scale`` times as large on a roomy board.
ROW_EDGES = 0.8
SCORE_LINE = 4.1 * 1.1
NAME_LINE = 3.5 * 1.1
NAME_TYPE = 3.5
# A table's row is 86.1 u wide: its number's column (6.6 u of the roomy type's u) and its
# score's (16.4; "11 – 10" of 4.1 u type), three gaps of 1.2 u, and its names' line between them:
# a table of two writes both names on it where they fit ("Anna – Bruno", the dash and its
# spaces 1.2 em), else a name a line. A table of three or four is a line a side, a name and
# its score (5.8 u).
TABLE_WIDTH = 86.1 - 3 * 1.2
VERSUS = 1.2

# The standings' panel (the right column, top to bottom): what its rows may fill under its
# heading and the columns' headings, each row a line (3.5 u type, line-height 1.15, padding and
# rule); the tie-breaks' letters explained under the table take lines of 3.2 u type, 72.6 u wide.
STANDINGS_HEIGHT = 92 - 5.8 - 2.9 - 1.2
STANDING_LINE = 3.5 * 1.15
STANDING_EDGES = 0.4
NOTE_LINE = 3.2 * 1.25
NOTES_MARGIN = 1.0
NOTES_WIDTH = 72.6 / 3.2
NOTE_MARK = 1.6 + 1.0               # a note's letter, and the space after the note
# A standings' name is on one line, in the room its row leaves it: the table is 72.6 u wide
# (20.75 em of the names' type), and each column takes its widest figure or heading and 1.2 u
# of padding (0.343 em). The rank and the figures after the points are drawn at 0.85 of the
# names' type, the points at 1.15 and bold, the columns' headings at 0.6 and bold; DejaVu Sans's
# figures are 0.636 em wide (0.696 in bold), its "-" 0.361 and ":" 0.337. A tie-break's letter
# takes TIE_BREAK_MARK of a name's room (tournaments/_standings.html takes it off): the space
# before it (0.348 em in bold), its margin (0.2), the letter ("b" or "d" the widest, 0.716) and
# its padding (2 x 0.3) at 0.7 em, and its 2 px rings (0.159 em of the least type, at
# 1280x720): 1.628. Reckoned at 1.1, the letter and its ring alone, a name cut to the brim
# pushed the table 4 px out of its box (the roomy board of eight, "Jean-Bapti… (a)").
TIE_BREAK_MARK = 1.65
STANDINGS_WIDTH = 72.6
PADDING = 1.2
FIGURES = 0.85
POINTS = 1.15
HEADING = 0.6
SAFETY = 0.1


def figures_width(text: str, bold: bool = False) -> float:
    """How wide figures such as "12-3-10" or "255:230" are drawn, in em.

    >>> round(figures_width("255:230"), 3), round(figures_width("24", bold=True), 3)
    (4.153, 1.392)
    """
    digit = 0.696 if bold else 0.636
    return sum(digit if char.isdigit() else 0.361 if char == "-" else 0.337 if char == ":"
               else drawn_width(char) for char in text)


@dataclass(frozen=True)
class Type:
    """The board's type, ``scale`` times the least (names 3.5 u, scores 4.1 u): where each row
    goes, and how wide a name may be, in em of its type."""

    scale: float = 1.0

    @property
    def line(self) -> float:
        """A table's names' line, in em (17.35 at the least type), less a little."""
        return (TABLE_WIDTH - (6.6 + 16.4) * self.scale) / (NAME_TYPE * self.scale) - 0.2

    @property
    def side_line(self) -> float:
        """A side's line on a table of three or four, in em (20.4 at the least type)."""
        return (TABLE_WIDTH - (6.6 + 5.8) * self.scale) / (NAME_TYPE * self.scale) - 0.2

    def table_room(self, sides: int = 2) -> float:
        """The same line in names.text_width's em, where side_name cuts a word too wide for it
        (text_width reckons a word at least 4% wider than the board draws it)."""
        return (self.line if sides == 2 else self.side_line) * 1.04

    def table_height(self, names: Sequence[str], players: Sequence[str] | None = None) -> float:
        """A table's row in u: two names on one line where they fit, else a name a line, and as
        many for its teams' ``players`` (each team's, "Anna & Bruno") where they are said;
        three or four sides a line each. A name wider than its line wraps between its words.

        >>> Type().table_height(["Anna", "Jean-Baptiste Rossi"]) == ROW_EDGES + SCORE_LINE
        True
        >>> Type().table_height(["Mariagrazia Lombardozzi", "Pierluigi Castellammare"]) == ROW_EDGES + 2 * NAME_LINE
        True
        >>> Type().table_height(["Nord", "Sud"], ["Anna & Bruno", "Carla & Dario"]) == ROW_EDGES + 2 * NAME_LINE
        True
        """
        score, name = SCORE_LINE * self.scale, NAME_LINE * self.scale
        if len(names) > 2:
            return ROW_EDGES + sum(max(score, name * name_lines(side, self.side_line)) for side in names)
        lines = sum(self.facing_lines(line) for line in (names, players) if line)
        return ROW_EDGES + (score if lines == 1 else max(score, name * lines))

    def facing_lines(self, names: Sequence[str]) -> int:
        """The lines of two names facing each other ("Anna – Bruno"): one where both fit on
        it, else a name a line."""
        if sum(drawn_width(name) for name in names) + VERSUS <= self.line:
            return 1
        return name_lines(names[0], self.line, tail=drawn_width(" –")) + name_lines(names[1], self.line)

    @property
    def standing_row(self) -> float:
        return STANDING_LINE * self.scale + STANDING_EDGES

    def standings_room(self, rows: Sequence[Any], headings: Sequence[str]) -> float:
        """The room a standings' name has on the board, in em (one_line_name cuts it to that):
        the table's width less the rank's, the points' and the other figures' columns
        (``headings``: the points', W-D-L's, F:A's and, in a Swiss, the opponents' points'),
        each as wide as its widest figure or heading. ``rows`` are the standings' (their
        ``match_points``, ``won``, ``drawn``, ``lost``, ``scored``, ``conceded`` and
        ``buchholz``).

        >>> from types import SimpleNamespace as Row
        >>> rows = [Row(won=1, drawn=0, lost=0, match_points=2, scored=15, conceded=0, buchholz=None)] * 16
        >>> round(Type().standings_room(rows, ["Pts", "W-D-L", "F:A"]), 2)
        12.62
        >>> rows = [Row(won=12, drawn=3, lost=10, match_points=27, scored=255, conceded=230, buchholz=120)] * 60
        >>> round(Type().standings_room(rows, ["Pts", "W-D-L", "F:A", "Opp."]), 2)
        7.44
        """
        em = NAME_TYPE * self.scale         # u

        def column(figures: Sequence[str], heading: str, size: float, bold: bool = False) -> float:
            widest = max((figures_width(figure, bold) for figure in figures), default=0.0)
            return max(widest * size, drawn_width(heading) * HEADING) + PADDING / em

        columns = [column([str(len(rows))], "#", FIGURES),
                   column([str(row.match_points) for row in rows], headings[0], POINTS, bold=True),
                   column([f"{row.won}-{row.drawn}-{row.lost}" for row in rows], headings[1], FIGURES),
                   column([f"{row.scored}:{row.conceded}" for row in rows], headings[2], FIGURES)]
        if len(headings) > 3:
            columns.append(column([str(row.buchholz or 0) for row in rows], headings[3], FIGURES))
        return (STANDINGS_WIDTH - PADDING) / em - sum(columns) - SAFETY


@dataclass(frozen=True)
class Panel:
    """A panel's pages: ``page_of[i]`` is the page (from 1) of its i-th row; ``shown`` the page
    drawn first."""

    page_of: tuple[int, ...]
    shown: int = 1

    @property
    def pages(self) -> int:
        return max(self.page_of, default=1)

    def off(self, index: int) -> bool:
        """Whether the row ``index`` is on a page other than the one shown."""
        return self.page_of[index] != self.shown


@dataclass(frozen=True)
class Layout:
    tables: Panel           # the round's tables, then its byes
    standings: Panel
    turn: int               # seconds a page stays
    type: Type = Type()

    @property
    def paged(self) -> bool:
        return self.tables.pages > 1 or self.standings.pages > 1


def name_lines(name: str, line: float, tail: float = 0.0) -> int:
    """How many lines ``name`` takes on lines ``line`` em wide that wrap it between its words (a
    word too wide for a line is cut short to fit, on a line of its own), with ``tail`` em kept
    on its last word's line (the dash after a table's first name: tournaments/_board_live.html).

    >>> name_lines("Anna Rossi", 8), name_lines("Mariagrazia Lombardozzi", 8)
    (1, 2)
    >>> name_lines("Jean-Baptiste de la Tour", 8), name_lines("Pierluigi Castellammare", 4)
    (2, 2)
    >>> name_lines("Bartolomeo Giangiacomo", 14.2), name_lines("Bartolomeo Giangiacomo", 14.2, tail=0.85)
    (1, 2)
    """
    lines, width = 1, 0.0
    pieces = line_pieces(name)
    for number, word in enumerate(pieces, 1):
        word_width = min(drawn_width(word) + (tail if number == len(pieces) else 0.0), line)
        if width and width + drawn_width(" ") + word_width > line:
            lines, width = lines + 1, word_width
        else:
            width += (drawn_width(" ") if width else 0) + word_width
    return lines


def notes_lines(notes: Sequence[str]) -> int:
    """The lines the tie-breaks' notes take under the standings (each note kept whole, the next
    beside it where it fits, as the browser fills a line).

    >>> notes_lines([]), notes_lines(["tie-break: entry order"]), notes_lines(["a: entry order"] * 2)
    (0, 1, 1)
    >>> notes_lines(["tie-break: points difference", "tie-break: head-to-head", "tie-break: entry order"])
    3
    """
    lines, width = 0, NOTES_WIDTH
    for note in notes:
        note_width = drawn_width(note) + NOTE_MARK
        if width + note_width > NOTES_WIDTH:
            lines, width = lines + 1, note_width
        else:
            width += note_width
    return lines


def paged(heights: Sequence[float], room: float) -> list[list[int]]:
    """The rows' indexes cut into the fewest pages that each hold at most ``room`` of height,
    in order, as even as they can be (the tallest page as short as it can be): the rows of a
    page are spread over the panel, and pages of 10, 10 and 10 tables look alike where 14, 14
    and 2 would not. A row taller than ``room`` has a page of its own.

    >>> paged([3, 3, 3, 3], 7)
    [[0, 1], [2, 3]]
    >>> paged([], 7)
    []
    """
    if not heights:
        return []

    def cut(most: float) -> list[list[int]]:
        pages: list[list[int]] = [[]]
        filled = 0.0
        for index, height in enumerate(heights):
            if pages[-1] and filled + height > most:
                pages.append([])
                filled = 0.0
            pages[-1].append(index)
            filled += height
        return pages

    fewest = len(cut(room))
    # The least tallest page that still needs no more pages: one of the sums of a run of rows.
    sums = sorted({sum(heights[i:j]) for i in range(len(heights)) for j in range(i + 1, len(heights) + 1)})
    most = next((s for s in sums if s >= max(heights) and len(cut(s)) <= fewest), room)
    return cut(most)


def panel(heights: Sequence[float], room: float, page: int) -> Panel:
    """The panel of these rows, showing ``page`` (from 1, turned round past the last)."""
    page_of = [0] * len(heights)
    for number, rows in enumerate(paged(heights, room), start=1):
        for index in rows:
            page_of[index] = number
    pages = max(page_of, default=1)
    return Panel(tuple(page_of), (page - 1) % pages + 1)


def lay_out(tables: Sequence[Sequence[str]], byes: int, rows: int, notes: Sequence[str],
            round_over: bool = False, page: int = 1,
            players: Sequence[Sequence[str] | None] = ()) -> Layout:
    """The board's pages: ``tables``, each table's names in order (and, where its teams' players
    are said under them, ``players``: the table's teams' players, or None), then ``byes`` rows
    of a bye; the standings' ``rows``, with the tie-breaks' ``notes`` under them; ``page`` the
    page to show (from 1, each panel turned round past its last). In the ROOMY type where the
    whole night fits the screen in it, else in the least, in pages where it must.

    >>> layout = lay_out([["Anna", "Bruno"]] * 30, 0, 60, [])
    >>> layout.tables.pages, layout.standings.pages, layout.turn, layout.type.scale
    (3, 4, 8, 1.0)
    >>> layout = lay_out([["Anna", "Bruno"]] * 8, 0, 16, [], page=2)
    >>> layout.paged, layout.type.scale
    (False, 1.0)
    >>> lay_out([["Anna", "Bruno"]] * 3, 0, 6, []).type.scale
    1.25
    """
    said = list(players) + [None] * (len(tables) - len(players))
    tables_room = TABLES_HEIGHT - (HEADING_LINE if round_over else 0)
    standings_room = STANDINGS_HEIGHT - ((NOTES_MARGIN + NOTE_LINE * notes_lines(notes)) if notes else 0)
    for kind in (Type(ROOMY), Type()):
        heights = [kind.table_height(names, said[i]) for i, names in enumerate(tables)]
        heights += [ROW_EDGES + SCORE_LINE * kind.scale] * byes
        layout_tables = panel(heights, tables_room, page)
        layout_standings = panel([kind.standing_row] * rows, standings_room, page)
        pages = max(layout_tables.pages, layout_standings.pages)
        if pages == 1 or kind.scale == 1:
            return Layout(layout_tables, layout_standings, min(TURN, math.floor(CYCLE / pages)), kind)
    raise AssertionError("the least type always lays the board out")
