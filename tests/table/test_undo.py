"""Issue 21: every mistake one tap from undone.

The last hand sits one tap from its form, beside the score; a hand entered by cards reopens with
the cards the player tapped, one entered by counts with its counts. A delete's notice offers
Undo while nothing else has changed the match, and an Undo that comes too late says so; so does
archiving a match still being played. An edit that makes a hand extreme asks first, as a new
hand does (tests/table/test_no_accident.py)."""

import pytest
from table_helpers import polled_now
from werkzeug.datastructures import MultiDict

from companion import store
from companion.matches import Ledger, extreme_of, score_entry, takes_every_point
from companion.rules import Rules
from companion.rules.rulesets import rules_for
from companion.table.hand_form import rest_of
from helpers import (
    FOUR_NIL,
    FULL,
    api,
    axe_source,
    axe_violations,
    counts_form,
    new_match,
    notice,
    phone as a_phone,
)
from markup import attr, attrs, form_data, nodes, text, words

NAMES = ("Anna", "Bruno")
BRUNO = ["1d", "2d", "7d", "3c", "4c"]          # Bruno's small pile: 5 cards, 3 denari, the settebello


# -- In the browser, at 360 px (first: a test without the browser before them stops Chromium) ----
# With JavaScript: without it, a page sends its form as a test client does, and the tests above
# post the forms the pages draw (the Undo's notice, the hand's form read back, the question on an
# extreme edit). The layout measured here is the same without JavaScript: none of these boxes has
# a rule of companion.css that depends on it (``.js``). The hands before the one under test are
# saved through the JSON API; tapping a hand's cards on a new hand's form is test_browser's
# (test_a_match_is_created_and_a_hand_recorded_by_tapping_the_smaller_pile). The question an extreme edit asks is the new hand's
# (templates/table/_extreme.html), measured on the screen by test_no_accident's browser test and
# asked on an edit by test_an_edit_that_makes_a_hand_extreme_asks_first.


@pytest.mark.browser
def test_in_the_browser_the_last_hand_reopens_with_its_cards_tapped(phone_page, server):
    expect = pytest.importorskip("playwright.sync_api").expect
    match_id = new_match(server)
    rest = [card for card in FULL if card not in BRUNO]
    api(server, f"/matches/{match_id}/hands", {"piles": [rest, BRUNO], "sweeps": [0, 0]})
    hand = api(server, f"/matches/{match_id}")["hands"][0]
    page = phone_page()
    page.goto(f"/matches/{match_id}")
    # One tap from the score to the hand's form, one to save it: two in all.
    edit = page.locator('[data-testid="edit-last"]')
    expect(edit).to_have_text("Edit hand 1")
    box = edit.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360
    edit.tap()
    expect(page.locator("h1")).to_contain_text("Edit hand 1")
    expect(page.locator('input[name="rest"][value="0"]')).to_be_checked()
    for card in BRUNO:
        expect(page.locator(f'select[name="c_{card}"]')).to_have_value("1")
        expect(page.locator(f'.tile[data-card="{card}"]')).to_have_attribute("data-side", "1")
    expect(page.locator('select[name="c_5d"]')).to_have_value("")
    expect(page.locator('.pile-count[data-pile="1"]')).to_have_text("5 cards, 3 coins")
    expect(page.locator('.pile-count[data-pile="0"]')).to_have_text("35 cards, 7 coins")
    # Coloured, and pressed: they are the pile being tapped.
    expect(page.locator('.tile[aria-pressed="true"]')).to_have_count(len(BRUNO))
    colour = page.locator('.tile[data-card="7d"]').evaluate("t => getComputedStyle(t).backgroundColor")
    plain = page.locator('.tile[data-card="5d"]').evaluate("t => getComputedStyle(t).backgroundColor")
    assert colour != plain
    page.locator('[data-testid="save"]').tap()
    expect(page.locator(".flash")).to_contain_text("Hand 1 changed")
    again = api(server, f"/matches/{match_id}")["hands"][0]
    assert again["entry"] == hand["entry"] and again["points"] == hand["points"] == [3, 1]


