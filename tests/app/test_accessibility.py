"""axe-core on every page, at a phone's size (360 px), with JavaScript on and, for the main pages
where the scripts change the page, off, and some in Italian, French and Spanish too: no violation with impact "serious" or "critical"
(issue 12, "Accessible"), nor "moderate" (a page without a level-one heading was one). A failure names the page and lists each violation: its id, impact,
help and first nodes.

axe-core comes with axe-playwright-python (its bundled axe.min.js: nothing is fetched at run
time). Each phone's context is given it as an init script (``Phone``): Chromium runs it in every
document the phone opens, before the page's own scripts, through the DevTools protocol and so
outside the page's Content-Security-Policy (``default-src 'self'``, no inline script, no eval),
even while the phone without JavaScript has the page's scripts switched off. The package's own
``Axe.run`` sent the whole 570 KB source with ``page.evaluate`` at every check and brought back
axe's whole results (``helpers.axe_violations``: what that cost). An ``add_script_tag(content=...)`` would be
an inline script the CSP blocks."""

import json
import os
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from table_helpers import page_scripts

from companion import create_app
from helpers import FUZZ, HAND, SPILLING, api, axe_source, axe_violations, serving

playwright_api = pytest.importorskip("playwright.sync_api")

try:
    import axe_playwright_python  # noqa: F401  (its axe.min.js: helpers.axe_source)
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("axe-playwright-python is not installed (pip install -e '.[test]')",
                allow_module_level=True)

expect = playwright_api.expect

# Every test here drives Chromium (the browser and server fixtures: tests/conftest.py).
pytestmark = pytest.mark.browser
# Two rules axe-core leaves off that Lighthouse (mobile) runs (issue 35): the visible label in the
# accessible name (WCAG 2.5.3: a tile showing "2" named "Two of coins" alone; experimental in
# axe-core, so enabled by name), and the targets' size and spacing (WCAG 2.5.8).
OPTIONS = {"resultTypes": ["violations"],
           "rules": {"label-content-name-mismatch": {"enabled": True}, "target-size": {"enabled": True}}}
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
# The rules whose verdict cannot change with the page's language, left to its English check: the
# pages are the same templates over the same data in every language, only the catalogues' words
# differ, so the rules that read nothing but the markup's elements, roles and attributes (lists,
# landmarks, ARIA's roles and attributes, tables' headers, ids, tabindex, the viewport) give the
# English page's verdict; and color-contrast, the same CSS's colours on the same elements (two
# thirds of an axe check's time, measured side by side: 2.8 s of a hand form's 2.8, 1.1 without
# it). What a longer text could change of the colours under it (words spilling out of their box
# onto another one) is held in each language by ``SPILLING`` instead (``check``). Every rule that
# reads words, names, the lang attributes or sizes (target-size: a longer word wraps) runs in
# every language; a rule axe adds later runs everywhere until it is named here.
LANGUAGE_BLIND = (
    "color-contrast", "accesskeys", "aria-allowed-attr", "aria-allowed-role", "aria-conditional-attr",
    "aria-deprecated-role", "aria-hidden-body", "aria-hidden-focus", "aria-prohibited-attr",
    "aria-required-attr", "aria-required-children", "aria-required-parent", "aria-roles", "aria-valid-attr",
    "autocomplete-valid", "blink", "bypass", "css-orientation-lock", "definition-list", "dlitem",
    "duplicate-id-aria", "focus-order-semantics", "form-field-multiple-labels", "frame-focusable-content",
    "frame-tested", "heading-order", "hidden-content", "landmark-banner-is-top-level",
    "landmark-contentinfo-is-top-level", "landmark-main-is-top-level", "landmark-no-duplicate-banner",
    "landmark-no-duplicate-contentinfo", "landmark-no-duplicate-main", "landmark-one-main", "list", "listitem",
    "marquee", "meta-refresh", "meta-viewport", "meta-viewport-large", "nested-interactive",
    "no-autoplay-audio", "presentation-role-conflict", "region", "scope-attr-valid", "server-side-image-map",
    "skip-link", "tabindex", "table-fake-caption", "td-has-header", "td-headers-attr", "th-has-data-cells",
    "video-caption")
