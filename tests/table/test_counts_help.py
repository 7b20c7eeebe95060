"""Issue 21, points 6 and 7: the counts form speaks when it helps, and helps with the primiera.

- The live preview of a hand by counts shows the score of what is entered and says what it is
  still waiting for ("Waiting for: Coins, Settebello"), never a refusal for what is simply not
  entered yet. A real contradiction is said, but only once the count is left (companion.js
  sends the count being typed as ``typing``: the server judges the form without it) or on
  Save. The form has ``novalidate``: the messages are the server's, in the page's language.
- "Who has it? Work it out" opens the referee's primiera tool for the hand, carrying what the
  form holds; its answer comes back into the form with one tap. The entry then records the
  best cards it was worked out from, and the breakdown says so; an entry without them (old
  ones, or a primiera the players chose) reads "marked for ... by the players".
"""

import re
import urllib.parse
import urllib.request

import pytest
from table_helpers import page_scripts
from werkzeug.datastructures import MultiDict

from companion.matches import score_entry
from companion.rules import HandError, Rules, ScopaError, Tally, rules_for, score_so_far, score_tallies
from companion.rules.scoring import NOT_YET
from companion.rules.tally import check_tallies
from helpers import FOUR_NIL, api, axe_source, axe_violations, new_match
from markup import attr, attrs, count, form_data, text, texts

NAMES = ("Anna", "Bruno")


def line(hand, item):
    return next(line for line in hand.lines if line.item == item)


# -- In the browser, at 360 px (first: a test without the browser before them stops Chromium) ----
# With JavaScript, where the page's script does the work: without it, the form is sent as a test
# client sends it, and the tests below post what the pages draw (the tool's way there and back, a
# count refused by its field in the page's language, the preview's words in Italian). axe runs
# on both: with JavaScript on the pages the two flows pass through (a refusal in the preview, the
# tool's answer to take back, the form it comes back to), without it on the tool's answer.


def open_counts(page, server, lang="en"):
    """A new match's first hand, in counts mode, in ``lang``: the match's id."""
    match_id = new_match(server)
    page.goto(f"/lang/{lang}?next=" + urllib.parse.quote(f"/matches/{match_id}/hands/new?mode=tallies"))
    return match_id


def no_console_errors(page) -> list:
    """Console errors but a refused save's 400 (on purpose)."""
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error"
            and "status of 400" not in msg.text else None)
    return errors


def axe_page(phone_page, scripts: bool = True, every_document: bool = True):
    """A page on the module's phone that axe-core checks (``violations``). With
    ``every_document``, axe is in each document it opens, before the page's scripts
    (``helpers.axe_violations`` finds it there: its source parsed in the document, cheaper than
    sent through ``page.evaluate`` at a check), for a flow that checks each page it opens;
    without, ``axe_violations`` gives it to a page when it checks it, for a flow that opens
    more pages than it checks. Without JavaScript the page's scripts are switched off through
    the DevTools protocol, and on only for axe (as tests/app/test_accessibility.py does: axe
    never settles in a context without scripts)."""
    pytest.importorskip("axe_playwright_python")          # its axe.min.js: helpers.axe_source
    page = phone_page()
    if every_document:
        page.add_init_script(axe_source())
    page.scripts_on = (lambda on: None) if scripts else page_scripts(page)
    page.scripts_on(False)
    return page


def violations(page) -> list:
    """axe's moderate, serious and critical violations at 360 px on the page as it is."""
    page.scripts_on(True)
    try:
        found = axe_violations(page)
    finally:
        page.scripts_on(False)
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in found
            if v["impact"] in ("moderate", "serious", "critical")]