@pytest.mark.browser
def test_in_the_browser_a_stale_undo_goes_at_the_next_poll(phone_page, server):
    """Without JavaScript the Undo stays, and refuses in words when tapped
    (test_an_undo_after_another_change_is_refused_in_words)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    match_id = new_match(server)
    first = api(server, f"/matches/{match_id}/hands", FOUR_NIL)["hand"]
    page = phone_page()
    page.clock.install()                        # its polls made at once: polled_now
    # Deleted by this phone (its session: the notice is its own) through the delete's form as the
    # page draws it, posted by the phone's request context (tapping it is
    # test_in_the_browser_a_delete_and_an_archive_are_each_undone_with_one_tap's).
    delete = f"/matches/{match_id}/hands/{first['id']}/delete"
    drawn = page.context.request.get(server + delete).text()
    deleted = page.context.request.post(server + delete, form=dict(form_data(drawn, f'form[action="{delete}"]')),
                                        max_redirects=0)
    assert deleted.status == 303
    page.goto(f"/matches/{match_id}")
    offer = page.locator('[data-testid="notice-action"]')
    expect(offer.locator('[data-testid="notice-button"]')).to_be_visible()
    api(server, f"/matches/{match_id}/hands", FOUR_NIL)                # another phone
    # The next poll brings the new score and takes the Undo away; the words stay.
    polled_now(page)
    expect(page.locator('[data-testid="total-0"]')).to_have_text("4")
    expect(offer.locator('[data-testid="notice-button"]')).to_have_count(0)
    expect(offer).to_contain_text("Hand 1 deleted")


@pytest.mark.browser
def test_in_the_browser_a_delete_and_an_archive_are_each_undone_with_one_tap(phone_page, server):
    """axe checks both notices on the way: the match page with "Edit hand 1" and a delete's
    Undo, the home page with an archive's Undo (axe-core as tests/app/test_accessibility.py runs
    it: no moderate, serious or critical violation at 360 px). With JavaScript only: neither page
    holds anything the page's scripts change (test_accessibility's ``SCRIPTED``: its
    "match-table" and "home" are checked with JavaScript alone for that reason), so axe's verdict
    without it is this one."""
    expect = pytest.importorskip("playwright.sync_api").expect
    pytest.importorskip("axe_playwright_python")          # its axe.min.js: helpers.axe_source
    match_id = new_match(server, players=["Bartolomeo", "Giangiacomo"])
    for _ in range(2):
        api(server, f"/matches/{match_id}/hands", FOUR_NIL)
    before = api(server, f"/matches/{match_id}")
    page = phone_page()
    page.add_init_script(axe_source())       # axe in each document, before its scripts (axe_violations)
    page.goto(f"/matches/{match_id}/hands/{before['hands'][1]['id']}/delete")
    page.locator("form button.danger").tap()
    offer = page.locator('[data-testid="notice-action"]')
    expect(offer).to_contain_text("Hand 2 deleted")
    expect(page.locator('[data-testid="total-0"]')).to_have_text("4")
    expect(page.locator('[data-testid="edit-last"]')).to_have_text("Edit hand 1")
    button = offer.locator('[data-testid="notice-button"]')
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth <= 360")
    found = {"match": blocking(page)}
    button.tap()
    expect(page.locator(".flash")).to_have_text("Hand 2 is back; the totals are worked out again.")
    expect(page.locator('[data-testid="total-0"]')).to_have_text("8")
    after = api(server, f"/matches/{match_id}")
    assert [(h["id"], h["entry"]) for h in after["hands"]] == [(h["id"], h["entry"]) for h in before["hands"]]
    # Archived in play, from the same page: back in the list with one tap.
    page.locator("button", has_text="Move to the archive").tap()
    expect(offer).to_contain_text("Bartolomeo – Giangiacomo is archived")
    expect(page.locator(f'main a[href="/matches/{match_id}"]')).to_have_count(0)
    found["home"] = blocking(page)
    offer.locator('[data-testid="notice-button"]').tap()
    expect(page.locator(".flash")).to_have_text("Bartolomeo – Giangiacomo is back in the list.")
    expect(page.locator(f'main a[href="/matches/{match_id}"]')).to_have_count(1)
    assert found == {"match": [], "home": []}, found


def blocking(page) -> list[str]:
    """axe's moderate, serious and critical violations on the page as it is."""
    return [f"{v['id']} ({v['impact']}): {v['help']}" for v in axe_violations(page)
            if v["impact"] in ("moderate", "serious", "critical")]


# -- The forms and the store ------------------------------------------------------------------

