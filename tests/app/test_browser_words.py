"""Issue 22's words and smaller things in a real browser (Debian's Chromium, Playwright): the
team fields of a new match with and without JavaScript, the winner's celebration once per phone,
the chart's figures and legend at 360 px."""

import re

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

# The module's phones, kept for all its tests (tests/table_helpers.py's ``Phones``): one with
# JavaScript, one without, and another phone (with its own storage: the celebrations it has seen).
ANOTHER_PHONE = "en-US"


@pytest.mark.parametrize("scripts", [True, False], ids=["script", "no-script"])
def test_two_teams_say_each_players_team_and_are_named_after_their_players(phone_page, scripts):
    page = phone_page(scripts=scripts)
    page.goto("/matches/new")
    expect(page.get_by_role("combobox", name="Player 1", exact=True)).to_be_visible()
    page.locator('label:has(input[name="layout"][value="2x2"])').click()
    expect(page.get_by_role("combobox", name="Player 1 · team A", exact=True)).to_be_visible()
    expect(page.get_by_role("combobox", name="Player 4 · team B", exact=True)).to_be_visible()
    expect(page.get_by_role("combobox", name="Player 1", exact=True)).to_have_count(0)
    for seat, name in enumerate(["Anna", "Bruno", "Carla", "Dario"], start=1):
        page.fill(f"#player{seat}", name)
    if scripts:     # the names the teams will get, as they are typed
        expect(page.locator("#team1")).to_have_attribute("placeholder", "Anna & Carla")
        expect(page.locator("#team2")).to_have_attribute("placeholder", "Bruno & Dario")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator(".scoreboard")).to_contain_text("Anna & Carla")
    expect(page.locator(".scoreboard")).to_contain_text("Bruno & Dario")


CELEBRATION = """() => document.querySelector(".scoreboard").getAnimations({subtree: true})
    .map(a => `${a.animationName}${a.effect.pseudoElement || ""}`).sort()"""
EVERY_CARD = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]


def won_match(page, players=("Carla", "Dario")):
    match_id = page.request.post("/api/v1/matches", data={"players": list(players), "first_dealer": 0,
                                                          "options": {"target": 3}}).json()["id"]
    hand = page.request.post(f"/api/v1/matches/{match_id}/hands",
                             data={"piles": [EVERY_CARD, []], "sweeps": [1, 0]})
    assert hand.status == 201, hand.text()
    return match_id


PLAYED = """() => document.querySelector(".scoreboard").getAnimations({subtree: true})
    .map(a => `${a.animationName}${a.effect.pseudoElement || ""} ${a.playState}`).sort()"""


def test_the_celebration_plays_once_on_a_phone_in_gold_and_never_over_the_score(phone_page):
    """The winner in gold on a gold band (no side's colour, not the errors' red), with a shine
    and a burst of suits as the finished match shows, inside the winner's total and behind its
    figures; the polls every 2 s do not replay it, nor does the page opened again; another
    match won, or another phone, has its own first time, and a phone that asks for reduced
    motion gets no movement."""
    page = phone_page()
    won = won_match(page)
    page.clock.install()        # the poll due every 2 s asked at once (time still flows)
    page.goto(f"/matches/{won}")
    board = page.locator(".scoreboard")
    expect(board).to_have_attribute("data-celebrated", "true")
    expect(board).to_have_class(re.compile(r"\bcelebrate\b"))
    assert page.evaluate(CELEBRATION) == ["burst::after", "burst::before", "shine"]
    colours = page.evaluate("""() => { const colour = (s, p = "color") => getComputedStyle(document.querySelector(s))[p];
        return {outcome: colour(".outcome.over"), ink: colour("html"),
                band: colour(".total.winner", "backgroundColor"), loser: colour(".total:not(.winner)", "backgroundColor")}; }""")
    assert colours["outcome"] == colours["ink"] and colours["band"] != colours["loser"]
    # Inside the winner's total and behind its figures: nothing covers a score.
    layers = page.evaluate("""() => { const total = document.querySelector(".total.winner");
        return {clip: getComputedStyle(total).overflow, burst: getComputedStyle(total, "::before").zIndex,
                figures: getComputedStyle(total.querySelector(".total-points")).zIndex}; }""")
    assert layers == {"clip": "hidden", "burst": "0", "figures": "1"}
    # Played to its end at once (its 1.9 s not waited out), then two polls, asked at once: a
    # poll that replayed it would show running animations, one that drew the scoreboard
    # again a new winner's box.
    page.evaluate("window.__winner = document.querySelector('.total.winner')")
    page.evaluate("""() => document.querySelector(".scoreboard").getAnimations({subtree: true})
        .forEach(a => a.finish())""")
    for _ in range(2):
        with page.expect_response(lambda r: "/poll?since=" in r.url):
            page.clock.run_for(2_000)
    assert page.evaluate("document.querySelector('.total.winner') === window.__winner")
    assert page.evaluate(PLAYED) == ["burst::after finished", "burst::before finished", "shine finished"]
    # Opened again on this phone: the gold band, no celebration.
    page.reload()
    expect(board).to_have_attribute("data-celebrated", "true")
    expect(board).not_to_have_class(re.compile(r"\bcelebrate\b"))
    assert page.evaluate(CELEBRATION) == []
    # Another match won: its own celebration, once.
    other = won_match(page, ("Elena", "Franco"))
    page.goto(f"/matches/{other}")
    expect(page.locator(".scoreboard")).to_have_class(re.compile(r"\bcelebrate\b"))
    # Another phone has its own first time; this one asks for reduced motion: no movement.
    page = phone_page(ANOTHER_PHONE)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"/matches/{won}")
    expect(page.locator(".scoreboard")).to_have_class(re.compile(r"\bcelebrate\b"))
    expect(page.locator(".outcome.over")).to_be_visible()
    assert page.evaluate(CELEBRATION) == []