@pytest.mark.browser
def test_nothing_is_said_of_a_count_until_it_is_left(phone_page, server):
    """In English; the same refusal in Italian is test_a_count_being_typed_is_judged_once_it_is_left's.
    axe checks the form with the refusal in its preview."""
    expect = pytest.importorskip("playwright.sync_api").expect
    page = axe_page(phone_page)
    errors = no_console_errors(page)
    open_counts(page, server)
    assert page.evaluate("document.querySelector('form.hand-form').noValidate") is True
    preview = page.locator("#preview")
    page.keyboard.type("22")                                  # the keyboard is up on Cards
    # The preview of the 12 typed, swapped in (a key's own preview may come before it).
    page.evaluate("""document.body.addEventListener("htmx:afterSettle", (event) => {
        if (event.detail.requestConfig?.parameters?.t_coins_0 === "12") window.previewed12 = true; })""")
    page.locator("#t_coins_0").tap()
    page.keyboard.type("12")                                  # too many coins, still typing
    page.wait_for_function("() => window.previewed12 === true")
    expect(page.locator("#t_coins_0")).to_be_focused()
    expect(preview.locator(".error")).to_have_count(0)
    expect(preview.locator('[data-testid="preview-waiting"]')).to_be_visible()
    expect(preview.locator(".breakdown")).to_contain_text("22")
    # Left (the next tap is the settebello): now the reason, in the page's language.
    page.locator('label:has(input[name="settebello"][value="0"])').tap()
    expect(preview.locator('[data-testid="preview-error"]')).to_have_text("The coins entered add up to more than 10")
    refused = violations(page)
    # Put right: the error goes, the score comes.
    page.locator("#t_coins_0").fill("6")
    page.locator('label:has(input[name="primiera"][value="0"])').tap()
    expect(preview.locator('[data-testid="preview-totals"]')).to_be_visible()
    expect(preview.locator(".error")).to_have_count(0)
    assert errors == []
    assert refused == [], refused


@pytest.mark.browser
def test_save_answers_with_the_servers_message_never_the_browsers_bubble(phone_page, server):
    """A number out of range is sent (no browser bubble stops it, in the phone's language) and
    the server says why, in the page's language (Italian), by the form; the form stays as it was.
    (Without JavaScript the form is posted as test_the_form_leaves_the_messages_to_the_server_in_the_pages_language
    posts it: its ``novalidate`` lets the browser send it.)"""
    expect = pytest.importorskip("playwright.sync_api").expect
    page = phone_page()
    open_counts(page, server, "it")
    page.locator("#t_cards_0").fill("-1")          # below the field's min: a bubble, were it not for novalidate
    page.locator("#t_coins_0").fill("6")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands/new")) as sent:
        page.locator('[data-testid="save"]').click()
    assert sent.value.status == 400                          # the server answered
    expect(page.locator("#t_cards_0-error")).to_have_text(       # by its field (issue 44)
        "Le carte di Anna: ci vuole un numero intero, 0 o più")
    assert page.input_value("#t_cards_0") == "-1" and page.input_value("#t_coins_0") == "6"
    assert page.evaluate("document.querySelector('form.hand-form').noValidate") is True


