"""The companion in a real browser, at a phone's size: Debian's Chromium driven by Playwright
against the real server (waitress), CSRF and all. Taps are counted: recording a hand must be
quicker than pen and paper."""

import json
import random
import re
from dataclasses import dataclass

import pytest

from companion.i18n import COOKIE
from companion.rules import deck

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect
PlaywrightTimeout = playwright_api.TimeoutError

# Every test here drives Chromium (the browser and server fixtures: tests/conftest.py).
pytestmark = pytest.mark.browser


class Phone:
    """A phone at the table: every tap and every key press is counted."""

    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, selector: str):
        self.page.locator(selector).first.tap()
        self.taps += 1

    def type(self, selector: str, text: str):
        self.tap(selector)
        self.keys(text)

    def keys(self, text: str):
        """Keys pressed on the keyboard already up (one tap each)."""
        self.page.keyboard.type(text)
        self.taps += len(text)


# A second phone at the table (tests/table_helpers.py's ``Phones``: another kept context, with
# cookies of its own, so its own session and phone's id, and a clock of its own), in English too.
OTHER_PHONE = "en-US"


@pytest.fixture
def phone(phone_page):
    """A page on the module's kept phone (``phone_page``: a context at 360 px opened once for
    the module, where a new one each test started a renderer and fetched the scripts, styles and
    fonts again), its taps counted and its script errors failing the test."""
    page = phone_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A refused save answers 400 on purpose; any other console error (a script error, something
    # the Content-Security-Policy blocked) fails the test.
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error"
            and "status of 400" not in msg.text else None)
    yield Phone(page)
    assert errors == [], errors        # no script error, no resource refused by the CSP


def start_match(phone, names=("Anna", "Bruno"), preset=None, target=None):
    page = phone.page
    page.goto("/matches/new")
    page.fill("#player1", names[0])
    page.fill("#player2", names[1])
    page.select_option("#first_dealer", "0")
    if preset:
        page.select_option("#preset", preset)
        # htmx swaps in the variant's rules
        expect(page.locator("#rules select#napola")).to_have_value(
            {"napola": "to-six", "scopa-d-assi": "to-six"}.get(preset, "off"))
    if target:
        page.locator("details.rules > summary").tap()     # the rules are folded under a line
        page.fill("#target", str(target))
    page.locator("button.primary", has_text="Start the match").last.tap()
    try:
        page.wait_for_selector(".scoreboard")
    except PlaywrightTimeout:       # say what the phone showed instead (a CI run timed out here once)
        said = page.locator(".unsent, .flash, .error, [role=alert]").all_text_contents()
        raise AssertionError(f"no scoreboard at {page.url}; the page said {said}") from None
    return page.url.rsplit("/", 1)[1]


def next_change(page):
    """Waits (as a ``with`` block) for the answer to one of ``page``'s polls that brings a change
    (one the server did not answer with ``HX-Reswap: none``): an event, not a time, so that a
    busy machine cannot fail the test. A poll every 2 s brings it (``poll_now``: at once)."""
    return page.expect_response(lambda answer: "/poll?since=" in answer.url and answer.status == 200
                                and answer.headers.get("hx-reswap") != "none", timeout=60_000)


def poll_now(page) -> None:
    """The page's next poll, now: its timers are on Playwright's clock (``page.clock.install()``
    before the page opened; time still flows as usual), so the poll due every 2 s is asked at
    once rather than waited for. The page still follows by itself, through its own poll."""
    page.clock.run_for(2_000)


def made(page, players, *hands, **options) -> int:
    """A match of ``players`` made through the JSON API (the first dealing), and ``hands`` (each
    the API's body) saved in it: its id. The hands before the one a test enters on the page."""
    match_id = page.request.post("/api/v1/matches", data={
        "players": list(players), "first_dealer": 0, "options": options}).json()["id"]
    for hand in hands:
        answer = page.request.post(f"/api/v1/matches/{match_id}/hands", data=hand)
        assert answer.status == 201, answer.text()
    return match_id


# The side that takes carte, denari, settebello and primiera in a hand by counts (the API's
# tallies), and the side that takes none of them.
EVERY_POINT = {"cards": 22, "coins": 6, "settebello": True, "primiera": True}
NO_POINT = {"cards": 18, "coins": 4, "settebello": False, "primiera": False}


def by_counts(first: dict, second: dict, sweeps=(0, 0)) -> dict:
    """A hand by counts, as the API takes it: each side's tallies and sweeps."""
    return {"tallies": [{**first, "sweeps": sweeps[0]}, {**second, "sweeps": sweeps[1]}]}


def totals(page):
    return [int(page.text_content(f'[data-testid="total-{i}"]')) for i in range(2)]


def test_a_match_is_created_and_a_hand_recorded_by_tapping_the_smaller_pile(phone):
    page = phone.page
    match_id = start_match(phone)
    assert "Hand 1:" in page.text_content(".next-hand")
    page.locator("a.button", has_text="Tap the cards").tap()
    page.wait_for_selector(".tile")

    # Anna's 18 cards: one tap each, one sweep, one save.
    anna = [str(c) for c in deck() if c.suit in "cs"][:18]
    phone.taps = 0
    for card in anna:
        phone.tap(f'.tile[data-card="{card}"]')
    phone.tap('.stepper:nth-of-type(1) [data-step="1"]')
    expect(page.locator('[data-testid="preview-totals"]')).to_contain_text("Anna 1, Bruno 4")
    phone.tap('[data-testid="save"]')
    page.wait_for_selector(".scoreboard")
    assert page.url.endswith(f"/matches/{match_id}")
    assert phone.taps == len(anna) + 1 + 1
    # Bruno: 22 cards, all 10 denari, the settebello; neither side has all four suits, so the
    # primiera compares the suits held: Anna 7c 7s = 42, Bruno 7d 10s 7b = 52.
    assert totals(page) == [1, 4]
    assert "Hand 1 saved." in page.text_content(".flash")


