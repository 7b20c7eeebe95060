"""A hand is never lost to the network (issue 31): a save that cannot reach the companion stays
on the phone, is kept in its outbox and sent again by itself, once; a watching phone says when
its score may be behind. Debian's Chromium at 360 px, against waitress, CSRF and all; the store
is read back through the JSON API. (Without JavaScript the forms post as they always did: the
other tests of the table cover them.)"""

import time
from contextlib import ExitStack

import pytest
from table_helpers import sent_again_now

from companion import create_app
from companion.i18n import COOKIE
from companion.rules import deck
from helpers import Relay, api, new_match, serving

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser


def phone_in(phone_page, server: str, locale: str):
    """A page on the module's phone, in ``locale``'s language (its cookie, as the page's language
    links set it): one phone kept for the three languages (a phone's first page is its slowest)."""
    page = phone_page()
    page.context.add_cookies([{"name": COOKIE, "value": locale[:2], "url": server}])
    return page

# What each language says when a save cannot be sent, and the banner's first words.
UNSENT = {"it-IT": "Non inviato: l'app non è raggiungibile. Resta su questo telefono",
          "en-GB": "Not sent: the companion can't be reached. It is kept on this phone",
          "fr-FR": "Non envoyé\u00a0: l’application est injoignable. C’est gardé sur ce téléphone"}
OFFLINE = {"it-IT": "Offline dalle", "en-GB": "Offline since", "fr-FR": "Hors ligne depuis"}

SOON = 30_000        # ms: the outbox tries again after 1, 2, 4, 8, 16 s; a page can take a while too


def hands(base: str, match_id: int) -> list:
    return api(base, f"/matches/{match_id}")["hands"]


def recorded(base: str, match_id: int, count: int) -> None:
    """Waits (10 s at most) until the match has ``count`` hands: the server may still be saving
    one whose answer the phone will never get."""
    deadline = time.monotonic() + 10
    while len(hands(base, match_id)) != count:
        assert time.monotonic() < deadline, hands(base, match_id)
        time.sleep(0.05)


def enter_counts(page, match_id: int, base: str = "") -> None:
    """Anna 22 cards, 6 denari, the settebello and the primiera: 4 - 0 (on the companion at
    ``base``, the page's own unless given)."""
    page.goto(f"{base}/matches/{match_id}/hands/new?mode=tallies")
    page.fill("#t_cards_0", "22")
    page.fill("#t_coins_0", "6")
    page.locator('label:has(input[name="settebello"][value="0"])').tap()
    page.locator('label:has(input[name="primiera"][value="0"])').tap()


def tap_cards(page, cards: list[str]) -> None:
    """``cards`` tapped into the pile being tapped: a whole suit by its name (one tap, as a player
    takes one), the others tile by tile (where each tile tapped asked the preview again)."""
    whole = [suit for suit in "dcsb" if all(f"{value}{suit}" in cards for value in range(1, 11))]
    for suit in whole:
        page.locator(f'.suit-pick[data-suit="{suit}"]').tap()
    for card in cards:
        if card[-1] not in whole:
            page.locator(f'.tile[data-card="{card}"]').tap()


def counts_on_screen(page) -> None:
    expect(page.locator("#t_cards_0")).to_have_value("22")
    expect(page.locator("#t_coins_0")).to_have_value("6")
    expect(page.locator('input[name="settebello"][value="0"]')).to_be_checked()


def test_a_save_while_offline_stays_on_screen_and_is_sent_once_back_online(phone_page, server):
    """Sent as the network comes back, by the browser's "online" event, not by the outbox's
    next try: the page's clock held still (``pause_at``) once the save failed, so that its
    timers fire only as the test moves it on, 100 ms (``run_for``), less than any try's wait."""
    match_id = new_match(server)
    page = phone_in(phone_page, server, "it-IT")
    context = page.context
    page.clock.install()
    enter_counts(page, match_id)
    context.set_offline(True)
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["it-IT"])
    counts_on_screen(page)                                   # the page never left
    expect(page.locator('[data-testid="outbox"]')).to_contain_text("Mano 1")
    assert hands(server, match_id) == []
    # Held still 2 s on (in seconds, as Playwright's Python takes it): the outbox's first try, due
    # 1 s after the failure, fires on the way and finds no network.
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 2)
    context.set_offline(False)                               # no tap: the phone sends it
    with page.expect_request(lambda request: request.method == "POST" and "/hands/new" in request.url):
        page.clock.run_for(100)
    page.clock.resume()
    expect(page.locator(".scoreboard")).to_be_visible(timeout=SOON)
    expect(page.locator('[data-testid="total-0"]')).to_have_text("4")
    assert page.url.endswith(f"/matches/{match_id}")
    assert len(hands(server, match_id)) == 1
    expect(page.locator('[data-testid="outbox"]')).to_be_hidden()