def bruno_tapped(page: str) -> MultiDict:
    """A hand by cards as a player enters it on the new hand's form ``page`` without JavaScript:
    Bruno's pile is the smaller, so it is the one tapped ("rest" = Anna's), each of his cards
    picked in its tile's select; every other card (the rest) is Anna's. Its form as the browser
    sends it, Save pressed."""
    fields = [(name, value) for name, value in form_fields(page) if name != "rest"]
    for card in BRUNO:
        assert "1" in attrs(page, f'form.hand-form select[name="c_{card}"] option', "value"), card
    fields = [(name, "1" if name in {f"c_{card}" for card in BRUNO} else value) for name, value in fields]
    assert "0" in attrs(page, 'form.hand-form input[name="rest"]', "value")       # Anna's, a radio
    return MultiDict([*fields, ("rest", "0"), ("save", "1")])


def api_match(client, match_id: int) -> dict:
    return client.get(f"/api/v1/matches/{match_id}").get_json()


def form_fields(page: str) -> list[tuple[str, str]]:
    """What a browser would send from the page's hand form as it is: its hidden fields, the
    radios checked, each select's chosen option, the numbers typed (no button pressed)."""
    return form_data(page, "form.hand-form")


def chosen(page: str, card: str) -> str:
    """The side a card's select says it is in ("" for a card not tapped)."""
    return dict(form_fields(page)).get(f"c_{card}", "")


# -- The last hand, one tap from its form -----------------------------------------------------

def edit_last(page: str) -> tuple[str, str] | None:
    """The link to the last hand beside the score: (its address, its words), or None."""
    found = nodes(page, 'a.button.fix-last[data-testid="edit-last"]')
    return (found[0].attributes["href"], words(found[0])) if found else None


def test_the_last_hand_is_one_tap_from_its_form_in_play_and_after_the_end(client):
    match_id = new_match(client)
    assert edit_last(client.get(f"/matches/{match_id}").get_data(as_text=True)) is None
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6, sweeps=(1, 0)))
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6, sweeps=(1, 0)))
    second = api_match(client, match_id)["hands"][1]
    link = edit_last(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert link[1] == "Edit hand 2"
    assert link[0] == f"/matches/{match_id}/hands/{second['id']}/edit"
    form = client.get(link[0]).get_data(as_text=True)
    assert "Edit hand 2" in form and 'name="t_cards_0"' in form
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6, sweeps=(3, 0)))      # 17: won
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Anna wins" in page and edit_last(page)[1] == "Edit hand 3"


def test_a_phone_that_may_not_record_is_offered_no_edit(app, client):
    match_id = new_match(client, pin="246813")
    client.post(f"/api/v1/matches/{match_id}/hands", json={"piles": [FULL[:22], FULL[22:]], "sweeps": [0, 0]},
                headers={"X-Scopa-PIN": "246813"})
    assert edit_last(client.get(f"/matches/{match_id}").get_data(as_text=True))      # its creator's phone
    page = a_phone(app).get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Watching" in page and edit_last(page) is None