def test_the_live_preview_follows_the_taps(phone):
    page = phone.page
    # The match made through the API (started from the page: the tests before).
    page.goto(f"/matches/{made(page, ('Carla', 'Dario'))}/hands/new")
    tile = page.locator('.tile[data-card="7d"]')
    expect(tile).to_have_attribute("aria-label", "7, Seven of coins")     # what it shows first (WCAG 2.5.3)
    expect(tile).to_have_attribute("aria-pressed", "false")
    phone.tap('.tile[data-card="7d"]')
    expect(page.locator("#preview")).to_contain_text("Carla has the Seven of coins")
    expect(tile).to_have_attribute("aria-pressed", "true")
    expect(page.locator('.pile-count[data-pile="0"]')).to_have_text("1 card, 1 coin")
    expect(page.locator('.pile-count[data-pile="1"]')).to_have_text("39 cards, 9 coins")
    phone.tap('.tile[data-card="7d"]')     # a second tap takes it back: nothing entered again
    expect(page.locator("#preview")).to_contain_text("shows here as you enter it")
    expect(page.locator("#preview .error")).to_have_count(0)
    assert page.get_attribute('.tile[data-card="7d"]', "data-side") == ""
    expect(tile).to_have_attribute("aria-pressed", "false")
    # A tap on a suit's name takes the whole suit; a second gives it back.
    page.get_by_role("button", name="all the coins").tap()
    expect(page.locator('.pile-count[data-pile="0"]')).to_have_text("10 cards, 10 coins")
    expect(page.locator('.tile[data-side="0"]')).to_have_count(10)
    expect(page.locator("#preview")).to_contain_text("Carla has the Seven of coins")
    page.get_by_role("button", name="all the coins").tap()
    expect(page.locator('.tile[data-side="0"]')).to_have_count(0)


def test_a_hand_from_counts_takes_eight_taps_at_most(phone):
    """Issue 12's aim: a two-player hand by counts in at most 8 taps (every key counted). The
    first count has the keyboard up when the page opens."""
    page = phone.page
    match_id = made(page, ("Elena", "Franco"))      # started from the page: the tests before
    page.goto(f"/matches/{match_id}")
    page.locator("a.button", has_text="Enter the counts").tap()
    page.wait_for_selector("#t_cards_0")
    assert page.evaluate("document.activeElement.id") == "t_cards_0"
    phone.taps = 0
    phone.keys("22")
    phone.type("#t_coins_0", "6")
    phone.tap('label:has(input[name="settebello"][value="0"])')
    phone.tap('label:has(input[name="primiera"][value="0"])')
    phone.tap('.stepper:nth-of-type(1) [data-step="1"]')
    phone.tap('[data-testid="save"]')
    page.wait_for_selector(".scoreboard")
    assert page.url.endswith(f"/matches/{match_id}")
    assert phone.taps <= 8, phone.taps
    assert totals(page) == [5, 0]


def test_a_new_classica_match_takes_four_taps_after_the_names(phone):
    """Issue 12's aim: names, variant, Inizia; at most 4 taps once the names are typed. The
    usual game needs none of the rules opened."""
    page = phone.page
    page.goto("/matches/new")
    phone.type("#player1", "Anna")
    phone.type("#player2", "Bruno")
    phone.taps = 0
    phone.tap('[data-testid="start"]')
    page.wait_for_selector(".scoreboard")
    assert phone.taps <= 4, phone.taps
    match_id = page.url.rsplit("/", 1)[1]
    body = page.request.get(f"/api/v1/matches/{match_id}").json()
    assert body["rules"]["preset"] == "classica" and [s["name"] for s in body["sides"]] == ["Anna", "Bruno"]


def test_the_variant_chooses_its_seating_and_the_dealer_is_offered_by_name(phone):
    page = phone.page
    page.goto("/matches/new")
    page.fill("#player1", "Anna")
    page.fill("#player2", "Bruno")
    options = page.locator("#first_dealer option")
    expect(options).to_have_text(["drawn at random", "Anna", "Bruno"])
    page.select_option("#preset", "scopone")
    expect(page.locator('input[name="layout"][value="2x2"]')).to_be_checked()
    expect(options).to_have_text(["drawn at random", "Anna", "Bruno", "Player 3", "Player 4"])
    expect(page.locator("#rules-summary")).to_have_text("first to 11 · standard captures · primiera 21/18/16…")
    page.fill("#player3", "Carla")
    expect(options.nth(3)).to_have_text("Carla")
    page.select_option("#preset", "bazzica")
    expect(page.locator('input[name="layout"][value="2"]')).to_be_checked()
    expect(options).to_have_count(3)
    expect(page.locator("#rules-summary")).to_contain_text("first to 21")
    expect(page.locator("#rules-summary")).to_contain_text("Bazzica")
    # Changing one rule inside the folded rules changes the line.
    page.locator("details.rules > summary").tap()
    page.fill("#target", "31")
    page.locator("#capture").select_option("corse")
    expect(page.locator("#rules-summary")).to_contain_text("first to 31 · capturing not compulsory")


def test_a_finished_match_offers_a_rematch_on_every_phone(phone, phone_page):
    page = phone.page
    match_id = made(page, ("Anna", "Bruno"), target=3)     # started from the page: other tests
    page.goto(f"/matches/{match_id}")
    watcher = phone_page(OTHER_PHONE)
    watcher.clock.install()
    watcher.goto(f"/matches/{match_id}")
    page.locator("a.button", has_text="Enter the counts").tap()
    expect(page.locator("#t_cards_0")).to_be_focused()
    phone.keys("22")
    phone.type("#t_coins_0", "6")
    phone.tap('label:has(input[name="settebello"][value="0"])')
    phone.tap('label:has(input[name="primiera"][value="0"])')
    phone.tap('[data-testid="save"]')
    expect(page.locator('[data-testid="outcome"]')).to_have_text("Anna wins 4 to 0")
    page.locator('[data-testid="rematch"]').tap()
    page.wait_for_url(lambda url: not url.endswith(f"/matches/{match_id}"))
    new_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(".next-hand")).to_contain_text("Bruno deals")
    # The other phone, polling the finished match, is offered the same match, not a new one.
    poll_now(watcher)
    expect(watcher.locator('a[data-testid="rematch"]')).to_have_attribute("href", f"/matches/{new_id}")