# The rules that judge only elements the companion's pages never have (frames, video and audio,
# <object> and <embed>, image maps, <marquee>, <blink>, an image as a button), by the elements:
# left out of every check, in every language, where each phone checks first that the page as axe
# would judge it has none of them (``Phone.violations``: a page that gets one fails, naming it,
# until its rules are put back). axe still looked for them, and frame-tested judged <html> at every
# check.
NEVER_SHOWN = {
    "iframe, frame": ("frame-focusable-content", "frame-tested", "frame-title", "frame-title-unique"),
    "video, audio": ("video-caption", "audio-caption", "no-autoplay-audio"),
    "object, embed": ("object-alt",),
    "area, map, img[ismap]": ("area-alt", "server-side-image-map"),
    "marquee": ("marquee",),
    "blink": ("blink",),
    "input[type=image]": ("input-image-alt",),
}
NEVER = ", ".join(NEVER_SHOWN)
WITHOUT_THEM = {rule: {"enabled": False} for rules in NEVER_SHOWN.values() for rule in rules}
IN_ENGLISH = {**OPTIONS, "rules": {**OPTIONS["rules"], **WITHOUT_THEM}}
IN_ANOTHER_LANGUAGE = {**OPTIONS, "rules": {**OPTIONS["rules"], **WITHOUT_THEM,
                                            **{rule: {"enabled": False} for rule in LANGUAGE_BLIND}}}


def options(lang: str) -> dict:
    """axe's options for a page in ``lang``: every rule in English, the language-blind ones
    (``LANGUAGE_BLIND``) left to it in the others; in every language, none of the rules over
    elements the pages never have (``NEVER_SHOWN``)."""
    return IN_ENGLISH if lang == "en" else IN_ANOTHER_LANGUAGE


def tallies(cards: int, coins: int, settebello: bool, primiera: bool, sweeps: int = 0) -> dict:
    return {"cards": cards, "coins": coins, "settebello": settebello, "primiera": primiera,
            "sweeps": sweeps}


# Anna takes 22 cards, 6 coins, the settebello and the primiera: 4 points to 0.
FOUR_NIL = {"tallies": [tallies(22, 6, True, True, 0), tallies(18, 4, False, False, 0)]}


@pytest.fixture(scope="module")
def made(server):
    """The matches the pages show, made through the JSON API (docs/api.md): their
    ids, a hand's, and the server's address."""
    def match(**body):
        return api(server, "/matches", {"first_dealer": 0, **body})["id"]

    ids = {
        "playing": match(players=["Anna", "Bruno"]),
        "over": match(players=["Anna", "Bruno"], options={"target": 3}),
        "three": match(players=["Anna", "Bruno", "Carla"]),
        "teams": match(variant="scopone", teams=[{"name": "Noi", "players": ["Anna", "Carla"]},
                                                  {"name": "Voi", "players": ["Bruno", "Dario"]}]),
        "bazzica": match(variant="bazzica", players=["Anna", "Bruno"]),
        "escoba": match(variant="escoba", players=["Anna", "Bruno"]),
        "claims": match(players=["Anna", "Bruno"], options={"claims": True}),
        "pin": match(players=["Anna", "Bruno"], pin="432198"),
        "archived": match(players=["Elsa", "Fabio"]),
        "taken": match(players=["Anna", "Bruno"], options={"target": 61}),    # taken() many times
        "server": server,
    }
    ids["hand"] = api(server, f"/matches/{ids['playing']}/hands", FOUR_NIL)["hand"]["id"]
    api(server, f"/matches/{ids['over']}/hands", FOUR_NIL)
    api(server, f"/matches/{ids['claims']}/hands", FOUR_NIL)
    declared = [{"side": 0, "deal": 1, "cards": ["1d", "1c", "2s"]}]
    ids["bazzica_hand"] = api(server, f"/matches/{ids['bazzica']}/hands",
                              {**FOUR_NIL, "declarations": declared})["hand"]["id"]
    # Escoba (issue 43): the Spanish pack's tiles, its counts, its breakdown.
    ids["escoba_hand"] = api(server, f"/matches/{ids['escoba']}/hands", HAND)["hand"]["id"]
    with urllib.request.urlopen(server + "/api/v1/players", timeout=10) as answer:
        players = {p["name"]: p["id"] for p in json.loads(answer.read())["players"]}
    ids["anna"], ids["bruno"] = players["Anna"], players["Bruno"]
    tournament = api(server, "/tournaments", {"name": "Giovedì", "format": "swiss", "rounds": 2,
                                              "entrants": ["Anna", "Bruno", "Carla", "Dario", "Elsa"]})
    ids["tournament"] = api(server, f"/tournaments/{tournament['id']}/rounds", {})["id"]
    # A tournament's tables (issue 21): one in play, one finished, each leading back.
    night = api(server, "/tournaments", {"name": "Circolo Arci", "format": "round-robin",
                                         "options": {"target": 3}, "entrants": ["Anna", "Bruno", "Carla", "Dario"]})
    tables = api(server, f"/tournaments/{night['id']}/rounds", {})["rounds"][0]["tables"]
    ids["table_playing"], ids["table_over"] = tables[0]["match"], tables[1]["match"]
    api(server, f"/matches/{ids['table_over']}/hands", FOUR_NIL)
    return ids


