"""Issue 22's words and smaller things in a real browser (Debian's Chromium, Playwright): the
team fields of a new match with and without JavaScript, the winner's celebration once per phone,
the chart's figures and legend at 360 px."""

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser


def phone(browser, server, **options):
    return browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                               is_mobile=True, base_url=server, **options)


@pytest.mark.parametrize("scripts", [True, False], ids=["script", "no-script"])
def test_two_teams_say_each_players_team_and_are_named_after_their_players(browser, server, scripts):
    context = phone(browser, server, java_script_enabled=scripts)
    page = context.new_page()
    try:
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
    finally:
        context.close()