def test_an_impossible_hand_is_refused_and_the_form_stays_filled(phone):
    page = phone.page
    page.goto(f"/matches/{made(page, ('Gina', 'Ugo'))}/hands/new?mode=tallies")     # made through the API
    phone.type("#t_cards_0", "4")
    phone.type("#t_coins_0", "2")
    phone.tap('label:has(input[name="settebello"][value="0"])')
    for _ in range(3):
        phone.tap('.stepper:nth-of-type(1) [data-step="1"]')
    phone.tap('[data-testid="save"]')
    page.wait_for_selector('[data-testid="error"]')
    assert "Gina cannot have made 3 sweeps: 4 cards taken" in page.text_content('[data-testid="error"]')
    assert page.input_value("#t_cards_0") == "4" and page.input_value("#sweeps_0") == "3"
    assert page.get_attribute("form.hand-form", "data-mode") == "tallies"


def tally_hand(phone, cards, coins, settebello, primiera, sweeps=(0, 0)):
    page = phone.page
    page.locator("a.button", has_text="Enter the counts").tap()
    page.fill("#t_cards_0", str(cards))
    page.fill("#t_coins_0", str(coins))
    page.locator(f'label:has(input[name="settebello"][value="{settebello}"])').tap()
    page.locator(f'label:has(input[name="primiera"][value="{primiera}"])').tap()
    page.fill("#sweeps_0", str(sweeps[0]))
    page.fill("#sweeps_1", str(sweeps[1]))
    page.locator('[data-testid="save"]').tap()
    page.wait_for_selector(".scoreboard")


def test_editing_a_hand_and_reaching_a_win(phone):
    page = phone.page
    match_id = made(page, ("Ivo", "Lia"), by_counts(EVERY_POINT, NO_POINT, sweeps=(2, 0)),   # Ivo 6
                    by_counts(EVERY_POINT, NO_POINT))                                        # Ivo 10
    page.goto(f"/matches/{match_id}")
    assert totals(page) == [10, 0]
    page.locator('li[data-number="1"] a').tap()          # the hand's page: its points, edit, delete
    expect(page.locator(".breakdown")).to_contain_text("Scope")
    page.locator("a.button", has_text="Edit").tap()
    page.wait_for_selector("#t_cards_0")
    page.fill("#sweeps_0", "3")
    page.locator('[data-testid="save"]').tap()
    page.wait_for_selector(".scoreboard")
    assert totals(page) == [11, 0]
    assert page.text_content('[data-testid="outcome"]').strip() == "Ivo wins 11 to 0"
    assert page.locator("a.button", has_text="Enter the counts").count() == 0


def test_a_tie_at_the_target_goes_on(phone):
    page = phone.page
    match_id = made(page, ("Nina", "Otto"), by_counts(EVERY_POINT, NO_POINT, sweeps=(1, 0)),   # 5 - 0
                    by_counts(NO_POINT, EVERY_POINT, sweeps=(0, 1)))                         # 5 - 5
    page.goto(f"/matches/{match_id}")
    tally_hand(phone, 22, 6, 1, 1, sweeps=(4, 4))          # 11 - 11
    assert totals(page) == [11, 11]
    assert page.text_content('[data-testid="outcome"]').strip() == "11 all: play another hand"
    assert page.locator("a.button", has_text="Enter the counts").count() == 1


def test_three_players_tap_two_piles_and_the_rest_goes_to_the_third(phone):
    page = phone.page
    page.goto("/matches/new")
    page.locator("label.choice", has_text="3 players").tap()
    expect(page.locator("#player3")).to_be_visible()
    expect(page.locator("#player4")).to_be_hidden()
    page.fill("#player1", "Pia")
    page.fill("#player2", "Rino")
    page.fill("#player3", "Sara")
    page.locator("button.primary", has_text="Start the match").last.tap()
    page.wait_for_selector(".scoreboard")
    page.locator("a.button", has_text="Tap the cards").tap()
    # Sara takes the rest (the default); Pia's pile first, then Rino's.
    for card in ["7d", "1d", "2d", "3d", "4d", "5d", "6d", "8d", "9d", "10d"]:
        phone.tap(f'.tile[data-card="{card}"]')
    page.locator('label.seg:has(input[name="tapping"][value="1"])').tap()
    for card in ["7c", "7s", "7b", "6c"]:
        phone.tap(f'.tile[data-card="{card}"]')
    assert page.get_attribute('.tile[data-card="7d"]', "data-side") == "0"
    assert page.get_attribute('.tile[data-card="7c"]', "data-side") == "1"
    expect(page.locator("#preview")).to_contain_text("Pia has the Seven of coins")
    page.locator('[data-testid="save"]').tap()
    page.wait_for_selector(".scoreboard")
    points = [int(page.text_content(f'[data-testid="total-{i}"]')) for i in range(3)]
    # Pia: denari and settebello; Sara: carte (26 cards). Pia holds every denaro, so no side has
    # all four suits: the suits held are compared, Rino 7c 7s 7b = 63 over Sara 1c 6s 6b = 52.
    assert points == [2, 1, 1]