def test_a_match_won_on_another_phone_is_celebrated_when_the_poll_brings_it(phone_page):
    page = phone_page()
    match_id = page.request.post("/api/v1/matches", data={"players": ["Gino", "Ida"], "first_dealer": 0,
                                                          "options": {"target": 3}}).json()["id"]
    page.clock.install()        # the poll due every 2 s asked at once (time still flows)
    page.goto(f"/matches/{match_id}")
    expect(page.locator(".scoreboard")).not_to_have_class(re.compile(r"\bcelebrate\b"))
    page.request.post(f"/api/v1/matches/{match_id}/hands", data={"piles": [EVERY_CARD, []], "sweeps": [1, 0]})
    page.clock.run_for(2_000)
    expect(page.locator(".scoreboard")).to_have_class(re.compile(r"\bcelebrate\b"))
    page.reload()
    expect(page.locator(".scoreboard")).not_to_have_class(re.compile(r"\bcelebrate\b"))


@pytest.mark.parametrize("scripts", [True, False], ids=["script", "no-script"])
def test_the_chart_reads_its_figures_and_legend_at_360_px(phone_page, scripts):
    page = phone_page(scripts=scripts)
    names = ["Mariagrazia Lombardozzi", "Bartolomeo"]
    match_id = page.request.post("/api/v1/matches", data={"players": names, "options": {"target": 21}}).json()["id"]
    for piles in ([EVERY_CARD[:22], EVERY_CARD[22:]], [EVERY_CARD[18:], EVERY_CARD[:18]]):
        page.request.post(f"/api/v1/matches/{match_id}/hands", data={"piles": piles, "sweeps": [0, 0]})
    page.goto(f"/matches/{match_id}")
    chart = page.locator("svg.chart")
    expect(chart.locator("text.chart-figure-target")).to_have_text("21")
    expect(chart.locator("text.chart-hand")).to_have_text(["1", "2"])
    legend = page.locator('[data-testid="chart-legend"] li')
    expect(legend).to_have_text(names)
    # Readable at arm's length: the figures drawn at 11 px or more, nothing wider than the phone.
    heights = chart.locator("text").evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert min(heights) >= 11, heights
    for i in range(2):
        box = legend.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_tournament_on_the_home_page_is_one_readable_line_at_360_px(phone_page):
    page = phone_page()
    made = page.request.post("/api/v1/tournaments", data={
        "name": "Circolo Arci", "format": "round-robin", "entrants": ["Lia", "Ivo", "Eva", "Ada"]}).json()
    page.request.post(f"/api/v1/tournaments/{made['id']}/rounds", data={})
    page.goto("/")
    line = page.locator(f'[data-testid="night-{made["id"]}"]')
    expect(line).to_contain_text("Circolo Arci")
    expect(line).to_contain_text("round 1: 2 of 2 tables playing")
    name = line.locator(".match-names").bounding_box()
    assert name["height"] < 40 and name["width"] > 100           # one line, not a letter a line
    expect(page.get_by_role("link", name="+ New match")).to_have_count(1)
    line.click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{made['id']}$"))
