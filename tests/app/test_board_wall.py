"""The board for any night on the wall (issue 40), drawn by Chromium at a TV's size: a Swiss of
16 entrants needed 801 px of a 720-line screen, so tables 7 and 8 were below its edge, and 30
tables could not be shown at all; names were 3.3% of the screen's height and the live score no
bigger than a name.

At 1280x720 and 1920x1080 (and 3840x2160 with 60) for nights of 16, 32 and 60 entrants: the
page never scrolls; every table of the round, and every row of the standings, is on the screen
within 40 s (the pages turned by Playwright's clock, never waited for); each row shown inside its
panel; every name at least 1/30 of the screen's height and each live score larger; the QR code
read back by zxing-cpp. Tables of two teams of two, and of three players; a screen without
JavaScript; a refresh while a page shows. One browser and one server for the module
(tests/conftest.py)."""

from contextlib import contextmanager

import pytest
from test_layout import Axe, qr_codes_seen, zxingcpp

from companion.rules import rules_for
from companion.tournaments import views
from companion.tournaments.model import Round, Table, Tournament
from helpers import axe_violations, club_names

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

DECK = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
# The QR code read back from a screenshot, by zxing-cpp (in the test extras: CI has it).
read_back = pytest.mark.skipif(zxingcpp is None, reason="zxing-cpp is not installed (pip install -e '.[test]')")

# What the board shows at this moment: the tables' and the standings' rows on the screen (their
# numbers), every row shown that is not inside its panel, the names' and the scores' type, and
# how far the page scrolls.
SHOWN = """() => {
  const seen = e => { const box = e.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
  const inside = (e, panel) => { const box = e.getBoundingClientRect(), edge = panel.getBoundingClientRect();
    return box.top >= edge.top - 0.5 && box.bottom <= edge.bottom + 0.5 && box.left >= edge.left - 0.5 && box.right <= edge.right + 0.5; };
  const size = e => parseFloat(getComputedStyle(e).fontSize);
  const round = document.querySelector(".board-round"), standings = document.querySelector(".board-standings");
  const tables = [...document.querySelectorAll("[data-testid=board-tables] li")].filter(seen);
  const rows = [...document.querySelectorAll("[data-testid=standings] tbody tr")].filter(seen);
  const names = [...document.querySelectorAll(".board-tables .board-name, .board-players, [data-testid=standings] tbody .entrant-name")].filter(seen);
  return {
    tables: tables.map(li => li.querySelector(".board-table-number").textContent.trim()),
    rows: rows.map(tr => tr.querySelector("td").textContent.trim()),
    outside: [...tables.filter(e => !inside(e, round)), ...rows.filter(e => !inside(e, standings))].map(e => e.textContent.trim().slice(0, 40)),
    spilling: [...document.querySelectorAll("[data-testid=standings] tbody th")].filter(seen)
      .filter(th => th.scrollWidth > th.clientWidth + 0.5).map(th => th.textContent.trim()),
    cutOnTables: [...document.querySelectorAll(".board-tables [aria-hidden=true]")].map(e => e.textContent),
    smallestName: Math.min(...names.map(size)),
    smallestScore: Math.min(...[...document.querySelectorAll(".board-score")].filter(seen).map(size)),
    largestName: Math.max(...tables.flatMap(li => [...li.querySelectorAll(".board-name")]).map(size)),
    scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
    pageNumbers: [...document.querySelectorAll("[data-testid=page-number]")].map(e => e.textContent),
    notesOver: (() => { const notes = document.querySelector(".board .tie-break-marks");
      return notes && rows.length ? notes.getBoundingClientRect().top < rows[rows.length - 1].getBoundingClientRect().bottom - 0.5
        || !inside(notes, standings) : false; })(),
  };
}"""