def test_a_claim_cannot_be_edited_so_its_page_is_offered(app, client):
    match_id = new_match(client, options={"claims": True})
    with app.app_context():                  # Anna calls out with the settebello and a sweep
        saved = store.add_hand(store.get_db(), match_id, {"mode": "claim", "claimer": 0,
                               "piles": [["7d", "1c"], []], "sweeps": [1, 0]}, None, Ledger)
    link = edit_last(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert link[1] == "See hand 1" and link[0] == f"/matches/{match_id}/hands/{saved.id}"


def test_a_card_hand_reopens_as_it_was_tapped_and_saved_unchanged_is_the_same_hand(client):
    match_id = new_match(client)
    form = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
    assert client.post(f"/matches/{match_id}/hands/new", data=bruno_tapped(form)).status_code == 303
    hand = api_match(client, match_id)["hands"][0]
    assert hand["entry"]["piles"][1] == BRUNO and hand["points"] == [3, 1]
    page = client.get(f"/matches/{match_id}/hands/{hand['id']}/edit").get_data(as_text=True)
    # In card mode, Bruno's pile the one tapped (the rest is Anna's), his cards tapped, none of hers.
    assert 'data-mode="piles"' in page
    assert dict(form_fields(page))["rest"] == "0"
    assert all(chosen(page, card) == "1" for card in BRUNO)
    assert [card for card in FULL if chosen(page, card)] == BRUNO
    assert attr(page, '[data-card="7d"]', "data-side") == "1" and attr(page, '[data-card="5d"]', "data-side") == ""
    assert "35 cards, 7 coins" in page and "5 cards, 3 coins" in page
    # Sent back as it is, it is the same hand.
    fields = MultiDict([*form_fields(page), ("save", "1")])
    assert client.post(f"/matches/{match_id}/hands/{hand['id']}/edit", data=fields).status_code == 303
    again = api_match(client, match_id)["hands"][0]
    assert again["entry"] == hand["entry"] and again["points"] == hand["points"]


def test_with_more_sides_the_rest_goes_back_to_the_biggest_pile():
    assert rest_of([["1d"] * 5, ["2d"] * 30, ["3d"] * 5]) == 1
    assert rest_of([["1d"] * 30, ["2d"] * 10]) == 0
    assert rest_of([["1d"] * 20, ["2d"] * 20]) == 1           # a tie: the form's own default


def test_three_sides_reopen_tapping_a_pile_that_does_not_take_the_rest(client):
    match_id = new_match(client, players=["Anna", "Bruno", "Carla"])
    carla = ["7c", "7s", "7b", "6c"]
    data = {"mode": "piles", "rest": "0", "save": "1", **{f"c_{c}": "1" for c in ("7d", "1d")},
            **{f"c_{c}": "2" for c in carla}}
    assert client.post(f"/matches/{match_id}/hands/new", data=data).status_code == 303
    hand = api_match(client, match_id)["hands"][0]
    page = client.get(f"/matches/{match_id}/hands/{hand['id']}/edit").get_data(as_text=True)
    fields = dict(form_fields(page))
    assert fields["rest"] == "0" and fields["tapping"] == "1"       # Anna's pile is the rest
    assert [c for c in FULL if chosen(page, c) == "2"] == sorted(carla, key=FULL.index)
    assert client.post(f"/matches/{match_id}/hands/{hand['id']}/edit",
                       data=MultiDict([*form_fields(page), ("save", "1")])).status_code == 303
    assert api_match(client, match_id)["hands"][0]["entry"] == hand["entry"]


def test_a_count_hand_reopens_with_its_counts(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(17, 3, settebello=1, primiera=1, sweeps=(0, 2)))
    hand = api_match(client, match_id)["hands"][0]
    page = client.get(f"/matches/{match_id}/hands/{hand['id']}/edit").get_data(as_text=True)
    fields = dict(form_fields(page))
    assert 'data-mode="tallies"' in page
    assert (fields["t_cards_0"], fields["t_coins_0"]) == ("17", "3")
    # Bruno's are the rest of the deck, shown, not typed (issue 42).
    assert (text(page, '[data-testid="rest-cards"]'), text(page, '[data-testid="rest-coins"]')) == ("23", "7")
    assert (fields["settebello"], fields["primiera"], fields["sweeps_1"]) == ("1", "1", "2")
    assert client.post(f"/matches/{match_id}/hands/{hand['id']}/edit",
                       data=MultiDict([*form_fields(page), ("save", "1")])).status_code == 303
    again = api_match(client, match_id)["hands"][0]
    assert again["entry"] == hand["entry"] and again["points"] == hand["points"] == [0, 6]


# -- Undo a delete ----------------------------------------------------------------------------

def three_hands(client) -> tuple[int, list[dict]]:
    """Three hands of 2 - 2, Anna's scope besides: 3 - 2, 2 - 2, 4 - 2."""
    match_id = new_match(client)
    for sweeps in ((1, 0), (0, 0), (2, 0)):
        client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6, 1, 1, sweeps=sweeps))
    return match_id, api_match(client, match_id)["hands"]


def delete(client, match_id: int, hand: dict):
    return client.post(f"/matches/{match_id}/hands/{hand['id']}/delete", data={"version": hand["version"]},
                       follow_redirects=True)


