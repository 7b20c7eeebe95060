"""The board for any night (issue 40): a 16:9 screen never scrolls, so the tables of a round and
the rows of the standings that do not fit are cut into pages, which turn by themselves (every
table seen within 40 s). The pages are the server's (companion/tournaments/board.py), worked out
here without a browser; tests/app/test_board_wall.py measures them drawn."""

import re

import pytest

from companion.tournaments import board
from helpers import club_names as club
from markup import attr, nodes, texts


def pairs(names: list[str]) -> list[list[str]]:
    """A Swiss round 1 of ``names``: the top half against the bottom half."""
    half = len(names) // 2
    return [[names[i], names[half + i]] for i in range(half)]


def test_thirty_tables_of_short_names_are_three_pages_of_ten():
    layout = board.lay_out(pairs(club(60)[:8] * 8)[:30], 0, 60, [])
    assert [layout.tables.page_of.count(page) for page in (1, 2, 3)] == [10, 10, 10]
    assert layout.tables.pages == 3 and layout.turn == 8


def test_a_night_of_sixteen_is_one_screen():
    """The issue: "a Swiss of 16 entrants (8 tables) needs 801 px of a 720-line screen". Every
    table and every row of the standings now fit, the tie-breaks' notes under them."""
    layout = board.lay_out(pairs(club(16)), 0, 16, ["tie-break: entry order", "tie-break: points difference"])
    assert (layout.tables.pages, layout.standings.pages, layout.paged) == (1, 1, False)


def test_a_small_night_is_drawn_a_quarter_larger():
    """Six or eight entrants fit the screen with room to spare: their names are drawn larger
    than a night of sixteen's, whose rows would not all fit in that type."""
    assert board.lay_out(pairs(club(8)), 0, 8, ["tie-break: entry order"]).type.scale == board.ROOMY
    assert board.lay_out(pairs(club(16)), 0, 16, []).type.scale == 1


@pytest.mark.parametrize("count", [16, 32, 60, 64])
def test_every_page_holds_in_its_panel_and_every_table_is_seen_within_40_s(count):
    """The longest names the form allows (a two-word name of 24 letters, a line each), the round
    over (its heading on two lines) and six tie-breaks explained under the standings: each page
    fits its panel, the pages are the rows in order, and the last page is on the screen before
    40 s have passed."""
    tables = pairs(club(count, long=True))
    notes = [f"tie-break: {rule}" for rule in ("head-to-head", "points difference", "points scored",
                                                "opponents' points", "entry order", "match points")]
    layout = board.lay_out(tables, 0, count, notes, round_over=True)
    heights = [layout.type.table_height(names) for names in tables]
    room = board.TABLES_HEIGHT - board.HEADING_LINE
    for page in range(1, layout.tables.pages + 1):
        assert sum(h for h, p in zip(heights, layout.tables.page_of) if p == page) <= room
    assert list(layout.tables.page_of) == sorted(layout.tables.page_of)
    standings_room = board.STANDINGS_HEIGHT - board.NOTES_MARGIN - board.NOTE_LINE * board.notes_lines(notes)
    assert max(layout.standings.page_of.count(p) for p in range(1, layout.standings.pages + 1)) \
        * layout.type.standing_row <= standings_room
    for panel in (layout.tables, layout.standings):
        assert (panel.pages - 1) * layout.turn < 40 and panel.pages * layout.turn <= 40
    assert layout.turn >= 5                 # a page stays long enough to be read


def test_two_long_names_take_a_line_each_and_two_short_ones_one():
    least = board.Type()
    assert least.table_height(["Anna", "Pierfrancesco Rossi"]) == board.ROW_EDGES + board.SCORE_LINE
    assert least.table_height(["Mariagrazia Lombardozzi", "Pierluigi Castellammare"]) \
        == board.ROW_EDGES + 2 * board.NAME_LINE