@pytest.fixture(scope="module")
def empty_server():
    """A second companion with no match at all: the home page as a new install shows it."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "axe", "DATABASE": f"{folder}/empty.sqlite"})
        with serving(app, threads=2) as base:
            yield base


# -- What a page needs before it is checked ----------------------------------------------------
# Each takes the page (already open at the path) and ``made``, and leaves the page as it is to
# be checked.

def choose_scopone(page, made):
    """Scopone: four seats in two teams, its rules swapped in by htmx."""
    with page.expect_response(lambda r: "/matches/new/rules" in r.url):
        page.select_option("#preset", "scopone")
    expect(page.locator('input[name="layout"][value="2x2"]')).to_be_checked()
    expect(page.locator("#player4")).to_be_visible()
    expect(page.locator(".htmx-settling, .htmx-request")).to_have_count(0)


def open_rules(page, made):
    """The rules opened under the new match's form, where "The same players" is offered (the
    page with them closed is this page with less shown: checked here, not on a load of its own)."""
    same_offered(page, made)
    page.locator("details.rules > summary").click()
    expect(page.locator("#rules")).to_be_visible()


def fill_counts(page, cards: int, coins: int, sweeps: int):
    page.fill("#t_cards_0", str(cards))
    page.fill("#t_coins_0", str(coins))
    page.locator('label:has(input[name="settebello"][value="0"])').click()
    page.fill("#sweeps_0", str(sweeps))


def refused_save(page, made):
    """Counts that cannot be: 3 sweeps with 4 cards taken. The page comes back with the error."""
    fill_counts(page, 4, 2, 3)
    page.locator('[data-testid="save"]').click()
    page.wait_for_selector('[data-testid="error"]')


def shown_score(page, made):
    """Without JavaScript, "Show the score" stands in for the live preview."""
    fill_counts(page, 22, 6, 1)
    page.locator('button[name="check"]').click()
    expect(page.locator("#preview .breakdown")).to_be_visible()


def taken(page, made):
    """Another phone records the hand meanwhile: both scores, and the choice."""
    fill_counts(page, 22, 6, 0)
    api(made["server"], f"/matches/{made['taken']}/hands", FOUR_NIL)
    page.locator('[data-testid="save"]').click()
    page.wait_for_selector('[data-testid="taken"]')


def declare(page, made):
    """A Bazzica declaration being entered: its tiles tapped."""
    page.locator("details.declaration > summary").first.click()
    for card in ("1d", "1c", "2s"):
        page.locator(f'details.declaration label.check-tile:has(input[value="{card}"])').first.click()
    expect(page.locator('details.declaration input[value="2s"]').first).to_be_checked()


def some_taps(page, made):
    """A few cards tapped on the grid, as during a hand (without JavaScript, picked in the
    tiles' selects)."""
    scripted = page.locator(".tile[role=button]").count() > 0
    for card in ("7d", "1c", "10b"):
        tile = page.locator(f'.tile[data-card="{card}"]')
        if scripted:
            tile.click()
        else:
            tile.locator("select").select_option(index=1)


def changes_opened(page, made):
    """The match's Changes opened (issue 41): who changed which hand, with the organiser's Undo
    beside each (the suite's browser is the organiser's); with JavaScript asked again (htmx).
    The match's page with them closed is this page with less shown: checked here, not on a load
    of its own."""
    page.locator("#changes > summary").click()
    expect(page.locator('#changes [data-testid="change"]').first).to_be_visible()


def rematch_offered(page, made):
    expect(page.locator('[data-testid="rematch"]')).to_be_visible()


def shared(page, made):
    """The result shared: with JavaScript where the phone has neither a share sheet nor a
    clipboard (plain http on the table's Wi-Fi), the text shown, selected; without, opened. The
    rematch is offered beside it (the finished match's page before its result is shared is this
    page with less shown: checked here, not on a load of its own)."""
    rematch_offered(page, made)
    if page.evaluate("document.documentElement.classList.contains('js')"):
        page.evaluate("Object.defineProperty(Navigator.prototype, 'share', {configurable: true, value: undefined});"
                      "Object.defineProperty(Navigator.prototype, 'clipboard', {configurable: true, value: undefined})")
        page.locator('[data-testid="share"]').click()
    else:
        page.locator('[data-testid="share-text"] > summary').click()
    expect(page.locator('[data-testid="share-text"] textarea')).to_be_visible()


def back_offered(page, made):
    expect(page.locator('[data-testid="back-to-tournament"]')).to_be_visible()


def same_offered(page, made):
    expect(page.locator('[data-testid="same-players"]')).to_be_visible()


def archived_listed(page, made):
    expect(page.locator("main")).to_contain_text("Elsa")


def archive(page, made):
    """Done first, on the match's page: it goes to the archive (once: a test after another
    finds it there)."""
    page.goto(f"/matches/{made['archived']}")
    button = page.locator("button", has_text="Move to the archive")
    if button.count():
        button.click()
        # The archive is sent by htmx (hx-boost): its answer brings the home page. Going on
        # before it did cancelled the request, left "Waiting to be sent" in the outbox.
        page.wait_for_url(made["server"] + "/")


@dataclass
class Page:
    name: str
    path: str                                # formatted with ``made``
    then: Callable | None = None             # done on the page before axe runs
    before: Callable | None = None           # done first, elsewhere
    status: int = 200                        # of the page as opened
    scripted: bool = True                    # checked with JavaScript on (not only off)


PAGES = [
    Page("home", "/"),
    Page("organiser-qr", "/organiser/qr"),      # the QR of the night, for the club's phones
    Page("new-match-same", "/matches/new?same=last"),
    Page("new-match-scopone", "/matches/new", then=choose_scopone),
    Page("new-match-rules-open", "/matches/new", then=open_rules),
    Page("match-changes-open", "/matches/{playing}", then=changes_opened),
    Page("match-changes", "/matches/{playing}/changes"),
    Page("match-over-shared", "/matches/{over}", then=shared),
    Page("match-table", "/matches/{table_playing}"),
    Page("match-table-over", "/matches/{table_over}", then=back_offered),
    Page("match-table-delete", "/matches/{table_playing}/delete"),
    Page("match-three", "/matches/{three}"),
    Page("match-teams", "/matches/{teams}"),
    Page("match-bazzica", "/matches/{bazzica}"),
    Page("match-pin-watching", "/matches/{pin}"),
    Page("hand-cards", "/matches/{playing}/hands/new", then=some_taps),
    Page("hand-counts", "/matches/{playing}/hands/new?mode=tallies"),
    Page("hand-cards-three", "/matches/{three}/hands/new", then=some_taps),
    Page("hand-counts-three", "/matches/{three}/hands/new?mode=tallies"),
    Page("hand-cards-teams", "/matches/{teams}/hands/new"),
    Page("hand-counts-teams", "/matches/{teams}/hands/new?mode=tallies"),
    Page("hand-cards-bazzica", "/matches/{bazzica}/hands/new", then=declare),
    Page("hand-counts-bazzica", "/matches/{bazzica}/hands/new?mode=tallies"),
    Page("hand-refused", "/matches/{playing}/hands/new?mode=tallies", then=refused_save),
    Page("hand-shown-score", "/matches/{playing}/hands/new?mode=tallies", then=shown_score,
         scripted=False),
    Page("hand-taken", "/matches/{taken}/hands/new?mode=tallies", then=taken),
    Page("hand-page", "/matches/{playing}/hands/{hand}"),
    Page("hand-page-bazzica", "/matches/{bazzica}/hands/{bazzica_hand}"),
    Page("hand-cards-escoba", "/matches/{escoba}/hands/new", then=some_taps),
    Page("hand-counts-escoba", "/matches/{escoba}/hands/new?mode=tallies"),
    Page("hand-page-escoba", "/matches/{escoba}/hands/{escoba_hand}"),
    Page("hand-edit", "/matches/{playing}/hands/{hand}/edit"),
    Page("hand-delete", "/matches/{playing}/hands/{hand}/delete"),
    Page("match-delete", "/matches/{playing}/delete"),
    Page("rematch", "/matches/{over}/rematch"),
    Page("pin", "/matches/{pin}/pin"),
    Page("join", "/matches/{playing}/join"),
    Page("backup", "/backup"),
    Page("list-playing", "/matches?state=playing"),
    Page("list-finished", "/matches?state=finished"),
    Page("list-archived", "/matches?state=archived", before=archive, then=archived_listed),
    Page("referee", "/referee/"),
    Page("referee-captures", "/referee/captures"),
    Page("referee-captures-ruled",
         "/referee/captures?table=1c&table=3c&table=4c&table=5c&table=7c&played=8d"),
    Page("referee-captures-paged",      # 39 cards under quindici: a page of 1,702, and its links
         "/referee/captures?variant=quindici&page=2&played=5d&" + "&".join(
             f"table={v}{s}" for s in "dcsb" for v in range(1, 11) if f"{v}{s}" != "5d")),
    Page("referee-primiera", "/referee/primiera"),
    Page("referee-primiera-decided", "/referee/primiera?best_0_d=7&best_0_c=7&best_1_s=7&best_1_b=6"),
    Page("referee-deal", "/referee/deal"),
    Page("referee-deal-checked", "/referee/deal?table=10d&table=10c&table=10s&table=1b"),
    Page("referee-deal-unseated", "/referee/deal?variant=corse&players=3"),
    Page("referee-rules", "/referee/rules"),
    Page("referee-claim", "/referee/claim"),
    Page("referee-claim-match", "/referee/claim?match={claims}"),
    Page("referee-claim-checked",
         "/referee/claim?match={claims}&claimer=0&c_7d=0&c_1c=0&sweeps_0=1"),
    Page("players", "/players"),
    Page("players-filtered", "/players?variant=scopone&period=30"),
    # Ratings (issue 24): the leaderboard by rating, a player's chart (player), a finished
    # match's changes (match-over-*), a match before its first hand with the chances to win.
    Page("players-rated", "/players?order=rating"),
    Page("player", "/players/{anna}"),
    # "How the rating works" on a page of its own (issue 33): a finished match's figures link here.
    Page("rating-explained", "/players/rating"),
    Page("player-merge", "/players/{bruno}/merge?into={anna}"),
    Page("player-merge-find", "/players/{bruno}/merge?find=an"),
    Page("tournaments", "/tournaments"),
    Page("tournament-new", "/tournaments/new"),
    Page("tournament", "/tournaments/{tournament}"),
    Page("tournament-board", "/tournaments/{tournament}/board"),
    Page("tournament-pairings", "/tournaments/{tournament}/pairings"),
    Page("tournament-standings", "/tournaments/{tournament}/standings"),
    # The organiser's entrants: withdraw one, add a late one (issue 40).
    Page("tournament-entrants", "/tournaments/{tournament}/entrants"),
    Page("not-found", "/no/such/page", status=404),
    # The rules pages (issue 23): the list, variants drawing captures, runs and declarations, a
    # match's own rules and a query's changes.
    Page("rules", "/rules"),
    Page("rules-scopa-d-assi", "/rules/scopa-d-assi"),
    Page("rules-napola", "/rules/napola"),
    Page("rules-sbarazzina", "/rules/sbarazzina"),
    Page("rules-chkobba", "/rules/chkobba"),
    Page("rules-escoba", "/rules/escoba"),
    Page("referee-deal-escoba", "/referee/deal?variant=escoba&table=7d&table=8c&table=10s&table=5b"),
    Page("rules-match", "/rules/classica?match={claims}"),
    Page("rules-changed", "/rules/scalette?deck=36&cappotto=1&claims=1&double_under=8"),
    Page("rules-refused", "/rules/classica?target=abc", status=400),
]

# Without JavaScript: the pages a phone with scripts off goes through to keep the score.
# (NO_JS_SAME says which of them are not checked again without JavaScript.)
NO_JS = ["home", "new-match-rules-open", "new-match-same", "match-changes-open", "match-over-shared", "match-table", "match-table-over", "match-table-delete", "hand-cards", "hand-counts",
         "hand-cards-three", "hand-counts-teams", "hand-cards-bazzica", "hand-refused",
         "hand-shown-score", "hand-taken", "hand-page", "hand-edit", "hand-delete", "match-delete",
         "rematch", "pin", "referee-captures-ruled", "referee-claim-checked", "players", "players-rated", "player",
         "tournament-new", "tournament", "tournament-board", "tournament-entrants", "not-found", "rules",
         "rules-napola", "hand-cards-escoba"]

# In Italian, French and Spanish too: the pages with the most words of their own, by the
# template that draws them (each template's words in each language are what these checks are
# for): ``in_languages`` says which page in which language.
LANG_TEMPLATES = {
    "home": ["home"],
    "new match": ["new-match-rules-open"],
    "match": ["match-over-shared", "match-table-over", "match-three", "match-changes-open"],
    "hand form": ["hand-cards", "hand-counts-bazzica", "hand-refused", "hand-cards-escoba"],
    "hand": ["hand-page-bazzica"],
    "claim": ["referee-claim-checked"],
    "player": ["player"],
    "players": ["players-rated"],
    "rating": ["rating-explained"],
    "board": ["tournament-board"],
    "entrants": ["tournament-entrants"],
    "error": ["not-found"],
    "rules": ["rules"],
    "a variant's rules": ["rules-scopa-d-assi", "rules-napola", "rules-escoba"],
}
LANGS = [name for pages in LANG_TEMPLATES.values() for name in pages]
OTHER_LANGUAGES = ("it", "fr", "es")


def in_languages() -> list[tuple[str, str]]:
    """The pages of LANG_TEMPLATES and the language each is checked in: a template's pages take
    Italian, French and Spanish in turn (each template starting where the one before it ended,
    so that each language has a third of the pages), as many turns as the template has pages
    and at least three: a template with one page has it in all three languages, one with three
    or four pages each page in one, every template in every language. Every page in every
    language with SCOPA_FUZZ set. (Every page in every language was 66 checks, each a load and
    an axe run: 44 now.)"""
    cases, turn = [], 0
    for pages in LANG_TEMPLATES.values():
        if FUZZ:
            cases += [(name, lang) for name in pages for lang in OTHER_LANGUAGES]
            continue
        for number in range(max(len(pages), len(OTHER_LANGUAGES))):
            cases.append((pages[number % len(pages)], OTHER_LANGUAGES[turn % len(OTHER_LANGUAGES)]))
            turn += 1
    return cases


# What the page's scripts change, add, show or hide in a page as the server sends it (static/):
# the parts for a phone with or without JavaScript (.js-hide, .js-only, <noscript>), the forms
# companion.js sets up (the new match's, the hand's tiles and counts, the steppers), the
# winner's celebration (celebrateOnce), the board's pages (board.js), the restore's form
# (restore.js), what htmx asks for as the page loads, and an opened list htmx asks again.
SCRIPTED = (".js-hide, .js-only, noscript, form.new-match, form.hand-form, [data-stepper], "
            ".scoreboard[data-match] .total.winner, #board-live, [data-restore-parts], "
            "[hx-trigger*=load], details[open][hx-trigger*=toggle]")
# The pages of NO_JS whose HTML holds nothing of SCRIPTED, opened and checked as they come (no
# ``then``): without JavaScript a phone has the same elements, words, attributes and styles as
# with it, but for the ``js`` class on <html>, which the CSS reads only under SCRIPTED's parts;
# so axe's verdict on them without JavaScript is the one their check with it gives, and they
# are checked with it alone (test_accessibility_nojs.py holds them to SCRIPTED). Each check
# without JavaScript was a load and a whole axe run, 37 of them.
NO_JS_SAME = ["home", "match-table", "match-table-delete", "hand-page", "hand-delete", "match-delete",
              "rematch", "pin", "tournament-new", "tournament", "tournament-entrants", "not-found", "rules",
              "rules-napola"]

BY_NAME = {page.name: page for page in PAGES}
# The cases are cut into three files of about the same time (a file's tests run in one worker
# under pytest-xdist's loadfile; this one was 600 of a run's worker-seconds, the whole run's last
# ten minutes on one worker): with JavaScript in English here, without it in
# test_accessibility_nojs.py, the other languages in test_accessibility_languages.py.
CASES = [pytest.param(page, True, "en", id=page.name) for page in PAGES if page.scripted]
NO_JS_CASES = [pytest.param(BY_NAME[name], False, "en", id=f"{name}-nojs") for name in NO_JS
               if name not in NO_JS_SAME]
LANG_CASES = [pytest.param(BY_NAME[name], True, lang, id=f"{name}-{lang}") for name, lang in in_languages()]
# Every page is held to 360 px with its text drawn larger in one of these (``check``): the
# scripted ones in CASES, the others in NO_JS_CASES.
assert {page.name for page in PAGES if not page.scripted} <= set(NO_JS) - set(NO_JS_SAME)
assert set(NO_JS_SAME) <= set(NO_JS) and all(BY_NAME[name].scripted for name in NO_JS_SAME)
# Each page in another language is checked in English too, with every rule (``LANGUAGE_BLIND``).
assert set(LANGS) <= {page.name for page in PAGES if page.scripted}


def report(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = "; ".join(" ".join(node["target"]) for node in v["nodes"][:3])
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])}x: {targets}]")
    return "\n".join(lines)