def test_a_delete_offers_undo_which_brings_the_hand_back_with_its_id_and_entry(client):
    match_id, hands = three_hands(client)
    before = api_match(client, match_id)
    page = delete(client, match_id, hands[1]).get_data(as_text=True)
    offer = notice(page)
    assert offer.text == "Hand 2 deleted; the totals are worked out again." and offer.button == "Undo"
    assert offer.action == f"/matches/{match_id}/hands/restore"
    after_delete = api_match(client, match_id)
    assert after_delete["totals"] == [7, 4] and len(after_delete["hands"]) == 2
    assert dict(offer.fields) == {"version": str(after_delete["version"]), "hand": str(hands[1]["id"])}
    # The notice is shown once: the next page has it no more.
    assert notice(client.get(f"/matches/{match_id}").get_data(as_text=True)) is None
    undone = client.post(offer.action, data=MultiDict(offer.fields), follow_redirects=True).get_data(as_text=True)
    assert "Hand 2 is back; the totals are worked out again." in undone
    after = api_match(client, match_id)
    assert after["totals"] == before["totals"] == [9, 6]
    assert [(h["id"], h["number"], h["entry"], h["points"]) for h in after["hands"]] == \
        [(h["id"], h["number"], h["entry"], h["points"]) for h in before["hands"]]
    # Sent twice (a double tap): done once.
    again = client.post(offer.action, data=MultiDict(offer.fields), follow_redirects=True).get_data(as_text=True)
    assert "Hand 2 is back" in again and api_match(client, match_id)["hands"] == after["hands"]


def test_an_undo_after_another_change_is_refused_in_words(client):
    match_id, hands = three_hands(client)
    offer = notice(delete(client, match_id, hands[0]).get_data(as_text=True))
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(18, 4, 1, 1))      # another phone
    changed = api_match(client, match_id)
    refused = client.post(offer.action, data=MultiDict(offer.fields), follow_redirects=True).get_data(as_text=True)
    assert "The match changed meanwhile, perhaps on another phone: nothing was undone." in refused
    assert api_match(client, match_id) == changed
    assert [h["number"] for h in changed["hands"]] == [1, 2, 3]


def test_an_undo_of_what_is_not_there_is_refused(client):
    match_id, hands = three_hands(client)
    version = api_match(client, match_id)["version"]
    assert client.post(f"/matches/{match_id}/hands/restore", data={"version": version}).status_code == 400
    assert client.post(f"/matches/{match_id}/hands/restore",
                       data={"version": version, "hand": "999"}).status_code == 404
    assert client.post(f"/matches/{match_id}/hands/restore",
                       data={"version": "x", "hand": hands[0]["id"]}).status_code == 400
    # A hand that was never deleted: nothing to do, nothing changed.
    client.post(f"/matches/{match_id}/hands/restore", data={"version": version, "hand": hands[0]["id"]})
    assert api_match(client, match_id)["version"] == version


def test_the_poll_takes_the_undo_away_once_the_match_changes(client):
    match_id, hands = three_hands(client)
    page = delete(client, match_id, hands[2]).get_data(as_text=True)
    version = api_match(client, match_id)["version"]
    assert f'id="undo-match-{match_id}"' in page
    assert f"/poll?since={version}&amp;undo=1" in page and "hx-swap-oob" not in page
    assert client.get(f"/matches/{match_id}/poll?since={version}&undo=1").data == b""    # unchanged
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(18, 4, 1, 1))
    polled = client.get(f"/matches/{match_id}/poll?since={version}&undo=1").get_data(as_text=True)
    assert f'<div id="undo-match-{match_id}" hx-swap-oob="delete"></div>' in polled
    assert "undo=1" not in polled                  # taken away once
    plain = client.get(f"/matches/{match_id}/poll?since={version}").get_data(as_text=True)
    assert f"undo-match-{match_id}" not in plain        # the Undo left alone: this page shows none