def test_the_capture_check_answers_as_cards_are_tapped(phone):
    page = phone.page
    page.goto("/referee/captures")
    # 003: "The face up cards on the table are A, 3, 4, 5, 7 ... If the next player plays a Jack
    # (8) they have a choice of sets to take: they can capture either 5+3 or 4+3+A or 7+A."
    for card in ["1c", "3c", "4c", "5c", "7c"]:
        phone.tap(f'#field-table label.check-tile:has(input[value="{card}"])')
    # The card played is picked on the same grid; the ruling comes into view (it is below the
    # screen's edge at a phone's size).
    assert page.evaluate("document.querySelector('#ruling').getBoundingClientRect().top > innerHeight")
    phone.tap('#field-played label.check-tile:has(input[value="8d"])')
    expect(page.locator("li.capture")).to_have_count(3)
    in_view = "document.querySelector('#ruling').getBoundingClientRect().top < innerHeight - 100"
    for _ in range(300):         # wait_for_function would evaluate a string: the CSP forbids it
        if page.evaluate(in_view):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(in_view)
    expect(page.get_by_role("radio", name="Jack of coins")).to_be_checked()
    expect(page.locator('[data-testid="verdict"]')).to_have_text("The card must capture: it cannot stay on the table.")
    cards = sorted(page.locator("li.capture").evaluate_all("items => items.map(i => i.dataset.cards)"))
    assert cards == ["1c 3c 4c", "1c 7c", "3c 5c"]
    phone.tap('#field-table label.check-tile:has(input[value="7c"])')          # take the 7 off the table
    expect(page.locator("li.capture")).to_have_count(2)


def test_a_claim_is_checked_and_recorded_in_the_match(phone):
    page = phone.page
    page.goto("/matches/new")
    page.fill("#player1", "Anna")
    page.fill("#player2", "Bruno")
    page.locator("details.rules > summary").tap()     # the rules are folded under a line
    page.locator("label.check:has(#claims)").tap()
    expect(page.locator("#rules-summary")).to_contain_text("chiamarsi fuori")
    page.locator("button.primary", has_text="Start the match").last.tap()
    page.wait_for_selector(".scoreboard")
    page.locator("a.button", has_text="Chiamarsi fuori").tap()
    page.wait_for_selector(".claim-form")
    page.locator('label.seg:has(input[name="tapping"][value="1"])').tap()   # Bruno's cards
    for card in ["7d", "1d", "2d"]:
        phone.tap(f'.tile[data-card="{card}"]')
    assert page.get_attribute('.tile[data-card="7d"]', "data-side") == "1"
    page.select_option("#claimer", "1")
    expect(page.locator('[data-testid="verdict"]')).to_contain_text("The claim fails: Bruno would lose")
    expect(page.locator("#answer")).to_contain_text("0 + 1 certain (Settebello 1) = 1, target 11")
    page.locator('[data-testid="record"]').tap()
    page.wait_for_selector(".scoreboard")
    expect(page.locator('[data-testid="outcome"]')).to_have_text("Bruno called out and loses: Anna wins")


def test_a_hand_saved_on_one_phone_shows_on_another_at_its_next_poll(phone_page):
    watcher, scorer = phone_page(), phone_page(OTHER_PHONE)
    match_id = made(scorer, ("Vera", "Zeno"))
    scorer.goto(f"/matches/{match_id}")
    watcher.clock.install()
    watcher.goto(f"/matches/{match_id}")
    expect(watcher.locator('[data-testid="total-0"]')).to_have_text("0")
    watcher.evaluate("window.__same_page = true")      # gone if the page reloads
    # An unchanged poll answers nothing to swap: the scoreboard stays as it is.
    with watcher.expect_response(lambda r: "/poll?since=" in r.url) as polled:
        poll_now(watcher)
    assert polled.value.status == 200 and polled.value.headers["hx-reswap"] == "none"
    expect(watcher.locator('[data-testid="total-0"]')).to_have_text("0")
    scorer.locator("a.button", has_text="Enter the counts").tap()
    scorer.fill("#t_cards_0", "22")
    scorer.fill("#t_coins_0", "6")
    scorer.locator('label:has(input[name="settebello"][value="0"])').tap()
    scorer.locator('label:has(input[name="primiera"][value="0"])').tap()
    # The watcher polls every 2 s: the new total arrives with a poll's answer, no reload.
    with next_change(watcher):
        scorer.locator('[data-testid="save"]').tap()
        scorer.wait_for_selector(".scoreboard")
        poll_now(watcher)
    expect(watcher.locator('[data-testid="total-0"]')).to_have_text("4")
    assert watcher.evaluate("window.__same_page") is True


def test_two_phones_entering_the_same_hand_choose_which_to_keep(phone_page):
    first, second = phone_page(), phone_page(OTHER_PHONE)
    match_id = made(second, ("Ada", "Bea"), by_counts(EVERY_POINT, NO_POINT, sweeps=(1, 0)))  # Ada 5 - 0
    second.clock.install()
    second.goto(f"/matches/{match_id}")
    first.goto(f"/matches/{match_id}")
    # Phone A starts entering hand 2: Ada's 6 (two sweeps) ...
    first.locator("a.button", has_text="Enter the counts").tap()
    expect(first.locator("h1")).to_contain_text("Hand 2")
    first.fill("#t_cards_0", "22")
    first.fill("#t_coins_0", "6")
    first.locator('label:has(input[name="settebello"][value="0"])').tap()
    first.locator('label:has(input[name="primiera"][value="0"])').tap()
    first.fill("#sweeps_0", "2")
    # ... while phone B records hand 2 as Bea's 4.
    tally_hand(Phone(second), 18, 4, 1, 1)
    assert totals(second) == [5, 4]
    first.locator('[data-testid="save"]').tap()
    taken = first.locator('[data-testid="taken"]')
    expect(taken).to_contain_text("Another phone recorded hand 2 while you were entering it")
    assert first.text_content('[data-testid="taken-1"]').strip() == "4"     # B's: Bea 4
    assert first.text_content('[data-testid="mine-0"]').strip() == "6"      # A's: Ada 6
    expect(first.locator('[data-testid="append"]')).to_have_text("They are two different hands: add mine as hand 3")
    with next_change(second):
        first.locator('[data-testid="replace"]').tap()
        first.wait_for_selector(".scoreboard")
        poll_now(second)
    assert totals(first) == [11, 0]
    expect(first.locator('[data-testid="outcome"]')).to_have_text("Ada wins 11 to 0")
    expect(first.locator("ol.hands li")).to_have_count(2)
    # Phone B sees the same result without reloading, from its poll.
    expect(second.locator('[data-testid="outcome"]')).to_have_text("Ada wins 11 to 0")