class Phone:
    """One page of a phone at 360 px, kept for the module and taken from page to page.

    Without JavaScript, the page's own scripts are switched off through the DevTools protocol
    while it loads and is used, and back on only for axe. Not a ``java_script_enabled=False``
    context: axe.run() never settles there (it waits on timers, which do not fire), and the test
    would hang. The page's scripts, skipped while it loaded, do not run afterwards: axe sees the
    page as a phone without JavaScript has it (no ``js`` class on <html>, every ``.js-only`` part
    hidden, each tile its own labelled select)."""

    def __init__(self, browser, server, js: bool):
        self.context = browser.new_context(**PHONE, base_url=server)
        # axe-core in every document before its scripts (the module's docstring): evaluating its
        # source at each check was 0.3 s of it (measured side by side), given to the context once.
        self.context.add_init_script(script=axe_source())
        self.page = self.context.new_page()
        # Without JavaScript: the page's scripts switched off (table_helpers.page_scripts), on
        # again for axe's check.
        self.scripts = (lambda on: None) if js else page_scripts(self.page)
        self.lang = None                # the language its cookie says (``check``)
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        # Nothing leaves for another address (axe-core included): the phones have no internet.
        self.page.on("request", lambda request: self.errors.append(f"fetched {request.url}")
                     if not request.url.startswith((server + "/", "data:", "blob:")) else None)
        # A refused save answers 400, a hand taken meanwhile 409 and the 404 page 404, on
        # purpose; any other console error (a script error, something the
        # Content-Security-Policy blocked) fails.
        self.page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error"
                     and not any(f"status of {code}" in msg.text for code in (400, 404, 409))
                     else None)

    def violations(self, lang: str = "en") -> list[dict]:
        """axe-core's violations on the page as it is, in ``lang`` (``options``); the moderate,
        serious and critical ones."""
        self.scripts(True)
        try:
            shown = self.page.evaluate("(never) => [...document.querySelectorAll(never)].map(e => e.outerHTML.slice(0, 80))",
                                       NEVER)
            assert shown == [], f"{self.page.url}: put their rules back in axe's checks (NEVER_SHOWN): {shown}"
            return axe_violations(self.page, options(lang))
        finally:
            self.scripts(False)


