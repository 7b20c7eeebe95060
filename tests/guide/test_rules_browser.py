"""The rules pages in a real browser at a phone's size (Debian's Chromium, Playwright): a player
filling in a new match opens the chosen variant's rules and comes back to the form as it was;
every rules page fits 360 px in each language."""

import re

import pytest

from companion.rules import PRESETS
from helpers import FUZZ

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="module")
def kept_phone(browser, server):
    """One phone's browser for the module's tests with JavaScript, and the script errors its pages
    meet (a new context for each test started a renderer and fetched the pages' scripts, styles
    and fonts again)."""
    context = browser.new_context(**PHONE, base_url=server)
    errors = []
    context.on("page", lambda page: page.on("pageerror", lambda error: errors.append(str(error))))
    context.on("page", lambda page: page.on(
        "console", lambda msg: errors.append(msg.text) if msg.type == "error" else None))
    yield context, errors
    context.close()


@pytest.fixture
def phone(kept_phone):
    """The module's phone; a script error, or anything the Content-Security-Policy refuses,
    fails. What a test leaves, its pages and its cookies (the language chosen), is cleared
    after it."""
    context, errors = kept_phone
    errors.clear()
    yield context
    for page in context.pages:
        page.close()
    context.clear_cookies()
    assert errors == [], errors


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
def test_from_the_new_match_form_to_the_variants_rules_and_back(phone, browser, server, js):
    context = phone if js else browser.new_context(**PHONE, base_url=server, java_script_enabled=False)
    page = context.new_page()
    page.goto("/matches/new")
    page.fill("#player1", "Anna")
    page.fill("#player2", "Bruno")
    if js:
        with page.expect_response(lambda r: "/matches/new/rules" in r.url):
            page.select_option("#preset", "napola")
    else:       # without JavaScript the variant's rules come with a tap, the names kept
        page.select_option("#preset", "napola")
        page.locator('button[name="load_preset"]').click()
        expect(page.locator("#player1")).to_have_value("Anna")
    page.locator("details.rules > summary").click()
    page.fill("#target", "31")
    link = page.locator('[data-testid="variant-rules"]')
    expect(link).to_have_attribute("href", "/rules/napola")
    with context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules.locator("h1")).to_have_text("Scopa con Napola")
    expect(rules.locator('[data-testid="napola"]')).to_contain_text("as far as the 6: 6 points at most")
    assert rules.evaluate("document.documentElement.scrollWidth") <= 360
    rules.close()
    # The form is as the player left it: the names, the variant, the target typed.
    expect(page.locator("#player1")).to_have_value("Anna")
    expect(page.locator("#player2")).to_have_value("Bruno")
    expect(page.locator("#preset")).to_have_value("napola")
    expect(page.locator("#target")).to_have_value("31")
    page.locator('[data-testid="start"]').click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    match_id = page.url.rsplit("/", 1)[1]
    body = page.request.get(f"/api/v1/matches/{match_id}").json()
    assert body["rules"]["preset"] == "napola" and body["rules"]["target"] == 31
    # The match page leads to this match's own rules.
    page.locator('[data-testid="variant-explained"]').click()
    expect(page.locator('[data-testid="goal"]')).to_contain_text("First to 31")
    if not js:
        context.close()


LANGUAGES = ["it", "en", "fr", "es"]


def rules_pages(lang: str) -> list[str]:
    """The rules pages measured in ``lang``: the index in every language, each variant's page
    in two of the four (in turn: every language has half of them, every page two languages'
    words); every page in every language with SCOPA_FUZZ set. (Every page in every language was
    76 loads, a fifth of a second to a second each.)"""
    at = LANGUAGES.index(lang)
    return ["/rules", *(f"/rules/{name}" for number, name in enumerate(PRESETS)
                        if FUZZ or (number + at) % len(LANGUAGES) in (0, 1))]


def test_every_variants_rules_page_is_measured_in_two_languages():
    measured = {path: [lang for lang in LANGUAGES if path in rules_pages(lang)] for name in PRESETS
                for path in [f"/rules/{name}"]}
    assert all(len(languages) >= 2 for languages in measured.values()), measured
    assert all(len(rules_pages(lang)) >= len(PRESETS) // 2 for lang in LANGUAGES)     # 8 or 9 each


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rules_page_fits_360_px(phone, lang):
    page = phone.new_page()
    page.goto(f"/lang/{lang}?next=/rules")        # the index, the first page measured
    found = {}
    for number, path in enumerate(rules_pages(lang)):
        if number:
            page.goto(path)
        # its width, and every link and button a finger's size: one look
        width, small = page.evaluate("""[document.documentElement.scrollWidth,
            [...document.querySelectorAll('main a, main button')]
              .filter(e => e.getBoundingClientRect().height < 44).map(e => e.textContent.trim())]""")
        if width > 360 or small:
            found[path] = {"width": width, "smaller than a finger": small}
    assert found == {}, lang