def test_a_french_table_plays_a_hand_in_french(phone_page, server):
    """A phone set to French: the new match, the taps' preview, the saved hand's breakdown and
    the outcome all in French, cards named in words. Gisèle takes the denari and the coppe
    and a scopa: cards 20 to 20, deniers, sette bello and the scopa hers, the primiera tied.
    French by the language's cookie, as the pages' language links set it, on the module's phone
    (a phone of its own for French was a new context; the Accept-Language of a French phone
    chooses French in tests/app/test_languages.py)."""
    page = phone_page()
    page.context.add_cookies([{"name": COOKIE, "value": "fr", "url": server}])
    page.goto("/matches/new")
    assert page.get_attribute("html", "lang") == "fr"
    page.fill("#player1", "Gisèle")
    page.fill("#player2", "Hugo")
    page.select_option("#first_dealer", "0")
    page.locator("details.rules > summary").tap()
    page.fill("#target", "3")
    page.get_by_role("button", name="Commencer la partie").tap()
    page.wait_for_selector(".scoreboard")
    expect(page.locator(".next-hand")).to_contain_text("Manche 1 : Gisèle donne, Hugo joue en premier.")
    page.get_by_role("link", name="Touchez les cartes").tap()
    page.locator('.tile[data-card="7d"]').tap()
    expect(page.locator("#preview")).to_contain_text("Gisèle a le 7 de deniers")
    # The rest of the deniers and every coupe by their suits' names (a tap each: each tile
    # tapped, as the other tests tap them, was a preview asked 19 times).
    for suit in ("deniers", "coupes"):
        page.get_by_role("button", name=f"toutes les cartes de {suit}").tap()
    expect(page.locator('.pile-count[data-pile="0"]')).to_contain_text("20")
    page.locator('.stepper:nth-of-type(1) [data-step="1"]').tap()       # and a scopa
    page.locator('[data-testid="save"]').tap()
    # Every point with every denier: asked first (tests/table/test_undo.py), in French.
    expect(page.locator('[data-testid="extreme"]')).to_contain_text(
        "Gisèle a fait tous les points et pris les 10 cartes de deniers\u00a0?")
    page.locator('[data-testid="extreme-save"]').tap()
    page.wait_for_selector(".scoreboard")
    expect(page.locator(".flash")).to_contain_text("Manche 1 enregistrée.")
    breakdown = " ".join(page.locator(".breakdown").first.text_content().split())   # nbsp too
    for said in ("Cartes", "20 à 20 : égalité, aucun point", "Deniers", "Settebello",
                 "Gisèle a le 7 de deniers", "Primiera", "Scope"):    # plural (issue 42)
        assert said in breakdown, breakdown
    expect(page.locator('[data-testid="outcome"]')).to_contain_text("Gisèle gagne 3 à 0")


def test_without_javascript_the_hand_form_fits_at_360_px(phone_page):
    """Issue 12 without JavaScript, what needs the browser: the hand's form promises no live
    score (the hint a script fills is hidden), and the score asked for by its button shows at
    360 px, no wider. The table's whole flow without scripts (a new match, a hand refused then
    saved, the rematch, the archive, a delete) is walked form by form as such a browser sends
    them in tests/app/test_without_javascript.py."""
    page = phone_page(scripts=False)
    match_id = made(page, ("Anna", "Bruno"), target=3)
    page.goto(f"/matches/{match_id}")
    page.get_by_role("link", name="Tap the cards").click()
    expect(page.get_by_text("shows here as you enter it")).to_be_hidden()   # no promise
    # Anna's 18 cards chosen in their lists (the page's own script would tap them), the
    # score asked for.
    page.evaluate("""cards => cards.forEach(card => document.getElementById(`c_${card}`).value = "0")""",
                  [str(c) for c in deck() if c.suit in "cs"][:18])
    page.get_by_role("button", name="Show the score").click()
    expect(page.locator('[data-testid="preview-totals"]')).to_contain_text("Anna 0, Bruno 4")
    expect(page.locator('.pile-count[data-pile="0"]')).to_have_text("18 cards, 0 coins")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


# The longest names the companion takes (24 characters, the API's and the form's limit), with a
# space and without one: a phone must never have to scroll sideways to read them.
LONG_NAMES = ["Mariagrazia Lombardozzi", "Bartolomeo" + "o" * 14]


def create_by_api(page, hand=True, **match):
    """A match made through the JSON API, with one hand recorded (the first side takes the
    denari and the coppe, and a scopa): its id."""
    match = {"variant": "classica", "first_dealer": 0, **match}
    match_id = page.request.post("/api/v1/matches", data=match).json()["id"]
    if hand:
        first = [f"{v}{s}" for s in "dc" for v in range(1, 11)]
        rest = [f"{v}{s}" for s in "sb" for v in range(1, 11)]
        sides = len(match.get("players") or match["teams"])
        response = page.request.post(f"/api/v1/matches/{match_id}/hands", data={
            "piles": [first, rest] + [[]] * (sides - 2), "sweeps": [1] + [0] * (sides - 1)})
        assert response.status == 201, response.text()
    return match_id