def new_night(request, count: int, **body) -> int:
    """A Swiss night of ``count`` entrants as a club writes their names, its round 1 started: a
    third of its tables over, a third under way, a third not begun."""
    made = request.post("/api/v1/tournaments", data={
        "name": "Torneo di primavera del Circolo", "format": "swiss", "rounds": 5,
        "entrants": club_names(count), "options": {"target": 11}, **body})
    assert made.status == 201, made.text()
    tournament = made.json()["id"]
    started = request.post(f"/api/v1/tournaments/{tournament}/rounds", data={})
    for number, table in enumerate(started.json()["rounds"][-1]["tables"]):
        for _ in range(3 if number % 3 == 0 else 1 if number % 3 == 1 else 0):
            played = request.post(f"/api/v1/matches/{table['match']}/hands",
                                  data={"piles": [DECK, []], "sweeps": [1, 0]})
            assert played.status == 201, played.text()
    return tournament


@pytest.fixture(scope="module")
def nights(browser, server):
    context = browser.new_context(base_url=server)
    made = {count: new_night(context.request, count) for count in (16, 32, 60)}
    context.close()
    return made


@contextmanager
def wall(browser, server, width: int = 1280, height: int = 720, script: bool = True):
    """A screen on the wall: a page of ``width`` x ``height`` whose timers run on Playwright's
    clock (installed before the board loads), or that runs no script."""
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server,
                                  java_script_enabled=script)
    try:
        page = context.new_page()
        if script:
            page.clock.install()
        yield page
    finally:
        context.close()


def watch(page, seconds: int = 40) -> tuple[set[str], set[str], list[str]]:
    """The board watched for ``seconds`` on Playwright's clock, looked at when it opens and at
    each turn of its pages after (its ``data-turn`` seconds: board.js moves nothing between
    two turns): every table and every row of the standings seen, and what was wrong at any
    of those moments. (It was looked at every second: eight looks a page, seven alike.)"""
    height = page.viewport_size["height"]
    width = page.viewport_size["width"]
    turn = int(page.get_attribute("#board-live", "data-turn"))
    tables, rows, problems = set(), set(), []
    for second in range(0, seconds, turn):
        seen = page.evaluate(SHOWN)
        tables |= set(seen["tables"])
        rows |= set(seen["rows"])
        if seen["scroll"] != [width, height]:
            problems.append(f"{second} s: the page scrolls to {seen['scroll']}")
        if seen["outside"]:
            problems.append(f"{second} s: outside their panel: {seen['outside']}")
        if seen["notesOver"]:
            problems.append(f"{second} s: the tie-breaks' notes over the standings' rows or out of their panel")
        if seen["spilling"]:
            problems.append(f"{second} s: names wider than their cell: {seen['spilling']}")
        if seen["cutOnTables"]:
            problems.append(f"{second} s: names cut on a table: {seen['cutOnTables']}")
        if seen["smallestName"] < height / 30:
            problems.append(f"{second} s: a name {seen['smallestName']} px high, under {height / 30:.1f}")
        if not seen["smallestScore"] > seen["largestName"]:
            problems.append(f"{second} s: a score {seen['smallestScore']} px, a name {seen['largestName']}")
        page.clock.run_for(turn * 1000)
    return tables, rows, problems


