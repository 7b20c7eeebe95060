"""Names whole, nothing split, and a board for the back of the room (issue 35).

At the table, on phones of 360 and 390 px in Italian, French and English: a team named after its
players reads their names whole ("Jean-Bapt. & Bartolomeo." was seen on the scoreboard, the
breakdown, the result, the hand list and the home list); no name breaks at its hyphen
("Jean-/Baptiste donne en premier"), nor the rules page's heading ("Gio/cat/ori"); the
result's score stays on one line ("14 a / 12"); a four-player hand list keeps a row to two lines
(it took five, one a lone "·").

The board on the wall, read from the back of the room with 8 and 16 entrants, is
tests/app/test_layout.py's (read_from_the_back_of_the_room), measured on the loads of the board
that test makes: its sixteen are loaded once for both.

Measured in the page: the text drawn against the whole names, and each word's client rects. One
browser and one server for the module (tests/conftest.py), one load of a page for the sizes of a
screen (the page resized: its layout is its CSS)."""

import re

import pytest
from test_layout import night, swiss

from helpers import words_on_two_lines

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

# The four long names of the tests (tests/app/test_layout.py), Marie-Amélie for Amélie: a hyphen
# in each team.
TEAM_A, TEAM_B = ["Jean-Baptiste", "Bartolomeo Giangiacomo"], ["Marie-Amélie", "Massimiliana"]
WORDS = {word for name in TEAM_A + TEAM_B for word in name.split()}

# Each word of the page (a hyphenated one is one word, a name kept whole) broken inside; the
# whole names in popovers are left out.
SPLIT = words_on_two_lines(r"[^\s–·,&]+", skipped="[popover]")


def cut_words(text: str) -> list[str]:
    """The words of ``text`` that are a name's word cut short and ended with a full stop
    ("Bartolom.", "Jean-Bapt."), which reads as the end of a sentence."""
    return [token for token in re.findall(r"[\w\-]+\.", text)
            if any(word != token[:-1] and word.startswith(token[:-1]) and len(token) > 2 for word in WORDS)]


@pytest.fixture(scope="module")
def matches(browser, server):
    """A Scopone of two teams named after their players, over (its result said), and a match of
    four players with three hands: both made through the JSON API."""
    context = browser.new_context(base_url=server)
    request = context.request
    deck = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
    teams = request.post("/api/v1/matches", data={"variant": "scopone", "first_dealer": 0, "teams": [
        {"players": TEAM_A}, {"players": TEAM_B}]}).json()["id"]
    for _ in range(3):
        request.post(f"/api/v1/matches/{teams}/hands", data={"piles": [deck[:22], deck[22:]], "sweeps": [1, 0]})
    four = request.post("/api/v1/matches", data={"first_dealer": 0, "players": [
        "Jean-Baptiste", "Bartolomeo Giangiacomo", "Massimiliana", "Marie-Amélie"]}).json()["id"]
    piles = [[f"{v}{s}" for v in range(1, 11)] for s in "dcsb"]
    for _ in range(2):
        assert request.post(f"/api/v1/matches/{four}/hands", data={"piles": piles, "sweeps": [1, 0, 0, 0]}).ok
    two = request.post("/api/v1/matches", data={"first_dealer": 0, "players": ["Jean-Baptiste", "Marie-Amélie"]}).json()["id"]
    context.close()
    return {"teams": teams, "four": four, "two": two}


@pytest.fixture(scope="module")
def eight(browser, server):
    """A Swiss of eight (tests/app/test_layout.py's night), three of its first round's tables
    played."""
    context = browser.new_context(base_url=server)
    try:
        return swiss(context.new_page(), night(8), 3)
    finally:
        context.close()


PHONES = (360, 390)