def test_a_save_while_the_server_is_stopped_is_sent_once_it_is_back(phone_page, tmp_path, copy_of_migrated):
    """The companion stopped (waitress shut down) and started again on the same store, behind a
    relay that holds the phone's address: a stopped server refuses its connections; it does not
    keep them waiting, as a listening socket kept for the next server would. (The module's
    phone, its pages opened at the relay's address; the store a copy of the migrated one.)"""
    config = {"SECRET_KEY": "relay", "DATABASE": copy_of_migrated(str(tmp_path / "relay.sqlite"))}
    with ExitStack() as first:
        upstream = first.enter_context(serving(create_app(config), threads=4))
        relay = Relay(upstream)
        try:
            match_id = new_match(relay.address)
            page = phone_page()
            page.clock.install()                             # its next try made at once
            enter_counts(page, match_id, relay.address)
            relay.cut()
            first.close()                                    # the server stops
            page.locator('[data-testid="save"]').tap()
            expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["en-GB"])
            counts_on_screen(page)
            with serving(create_app(config), threads=4) as again:   # started again
                relay.join(again)
                sent_again_now(page)
                expect(page.locator(".scoreboard")).to_be_visible(timeout=SOON)
                expect(page.locator(".flash")).to_contain_text("Hand 1 saved.")
                assert len(hands(again, match_id)) == 1
        finally:
            relay.close()


def test_a_save_whose_answer_is_lost_is_sent_again_and_counted_once(phone_page, server):
    """The worst case for counting twice: the hand reaches the server and is recorded, its answer
    is lost, the phone gives up waiting (htmx's time-out, 10 s: the save's request told to time
    out once the server has recorded it, rather than waited out) and sends it again: the form's
    one-time key makes it one hand. The module's phone, its pages opened at the relay's address."""
    relay = Relay(server)
    try:
        match_id = new_match(server)
        page = phone_in(phone_page, server, "it-IT")
        page.clock.install()                                    # its next try made at once
        enter_counts(page, match_id, relay.address)
        page.evaluate("document.addEventListener('htmx:beforeSend', e => window.__save = e.detail.xhr)")
        relay.deaf = True
        page.locator('[data-testid="save"]').tap()
        recorded(server, match_id, 1)                           # recorded, though not answered
        expect(page.locator('[data-testid="unsent"]')).to_have_count(0)    # still waiting
        page.evaluate("window.__save.timeout = 1")              # htmx:timeout, as at 10 s
        expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["it-IT"])
        counts_on_screen(page)
        relay.cut()                                             # the deaf connections go
        relay.join(server)
        sent_again_now(page)
        expect(page.locator(".scoreboard")).to_be_visible(timeout=SOON)
        expect(page.locator(".flash").first).to_contain_text("conta una volta sola")
        assert len(hands(server, match_id)) == 1
    finally:
        relay.close()