@pytest.mark.browser
def test_the_primiera_tool_fills_the_counts_form_with_one_tap(phone_page, server):
    """With JavaScript the tool answers as its best cards are chosen (seven of them come in its
    address, the eighth is chosen on the page); without it, its form is sent and "Use this"
    posted as test_the_tools_answer_comes_back_into_the_form_with_everything_typed sends them.
    axe checks the tool with its answer and the form it comes back to (two of the five pages
    the flow opens)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    page = axe_page(phone_page, every_document=False)
    match_id = open_counts(page, server)
    page.locator("#t_cards_0").fill("22")
    page.locator("#t_coins_0").fill("6")
    page.locator('label:has(input[name="settebello"][value="0"])').click()
    page.locator("#sweeps_0").fill("1")
    page.locator('[data-testid="work-out"]').click()
    page.wait_for_url("**/referee/primiera?**")
    expect(page.locator('[data-testid="for-hand"]')).to_contain_text("For hand 1")
    expect(page.locator("legend.side-name")).to_have_text(list(NAMES))
    # Anna 7d 6c 1s 5b = 70; Bruno 6d 10c 6s 7b = 67: all but Bruno's 7b in the address.
    page.goto(page.url + "&" + BEST.replace("&best_1_b=7", ""))
    expect(page.locator("#best_1_s")).to_have_value("6")
    page.select_option("#best_1_b", "7")
    use = page.locator('[data-testid="use-this"]')
    # The answer to every card chosen (an answer to the seven also says "Anna has the primiera").
    expect(page.locator(f'{USE_THIS} input[name="primiera_best"]')).to_have_value("7d 6c 1s 5b/6d 10c 6s 7b")
    expect(use).to_contain_text("Use this: Anna has the primiera")
    found = {"tool": violations(page)}
    use.click()                                               # the one tap back
    page.wait_for_url(f"**/matches/{match_id}/hands/new#field-primiera")
    assert page.input_value("#t_cards_0") == "22" and page.input_value("#t_coins_0") == "6"
    assert page.input_value("#sweeps_0") == "1"
    expect(page.locator('input[name="settebello"][value="0"]')).to_be_checked()
    expect(page.locator('input[name="primiera"][value="0"]')).to_be_checked()
    expect(page.locator('[data-testid="worked-out"]')).to_have_text("Worked out by the referee: Anna 70 – Bruno 67")
    found["back"] = violations(page)
    page.locator('[data-testid="save"]').click()
    page.wait_for_selector(".scoreboard")
    expect(page.locator(".breakdown")).to_contain_text("70 to 67, worked out by the referee")
    hand = api(server, f"/matches/{match_id}")["hands"][0]
    assert hand["points"] == [5, 0]
    assert found == {"tool": [], "back": []}, found


@pytest.mark.browser
def test_in_the_browser_the_other_sides_figure_follows_as_it_is_typed(phone_page, server):
    """Issue 42: of two sides, the second's figure is the rest of the deck, shown, never typed
    (tests/table/test_counts_follow.py): it follows the first's as it is typed."""
    expect = pytest.importorskip("playwright.sync_api").expect
    match_id = new_match(server)
    hand_id = api(server, f"/matches/{match_id}/hands", FOUR_NIL)["hand"]["id"]
    page = phone_page()
    page.goto(f"/matches/{match_id}/hands/{hand_id}/edit")
    expect(page.locator('[data-testid="rest-coins"]')).to_have_text("4")
    page.fill("#t_coins_0", "5")
    expect(page.locator('[data-testid="rest-coins"]')).to_have_text("5")
    page.locator('[data-testid="save"]').tap()
    expect(page.locator(".flash")).to_contain_text("Hand 1")
    assert api(server, f"/matches/{match_id}")["hands"][0]["entry"]["tallies"][1]["coins"] == 5