@pytest.fixture(scope="module")
def phones(browser, server):
    """A phone with JavaScript and one without."""
    both = {js: Phone(browser, server, js) for js in (True, False)}
    both[False].scripts(False)
    yield both
    for phone in both.values():
        phone.context.close()


# -- Text drawn larger ---------------------------------------------------------------------------
# Two ways a phone draws text larger, each at 130% and at 200%:
# - Chrome on Android's text scaling (the system's font size) multiplies every font's size and
#   leaves the boxes as they are, sized in rem or px: what text-size-adjust does in Chromium with
#   a phone's viewport, set here on the page's root;
# - a larger default font size (other browsers' text size settings) grows the root's font size,
#   and with it whatever the page sizes in rem: text, margins and paddings alike.
TEXT_SIZES = (130, 200)
SCALINGS = {"text scaling": "webkitTextSizeAdjust = `${size}%`",
            "root font size": "fontSize = `${root * size / 100}px`"}
# Each way and size drawn in turn, in one call (each its own round trip was 16 a page): what
# spills, by the way and size it was drawn at; the root's style attribute taken off after each.
DRAWN_LARGER = """([sizes]) => {
  const spilling = %s;
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const style = document.documentElement.style;
  const found = {};
  for (const [way, size] of sizes) {
    %s
    const width = document.scrollingElement.scrollWidth;
    const spilled = spilling();
    if (width > 360 || spilled.length) found[`${way} ${size}%%`] = [`page ${width} px wide`, ...spilled];
    document.documentElement.removeAttribute('style');
  }
  return found;
}""" % (SPILLING, "\n    ".join(f"if (way === {way!r}) style.{style};" for way, style in SCALINGS.items()))