def test_removing_the_hands_played_after_the_end_can_be_undone(client):
    match_id = new_match(client, options={"target": 12})
    for _ in range(3):                                      # 4 - 0 each: 12 - 0 at hand 3
        client.post(f"/api/v1/matches/{match_id}/hands", json={"piles": [FULL[:22], FULL[22:]], "sweeps": [0, 0]})
    first = api_match(client, match_id)["hands"][0]
    # An edit makes hand 1 end the match: hands 2 and 3 were played after the end.
    client.put(f"/api/v1/matches/{match_id}/hands/{first['id']}",
               json={"piles": [FULL[:22], FULL[22:]], "sweeps": [8, 0], "version": first["version"]})
    before = api_match(client, match_id)
    assert len(before["hands"]) == 3 and before["totals"] == [12, 0]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    extra = attrs(page, 'form[action$="/hands/after-end/delete"] input[name="hand"]', "value")
    assert len(extra) == 2 and all(":" in value for value in extra)       # each hand's id:version
    removed = client.post(f"/matches/{match_id}/hands/after-end/delete", data={"hand": extra},
                          follow_redirects=True).get_data(as_text=True)
    offer = notice(removed)
    assert offer.text == "2 hands played after the end deleted."
    assert len(api_match(client, match_id)["hands"]) == 1
    back = client.post(offer.action, data=MultiDict(offer.fields), follow_redirects=True).get_data(as_text=True)
    assert "2 hands are back; the totals are worked out again." in back
    assert [(h["id"], h["entry"]) for h in api_match(client, match_id)["hands"]] == \
        [(h["id"], h["entry"]) for h in before["hands"]]
    # A removal asked of hands that are counted now, or of none, is refused in words (it was a 500).
    for stale in ({"hand": extra}, {"hand": f"{first['id']}:{first['version'] + 1}"}, {}):
        answer = client.post(f"/matches/{match_id}/hands/after-end/delete", data=stale, follow_redirects=True)
        assert answer.status_code == 200 and "nothing was deleted" in answer.get_data(as_text=True)


def test_the_store_restores_only_from_the_version_the_delete_left(app, client):
    match_id, hands = three_hands(client)
    with app.app_context():
        db = store.get_db()
        row = store.hand_row(db, match_id, hands[0]["id"])
        left = store.delete_hands(db, match_id, {row["id"]: row["version"]}, Ledger)
        assert left == store.match_version(db, match_id)
        with pytest.raises(store.Conflict):
            store.restore_hands(db, match_id, [row["id"]], left - 1, Ledger)
        with pytest.raises(store.Gone):
            store.restore_hands(db, match_id, [row["id"], 10_000], left, Ledger)
        assert store.hand_row(db, match_id, row["id"])["deleted"] is not None   # all or none
        store.restore_hands(db, match_id, [row["id"]], left, Ledger)
        assert [h["id"] for h in store.hand_rows(db, match_id)] == [h["id"] for h in hands]
        assert store.match_version(db, match_id) == left + 1


# -- Archive --------------------------------------------------------------------------------

def test_archiving_a_match_in_play_offers_undo_which_puts_it_back_in_the_list(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6))
    home = client.post(f"/matches/{match_id}/archive", data={"archived": "1"}, follow_redirects=True)
    page = home.get_data(as_text=True)
    offer = notice(page)
    assert offer.text == "Anna – Bruno is archived: it is listed under Archive." and offer.button == "Undo"
    assert f'href="/matches/{match_id}"' not in page                 # gone from "In play"
    back = client.post(offer.action, data=MultiDict(offer.fields))
    assert back.status_code == 303 and back.headers["Location"] == "/"
    page = client.get("/").get_data(as_text=True)
    assert "Anna – Bruno is back in the list." in page and f'href="/matches/{match_id}"' in page
    assert api_match(client, match_id)["totals"] == [4, 0]


def test_a_finished_match_is_archived_with_one_tap_and_no_undo(client):
    match_id = new_match(client, options={"target": 3})
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6))
    page = client.post(f"/matches/{match_id}/archive", data={"archived": "1"},
                       follow_redirects=True).get_data(as_text=True)
    assert "Anna – Bruno is archived" in page and notice(page) is None


