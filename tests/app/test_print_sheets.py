"""The tournament's sheets for the wall printed (issue 40: "nothing to pin on the wall"): the
pairings and the standings of a night of 60 (and 64) entrants, named as clubs write them, each on
one A4 page in portrait, every name whole, nothing wider than the paper. Printed by Chromium to
PDF (``page.pdf``, the pages counted), and drawn with the print media at the paper's width
(210 mm less the margins: 718 px) for what is on it."""

import re
import shutil

import pytest

from companion import create_app
from helpers import BROKEN_WORDS, ORGANISER_CODE, SPILLING, club_names, organiser, random_hand, serving

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

PAPER = {"width": 718, "height": 1047}         # A4 less @page's margins (10 mm), in CSS px


def sheets(pdf: bytes) -> int:
    """How many pages a PDF printed by Chromium has (each page object is written out whole)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.fixture(scope="module")
def filled(tmp_path_factory, migrated_store):
    """A store with Swiss nights of 60 and 64 entrants, every one a first name and a surname:
    three rounds played (each table's match one random hand, the rules' "a number of hands": 1,
    so that tie-breaks are left to say on many rows), the fourth started. Filled through the JSON
    API by a test client before the store is served: over HTTP through the browser it was 750
    requests, the module's costliest part; played to 11, about 700 hands, half the module's time
    still. The sheets are as full: every row a name, its tie-break's words where one decided,
    scores of two figures (a scored-conceded as wide as to 11). Its file, and each night's
    tournament."""
    import random
    rng = random.Random(40)
    database = tmp_path_factory.mktemp("db") / "nights.sqlite"
    shutil.copy(migrated_store, database)
    client = organiser(create_app({"SECRET_KEY": "browser", "DATABASE": str(database)}))
    made = {}
    for count in (60, 64):
        tournament = client.post("/api/v1/tournaments", json={
            "name": "Torneo sociale di primavera del Circolo Arci", "format": "swiss", "rounds": 5,
            "entrants": club_names(count, long=True), "options": {"hands": 1}}).get_json()["id"]
        for _ in range(3):
            started = client.post(f"/api/v1/tournaments/{tournament}/rounds", json={}).get_json()
            for table in started["rounds"][-1]["tables"]:
                while True:
                    saved = client.post(f"/api/v1/matches/{table['match']}/hands", json=random_hand(2, rng))
                    assert saved.status_code == 201, saved.get_data(as_text=True)
                    if saved.get_json()["match"]["outcome"]["over"]:
                        break
        client.post(f"/api/v1/tournaments/{tournament}/rounds", json={})
        made[count] = tournament
    return database, made


@pytest.fixture(scope="module")
def server(filled):
    """The companion the browser prints from, on waitress as a real server is, on that store."""
    app = create_app({"SECRET_KEY": "browser", "DATABASE": str(filled[0]), "ORGANISER_CODE": ORGANISER_CODE})
    with serving(app, threads=4) as base:
        yield base


@pytest.fixture(scope="module")
def nights(filled) -> dict[int, int]:
    return filled[1]


@pytest.fixture(scope="module")
def paper(browser, server):
    """A browser the size of the paper, kept for the module (a new context for each sheet
    started a renderer and fetched the page's styles and fonts again); each test opens its own
    page (its media its own) and leaves no cookie (the language it chose)."""
    context = browser.new_context(viewport=PAPER, base_url=server)
    yield context
    context.close()


@pytest.mark.parametrize("count", [60, 64])
@pytest.mark.parametrize("sheet", ["standings", "pairings"])
def test_a_nights_sheet_prints_on_one_a4_page_every_name_whole(paper, nights, sheet, count):
    page = paper.new_page()
    try:
        for lang in ("it", "fr"):
            page.goto(f"/lang/{lang}?next=/tournaments/{nights[count]}/{sheet}")
            assert sheets(page.pdf(format="A4", prefer_css_page_size=True)) == 1, lang
            page.emulate_media(media="print")
            assert page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]") \
                == [PAPER["width"], PAPER["height"]], lang
            shown = " ".join(page.locator("main").inner_text().split())
            assert [name for name in club_names(count, long=True) if name not in shown] == [], lang
            assert "…" not in shown
            assert page.evaluate(BROKEN_WORDS) == [], lang
            assert page.evaluate(SPILLING) == [], lang
            sizes = page.evaluate("""() => [...document.querySelectorAll(
                "[data-testid=standings] tbody th, [data-testid=pairings] tbody th")].map(e => parseFloat(getComputedStyle(e).fontSize))""")
            assert min(sizes) >= 8 / 0.75, lang         # 8 pt: small, read at arm's length
            page.emulate_media(media="null")          # page.pdf prints with the print media again
    finally:
        page.close()
        paper.clear_cookies()


def test_a_small_nights_standings_print_in_large_type(paper):
    """Sixteen entrants: 11 pt, as a letter is printed."""
    page = paper.new_page()
    try:
        made = page.request.post("/api/v1/tournaments", data={
            "name": "Giovedì", "format": "round-robin", "entrants": club_names(16)}).json()
        page.goto(f"/tournaments/{made['id']}/standings")
        assert sheets(page.pdf(format="A4", prefer_css_page_size=True)) == 1
        page.emulate_media(media="print")
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-testid=standings] tbody th')).fontSize)")
        assert size == pytest.approx(11 / 0.75, abs=0.1)
    finally:
        page.close()
        paper.clear_cookies()