def test_a_card_hand_waiting_survives_a_reload_cards_and_all_and_is_sent_once(phone_page, server):
    match_id = new_match(server)
    page = phone_in(phone_page, server, "fr-FR")
    page.clock.install()                                        # its next try made at once
    page.goto(f"/matches/{match_id}/hands/new")
    anna = [str(c) for c in deck() if c.suit in "cs"][:18]
    tap_cards(page, anna)
    page.locator('.stepper:nth-of-type(1) [data-step="1"]').tap()
    # The saves cannot get through; the pages still load (a network that drops the long posts).
    page.route("**/hands/new", lambda route: route.abort("internetdisconnected")
               if route.request.method == "POST" else route.continue_())
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["fr-FR"])
    expect(page.locator('.tile[data-side="0"]')).to_have_count(18)
    page.reload()
    # The page drawn anew holds the hand kept on the phone: its cards, its sweep, its key.
    expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["fr-FR"])
    expect(page.locator('.tile[data-side="0"]')).to_have_count(18)
    expect(page.locator('.tile[data-card="7d"]')).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#sweeps_0")).to_have_value("1")
    expect(page.locator('[data-testid="outbox"]')).to_contain_text("Manche 1")
    assert hands(server, match_id) == []
    page.unroute("**/hands/new")
    sent_again_now(page)
    expect(page.locator(".scoreboard")).to_be_visible(timeout=SOON)
    recorded = hands(server, match_id)
    assert len(recorded) == 1
    assert sorted(recorded[0]["entry"]["piles"][0]) == sorted(anna)


def test_a_card_hand_saved_offline_is_sent_with_every_card(phone_page, server):
    match_id = new_match(server)
    page = phone_in(phone_page, server, "it-IT")
    context = page.context
    page.goto(f"/matches/{match_id}/hands/new")
    bruno = [str(c) for c in deck() if c.suit in "bd"][:15]
    page.locator('input[name="rest"][value="0"]').check()   # tap Bruno's pile
    tap_cards(page, bruno)
    context.set_offline(True)
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["it-IT"])
    expect(page.locator('.tile[data-side="1"]')).to_have_count(15)
    context.set_offline(False)
    expect(page.locator(".scoreboard")).to_be_visible(timeout=SOON)
    recorded = hands(server, match_id)
    assert len(recorded) == 1
    assert sorted(recorded[0]["entry"]["piles"][1]) == sorted(bruno)


