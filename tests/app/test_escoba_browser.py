"""Escoba in a real browser at 360 px (issue 43): a match started from the new match page, a hand
tapped on the Spanish pack (the tiles as its cards print them, the worth of the figures under
them), its preview and breakdown in Escoba's words, played to 21 by cards and by counts; the
page never wider than the phone. In English, Italian and Spanish, a Spanish table's own: no word
of another language on any page on the way (Escoba's own terms, cartas and oros, aside).

The browser plays the match once, in Spanish. What the language changes is only the words, so
each language's are read from the same pages drawn by the server (HTML, selectolax: the new match
form and Escoba's rules as htmx swaps them in, each hand's form and preview, the match after each
hand, the last hand's breakdown) with the words companion.js writes into them (the piles' counts,
from the form's ``data-count-forms``); and each language's pages are opened at 360 px, by their
address, to check that none is wider than the phone. Played in each language, the match took
10 to 16 s a language on a busy machine."""

import json
import re

import pytest
from test_translations import giveaways, visible

from helpers import api
from markup import attr, content

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

# The browser's two tests on one phone kept for the module (tests/table_helpers.py's ``Phones``,
# given by tests/conftest.py), its language chosen by its cookie: a phone of their own each
# was a context more.
# 22 cards, 6 oros, the velo and three sevens for Lucía: cartas, oros, velo, setenta.
LUCIA = "1d 2d 3d 4d 5d 7d 7c 7s 1c 2c 3c 4c 5c 6c 1s 2s 3s 4s 5s 6s 8s 9s".split()
CARDS = [f"{value}{suit}" for suit in "dcsb" for value in range(1, 11)]
WIDER = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
LANGUAGES = [
    ("en", "Start the match", "Velo (the Seven of oros)", "Lucía wins 24 to 0"),
    ("it", "Inizia la partita", "Velo (il 7 di oros)", "Lucía vince 24 a 0"),
    ("es", "Empezar la partida", "Velo (el siete de oros)", "Lucía gana 24 a 0"),
]
# Each hand as the form sends it: by cards (Lucía's pile tapped) or by counts (hers, Martín's
# worked out), two escobas each time: 6 points for Lucía.
BY_CARDS = {"mode": "piles", "rest": "1", **{f"c_{card}": "0" for card in LUCIA}, "sweeps_0": "2", "sweeps_1": "0"}
BY_COUNTS = {"mode": "tallies", "rest": "1", "t_cards_0": "22", "t_coins_0": "6", "t_sevens_0": "3",
             "settebello": "0", "sweeps_0": "2", "sweeps_1": "0"}


def one_language(html: str, lang: str, where: str):
    """The page (or the fragment htmx swaps in) says nothing in another language."""
    words = visible(html, hints=True)[1]
    assert giveaways(words, lang, "escoba") == [], (where, words)


@pytest.mark.browser
def test_an_escoba_to_21_at_360_px(phone_page, server):
    """The match played on a Spanish phone: its first hand by cards, its last by counts, to
    its end (the two between, the same two hands, saved through the API)."""
    page = phone_page()
    page.context.add_cookies([{"name": "lang", "value": "es", "url": server}])
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/matches/new")
    page.fill("#player1", "Lucía")
    page.fill("#player2", "Martín")
    page.select_option("#first_dealer", "0")
    page.select_option("#preset", "escoba")
    expect(page.locator("#rules select#pack")).to_have_value("spanish")      # htmx swapped the rules in
    assert not page.evaluate(WIDER), "the new match with Escoba's rules is wider than the phone"
    page.locator("button.primary", has_text="Empezar la partida").last.tap()
    page.wait_for_selector(".scoreboard")
    match = page.url
    rest = [card for card in CARDS if card not in LUCIA]

    for number in (1, 2, 3, 4):
        if number in (2, 3):    # the middle hands the same two ways: saved through the API
            answer = page.request.post(match.replace("/matches/", "/api/v1/matches/") + "/hands",
                                       data={"piles": [LUCIA, rest], "sweeps": [2, 0]})
            assert answer.status == 201, answer.text()
            continue
        if number % 2:          # by cards: Lucía's pile tapped, two escobas
            page.goto(match + "/hands/new?mode=piles")
            sota = page.locator('.tile[data-card="8c"]')
            expect(sota.locator(".tile-value")).to_have_text("10")
            expect(sota.locator(".tile-worth")).to_have_text("= 8")
            # Her oros, copas and espadas each taken by its suit's name, the few of them
            # she has not tapped back (a tile each): 11 taps for her 22 cards, where each
            # tile tapped asked the preview again.
            for suit in "dcs":
                page.locator(f'.suit-pick[data-suit="{suit}"]').tap()
            for card in (f"{value}{suit}" for suit in "dcs" for value in range(1, 11)):
                if card not in LUCIA:
                    page.locator(f'.tile[data-card="{card}"]').tap()
            expect(page.locator('.tile[data-card="7d"]')).to_have_attribute("data-side", "0")
            expect(page.locator('.pile-count[data-pile="0"]')).to_have_text("22 cartas, 6 oros")
        else:                   # by counts: Lucía's counts, Martín's left blank
            page.goto(match + "/hands/new?mode=tallies")
            page.fill("#t_cards_0", "22")
            page.fill("#t_coins_0", "6")
            page.fill("#t_sevens_0", "3")
            expect(page.locator("main")).to_contain_text("Velo (el siete de oros)")
            page.locator('label:has(input[name="settebello"][value="0"])').tap()
        for _ in range(2):
            page.locator('.sweeps .stepper').first.locator('[data-step="1"]').tap()
        expect(page.locator('[data-testid="preview-totals"]')).to_contain_text(f"Lucía {6 * number}, Martín 0")
        assert not page.evaluate(WIDER), (number, "the hand form is wider than the phone")
        one_language(page.content(), "es", f"hand {number}, as the phone shows it")
        page.locator('[data-testid="save"]').tap()
        page.wait_for_selector(".scoreboard")
        expect(page.locator('[data-testid="total-0"]')).to_have_text(str(6 * number))
    expect(page.locator('[data-testid="outcome"]')).to_contain_text("Lucía gana 24 a 0")
    expect(page.locator(".breakdown tbody th").first).to_contain_text("Cartas")
    assert not page.evaluate(WIDER)
    # the last hand's breakdown, on its own page
    hands = page.eval_on_selector_all('a[href*="/hands/"]', "links => links.map(a => a.getAttribute('href'))")
    page.goto(max((h for h in hands if re.search(r"/hands/\d+$", h)), key=lambda h: int(h.rsplit("/", 1)[1])))
    expect(page.locator(".breakdown")).to_contain_text("Setenta")
    assert not page.evaluate(WIDER)
    assert errors == []