def test_names_of_any_length_never_widen_a_page_at_360_px(phone_page):
    """The longest names wrap (or are cut short on screen, whole in the page's text): no page is
    wider than a 360 px phone, and the hand's Save button is on screen. The hand's forms are
    each match's hands', opened to be edited (the first by cards, the second by counts): filled
    as they open, their preview draws the breakdown with the names at once (where a new hand's
    waited for a tap or two counts, and for the preview asked again after them: a second a
    form)."""
    page = phone_page()
    players = create_by_api(page, players=LONG_NAMES, options={"claims": True})
    teams = create_by_api(page, teams=[
        {"name": LONG_NAMES[0], "players": ["Giovannibattista" + "a" * 8, "Anna Maria Carlotta Ros", "Ugo"]},
        {"name": LONG_NAMES[1], "players": ["Bo", "Cy", "Pierfrancesco" + "o" * 11]}])
    three = create_by_api(page, players=LONG_NAMES + ["Sara"])
    page.goto(f"/matches/{players}")
    hand_page = page.get_attribute('li[data-number="1"] a', "href")
    known = {p["name"]: p["id"] for p in page.request.get("/api/v1/players").json()["players"]}
    pages = ["/"] + [f"/matches/{m}" for m in (players, teams)] + [
        hand_page, f"/matches/{players}/join",
        f"/referee/primiera?match={players}", f"/referee/claim?match={players}",
        "/players", f"/players/{known[LONG_NAMES[0]]}", f"/players/{known[LONG_NAMES[1]]}",
        f"/players/{known[LONG_NAMES[1]]}/merge?into={known[LONG_NAMES[0]]}"]
    widths, saves = {}, {}
    for path in pages:
        page.goto(path)
        widths[path] = page.evaluate("document.documentElement.scrollWidth")
    for match_id, sides in ((players, 2), (teams, 2), (three, 3)):
        # A second hand by counts: the denari and the settebello to the first side, the
        # primiera to the second, the cards shared (a third side takes none).
        tallies = [{"cards": 20, "coins": 10, "settebello": True, "primiera": False, "sweeps": 0},
                   {"cards": 20, "coins": 0, "settebello": False, "primiera": True, "sweeps": 0},
                   {"cards": 0, "coins": 0, "settebello": False, "primiera": False, "sweeps": 0}][:sides]
        answer = page.request.post(f"/api/v1/matches/{match_id}/hands", data={"tallies": tallies})
        assert answer.status == 201, answer.text()
        hands = [hand["id"] for hand in page.request.get(f"/api/v1/matches/{match_id}").json()["hands"]]
        for mode, hand in (("piles", hands[0]), ("tallies", hands[1])):
            path = f"/matches/{match_id}/hands/{hand}/edit?mode={mode}"
            page.goto(path)
            # The hand entered: the preview shows the breakdown with the names.
            expect(page.locator("#preview .breakdown")).to_be_visible()
            widths[path] = page.evaluate("document.documentElement.scrollWidth")
            box = page.locator('[data-testid="save"]').bounding_box()
            saves[path] = (round(box["x"]), round(box["x"] + box["width"]))
    assert {path: w for path, w in widths.items() if w > 360} == {}
    assert {path: s for path, s in saves.items() if s[0] < 0 or s[1] > 360} == {}


# What a finger taps, and how big it is on screen. A field's caption is not a target (its field
# is), a radio or a checkbox is tapped through the label around it (or a card tile), and a link
# inside a sentence is text; a line of text (a link, a summary, a checkbox's line) needs the
# height only, every other control the width as well.
SMALL_TARGETS = """() => {
  const small = [];
  for (const e of document.querySelectorAll(
      "a, button, input:not([type=hidden]), select, summary, label, [role=button]")) {
    const box = e.getBoundingClientRect(), style = getComputedStyle(e);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (e.matches("label") && !e.querySelector("input, select")) continue;
    if (e.matches("input, select") && e.closest("label, [role=button]")) continue;
    if (e.matches("a") && style.display === "inline" && e.closest("p")) continue;
    const line = e.matches("a:not(.button), summary, label.check");
    if (box.height < 44 || (!line && box.width < 44))
      small.push(`${e.outerHTML.slice(0, 60)}: ${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return small;
}"""


def test_everything_a_finger_taps_is_at_least_44_px(read_at_360):
    """Every page a phone shows (``read_at_360``: each opened once, with scripts)."""
    assert {path: found for path, found in read_at_360.small.items() if found} == {}


def test_without_javascript_everything_a_finger_taps_is_at_least_44_px(phone_page):
    page = phone_page(scripts=False)
    match_id = create_by_api(page, players=["Anna", "Bruno"], options={"target": 3})
    # A finished match: its rating changes, each figure a link to "How the rating works".
    finished = create_by_api(page, players=["Carla", "Dario"], options={"hands": 1})
    anna = next(p["id"] for p in page.request.get("/api/v1/players").json()["players"]
                if p["name"] == "Anna")
    pages = ["/", "/matches/new", f"/matches/{match_id}", f"/matches/{match_id}/hands/new",
             f"/matches/{match_id}/hands/new?mode=tallies", f"/referee/captures?match={match_id}",
             "/players", f"/players/{anna}", f"/matches/{finished}", "/players?order=rating",
             "/players/rating"]
    small = {}
    for path in pages:
        page.goto(path)
        small[path] = page.evaluate(SMALL_TARGETS)
    assert {path: found for path, found in small.items() if found} == {}


def test_chromium_reads_the_manifest_without_a_complaint(phone):
    page = phone.page
    page.goto("/")
    read = page.context.new_cdp_session(page).send("Page.getAppManifest")
    assert read["url"].endswith("/manifest.webmanifest") and read["errors"] == []
    assert [icon["sizes"] for icon in json.loads(read["data"])["icons"]] == ["192x192", "512x512"] * 2


# Each piece of text against the colour behind it (the first opaque background up the tree,
# with any see-through ones laid over it, and faded by the opacity of its boxes): WCAG AA asks
# 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
LOW_CONTRAST = """() => {
  const rgba = (c) => { const n = c.match(/[\\d.]+/g).map(Number); return n.length > 3 ? n : n.concat(1); };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const luminance = (c) => c.slice(0, 3).map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92
      : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const low = [];
  for (const e of document.querySelectorAll("body *")) {
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(e), box = e.getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === "hidden" || e.closest(".visually-hidden, option")) continue;
    const layers = []; let opacity = 1;
    for (let n = e; n; n = n.parentElement) {
      const s = getComputedStyle(n), bg = rgba(s.backgroundColor); opacity *= Number(s.opacity);
      if (bg[3] > 0 && (layers.length === 0 || layers[layers.length - 1][3] < 1)) layers.push(bg);
    }
    const behind = layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
    const text = rgba(style.color), seen = over([...text.slice(0, 3), text[3] * opacity], behind);
    const [light, dark] = [luminance(seen), luminance(behind)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05), size = parseFloat(style.fontSize);
    const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5))
      low.push(`${ratio.toFixed(2)}: "${e.textContent.trim().slice(0, 30)}" ${style.color} on rgb(${behind.slice(0, 3).map(Math.round)})`);
  }
  return low;
}"""


