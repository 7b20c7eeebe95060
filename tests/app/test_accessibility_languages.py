"""axe-core on the pages with the most words of their own in Italian, French and Spanish (each
template's pages in turn: test_accessibility.in_languages), and on the organiser's pages as a
phone on the network sees them, in English and each template in the other three: no violation
"moderate", "serious" or "critical" (tests/app/test_accessibility.py, whose pages, phones and
check these are; cut from it so that pytest-xdist's workers share its time). In Italian, French
and Spanish axe runs the rules that can give another verdict in another language, the others
(color-contrast among them) left to the same page's check in English, and nothing on the page
spills out of its box (test_accessibility.LANGUAGE_BLIND says which and why)."""

import tempfile
import urllib.request

import pytest
from test_accessibility import (  # noqa: F401  (made, phones: the fixtures)
    LANG_CASES,
    LANG_TEMPLATES,
    OTHER_LANGUAGES,
    Phone,
    check,
    in_languages,
    made,
    phones,
    report,
)

from companion import create_app
from helpers import FUZZ, SPILLING, organiser, serving
from markup import attr

pytestmark = pytest.mark.browser


def test_every_template_is_checked_in_every_language():
    """The turns of test_accessibility.in_languages: each template's pages in Italian, French
    and Spanish between them, each page in at least one, each language with a third of them."""
    cases = in_languages()
    for template, pages in LANG_TEMPLATES.items():
        assert {lang for name, lang in cases if name in pages} == set(OTHER_LANGUAGES), template
        assert all(any(name == page for name, _ in cases) for page in pages), template
    for lang in OTHER_LANGUAGES:
        assert sum(1 for _, other in cases if other == lang) >= len(cases) // len(OTHER_LANGUAGES), lang


@pytest.mark.parametrize("spec, js, lang", LANG_CASES)
def test_no_serious_or_critical_violation_in_another_language(spec, js, lang, phones, made):   # noqa: F811
    check(spec, js, lang, phones, made)


# -- The organiser's pages, as a phone sees them (issue 26) ------------------------------------

CODE = "K7P-2QX"


@pytest.fixture(scope="module")
def club_server():
    """A companion with an organiser's code whose every request comes from a phone on the
    network, without the organiser's code the suite's browser sends: a player with a rename and
    a merge in their log, and two deleted matches."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "axe", "DATABASE": f"{folder}/club.sqlite", "ORGANISER_CODE": CODE})
        machine = organiser(app)
        for players in (["Annna", "Bruno"], ["Anna", "Carla"]):
            machine.post("/api/v1/matches", json={"players": players, "first_dealer": 0})
        ids = {p["name"]: p["id"] for p in machine.get("/api/v1/players").get_json()["players"]}
        page = machine.get(f"/players/{ids['Anna']}").get_data(as_text=True)
        token = attr(page, 'input[name="csrf_token"]', "value")
        machine.post(f"/players/{ids['Anna']}/rename", data={"name": "Anna Rossi", "csrf_token": token})
        machine.post(f"/players/{ids['Annna']}/merge?into={ids['Anna']}", data={"csrf_token": token})
        for players in (["Dario", "Elsa"], ["Fabio", "Gina"]):     # the Deleted list, its boxes
            made = machine.post("/api/v1/matches", json={"players": players, "first_dealer": 0}).get_json()
            gone = machine.post(f"/matches/{made['id']}/delete",
                                data={"version": made["version"], "csrf_token": token})
            assert gone.status_code == 303
        inner = app.wsgi_app

        def from_a_phone(environ, start_response):
            environ["REMOTE_ADDR"] = "192.168.1.23"
            environ.pop("HTTP_X_SCOPA_ORGANISER", None)        # a phone's: not the organiser's
            return inner(environ, start_response)

        app.wsgi_app = from_a_phone
        with serving(app, threads=2) as base:
            yield base, ids["Anna"]


# Each page: its name, path, status, whether the organiser has logged in, and its template.
ORGANISER_PAGES = [
    ("organiser-logged-out", "/organiser", 200, False, "organiser"),
    # The link's page (200: a GET checks nothing), which sends its code at once: then refused.
    ("organiser-wrong-code", "/organiser?code=AAA-AAA", 200, False, "organiser"),
    ("organiser-only", "/tournaments/new", 403, False, "organiser only"),
    ("player-watching", "/players/{anna}", 200, False, "player"),
    ("organiser-logged-in", "/organiser", 200, True, "organiser"),
    ("home-organiser", "/", 200, True, "home"),         # a box beside each match, and its delete
    ("player-organiser", "/players/{anna}", 200, True, "player"),
]


def organiser_pages(lang: str) -> list[tuple]:
    """The organiser's pages checked in ``lang``: every one in English; in Italian, French and
    Spanish each template's pages in turn, every template in every language (the organiser's
    page's three states one a language, the player's two in turn); all of them in every
    language with SCOPA_FUZZ set. (7 pages a language was 28 loads and axe runs: 19 now.)"""
    if lang == "en" or FUZZ:
        return ORGANISER_PAGES
    at = OTHER_LANGUAGES.index(lang)
    templates = {page[4]: [other for other in ORGANISER_PAGES if other[4] == page[4]] for page in ORGANISER_PAGES}
    return [page for page in ORGANISER_PAGES if page == templates[page[4]][at % len(templates[page[4]])]]


def test_every_organisers_page_is_checked_in_another_language():
    """organiser_pages' turns: each of the organiser's pages in Italian, French or Spanish,
    each template in all three."""
    for page in ORGANISER_PAGES:
        assert any(page in organiser_pages(lang) for lang in OTHER_LANGUAGES), page[0]
    for lang in OTHER_LANGUAGES:
        assert {page[4] for page in organiser_pages(lang)} == {page[4] for page in ORGANISER_PAGES}, lang


@pytest.mark.parametrize("lang", ["en", "it", "fr", "es"])
def test_the_organisers_pages_have_no_violation(browser, club_server, lang):
    """One phone goes through the pages in turn: the logged-out ones first, then it logs in
    (each page in a context of its own was 7 contexts a language for the same pages)."""
    base, anna = club_server
    pages = organiser_pages(lang)
    assert [page[3] for page in pages] == sorted(page[3] for page in pages)
    phone, organiser = Phone(browser, base, True), False
    try:
        for name, path, status, logged_in, _ in pages:
            if logged_in and not organiser:
                assert phone.page.goto(f"/organiser?code={CODE}").status == 200
                phone.page.wait_for_selector('[data-testid="is-organiser"]')     # its form sent itself
                organiser = True
            path = path.format(anna=anna)
            answer = phone.page.goto(f"/lang/{lang}?next={urllib.request.quote(path)}")
            assert answer.status == status, (name, answer.status)
            # A link's page sends itself (link_opened.html): the page it leads to is checked.
            phone.page.wait_for_selector('[data-testid="link-opened"]', state="detached")
            assert phone.page.get_attribute("html", "lang") == lang
            shown = phone.page.locator("main").inner_text()
            undo = {"en": "Undo", "it": "Annulla", "fr": "Annuler", "es": "Deshacer"}[lang]
            assert (undo in shown) == (name == "player-organiser")
            violations = phone.violations(lang)
            assert not violations, f"{name} ({lang}):\n" + report(violations)
            if lang != "en":    # what color-contrast, English only, leaves (test_accessibility.LANGUAGE_BLIND)
                assert phone.page.evaluate(SPILLING) == [], (name, lang)
            phone.errors = [e for e in phone.errors if "status of 403" not in e]
            assert phone.errors == [], (name, phone.errors)
    finally:
        phone.context.close()