@pytest.mark.browser
def test_without_javascript_the_primiera_tools_answer_is_axe_clean(phone_page, server):
    """The primiera tool with its answer to take back to the hand, the page's scripts off (its
    "Who wins it?" button is .js-hide, shown there): no moderate, serious or critical violation at
    360 px. The counts form without JavaScript is checked with its preview drawn by
    tests/app/test_accessibility.py's "hand-shown-score" and with a refused save by its
    "hand-refused"; the refusal in the preview and the referee's figures brought back are the
    server's markup, the same without JavaScript as with it, checked by the two tests above
    (companion.css's rules under ``.js`` touch only the tiles and .js-hide, .js-only)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    page = axe_page(phone_page, scripts=False)
    match_id = new_match(server)
    keep = urllib.parse.quote(urllib.parse.urlencode(TYPED))
    page.goto(f"/referee/primiera?match={match_id}&keep={keep}&{BEST}")
    expect(page.locator('[data-testid="use-this"]')).to_contain_text("Use this: Anna has the primiera")
    expect(page.get_by_role("button", name="Who wins it?")).to_be_visible()
    found = violations(page)
    assert found == [], found


# -- The rules: a hand so far, and the best cards the referee worked it out from ---------------

def test_a_hand_so_far_scores_what_is_in_and_waits_for_the_rest():
    tallies = [Tally(cards=22, coins=None, sweeps=1), Tally(cards=18, coins=None)]
    hand = score_so_far(tallies, Rules(), {"denari", "settebello", "primiera"}, names=NAMES)
    assert line(hand, "carte").points == (1, 0)
    assert line(hand, "scope").points == (1, 0)
    for item in ("denari", "settebello", "primiera"):
        assert line(hand, item).points == (0, 0) and line(hand, item).why == NOT_YET
    assert hand.totals == (2, 0)


def test_a_hand_so_far_refuses_only_what_contradicts_what_is_entered():
    rules = Rules()
    check_tallies([Tally(cards=22, coins=None), Tally(cards=None, coins=None)], rules, NAMES, partial=True)
    with pytest.raises(HandError, match="the cards add up to 47, not 40"):
        check_tallies([Tally(cards=22, coins=None), Tally(cards=25, coins=None)], rules, NAMES, partial=True)
    with pytest.raises(HandError, match="Anna cannot have 12 denari in 10 cards"):
        check_tallies([Tally(cards=10, coins=12), Tally(cards=30, coins=None)], rules, NAMES, partial=True)
    with pytest.raises(HandError, match="Anna cannot have made 3 sweeps"):
        check_tallies([Tally(cards=4, coins=None, sweeps=3), Tally(cards=None, coins=None)], rules,
                      NAMES, partial=True)
    # Complete, the same counts still need the settebello's holder.
    with pytest.raises(HandError, match="exactly one side has the settebello"):
        check_tallies([Tally(cards=22, coins=6), Tally(cards=18, coins=4)], rules, NAMES)


def tallies_with_best(first=("7d", "6c", "1s", "5b"), second=("6d", "10c", "7s", "6b"), marked=(True, False)):
    """Anna's best cards 7d 6c 1s 5b = 70; Bruno's 6d 10c 7s 6b = 67 (as the referee's tool
    sends them back)."""
    return [Tally(cards=22, coins=6, settebello=True, primiera=marked[0], primiera_cards=first),
            Tally(cards=18, coins=4, primiera=marked[1], primiera_cards=second)]


def test_the_best_cards_decide_the_primiera_and_the_breakdown_says_so():
    hand = score_tallies(tallies_with_best(), Rules(), names=NAMES)
    primiera = line(hand, "primiera")
    assert primiera.points == (1, 0)
    assert str(primiera.why) == "70 v 67, worked out by the referee"
    assert [side.value for side in hand.primiera.sides] == [70, 67]
    assert str(hand.primiera.sides[0].best["d"]) == "7d"        # the breakdown lists them


def test_best_cards_that_tie_give_it_to_nobody():
    tie = tallies_with_best(second=("6d", "7c", "7s", "10b"), marked=(False, False))
    hand = score_tallies(tie, Rules(), names=NAMES)
    assert line(hand, "primiera").points == (0, 0)
    assert str(line(hand, "primiera").why) == "70 v 70: tie, no point, worked out by the referee"


@pytest.mark.parametrize("tallies, problem", [
    (tallies_with_best(marked=(False, True)), "the best cards give the primiera to Anna, not Bruno"),
    (tallies_with_best(marked=(False, False)), "the best cards give the primiera to Anna, not nobody"),
    ([Tally(cards=22, coins=6, settebello=True, primiera=True, primiera_cards=["7d"]),
      Tally(cards=18, coins=4)], "give the best cards for the primiera of every side, or of none"),
    (tallies_with_best(second=("7d", "7c", "7s", "10b")), "7d is entered for both Anna and Bruno"),
    (tallies_with_best(first=("7d", "6d")), "Anna has one best card in each suit for the primiera, not two"),
    (tallies_with_best(first="7d"), "the best cards of Anna must be a list of cards"),
    (tallies_with_best(first=("7x",)), "7x is not a card"),
])
def test_best_cards_that_cannot_be_are_refused(tallies, problem):
    with pytest.raises(ScopaError) as refused:
        score_tallies(tallies, Rules(), names=NAMES)
    assert problem in str(refused.value)


def test_where_the_counts_decide_the_primiera_best_cards_are_refused():
    counted = [t._replace(sevens=s, sixes=x) for t, s, x in zip(tallies_with_best(), (3, 1), (2, 2))]
    with pytest.raises(HandError, match="the counts decide the primiera, not its best cards"):
        score_tallies(counted, rules_for("sco-papa"), names=NAMES)


def test_an_entry_without_best_cards_reads_as_marked_by_the_players():
    """Every entry stored before the referee's figures were kept, and every primiera the
    players chose themselves."""
    old = {"mode": "tallies", "tallies": [
        {"cards": 22, "coins": 6, "settebello": True, "re_bello": False, "piva": False, "primiera": True, "sweeps": 0},
        {"cards": 18, "coins": 4, "settebello": False, "re_bello": False, "piva": False, "primiera": False, "sweeps": 0}]}
    hand = score_entry(old, Rules(), NAMES)
    assert line(hand, "primiera").points == (1, 0)
    assert str(line(hand, "primiera").why) == "marked for Anna by the players"


# -- The preview: waiting for, and a refusal once the count is left ---------------------------

def preview(client, match_id: int, **data) -> str:
    answer = client.post(f"/matches/{match_id}/hands/preview", data={"mode": "tallies", **data})
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def words(page: str) -> str:
    """The page's words as a reader meets them: its body's text."""
    return text(page, "body")


def test_the_preview_waits_for_what_is_not_entered_rather_than_refusing(client):
    match_id = new_match(client)
    shown = preview(client, match_id, t_cards_0="22")
    assert 'data-testid="preview-error"' not in shown
    assert "Waiting for: Coins, Settebello, Primiera" in words(shown)
    assert "Cards 22 to 18 1" in words(shown)               # what adds up is scored already
    assert "After this hand" not in shown                 # no totals until it is all in
    shown = preview(client, match_id, t_cards_0="22", t_coins_0="6", settebello="0")
    assert "Waiting for: Primiera" in words(shown) and "Total 3 0" in words(shown)
    shown = preview(client, match_id, t_cards_0="22", t_coins_0="6", settebello="0", primiera="none")
    assert "Waiting for" not in shown and "After this hand: Anna 3 , Bruno 0" in words(shown)


def test_with_three_sides_the_preview_names_each_blank_side_but_the_one_worked_out(client):
    match_id = new_match(client, players=["Anna", "Bruno", "Carla"])
    shown = words(preview(client, match_id, t_cards_0="14", t_coins_0="3", t_coins_1="3"))
    assert "Waiting for: Cards of Bruno, Settebello, Primiera" in shown
    assert "Coins 3 to 3 to 4" in shown


def test_a_count_being_typed_is_judged_once_it_is_left(client):
    match_id = new_match(client)
    typed = {"t_cards_0": "22", "t_coins_0": "12", "settebello": "0"}
    while_typing = preview(client, match_id, **typed, typing="t_coins_0")
    assert 'data-testid="preview-error"' not in while_typing
    assert "Waiting for: Coins, Primiera" in words(while_typing)
    left = preview(client, match_id, **typed, typing="")
    assert text(left, '[data-testid="preview-error"]') == "The coins entered add up to more than 10"
    client.get("/lang/it")                                  # said alone, a sentence, in the page's language
    left = preview(client, match_id, **typed, typing="")
    assert text(left, '[data-testid="preview-error"]') == "Il totale di denari inserito supera 10"
    client.get("/lang/en")
    # A number out of range, likewise: nothing while typed, the reason once left.
    assert "preview-error" not in preview(client, match_id, t_cards_0="50", typing="t_cards_0")
    assert "The cards entered add up to more than 40" in words(preview(client, match_id, t_cards_0="50"))


def test_a_contradiction_among_the_counts_left_is_said_while_another_is_typed(client):
    # Three sides: of two, the second side's cards are the rest of the deck (issue 42).
    match_id = new_match(client, players=["Anna", "Bruno", "Carla"])
    shown = preview(client, match_id, t_cards_0="22", t_cards_1="25", t_cards_2="0", t_coins_0="3",
                    typing="t_coins_0")
    assert "The cards add up to 47, not 40" in words(shown)


def test_the_typing_field_names_only_a_count(client):
    """Whatever ``typing`` says, only a count is set aside: never the CSRF token or the mode."""
    match_id = new_match(client)
    shown = preview(client, match_id, t_cards_0="50", typing="mode")
    assert "The cards entered add up to more than 40" in words(shown)


def test_cards_mode_previews_as_before(client):
    match_id = new_match(client)
    answer = client.post(f"/matches/{match_id}/hands/preview", data={"mode": "piles", "rest": "1", "c_7d": "0"})
    assert "Anna has the Seven of coins" in words(answer.get_data(as_text=True))
    assert "Waiting for" not in answer.get_data(as_text=True)


def test_the_form_leaves_the_messages_to_the_server_in_the_pages_language(client):
    match_id = new_match(client)
    form = client.get(f"/matches/{match_id}/hands/new?mode=tallies").get_data(as_text=True)
    assert count(form, 'form.hand-form[method="post"][novalidate]') == 1
    client.get("/lang/it")
    saved = client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "t_cards_0": "50", "save": "1", "key": "k", "number": "1"})
    assert saved.status_code == 400
    error = texts(saved, '[data-testid="error"]')[0]
    assert error == "Il totale di carte inserito supera 40"     # the rules' words, not WTForms' (issue 44)
    # A number below the field's min is sent (``novalidate``: no browser bubble) and refused by
    # its field, what was typed kept.
    saved = client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "t_cards_0": "-1", "t_coins_0": "6", "save": "1", "key": "k", "number": "1"})
    assert saved.status_code == 400
    assert text(saved, "#t_cards_0-error") == "Le carte di Anna: ci vuole un numero intero, 0 o più"
    assert (attr(saved, "#t_cards_0", "value"), attr(saved, "#t_coins_0", "value")) == ("-1", "6")
    # Save still refuses what is missing, as before (the preview only waits for it).
    saved = client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "t_cards_0": "22", "t_coins_0": "6", "save": "1", "key": "k", "number": "1"})
    assert saved.status_code == 400 and "Il settebello deve averlo uno e uno solo" in saved.get_data(as_text=True)


# -- The primiera tool, from the counts form and back ----------------------------------------

USE_THIS = 'form[method="post"]:has([data-testid="use-this"])'


def use_this_form(page: str) -> tuple[str, list[tuple[str, str]]]:
    """The tool's "Use this" form: its action and what it posts (the button's value too)."""
    button = attr(page, f'{USE_THIS} button[type="submit"][name="primiera"]', "value")
    return attr(page, USE_THIS, "action"), [*form_data(page, USE_THIS), ("primiera", button)]


TYPED = {"mode": "tallies", "t_cards_0": "22", "t_coins_0": "6", "settebello": "0", "sweeps_0": "1",
         "key": "form-key", "number": "1"}
# Anna 7d 6c 1s 5b = 70; Bruno 6d 6s 7b 10c = 67.
BEST = "best_0_d=7&best_0_c=6&best_0_s=1&best_0_b=5&best_1_d=6&best_1_s=6&best_1_b=7&best_1_c=10"


def test_work_it_out_opens_the_tool_for_this_hand_carrying_the_form(client):
    match_id = new_match(client)
    form = client.get(f"/matches/{match_id}/hands/new?mode=tallies").get_data(as_text=True)
    assert 'name="work_out"' in form and "Who has it? Work it out" in form
    opened = client.post(f"/matches/{match_id}/hands/new", data={**TYPED, "work_out": "primiera"})
    assert opened.status_code == 303
    where = urllib.parse.urlsplit(opened.headers["Location"])
    query = dict(urllib.parse.parse_qsl(where.query))
    assert where.path == "/referee/primiera" and query["match"] == str(match_id)
    assert dict(urllib.parse.parse_qsl(query["keep"])) == TYPED       # no CSRF token, no button
    tool = client.get(opened.headers["Location"]).get_data(as_text=True)
    assert "Anna" in tool and "Bruno" in tool and 'data-testid="for-hand"' in tool
    assert 'data-testid="use-this"' not in tool                  # no answer yet: only the way back
    assert "Back to hand 1 without an answer" in tool


def test_the_tools_answer_comes_back_into_the_form_with_everything_typed(client):
    match_id = new_match(client)
    opened = client.post(f"/matches/{match_id}/hands/new", data={**TYPED, "work_out": "primiera"})
    answered = client.get(opened.headers["Location"] + "&" + BEST).get_data(as_text=True)
    assert "Use this: Anna has the primiera" in words(answered)
    action, posted = use_this_form(answered)
    assert action == f"/matches/{match_id}/hands/new#field-primiera"
    assert ("primiera_best", "7d 6c 1s 5b/6d 10c 6s 7b") in posted and ("switch", "tallies") in posted
    back = client.post(action.split("#")[0], data=MultiDict(posted))
    assert back.status_code == 200
    page = back.get_data(as_text=True)
    for name, value in (("t_cards_0", "22"), ("t_coins_0", "6"), ("sweeps_0", "1"), ("key", "form-key")):
        assert attr(page, f'[name="{name}"]', "value") == value, name
    assert count(page, "input#primiera-0[checked]") == 1
    assert "Worked out by the referee: Anna 70 – Bruno 67" in words(page)
    # Saved: the entry keeps the best cards, and the breakdown says how it was settled.
    saved = client.post(f"/matches/{match_id}/hands/new",
                        data={**{k: v for k, v in posted if k != "switch"}, "save": "1"})
    assert saved.status_code == 303
    hand = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    assert [t["primiera_cards"] for t in hand["entry"]["tallies"]] == [["7d", "6c", "1s", "5b"], ["6d", "10c", "6s", "7b"]]
    why = next(line["why"] for line in hand["breakdown"] if line["item"] == "primiera")
    assert why == "70 v 67, worked out by the referee"
    shown = words(client.get(f"/matches/{match_id}/hands/{hand['id']}").get_data(as_text=True))
    assert "70 to 67, worked out by the referee" in shown
    assert "Anna's primiera: Seven of coins 21 + Six of cups 18 + Ace of swords 16 + Five of clubs 15 = 70" in shown


def test_a_primiera_chosen_otherwise_is_the_players(client):
    """The tool gave it to Anna; the players then chose Bruno: theirs, and said so."""
    match_id = new_match(client)
    sent = {**TYPED, "primiera_best": "7d 6c 1s 5b/6d 10c 6s 7b", "primiera": "1", "save": "1"}
    assert client.post(f"/matches/{match_id}/hands/new", data=sent).status_code == 303
    hand = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    assert all("primiera_cards" not in t for t in hand["entry"]["tallies"])
    assert next(line["why"] for line in hand["breakdown"] if line["item"] == "primiera") == \
        "marked for Bruno by the players"


@pytest.mark.parametrize("best", ["7d 6c/7d 6b", "7d 6d/7c", "7d/6c/1s", "7x/6c"])
def test_best_cards_that_cannot_be_are_dropped_by_the_form_not_refused(client, best):
    """The hidden field holds what the tool sent; anything else in it (no real tool sends it)
    is dropped, so the primiera is the players' and the hand saves: a form without
    JavaScript could never clear it."""
    match_id = new_match(client)
    sent = {**TYPED, "primiera_best": best, "primiera": "0", "save": "1"}
    assert client.post(f"/matches/{match_id}/hands/new", data=sent).status_code == 303
    hand = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    assert all("primiera_cards" not in t for t in hand["entry"]["tallies"])


def test_an_edit_keeps_the_referees_figures(client):
    match_id = new_match(client)
    sent = {**TYPED, "primiera_best": "7d 6c 1s 5b/6d 10c 6s 7b", "primiera": "0", "save": "1"}
    client.post(f"/matches/{match_id}/hands/new", data=sent)
    hand_id = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]["id"]
    edit = client.get(f"/matches/{match_id}/hands/{hand_id}/edit").get_data(as_text=True)
    assert attr(edit, 'input[type="hidden"][name="primiera_best"]', "value") == "7d 6c 1s 5b/6d 10c 6s 7b"
    assert "Worked out by the referee: Anna 70 – Bruno 67" in words(edit)
    opened = client.post(f"/matches/{match_id}/hands/{hand_id}/edit", data={**TYPED, "work_out": "primiera"})
    assert f"hand={hand_id}" in opened.headers["Location"]
    tool = client.get(opened.headers["Location"] + "&" + BEST).get_data(as_text=True)
    assert use_this_form(tool)[0] == f"/matches/{match_id}/hands/{hand_id}/edit#field-primiera"


def test_the_tool_on_its_own_or_where_counts_decide_offers_no_way_back(client):
    match_id = new_match(client)
    keep = urllib.parse.quote("mode=tallies&t_cards_0=22")
    assert 'data-testid="back-to-hand"' not in client.get(f"/referee/primiera?match={match_id}&{BEST}").get_data(as_text=True)
    assert 'data-testid="back-to-hand"' not in client.get(f"/referee/primiera?keep={keep}&{BEST}").get_data(as_text=True)
    counted = new_match(client, variant="sco-papa")
    assert "work_out" not in client.get(f"/matches/{counted}/hands/new?mode=tallies").get_data(as_text=True)
    assert 'data-testid="back-to-hand"' not in client.get(
        f"/referee/primiera?match={counted}&keep={keep}&{BEST}").get_data(as_text=True)


def test_what_the_tool_carries_back_is_only_a_forms_fields_escaped(client):
    match_id = new_match(client)
    keep = urllib.parse.quote(urllib.parse.urlencode([("t_cards_0", '22"><script>x</script>'),
                                                      ('"><b', "1"), ("csrf_token", "old")]))
    page = client.get(f"/referee/primiera?match={match_id}&keep={keep}&{BEST}").get_data(as_text=True)
    assert "<script>x" not in page
    assert all(re.fullmatch(r"[a-z_0-9]+", name) for name in attrs(page, 'input[type="hidden"]', "name"))
    assert ("t_cards_0", '22"><script>x</script>') in use_this_form(page)[1]
    assert ("csrf_token", "old") not in use_this_form(page)[1]


# -- The JSON API: the same entry, taken and answered ------------------------------------------

WITH_BEST = {"tallies": [
    {"cards": 22, "coins": 6, "settebello": True, "primiera": True, "primiera_cards": ["7D", "6c", "1s", "5b"]},
    {"cards": 18, "coins": 4, "primiera_cards": ["6d", "10c", "6s", "7b"]}]}


def test_the_api_takes_the_referees_best_cards_and_answers_with_them(client):
    match_id = new_match(client)
    answer = client.post(f"/api/v1/matches/{match_id}/hands", json=WITH_BEST)
    assert answer.status_code == 201, answer.get_json()
    hand = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]
    assert hand["entry"]["tallies"][0]["primiera_cards"] == ["7d", "6c", "1s", "5b"]
    assert next(line["why"] for line in hand["breakdown"] if line["item"] == "primiera") == \
        "70 v 67, worked out by the referee"
    scored = client.post("/api/v1/score", json=WITH_BEST).get_json()
    assert [side["primiera_value"] for side in scored["sides"]] == [70, 67]
    assert scored["sides"][1]["primiera_cards"] == ["6d", "10c", "6s", "7b"]
    # Without them, a hand is stored as before: no primiera_cards at all.
    plain = {"tallies": [{k: v for k, v in t.items() if k != "primiera_cards"} for t in WITH_BEST["tallies"]]}
    client.post(f"/api/v1/matches/{match_id}/hands", json=plain)
    second = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][1]
    assert all("primiera_cards" not in t for t in second["entry"]["tallies"])
    assert "Tally" in client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert "primiera_cards" in client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["Tally"]["properties"]


@pytest.mark.parametrize("change, problem", [
    ({"primiera": False}, "the best cards give the primiera to side 1, not nobody"),
    ({"primiera_cards": "7d"}, "the primiera cards of tally 1 must be a list of cards"),
    ({"primiera_cards": [7]}, "7 is not a card"),
])
def test_the_api_refuses_best_cards_that_cannot_be(client, change, problem):
    body = {"tallies": [{**WITH_BEST["tallies"][0], **change}, WITH_BEST["tallies"][1]]}
    answer = client.post("/api/v1/score", json=body)
    assert answer.status_code == 400 and problem in answer.get_json()["error"]