@dataclass
class Read:
    """What ``read_at_360`` found on each page: the targets too small for a finger (by
    page) and the text too faint to read (by scheme and page)."""
    small: dict[str, list[str]]
    low: dict[tuple[str, str], list[str]]


@pytest.fixture(scope="module")
def read_at_360(phones) -> Read:
    """Every page a phone shows at 360 px, with scripts, opened once for the tests that only
    read it (the targets a finger taps, the text's contrast): a playing match, one won, one
    finished by its number of hands (its rating changes, each figure a link), one locked by a
    PIN, its hand's forms (by cards with three tiles tapped, on a side's colour, and the
    preview in; by counts), the referee's pages, the players and the rating, a page not
    found. Each page's text is read in both schemes: the phone's choice switched on the page
    drawn (``emulate_media``), as a phone's setting changed does, its colours worked out again
    by the browser without a second load. Each of the two tests opened its own pages (23
    loads where 15 do). On the module's kept phone (``phones``), left as the next test expects
    to find it (``Phones.clear``)."""
    page = phones.page()
    read = Read(small={}, low={})

    def reading(where: str) -> None:
        read.small[where] = page.evaluate(SMALL_TARGETS)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate("matchMedia('(prefers-color-scheme: %s)').matches" % scheme)
            read.low[scheme, where] = page.evaluate(LOW_CONTRAST)

    try:
        playing = create_by_api(page, players=["Anna", "Bruno"])
        won = create_by_api(page, players=["Carla", "Dario"], options={"target": 3})
        finished = create_by_api(page, players=["Carla", "Dario"], options={"hands": 1})
        locked = create_by_api(page, hand=False, players=["Elsa", "Fabio"], pin="246813")
        anna = next(p["id"] for p in page.request.get("/api/v1/players").json()["players"]
                    if p["name"] == "Anna")
        page.goto(f"/matches/{playing}/hands/new")
        for card in ["7d", "1c", "3s"]:
            page.locator(f'.tile[data-card="{card}"]').tap()        # tiles on a side's colour
        expect(page.locator("#preview .breakdown")).to_be_visible()
        reading(f"/matches/{playing}/hands/new")
        for path in ["/", "/matches/new", f"/matches/{playing}", f"/matches/{won}", f"/matches/{finished}",
                     f"/matches/{playing}/hands/new?mode=tallies", f"/referee/captures?match={playing}",
                     f"/referee/primiera?match={playing}", f"/matches/{locked}/pin", "/no-such-page",
                     "/players", f"/players/{anna}", "/players?order=rating", "/players/rating"]:
            page.goto(path)
            reading(path)
    finally:
        phones.clear()
    return read


def test_every_text_is_readable_in_light_and_dark(read_at_360):
    """Every page a phone shows (``read_at_360``), in the light scheme and the dark."""
    assert {where: found for where, found in read_at_360.low.items() if found} == {}