def drawn_larger(page) -> dict[str, list[str]]:
    """Issue 22: with the phone's text at 130% and at 200%, the page as it is stays within a
    360 px screen and nothing in it is cut off or spills over its box (a word may break, then
    only): what spills, by the way and size it was drawn at; the page left as it was."""
    return page.evaluate(DRAWN_LARGER, [[[way, size] for way in SCALINGS for size in TEXT_SIZES]])


def check(spec: Page, js: bool, lang: str, phones: dict, made: dict) -> None:
    """The page opened in ``lang`` by the phone with JavaScript or without, made ready
    (``spec.then``), and checked by axe: no blocking violation, no script error. In English, by
    the phone the page is for (with JavaScript unless ``spec.scripted`` says otherwise), the same
    load is then held to 360 px with its text drawn larger (``drawn_larger``): each page once,
    where a test of its own loaded and made ready every page a second time."""
    phone = phones[js]
    page = phone.page
    phone.errors.clear()
    if spec.before:
        spec.before(page, made)
    path = spec.path.format(**made)
    # The lang cookie, set through the language switch when the phone's is another's (a
    # redirect more at every check, where most follow one in the same language).
    answer = page.goto(path if phone.lang == lang else f"/lang/{lang}?next={urllib.request.quote(path)}")
    phone.lang = lang
    assert answer.status == spec.status, (path, answer.status)
    if spec.then:
        spec.then(page, made)
    root = "[document.documentElement.lang, document.documentElement.classList.contains('js')]"
    assert page.evaluate(root) == [lang, js]
    violations = phone.violations(lang)
    larger = drawn_larger(page) if lang == "en" and js == spec.scripted else {}
    if lang != "en":        # what color-contrast, English only (``LANGUAGE_BLIND``), leaves
        larger = {"as drawn": spilled} if (spilled := page.evaluate(SPILLING)) else {}
    where = f"{spec.name} ({'JavaScript' if js else 'no JavaScript'}, {lang})"
    assert not violations, f"{where}:\n" + report(violations)
    assert phone.errors == [], phone.errors
    assert larger == {}, f"{where}, what spills (its text drawn larger in English): {larger}"