def test_names_are_whole_and_never_split_on_a_phone(browser, server, matches, eight):
    """Each page loaded once on a phone of 360 px (or 390), measured, then the screen resized to
    the other width and measured again: the pages' layout is their CSS (names are cut short by
    the server, no script measures the screen), so the second width needs no second load. Each
    look at the page is one script (LOOK) that measures everything at once; the language is
    chosen once (its cookie) for the pages in it."""
    context = browser.new_context(viewport={"width": PHONES[0], "height": 800}, base_url=server, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    found = {}
    widths = list(PHONES)
    try:
        for lang in ("it", "fr", "en", "es"):
            # The rules' page too: its table's heading read "Gio/cat/ori".
            # The hand form too (found in review): its side picker split "Jean-/Baptiste", and its
            # counts cut the name to "Jean-Baptis…" in a column it fits.
            for number, path in enumerate((
                    f"/matches/{matches['teams']}", f"/matches/{matches['four']}", "/", "/rules/classica",
                    f"/matches/{matches['two']}/hands/new", f"/matches/{matches['two']}/hands/new?mode=tallies",
                    f"/tournaments/{eight}")):
                page.goto(path if number else f"/lang/{lang}?next={path}")
                for width in widths:            # first the width the page before was left at
                    if page.viewport_size["width"] != width:
                        page.set_viewport_size({"width": width, "height": 800})
                    problems = names_on_a_phone(page.evaluate(LOOK), path, matches)
                    if problems:
                        found[f"{width} {lang} {path}"] = problems
                widths.reverse()
    finally:
        context.close()
    assert found == {}


def names_on_a_phone(seen: dict, path: str, matches: dict) -> list[str]:
    """What is wrong with the names of the page at ``path`` as the screen shows it (``seen``:
    what LOOK measured)."""
    problems = [f"cut: {word}" for word in cut_words(seen["text"])]
    problems += [f"split: {word}" for word in seen["split"]]
    if path == f"/matches/{matches['teams']}":
        # The result names both players whole, its score on one line.
        outcome = seen["outcome"]
        if "Jean-Baptiste & Bartolomeo Giangiacomo" not in outcome["text"]:
            problems.append(f"the result without both players whole: {outcome['text']!r}")
        if len([score for score in outcome["nowrap"] if re.fullmatch(r"\d+ (a|à|to) \d+", score)]) != 1:
            problems.append(f"the result's score not on one line: {outcome['nowrap']}")
        # Each team's box: the players' names whole where they fit, the whole name
        # to a screen reader where one is cut short (never with a full stop).
        teams = (" & ".join(TEAM_A), " & ".join(TEAM_B))
        for box in seen["totals"]:
            if box["short"] is not None and not (box["short"].endswith("…") and box["whole"] in teams):
                problems.append(f"a team cut short as {box['short']!r}, to a screen reader {box['whole']!r}")
        if seen["totals"][0]["text"].replace("\n", " ") != teams[0]:
            problems.append(f"the first team's box reads {seen['totals'][0]['text']!r}")
    if path.endswith("mode=tallies"):
        problems += [f"cut: {name}" for name in seen["tallies"] if "…" in name]
    if path in (f"/matches/{matches['four']}", f"/matches/{matches['teams']}"):
        problems += [f"row of {n} lines" for n in seen["rowLines"] if n > 2]
    # No row of the hand list has a line holding only the "·" between two sides (the
    # Scopone of two long team names: "Giangiacomo 6" then a lone "·").
    problems += [f"lone separator in hand {n}" for n in seen["lone"]]
    return problems


# The hand rows (their numbers) with a line whose only words are separators: each word's first
# client rect gives its line.
LONE_SEPARATOR = """() => [...document.querySelectorAll("ol.hands li > a")].filter(row => {
  const lines = new Map();
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const rect = [...range.getClientRects()].find(r => r.width > 0);
      if (!rect) continue;
      const line = Math.round((rect.top + rect.height / 2) / 10);
      lines.set(line, [...(lines.get(line) || []), word[0]]);
    }
  }
  return [...lines.values()].some(words => words.every(w => w === "·"));
}).map(row => row.closest("li").dataset.number)"""


# The number of lines each row of the hand list takes: its text's client rects, those whose
# middles are within 10 px of each other on one line.
ROW_LINES = """() => [...document.querySelectorAll("ol.hands li > a")].map(row => {
  const range = document.createRange();
  range.selectNodeContents(row);
  const middles = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0)
    .map(r => r.top + r.height / 2).sort((a, b) => a - b);
  let lines = 0, last = -1e9;
  for (const middle of middles) if (middle - last > 10) { lines++; last = middle; }
  return lines;
})"""


# Everything names_on_a_phone judges, measured by one script: the page's text as drawn, its words
# split, the hand rows' lines and lone separators, the counts' names, the result's text and its
# parts kept on one line, and each team's box (its text, the name cut short, the whole name a
# screen reader reads).
LOOK = f"""() => {{
  const outcome = document.querySelector('[data-testid="outcome"]');
  return {{
    text: document.body.innerText,
    split: ({SPLIT})(),
    rowLines: ({ROW_LINES})(),
    lone: ({LONE_SEPARATOR})(),
    tallies: [...document.querySelectorAll(".tally-name")].map(e => e.innerText),
    outcome: {{text: outcome ? outcome.innerText : "",
               nowrap: outcome ? [...outcome.querySelectorAll(".nowrap")].map(e => e.textContent.trim().replace(/\\s+/g, " ")) : []}},
    totals: [...document.querySelectorAll(".total-name")].map(e => {{
      const short = e.querySelector("[aria-hidden=true]"), whole = e.querySelector(".visually-hidden");
      return {{text: e.innerText, short: short ? short.innerText : null, whole: whole ? whole.innerText : null}};
    }}),
  }};
}}"""


def test_the_conflict_tables_headings_are_whole_at_390_px(browser, server):
    """Two phones entered the same hand: the table of both scores read "Registrat/a" at 390 px.
    A match of two long names, its counts typed on this phone while another records hand 1."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    four_nil = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 0},
                            {"cards": 18, "coins": 4, "settebello": False, "primiera": False, "sweeps": 0}]}
    found = {}
    try:
        for lang in ("it", "fr", "en", "es"):
            match = page.request.post("/api/v1/matches", data={
                "players": ["Bartolomeo Giangiacomo", "Marie-Amélie"]}).json()["id"]
            page.goto(f"/lang/{lang}?next=/matches/{match}/hands/new?mode=tallies")
            page.fill("#t_cards_0", "22")
            page.fill("#t_coins_0", "6")
            page.locator('label:has(input[name="settebello"][value="0"])').click()
            assert page.request.post(f"/api/v1/matches/{match}/hands", data=four_nil).ok
            page.locator('[data-testid="save"]').click()
            page.wait_for_selector('[data-testid="taken"]')
            split = page.evaluate(SPLIT)
            if split:
                found[lang] = split
    finally:
        context.close()
    assert found == {}


# How much of a field's placeholder its box shows: the placeholder's width in the field's font
# (a canvas measures it) against the room inside the field.
PLACEHOLDER_FITS = """(field) => {
  const style = getComputedStyle(field);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return context.measureText(field.placeholder).width <= room;
}"""


def test_a_teams_placeholder_shows_its_players_names_whole_at_390_px(browser, server):
    """Found in review: the new match form drew the two teams' name fields side by side, half
    the width each, so the placeholder naming a team after its players showed "Jean-Baptiste"
    and hid "& Marie-Amélie". Each field now has the form's width."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto("/lang/it?next=/matches/new")
        page.locator('label:has(input[name="layout"][value="2x2"])').click()
        for seat, name in enumerate(["Jean-Baptiste", "Bartolomeo", "Marie-Amélie", "Massimiliana"], start=1):
            page.fill(f'input[name="player{seat}"]', name)
        team1 = page.locator('input[name="team1"]')
        expect(team1).to_have_attribute("placeholder", "Jean-Baptiste & Marie-Amélie")
        assert team1.evaluate(PLACEHOLDER_FITS)
        assert page.locator('input[name="team2"]').evaluate(PLACEHOLDER_FITS)
    finally:
        context.close()