@pytest.mark.parametrize("scripts", [True, False], ids=["script", "no-script"])
def test_a_players_page_and_a_matchs_chart_at_360_px(phone_page, scripts):
    """Issue 13: the leaderboard, a filter by variant, a player's page; the match's chart has a
    line per side, each with a point per hand and one for 0 before the first."""
    page = phone_page(scripts=scripts)
    name = f"Ottavia{'J' if scripts else 'N'}"       # one player per run of the test
    rivals = ["Pia" + name[-1], "Ugo" + name[-1]]
    two = create_by_api(page, hand=False, players=[name, rivals[0]], variant="re-bello",
                        options={"target": 31})
    three = create_by_api(page, hand=False, players=[name, *rivals], options={"target": 31})
    rng = __import__("random").Random(41)
    for match_id, sides, hands in ((two, 2, 4), (three, 3, 2)):
        for _ in range(hands):
            cards = [f"{c.value}{c.suit}" for c in deck()]
            rng.shuffle(cards)
            piles = [cards[i::sides] for i in range(sides)]
            answer = page.request.post(f"/api/v1/matches/{match_id}/hands",
                                       data={"piles": piles, "sweeps": [0] * sides})
            assert answer.status == 201, answer.text()
    for match_id, sides, hands in ((two, 2, 4), (three, 3, 2)):
        page.goto(f"/matches/{match_id}")
        lines = page.locator("svg.chart polyline.chart-line")
        expect(lines).to_have_count(sides)
        for i in range(sides):
            assert len(lines.nth(i).get_attribute("points").split()) == hands + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.goto("/")
    page.get_by_role("link", name="Players").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Players")
    row = page.locator("table.leaderboard tbody tr", has=page.get_by_role("link", name=name, exact=True))
    expect(row).to_have_count(1)
    # Only the Re Bello match: chosen in the list, applied at once with JavaScript, by the
    # Show button without.
    page.select_option("#filter-variant", "re-bello")
    if not scripts:
        page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"variant=re-bello"))
    expect(row).to_have_count(1)
    row.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    expect(page.locator('[data-testid="hands"]')).to_have_text("4")
    record = page.request.get(page.url.replace("/players/", "/api/v1/players/")).json()
    assert record["hands"] == 4 and record["matches"] == 0 and record["playing"] == 1
    bars = page.locator('[data-testid="taken"] li')
    expect(bars.filter(has_text="Re Bello")).to_have_count(1 if record["re_bello"] else 0)
    expect(page.locator(".matches li")).to_have_count(1)      # the Re Bello match only
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_round_robin_of_four_runs_to_its_end_from_the_pages_and_the_board(browser, server):
    """Issue 14: a four-player round robin run from the organiser's page (each hand recorded
    through the API, as a phone at each table would), the board on the wall following it by
    itself, and the winner on it at the end. The tournament is made through the API: its
    form is tests/tournaments/test_tournaments.py's test_the_pages_run_a_night."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=server)
    organiser, wall = context.new_page(), context.new_page()
    try:
        made = organiser.request.post("/api/v1/tournaments", data={
            "name": "Thursday club", "format": "round-robin", "entrants": ["Wanda", "Xavier", "Ylenia", "Zeno"]})
        assert made.status == 201, made.text()
        tournament_url = f"{server}/tournaments/{made.json()['id']}"
        organiser.goto(tournament_url)
        expect(organiser.get_by_role("heading", level=1)).to_have_text("Thursday club")
        api = tournament_url.replace("/tournaments/", "/api/v1/tournaments/")
        # The wall's timers on Playwright's clock (time flows as usual): once a change is made,
        # three seconds are moved on at once (``seen``), and the board's poll, due every 3 s,
        # asks for it now rather than up to 3 s later; it still follows by itself, through that
        # poll. Six of those waits were a third of the test.
        wall.clock.install()
        wall.goto(tournament_url + "/board")
        expect(wall.locator(".board-round h2")).to_have_text("The first round starts soon")

        def seen():
            wall.clock.run_for(3_000)
        everyone = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
        for number in (1, 2, 3):
            organiser.get_by_role("button", name=f"Start round {number}").click()
            expect(organiser.locator(f'[data-testid="round-{number}"] .round-table')).to_have_count(2)
            # The board shows the new round by itself.
            seen()
            expect(wall.locator(".board-round h2")).to_contain_text(f"Round {number} of 3")
            tables = organiser.request.get(api).json()["rounds"][-1]["tables"]
            for table in tables:
                # The first-named entrant takes every card in one hand, with seven scope: 11.
                answer = organiser.request.post(f"/api/v1/matches/{table['match']}/hands",
                                                data={"piles": [everyone, []], "sweeps": [7, 0]})
                assert answer.status == 201 and answer.json()["match"]["outcome"]["over"], answer.text()
            # The wall follows each table's score (its poll, every 3 s: watched once the round's
            # hands are all saved, rather than after each table's).
            seen()
            for table in tables:
                row = wall.locator('[data-testid="board-tables"] li', has_text=table["entrants"][0])
                expect(row.locator(".board-score")).to_have_text(re.compile(r"1[0-9]\s–\s0"))
            organiser.reload()
        final = organiser.request.get(api).json()
        assert final["over"]
        seen()
        expect(wall.locator('[data-testid="winner"]')).to_have_text(f"{final['winner']} wins the tournament")
        shown = wall.locator('[data-testid="standings"] tbody .entrant-name').all_inner_texts()
        assert shown == [row["entrant"] for row in final["standings"]]
        points = wall.locator('[data-testid="standings"] tbody td.big-figure').all_inner_texts()
        assert [int(p) for p in points] == [row["match_points"] for row in final["standings"]]
        assert sorted(int(p) for p in points) != [0, 0, 0, 0] and sum(int(p) for p in points) == 12
    finally:
        context.close()


def test_a_phone_sent_only_what_changed_shows_what_a_fresh_page_shows(phone, server):
    """The poll sends a phone the lines that changed and the parts around them, out of band
    (issue 24): after each change, whatever it was, the watching phone's live region is the one
    a fresh page draws, line for line, and the list was changed in place, not drawn again."""
    from helpers import api, random_hand

    rng = random.Random(24)
    match = api(server, "/matches", {"players": ["Vera", "Zeno"], "first_dealer": 0, "options": {"target": 1000}})
    path = f"/matches/{match['id']}"
    for _ in range(6):
        api(server, f"{path}/hands", random_hand(2, rng))
    watcher = phone.page
    watcher.clock.install()
    watcher.goto(path)
    fresh = watcher.context.new_page()

    def shown(page) -> dict:
        return page.evaluate("""() => ({
            lines: [...document.querySelectorAll('#live-hands > li')].map(li => li.outerHTML),
            parts: ['live-score', 'live-next', 'live-after-end', 'live-last', 'live-chart'].map(
                id => document.getElementById(id).innerHTML.replace(/name="csrf_token" value="[^"]*"/g, ''))})""")

    def changed(in_place: bool) -> None:
        version = api(server, path)["version"]
        poll_now(watcher)
        expect(watcher.locator("#live-poll")).to_have_attribute("data-version", str(version))
        fresh.goto(path)
        expect(watcher.locator("#live-hands > li")).to_have_count(fresh.locator("#live-hands > li").count())
        assert shown(watcher) == shown(fresh)
        assert watcher.evaluate("document.getElementById('live-hands').kept === true") is in_place
        watcher.evaluate("document.getElementById('live-hands').kept = true")

    watcher.evaluate("document.getElementById('live-hands').kept = true")
    hands = lambda: api(server, path)["hands"]          # noqa: E731
    api(server, f"{path}/hands", random_hand(2, rng))                      # a new hand: its line
    changed(in_place=True)
    last = hands()[-1]
    api(server, f"{path}/hands/{last['id']}", {**random_hand(2, rng), "version": last["version"]}, "PUT")
    changed(in_place=True)                                                 # the last hand edited
    api(server, f"{path}/hands/{last['id']}?version={last['version'] + 1}", method="DELETE")
    changed(in_place=True)                                                 # the last hand deleted
    middle = hands()[3]
    api(server, f"{path}/hands/{middle['id']}?version={middle['version']}", method="DELETE")
    changed(in_place=True)                                 # hand 4 deleted: 5 and 6 move up
    for _ in range(3):                                     # several hands between two polls
        api(server, f"{path}/hands", random_hand(2, rng))
    changed(in_place=True)
    first = hands()[0]
    api(server, f"{path}/hands/{first['id']}", {**random_hand(2, rng), "version": first["version"]}, "PUT")
    changed(in_place=False)                                # hand 1 edited: every line, drawn again
    fresh.close()