@pytest.mark.parametrize("spec, js, lang", CASES)
def test_no_serious_or_critical_violation(spec, js, lang, phones, made):
    check(spec, js, lang, phones, made)


def test_the_home_page_of_a_new_install(browser, empty_server):
    phone = Phone(browser, empty_server, True)
    try:
        phone.page.goto("/")
        violations = phone.violations()
        assert not violations, "home, no match yet:\n" + report(violations)
        assert phone.errors == [], phone.errors
    finally:
        phone.context.close()


# -- The Save bar covers nothing brought into view (issue 35) ----------------------------------

COVERED = """() => {
  const bar = document.querySelector('.save-bar').getBoundingClientRect();
  const covered = [];
  for (const target of document.querySelectorAll(
      'form.hand-form :is(button, a, input, select, summary, [role=button], label.seg), footer a')) {
    if (target.closest('.save-bar') || !target.checkVisibility()) continue;
    target.focus();
    const box = target.getBoundingClientRect();
    if (box.bottom > bar.top + 0.5 && box.top < bar.bottom) covered.push(target.outerHTML.slice(0, 80));
  }
  return covered;
}"""


@pytest.mark.parametrize("size", [(360, 740), (390, 844)], ids=["360", "390"])
@pytest.mark.parametrize("mode", ["piles", "tallies"])
def test_the_save_bar_covers_no_target_the_form_brings_into_view(phones, made, mode, size):
    """Lighthouse found the hand form's suit buttons half under the sticky Save bar: each target
    of the form and the page's footer, focused in turn (the browser scrolls it into view, as the
    keyboard and a field being filled in do), lies wholly above the bar; so does the page's last
    line scrolled to the end. (The kept phone with JavaScript, its screen made each size: a
    phone started for each was four.)"""
    page = phones[True].page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        page.goto(f"/matches/{made['playing']}/hands/new?mode={mode}")
        assert page.locator(".save-bar").is_visible()
        assert page.evaluate(COVERED) == []
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        last = page.locator("footer.languages").bounding_box()
        assert last["y"] + last["height"] <= page.locator(".save-bar .button").bounding_box()["y"]
    finally:
        page.set_viewport_size(PHONE["viewport"])
