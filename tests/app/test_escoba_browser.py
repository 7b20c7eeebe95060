"""Escoba in a real browser at 360 px (issue 43): a match started from the new match page, a hand
tapped on the Spanish pack (the tiles as its cards print them, the worth of the figures under
them), its preview and breakdown in Escoba's words, played to 21 by cards and by counts; the
page never wider than the phone. In English, Italian and Spanish, a Spanish table's own: no word
of another language on any page on the way (Escoba's own terms, cartas and oros, aside)."""

import re

import pytest
from test_translations import giveaways, visible

from helpers import phone_context

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

# 22 cards, 6 oros, the velo and three sevens for Lucía: cartas, oros, velo, setenta.
LUCIA = "1d 2d 3d 4d 5d 7d 7c 7s 1c 2c 3c 4c 5c 6c 1s 2s 3s 4s 5s 6s 8s 9s".split()
WIDER = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"


def one_language(page, lang: str, where: str):
    """The page as it is now (htmx's swaps included) says nothing in another language."""
    words = visible(page.content(), hints=True)[1]
    assert giveaways(words, lang, "escoba") == [], (where, words)


@pytest.mark.parametrize("lang, start, velo, won", [
    ("en", "Start the match", "Velo (the Seven of oros)", "Lucía wins 24 to 0"),
    ("it", "Inizia la partita", "Velo (il 7 di oros)", "Lucía vince 24 a 0"),
    ("es", "Empezar la partida", "Velo (el siete de oros)", "Lucía gana 24 a 0"),
])
def test_an_escoba_to_21_at_360_px(browser, server, lang, start, velo, won):
    context = phone_context(browser, server)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/matches/new")
    page.fill("#player1", "Lucía")
    page.fill("#player2", "Martín")
    page.select_option("#first_dealer", "0")
    page.select_option("#preset", "escoba")
    expect(page.locator("#rules select#pack")).to_have_value("spanish")      # htmx swapped the rules in
    one_language(page, lang, "the new match with Escoba's rules")
    page.locator("button.primary", has_text=start).last.tap()
    page.wait_for_selector(".scoreboard")
    match = page.url

    for number in (1, 2, 3, 4):
        if number % 2:          # by cards: Lucía's pile tapped, two escobas
            page.goto(match + "/hands/new?mode=piles")
            sota = page.locator('.tile[data-card="8c"]')
            expect(sota.locator(".tile-value")).to_have_text("10")
            expect(sota.locator(".tile-worth")).to_have_text("= 8")
            for card in LUCIA:
                page.locator(f'.tile[data-card="{card}"]').tap()
            expect(page.locator('.tile[data-card="7d"]')).to_have_attribute("data-side", "0")
        else:                   # by counts: Lucía's counts, Martín's left blank
            page.goto(match + "/hands/new?mode=tallies")
            page.fill("#t_cards_0", "22")
            page.fill("#t_coins_0", "6")
            page.fill("#t_sevens_0", "3")
            expect(page.locator("main")).to_contain_text(velo)
            page.locator('label:has(input[name="settebello"][value="0"])').tap()
        for _ in range(2):
            page.locator('.sweeps .stepper').first.locator('[data-step="1"]').tap()
        expect(page.locator('[data-testid="preview-totals"]')).to_contain_text(f"Lucía {6 * number}, Martín 0")
        assert not page.evaluate(WIDER), (number, "the hand form is wider than the phone")
        one_language(page, lang, f"hand {number}, its form and preview")
        page.locator('[data-testid="save"]').tap()
        page.wait_for_selector(".scoreboard")
        expect(page.locator('[data-testid="total-0"]')).to_have_text(str(6 * number))
        one_language(page, lang, f"the match after hand {number}")
    expect(page.locator('[data-testid="outcome"]')).to_contain_text(won)
    expect(page.locator(".breakdown tbody th").first).to_contain_text("Cartas")
    assert not page.evaluate(WIDER)
    # the last hand's breakdown, on its own page
    hands = page.eval_on_selector_all('a[href*="/hands/"]', "links => links.map(a => a.getAttribute('href'))")
    page.goto(max((h for h in hands if re.search(r"/hands/\d+$", h)), key=lambda h: int(h.rsplit("/", 1)[1])))
    expect(page.locator(".breakdown")).to_contain_text("Setenta")
    one_language(page, lang, "the last hand's breakdown")
    assert not page.evaluate(WIDER)
    context.close()
    assert errors == []