@pytest.mark.parametrize("count", [16, 32, 60])
@read_back
def test_every_table_of_a_night_is_on_the_wall_within_40_s(browser, server, nights, count):
    """At 1280x720, then the same screen resized to 1920x1080 (the board's layout is its CSS:
    board.js only turns the pages the server cut) and watched for 40 s again."""
    found = {}
    with wall(browser, server) as page:
        page.goto(f"/lang/it?next=/tournaments/{nights[count]}/board")
        tables = page.locator("[data-testid=board-tables] li").count()
        assert tables == count // 2
        for width, height in ((1280, 720), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            read = qr_codes_seen(page)      # the organiser's screen: the QR of the night's token in it
            problems = [] if len(read) == 1 and read[0].startswith(f"{server}/tournaments/{nights[count]}?welcome=") \
                else [f"the QR code read as {read}"]
            seen_tables, seen_rows, watched = watch(page)
            problems += watched
            if seen_tables != {str(n) for n in range(1, tables + 1)}:
                problems.append(f"tables seen: {sorted(seen_tables, key=int)}")
            if seen_rows != {str(n) for n in range(1, count + 1)}:
                problems.append(f"rows seen: {sorted(seen_rows, key=int)}")
            if count == 16 and page.locator("[data-testid=page-number]").count():
                problems.append("sixteen in pages")         # sixteen on one screen, as the issue asked
            if count == 60 and width == 1280 and Axe is not None:     # a page of many, for axe-core
                problems += [f"{v['id']} ({v['impact']})" for v in axe_violations(page)
                             if v["impact"] in ("moderate", "serious", "critical")]
            if problems:
                found[f"{width}x{height}"] = problems
    assert found == {}


@read_back
def test_sixty_at_3840x2160(browser, server, nights):
    """A 4K screen draws the board of 1280x720, three times as sharp."""
    with wall(browser, server, 3840, 2160) as page:
        page.goto(f"/tournaments/{nights[60]}/board")
        [seen] = qr_codes_seen(page)        # the organiser's screen: the QR of the night's token in it
        assert seen.startswith(f"{server}/tournaments/{nights[60]}?welcome=")
        # The link for a screen without JavaScript is not drawn (nor its markup, as text)
        assert "JavaScript" not in page.locator(".board-head").inner_text()
        seen_tables, seen_rows, problems = watch(page)
        assert problems == []
        assert len(seen_tables) == 30 and len(seen_rows) == 60


def test_a_refresh_shows_the_page_on_the_screen_with_its_new_score(browser, server, nights):
    """The page turns on the screen and the scores come every 3 s by htmx: a score changed on
    page 2 is drawn on page 2, which stays (the poll asks for it), and the pages turn on."""
    with wall(browser, server) as page:
        page.goto(f"/tournaments/{nights[60]}/board")
        turn = int(page.get_attribute("#board-live", "data-turn"))
        page.clock.run_for(turn * 1000)
        on_screen = page.evaluate(SHOWN)
        assert on_screen["pageNumbers"][0].startswith("2/")
        table = on_screen["tables"][-1]
        match = next(t["match"] for t in page.request.get(f"/api/v1/tournaments/{nights[60]}").json()["rounds"][-1]["tables"]
                     if str(t["table"]) == table)
        before = page.locator(f"[data-testid=board-tables] li:has(.board-table-number:text-is('{table}')) .board-score").inner_text()
        answer = page.request.post(f"/api/v1/matches/{match}/hands", data={"piles": [[], DECK], "sweeps": [0, 1]})
        assert answer.status == 201, answer.text()
        page.clock.run_for(3000)
        score = page.locator(f"[data-testid=board-tables] li:has(.board-table-number:text-is('{table}')) .board-score")
        expect(score).not_to_have_text(before)
        assert page.evaluate(SHOWN)["tables"] == on_screen["tables"]
        assert page.evaluate(SHOWN)["pageNumbers"] == on_screen["pageNumbers"]
        page.clock.run_for(turn * 1000)
        assert page.evaluate(SHOWN)["pageNumbers"][0].startswith("3/")


def test_without_javascript_a_screen_shows_a_page_and_turns_them_when_asked(browser, server, nights):
    """No script runs: the board shows its first page and says so ("1/4"); asked to follow the
    room (its link, ?refresh=1), it reloads at each turn on to the next page."""
    with wall(browser, server, script=False) as page:
        page.goto(f"/tournaments/{nights[60]}/board")
        first = page.locator("[data-testid=board-tables] li:visible").all_inner_texts()
        assert 0 < len(first) < 30
        numbers = page.locator("[data-testid=page-number]").all_inner_texts()
        assert len(numbers) == 2 and all(number.startswith("1/") for number in numbers)
        # Its link to the refreshed board takes no room of the panels': before, it took a row of
        # the page's grid, and the standings' last rows ran under the tie-breaks' notes.
        seen = page.evaluate(SHOWN)
        assert (seen["scroll"], seen["outside"], seen["notesOver"]) == ([1280, 720], [], False)
        assert page.locator(".board .tie-break-marks").is_visible()
        # Over neither the QR code nor the title, and the head still above the round's panel.
        link = page.locator(".board-refresh a").bounding_box()
        qr, title, address, panel = (page.locator(other).bounding_box() for other in (
            ".board-join .qr", ".board-head h1", ".board-join p", ".board-round"))
        assert link["x"] >= qr["x"] + qr["width"] and link["y"] + link["height"] <= title["y"] + 0.5
        assert address["y"] + address["height"] <= panel["y"] + 0.5
        page.locator(".board-refresh a").click()
        refresh = page.locator("noscript meta[http-equiv=refresh]")
        assert refresh.get_attribute("content").endswith("url=?refresh=1&page=2")
        page.goto(f"/tournaments/{nights[60]}/board?refresh=1&page=2")
        assert page.locator("[data-testid=board-tables] li:visible").all_inner_texts() != first
        numbers = page.locator("[data-testid=page-number]").all_inner_texts()
        assert all(number.startswith("2/") for number in numbers)


def test_a_table_of_two_teams_says_its_players(browser, server):
    """A night of pairs (a Scopone): each table's teams, and under them their players."""
    with wall(browser, server) as page:
        teams = [{"name": name, "players": players} for name, players in (
            ("I Leoni di Borgo", ["Jean-Baptiste Rossi", "Mariagrazia Ferri"]), ("Nord", ["Carla", "Dario"]),
            ("Gli Scatenati", ["Elena", "Franco"]), ("Sud", ["Bartolomeo Lombardozzi", "Massimiliana Bianchi"]))]
        made = page.request.post("/api/v1/tournaments", data={
            "name": "Scopone a coppie", "format": "round-robin", "variant": "scopone", "entrants": teams})
        assert made.status == 201, made.text()
        page.request.post(f"/api/v1/tournaments/{made.json()['id']}/rounds", data={})
        page.goto(f"/tournaments/{made.json()['id']}/board")
        expect(page.locator(".board-players").first).to_have_text("Jean-Baptiste Rossi & Mariagrazia Ferri – Bartolomeo Lombardozzi & Massimiliana Bianchi")
        seen_tables, _, problems = watch(page, seconds=2)
        assert problems == [] and seen_tables == {"1", "2"}


def test_a_table_of_three_is_a_line_a_side(browser, server, monkeypatch):
    """The tournaments pair two entrants a table today; the board draws a table of three or four
    sides as well, each side's name and score on a line of its own."""
    with wall(browser, server) as page:
        names = club_names(12, long=True)
        made = page.request.post("/api/v1/tournaments", data={
            "name": "Tre per tavolo", "format": "round-robin", "entrants": names}).json()
        tables = [Table(number=number, match_id=1000 + number, entrants=tuple(range(3 * number - 3, 3 * number)),
                        totals=(7, 4, 2), over=False, winner=None, hands=3) for number in range(1, 5)]
        three = Tournament(id=made["id"], name="Tre per tavolo", format="round-robin", rules=rules_for("classica"),
                           entrants=[{"name": name, "players": [name]} for name in names], planned=None,
                           seeding="order", pin_hash=None, version=1, rounds=[Round(number=1, tables=tables, byes=[])])
        monkeypatch.setattr(views, "load", lambda tournament_id: three)
        page.goto(f"/tournaments/{made['id']}/board")
        first = page.locator("[data-testid=board-tables] li").first
        expect(first.locator(".board-name")).to_have_text(names[:3])
        expect(first.locator(".board-score")).to_have_text(["7", "4", "2"])
        lines = [first.locator(".board-name").nth(i).bounding_box()["y"] for i in range(3)]
        assert lines[0] < lines[1] < lines[2]
        seen_tables, _, problems = watch(page, seconds=2)
        assert problems == [] and seen_tables == {"1", "2", "3", "4"}