def test_a_hand_waiting_while_another_phone_records_it_brings_the_conflict_screen(phone_page, server):
    match_id = new_match(server)
    page = phone_in(phone_page, server, "en-GB")
    context = page.context
    enter_counts(page, match_id)
    context.set_offline(True)
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="unsent"]')).to_be_visible()
    api(server, f"/matches/{match_id}/hands", {"tallies": [                 # another phone
        {"cards": 18, "coins": 4, "settebello": False, "primiera": False, "sweeps": 0},
        {"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 0}]})
    context.set_offline(False)
    expect(page.locator('[data-testid="taken"]')).to_contain_text(
        "Another phone recorded hand 1 while you were entering it", timeout=SOON)
    assert len(hands(server, match_id)) == 1
    # Kept out of the outbox: the choice is the table's now.
    expect(page.locator('[data-testid="outbox"]')).to_be_hidden()
    page.locator('[data-testid="keep"]').tap()
    expect(page.locator(".scoreboard")).to_be_visible()
    assert len(hands(server, match_id)) == 1


def test_a_waiting_hand_may_be_discarded_and_is_never_sent(phone_page, server):
    match_id = new_match(server)
    page = phone_in(phone_page, server, "en-GB")
    context = page.context
    enter_counts(page, match_id)
    context.set_offline(True)
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="outbox"]')).to_contain_text("Anna – Bruno · Hand 1")
    page.locator('[data-testid="discard"]').tap()
    expect(page.locator('[data-testid="outbox"]')).to_be_hidden()
    expect(page.locator('[data-testid="unsent"]')).to_have_count(0)
    context.set_offline(False)
    page.goto(f"/matches/{match_id}")           # a page of the match opened again: nothing to send
    expect(page.locator(".scoreboard")).to_be_visible()
    assert page.evaluate("localStorage.getItem('scopa-outbox')") == "{}"
    assert hands(server, match_id) == []


@pytest.mark.parametrize("locale", ["it-IT", "fr-FR"])
def test_a_watching_phone_offline_says_since_when_then_catches_up(phone_page, server, locale):
    """Ten seconds offline, passed on the page's own clock: the banner comes once, the polls back
    off, and the next poll that gets through brings the score and takes the banner away."""
    match_id = new_match(server)
    page = phone_in(phone_page, server, locale)
    page.clock.install()
    page.goto(f"/matches/{match_id}")
    banner = page.locator('[data-testid="offline"]')
    expect(banner).to_be_hidden()
    page.context.set_offline(True)
    page.clock.run_for(10_000)
    expect(banner).to_contain_text(OFFLINE[locale])
    expect(banner).to_have_attribute("role", "status")
    first = banner.text_content()
    api(server, f"/matches/{match_id}/hands", {"tallies": [                # another phone
        {"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 0},
        {"cards": 18, "coins": 4, "settebello": False, "primiera": False, "sweeps": 0}]})
    page.clock.run_for(10_000)
    assert banner.text_content() == first            # filled once: heard once
    expect(page.locator('[data-testid="total-0"]')).to_have_text("0")
    page.context.set_offline(False)
    page.clock.run_for(2_000)
    expect(page.locator('[data-testid="total-0"]')).to_have_text("4", timeout=SOON)
    expect(banner).to_be_hidden()


def test_a_delete_and_its_undo_sent_offline_wait_and_land_once(phone_page, server):
    match_id = new_match(server)
    for _ in range(2):
        api(server, f"/matches/{match_id}/hands", {"tallies": [
            {"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 0},
            {"cards": 18, "coins": 4, "settebello": False, "primiera": False, "sweeps": 0}]})
    second = hands(server, match_id)[1]["id"]
    page = phone_in(phone_page, server, "fr-FR")
    context = page.context
    page.goto(f"/matches/{match_id}/hands/{second}/delete")
    context.set_offline(True)
    page.locator("form.two-buttons button").tap()
    expect(page.locator('[data-testid="unsent"]')).to_contain_text(UNSENT["fr-FR"])
    assert len(hands(server, match_id)) == 2
    context.set_offline(False)
    undo = page.locator('[data-testid="notice-button"]')
    expect(undo).to_be_visible(timeout=SOON)                # the match page, with its Undo
    assert len(hands(server, match_id)) == 1
    context.set_offline(True)
    undo.tap()
    expect(page.locator('[data-testid="unsent"]')).to_be_visible()
    context.set_offline(False)
    expect(page.locator('[data-testid="total-0"]')).to_have_text("8", timeout=SOON)
    assert len(hands(server, match_id)) == 2


def test_the_tournaments_board_says_so_too_and_drops_it_when_back(phone_page, server):
    """The board on the wall polls every 3 s: offline, it says since when, in the room's language
    (the module's phone, its page at a wall screen's size: a context of its own was a phone more)."""
    night = api(server, "/tournaments", {"name": "Giovedì", "format": "round-robin",
                                         "entrants": ["Anna", "Bruno", "Carla", "Dario"]})
    api(server, f"/tournaments/{night['id']}/rounds", {})
    page = phone_in(phone_page, server, "it-IT")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.clock.install()
    page.goto(f"/tournaments/{night['id']}/board")
    banner = page.locator('[data-testid="offline"]')
    page.context.set_offline(True)
    page.clock.run_for(10_000)
    expect(banner).to_contain_text(OFFLINE["it-IT"])
    page.context.set_offline(False)
    page.clock.run_for(3_000)
    expect(banner).to_be_hidden(timeout=SOON)


def test_a_hand_waiting_is_sent_from_any_page_of_the_companion_opened_again(phone_page, server):
    """The hand's page left for another (here the list of matches): that page finds the hand
    in the outbox and sends it, says it was sent, and stays where it is."""
    match_id = new_match(server)
    page = phone_in(phone_page, server, "it-IT")
    page.clock.install()                                        # its next try made at once
    enter_counts(page, match_id)
    page.route("**/hands/new", lambda route: route.abort("internetdisconnected")
               if route.request.method == "POST" else route.continue_())
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="unsent"]')).to_be_visible()
    page.goto("/matches")
    expect(page.locator('[data-testid="outbox"]')).to_contain_text("Anna – Bruno · Mano 1")
    assert hands(server, match_id) == []
    page.unroute("**/hands/new")
    sent_again_now(page)
    expect(page.locator('[data-testid="sent"]')).to_have_text("Inviato: Anna – Bruno · Mano 1", timeout=SOON)
    expect(page.locator('[data-testid="outbox"]')).to_be_hidden()
    assert page.url.endswith("/matches")
    assert len(hands(server, match_id)) == 1