def test_the_page_asked_for_turns_round_past_the_last():
    tables = pairs(club(60, long=True))
    layouts = [board.lay_out(tables, 0, 60, [], page=page) for page in range(1, 10)]
    tables_pages, standings_pages = layouts[0].tables.pages, layouts[0].standings.pages
    assert min(tables_pages, standings_pages) > 1
    assert [layout.tables.shown for layout in layouts] == [k % tables_pages + 1 for k in range(9)]
    assert [layout.standings.shown for layout in layouts] == [k % standings_pages + 1 for k in range(9)]


def test_a_standings_name_has_the_room_its_figures_leave():
    """The figures of a long round robin ("12-3-10", "255:230") leave a name less room than
    those of round 1 ("1-0-0", "5:0")."""
    from types import SimpleNamespace as Row
    first = [Row(won=1, drawn=0, lost=0, match_points=2, scored=5, conceded=0, buchholz=0)]
    later = [Row(won=12, drawn=3, lost=10, match_points=27, scored=255, conceded=230, buchholz=120)]
    headings = ["Pts", "W-D-L", "F:A", "Opp."]
    assert board.Type().standings_room(later, headings) < board.Type().standings_room(first, headings) - 2


# -- Drawn by the companion: the pages as the server sends them ---------------------------------

@pytest.fixture
def night(client):
    """A Swiss of 60 entrants as a club writes their names, its round 1 started."""
    made = client.post("/api/v1/tournaments", json={
        "name": "Torneo di primavera", "format": "swiss", "rounds": 5, "entrants": club(60)})
    assert made.status_code == 201, made.get_json()
    assert client.post(f"/api/v1/tournaments/{made.get_json()['id']}/rounds", json={}).status_code == 201
    return made.get_json()["id"]


def shown(page, selector: str) -> list[str]:
    """The rows ``selector`` finds that a wall screen shows (those of the other pages hidden)."""
    return [node.attributes.get("data-page") for node in nodes(page, selector)
            if "off-page" not in (node.attributes.get("class") or "").split()]


def test_the_board_draws_the_page_asked_for_and_says_which(client, night):
    for path in (f"/tournaments/{night}/board?page=2", f"/tournaments/{night}/board/live?page=2"):
        page = client.get(path)
        assert page.status_code == 200
        assert set(shown(page, "[data-testid=board-tables] li")) == {"2"}
        assert set(shown(page, "[data-testid=standings] tbody tr")) == {"2"}
        pages = [len(set(nodes_pages)) for nodes_pages in (
            [node.attributes["data-page"] for node in nodes(page, "[data-testid=board-tables] li")],
            [node.attributes["data-page"] for node in nodes(page, "[data-testid=standings] tbody tr")])]
        assert texts(page, "[data-testid=page-number]") == [f"2/{pages[0]}", f"2/{pages[1]}"]
        assert min(pages) > 1
        assert attr(page, "#board-live", "data-tick") == "1"
    whole = client.get(f"/tournaments/{night}/board")
    assert len(nodes(whole, "[data-testid=board-tables] li")) == 30        # every table is sent
    assert len(nodes(whole, "[data-testid=standings] tbody tr")) == 60
    assert set(shown(whole, "[data-testid=board-tables] li")) == {"1"}


@pytest.mark.parametrize("asked", ["abc", "-3", "0", "99999999999999999999999", ""])
def test_any_page_asked_for_is_a_page(client, night, asked):
    """A guest may ask for anything: a page that is no number is the first, past the last turns
    round; never a 500."""
    for path in ("board", "board/live"):
        page = client.get(f"/tournaments/{night}/{path}?page={asked}")
        assert page.status_code == 200
        assert len(set(shown(page, "[data-testid=board-tables] li"))) == 1


def test_a_screen_without_javascript_turns_the_pages_at_its_refresh(client, night):
    """Asked to follow the room (?refresh=1), a screen without JavaScript reloads every 10 s, on
    to the next page; the script that turns them with JavaScript is there all the same."""
    page = client.get(f"/tournaments/{night}/board?refresh=1&page=3").get_data(as_text=True)
    assert attr(page, "noscript meta[http-equiv=refresh]", "content") == "10; url=?refresh=1&page=4"
    assert re.fullmatch(r"/static/board(\.[0-9a-f]+)?\.js", attr(page, "script[src*=board]", "src"))