def test_back_in_the_list_from_the_match_page_stays_on_it(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/archive", data={"archived": "1"})
    answer = client.post(f"/matches/{match_id}/archive", data={"archived": "0"})
    assert answer.headers["Location"] == f"/matches/{match_id}"
    # A next address elsewhere is never followed.
    answer = client.post(f"/matches/{match_id}/archive", data={"archived": "0", "next": "//evil.example/"})
    assert answer.headers["Location"] == f"/matches/{match_id}"


# -- Extremes: every point, and on an edit ---------------------------------------------------

def counts(first: dict, second: dict) -> dict:
    return {"mode": "tallies", "tallies": [{"sweeps": 0, **first}, {"sweeps": 0, **second}]}


def test_every_point_with_every_denaro_is_asked_about_and_an_everyday_four_nil_is_not():
    rules = Rules()
    everyday = score_entry(counts({"cards": 24, "coins": 7, "settebello": True, "primiera": True},
                                  {"cards": 16, "coins": 3}), rules, NAMES)
    assert everyday.totals == (4, 0) and extreme_of(everyday) is None
    every_coin = score_entry(counts({"cards": 16, "coins": 0},
                                    {"cards": 24, "coins": 10, "settebello": True, "primiera": True}), rules, NAMES)
    assert takes_every_point(every_coin) == 1 and extreme_of(every_coin) == (1, "points")
    # The other side's scopa is a point of its own: a real hand, not asked about.
    with_sweep = score_entry(counts({"cards": 16, "coins": 0, "sweeps": 1},
                                    {"cards": 24, "coins": 10, "settebello": True, "primiera": True}), rules, NAMES)
    assert extreme_of(with_sweep) is None
    every_card = score_entry({"mode": "piles", "piles": [FULL[:40], []], "sweeps": [0, 0]}, rules, NAMES)
    assert extreme_of(every_card) == (0, "cards")
    # Hurrikan's denari are cups: all ten of them (and every point) is what is asked about there.
    big = [c for c in FULL if c.endswith("c")] + ["7d", "7s", "7b", "6d", "6s", "1d", "1s", "2d", "2s", "3d", "3s"]
    entry = {"mode": "piles", "piles": [[c for c in FULL if c not in big], big], "sweeps": [0, 0]}
    assert extreme_of(score_entry(entry, rules_for("hurrikan"), NAMES)) == (1, "points")
    assert extreme_of(score_entry(entry, rules, NAMES)) is None


def test_every_point_with_every_denaro_asks_in_its_own_words(client):
    match_id = new_match(client)
    data = counts_form(24, 10, settebello=0, primiera=0, key="k1", number="1")
    asked = client.post(f"/matches/{match_id}/hands/new", data=data).get_data(as_text=True)
    assert "Anna took every point and all 10 coins? Nothing is saved yet." in asked
    assert "Yes, save Anna 4&#160;– Bruno 0" in asked and api_match(client, match_id)["hands"] == []
    assert client.post(f"/matches/{match_id}/hands/new", data={**data, "confirm_extreme": "1"}).status_code == 303


def test_an_edit_that_makes_a_hand_extreme_asks_first(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6))
    hand = api_match(client, match_id)["hands"][0]
    edit = f"/matches/{match_id}/hands/{hand['id']}/edit"
    # Bruno, by mistake, gets every card: asked, nothing changed.
    data = {**counts_form(0, 0, settebello=1, primiera=1), "version": hand["version"]}
    asked = client.post(edit, data=data)
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Bruno took all 40 cards? Nothing is saved yet." in text
    assert "Yes, save Bruno 4&#160;– Anna 0" in text and "Edit hand 1" in text
    assert 'data-testid="save"' not in text
    assert api_match(client, match_id)["hands"][0] == hand
    # "No, change it": the form as it was, still nothing changed.
    back = client.post(edit, data={**data, "switch": "tallies"}).get_data(as_text=True)
    assert "took all 40" not in back and api_match(client, match_id)["hands"][0] == hand
    # Meant: saved with one more tap.
    assert client.post(edit, data={**data, "confirm_extreme": "1"}).status_code == 303
    assert api_match(client, match_id)["hands"][0]["points"] == [0, 4]


def test_an_edit_of_a_hand_already_so_does_not_ask_again(client):
    match_id = new_match(client)
    client.post(f"/matches/{match_id}/hands/new", data=counts_form(40, 10, 0, 0, confirm_extreme="1"))
    hand = api_match(client, match_id)["hands"][0]
    assert hand["points"] == [4, 0]
    edit = f"/matches/{match_id}/hands/{hand['id']}/edit"
    answer = client.post(edit, data={**counts_form(40, 10, 0, 0, sweeps=(1, 0)), "version": hand["version"]})
    assert answer.status_code == 303 and api_match(client, match_id)["hands"][0]["points"] == [5, 0]


def test_with_three_sides_the_answer_reads_the_taking_side_first(client):
    match_id = new_match(client, players=["Anna", "Bruno", "Carla"])
    asked = client.post(f"/matches/{match_id}/hands/new",
                        data={"mode": "piles", "rest": "1", "save": "1"}).get_data(as_text=True)
    assert "Bruno took all 40 cards?" in asked and "Yes, save Bruno 4&#160;– Anna 0&#160;– Carla 0" in asked