@pytest.mark.browser
def test_an_escobas_pages_are_never_wider_than_the_phone_in_any_language(phone_page, server):
    """Each language's words on the pages of the match above, at 360 px: the new match with
    Escoba's rules, each way of entering a hand, the match over, a hand's breakdown (the preview
    draws the same breakdown). The match is played through the API and the pages reached by
    their address (the new match's rules as a phone without JavaScript asks for them). Spanish's
    are the pages the match above is played on, each checked there (with the new hand's
    heading where these are an edit's)."""
    made = api(server, "/matches", {"variant": "escoba", "players": ["Lucía", "Martín"], "first_dealer": 0})
    match = f"/matches/{made['id']}"
    while not api(server, match)["outcome"]["over"]:
        hand = api(server, f"{match}/hands", {"piles": [LUCIA, [c for c in CARDS if c not in LUCIA]],
                                              "sweeps": [2, 0]})["hand"]["id"]
    page = phone_page()
    for lang in ("en", "it"):
        page.context.add_cookies([{"name": "lang", "value": lang, "url": server}])
        for path in ("/matches/new?preset=escoba", f"{match}/hands/{hand}/edit?mode=piles",
                     f"{match}/hands/{hand}/edit?mode=tallies", match, f"{match}/hands/{hand}"):
            assert page.goto(path).status == 200, path
            assert page.get_attribute("html", "lang") == lang
            assert not page.evaluate(WIDER), (lang, path)


# After the browser's tests: one without the browser before them would stop the worker's
# Chromium, to be started again for them (tests/conftest.py's ``Chromium``).
@pytest.mark.parametrize("lang, start, velo, won", LANGUAGES)
def test_an_escobas_pages_say_everything_in_one_language(client, lang, start, velo, won):
    """The words of every page of the match played in the browser below, in each language."""
    client.set_cookie("lang", lang)
    page = client.get("/matches/new").get_data(as_text=True)
    assert start in visible(page)[1]
    rules = client.get("/matches/new/rules?preset=escoba").get_data(as_text=True)
    assert attr(rules, "select#pack option[selected]", "value") == "spanish"
    one_language(page + rules, lang, "the new match with Escoba's rules")
    made = client.post("/api/v1/matches", json={"variant": "escoba", "players": ["Lucía", "Martín"],
                                                "first_dealer": 0}).get_json()
    match = f"/matches/{made['id']}"
    for number in (1, 2, 3, 4):
        entry = BY_CARDS if number % 2 else BY_COUNTS
        form = client.get(f"{match}/hands/new?mode={entry['mode']}").get_data(as_text=True)
        # companion.js counts each pile in these words ("22 cartas, 6 oros")
        forms = json.loads(attr(form, "form[data-count-forms]", "data-count-forms"))
        counts = " ".join(text for text in forms.values() if isinstance(text, str))
        preview = client.post(f"{match}/hands/preview", data=entry).get_data(as_text=True)
        assert f"Lucía {6 * number}, Martín 0" in content(preview, '[data-testid="preview-totals"]'), number
        if entry is BY_COUNTS:
            assert velo in visible(form + preview)[1], number
        one_language(form + preview + counts.replace("#", "1"), lang, f"hand {number}, its form and preview")
        saved = client.post(f"{match}/hands/new", data={**entry, "save": "1"})
        assert saved.status_code == 303, saved.get_data(as_text=True)
        shown = client.get(match).get_data(as_text=True)
        one_language(shown, lang, f"the match after hand {number}")
    assert won in content(shown, '[data-testid="outcome"]')
    last = max(int(h) for h in re.findall(rf'href="{match}/hands/(\d+)"', shown))
    breakdown = client.get(f"{match}/hands/{last}").get_data(as_text=True)
    assert "Setenta" in visible(breakdown)[1]
    one_language(breakdown, lang, "the last hand's breakdown")
