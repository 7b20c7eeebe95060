"""The pictures of README.md and docs/ (docs/screenshots/*.png), taken by Chromium from a real
companion filled with a club evening: never drawn or cropped by hand.

Run: .venv/bin/python tests/tools/make_screenshots.py [FOLDER]   (default: docs/screenshots)
 or: .venv/bin/python tests/tools/make_screenshots.py --check    (are docs/screenshots/ current?)

It fills a throwaway store through the JSON API (players Anna, Bruno, Carla, Dario..., a match of
two with hands entered by cards, a match of two teams, a tournament night with a round on the
board), serves it with waitress on a free port (helpers.serving, as the browser tests do), and
takes each picture with Playwright and Debian's Chromium (/usr/bin/chromium, never a downloaded
browser): phones at 390 px and a device scale of 2, in English, light but for one in dark, and
the board at 1280x720; then the Wi-Fi dropping (static/sending.js) on two phones in Italian, cut
off with Playwright's set_offline, their clock fixed at 21:03 (page.clock) so that the time they
show, and so each picture, is the same at every run. It writes beside them drawn-from.json, the
requests answered while they were taken with their answers' digests (Recorder): the suite asks
them again of a test client and compares (drawn_from_today). tests/app/test_docs.py, with
SCOPA_FUZZ set, also runs it into a temporary folder and checks that it makes every picture the
docs name, and that none differs from the one kept in docs/screenshots/ (stale(), as --check does).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import io
import json
import random
import re
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--font-render-hinting=none"]
PICTURE_LIMIT = 150 * 1024

# How far a picture taken today may stray from the one kept before it is out of date (differs()).
# Both are blurred first, each pixel averaged over the 5x5 pixels around it, so that a glyph drawn
# with other antialiasing (another Chromium, other font hinting: up to 48 levels here) passes,
# while a word or a line of text that changed does not (a letter of small print: 95 pixels).
BLUR = 2
TOLERANCE = 64          # of 255, the largest difference of the three colours
STRAY_PIXELS = 16

# Every picture it makes, and what it shows (the docs' words for it).
PICTURES = {
    "match-and-hand.png": "the match page on one phone, a hand being entered by cards on another",
    "new-match.png": "a new match: the names typed, the rules folded under one line",
    "hand-by-cards.png": "a hand by cards: the cards of the smaller pile tapped, each pile counted",
    "breakdown.png": "a hand's breakdown: every point with the figures behind it, the primiera card by card",
    "live-dark.png": "the score of a team match on a second phone, which follows every hand saved (dark theme)",
    "referee.png": "the referee: every capture a card may make on the table, and why",
    "board.png": "the board for the wall: a tournament round's live scores and the standings",
    "board-60-720p.png": "a Swiss night of 60 entrants on a 1280x720 screen: round 1's 30 tables "
                         "and the standings in pages that turn by themselves, page 1 of each shown",
    "board-60-1080p.png": "the same night on a 1920x1080 screen",
    "unsent-hand-it.png": "a hand saved with the Wi-Fi down (in Italian): the counts still on screen, "
                          "'Non inviato' above Save, the hand waiting in the phone's outbox with Scarta",
    "offline-banner-it.png": "a watching phone whose polls fail (in Italian): 'Offline dalle 21:03' "
                             "above the score",
    "escoba-hand-es.png": "an Escoba hand by cards in Spanish: the Spanish pack, the sota's printed 10 "
                          "worth 8, each pile's cartas and oros",
    "escoba-breakdown-es.png": "an Escoba hand's breakdown in Spanish: cartas, oros, velo, setenta, escobas",
}

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "locale": "en-GB", "color_scheme": "light"}
BOARD = {"viewport": {"width": 1280, "height": 720}, "device_scale_factor": 1, "locale": "en-GB",
         "color_scheme": "light"}

# The Italian pictures' phone: the page in Italian, its clock stopped at 21:03 of a Thursday in
# Rome (Date.now fixed, timers running), so the time the outbox and the banner show is the same
# at every run.
ITALIAN = {**PHONE, "locale": "it-IT", "timezone_id": "Europe/Rome"}
NINE_PM = datetime(2026, 11, 26, 21, 3, tzinfo=ZoneInfo("Europe/Rome"))

SUITS = "dcsb"
DECK = [f"{value}{suit}" for suit in SUITS for value in range(1, 11)]


# Lucía's pile of an Escoba hand: 22 cards, 6 oros, the velo (7 of oros) and three sevens
ESCOBA_PILE = ["1d", "2d", "3d", "4d", "7d", "8d", "7c", "7s", "1c", "2c", "3c", "4c", "5c", "6c", "1s",
               "2s", "3s", "4s", "5s", "6s", "1b", "2b"]

# A championship's 60 entrants (issue 40: the board of a club's full night), long names among them
CHAMPIONSHIP = [f"{first} {last}" for first, last in zip(
    ["Giulia", "Marco", "Nadia", "Paolo", "Rosa", "Sergio", "Teresa", "Ugo", "Valeria", "Walter",
     "Anna-Maria", "Bartolomeo", "Caterina", "Domenico", "Eleonora", "Federico", "Gabriella",
     "Ignazio", "Lucia", "Massimiliano"] * 3,
    ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno",
     "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti",
     "Barbieri", "Fontana", "Santoro", "Mariani", "Rinaldi", "Caruso", "Ferrara", "Galli",
     "Martini", "Leone", "Longo", "Gentile", "Martinelli", "Vitale", "Lombardo", "Serra",
     "Coppola", "De Santis", "D'Angelo", "Marchetti", "Parisi", "Villa", "Conte", "Ferraro",
     "Ferri", "Fabbri", "Bianco", "Marini", "Grasso", "Valentini", "Messina", "Sala", "De Angelis",
     "Gatti", "Pellegrini", "Palumbo", "Sanna", "Farina", "Rizzi", "Monti", "Cattaneo", "Castellano"])]

CODE = "SHO-TS2"        # the organiser's code of the evening's companion


def call(base, path: str, body: dict | None = None) -> dict:
    """A JSON API call as the organiser (its code in X-Scopa-Organiser): POST ``body``, else GET.
    ``base`` is the served companion's address, or a Flask test client (drawn_from_today)."""
    if not isinstance(base, str):
        answer = base.open(f"/api/v1{path}", method="POST" if body is not None else "GET", json=body,
                           headers={"X-Scopa-Organiser": CODE})
        if answer.status_code >= 400:
            raise RuntimeError(f"{path}: {answer.status_code} {answer.get_data(as_text=True)}")
        return answer.get_json()
    request = urllib.request.Request(f"{base}/api/v1{path}", method="POST" if body is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json", "X-Scopa-Organiser": CODE})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{path}: {error.code} {error.read().decode()}") from None


def dealt(rng: random.Random, sides: int) -> dict:
    """A hand as it comes out of play: the deck among the sides' piles, one side usually ahead,
    a sweep here and there."""
    cards = DECK[:]
    rng.shuffle(cards)
    if sides == 2:
        cuts = [rng.randint(14, 26)]
    else:
        cuts = sorted(rng.sample(range(6, 34), sides - 1))
    piles = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, 40])]
    return {"piles": piles, "sweeps": [rng.choice((0, 0, 0, 1)) for _ in piles]}


def play_until(base, match: int, rng: random.Random, sides: int, over: bool, hands: int = 30,
               below: int = 99) -> None:
    """Hands recorded by cards: until the match is over (``over``), else ``hands`` of them while
    every total stays below ``below`` (a hand that would pass it is dealt again; fewer when none
    would do)."""
    for _ in range(hands):
        state = call(base, f"/matches/{match}")
        if state["outcome"]["over"]:
            return
        rules = dict(state["rules"])
        for _ in range(500):
            hand = dealt(rng, sides)
            if over:
                break
            scored = call(base, "/score", {"variant": rules["preset"],
                                           "options": {k: v for k, v in rules.items() if k != "preset"}, **hand})
            if all(side["total"] + now < below for side, now in zip(scored["sides"], state["totals"])):
                break
        else:
            return                      # every deal would pass it: the match stays as it is
        call(base, f"/matches/{match}/hands", hand)


def evening(base) -> dict:
    """A club's Thursday: what the pictures show. Returns the ids they need."""
    rng = random.Random(2026)
    pair = call(base, "/matches", {"variant": "classica", "players": ["Anna", "Bruno"], "first_dealer": 0})
    play_until(base, pair["id"], rng, 2, over=False, hands=3, below=11)
    teams = call(base, "/matches", {"variant": "scopone", "first_dealer": 1, "teams": [
        {"players": ["Carla", "Dario"]}, {"players": ["Elena", "Franco"]}]})
    play_until(base, teams["id"], rng, 2, over=False, hands=2, below=11)
    tournament = call(base, "/tournaments", {
        "name": "Circolo Arci · Thursday", "format": "round-robin", "variant": "classica",
        "entrants": ["Giulia", "Marco", "Nadia", "Paolo", "Rosa", "Sergio"]})
    call(base, f"/tournaments/{tournament['id']}/rounds", {})
    for table in call(base, f"/tournaments/{tournament['id']}")["rounds"][0]["tables"]:
        play_until(base, table["match"], rng, 2, over=True)
    call(base, f"/tournaments/{tournament['id']}/rounds", {})
    for number, table in enumerate(call(base, f"/tournaments/{tournament['id']}")["rounds"][1]["tables"]):
        play_until(base, table["match"], rng, 2, over=False, hands=number + 1, below=11)
    night = call(base, "/tournaments", {
        "name": "Campionato sociale · Swiss", "format": "swiss", "rounds": 5, "variant": "classica",
        "entrants": CHAMPIONSHIP})
    call(base, f"/tournaments/{night['id']}/rounds", {})
    for number, table in enumerate(call(base, f"/tournaments/{night['id']}")["rounds"][0]["tables"][:12]):
        play_until(base, table["match"], rng, 2, over=number < 4, hands=30 if number < 4 else number % 3 + 1,
                   below=11)
    escoba = call(base, "/matches", {"variant": "escoba", "players": ["Lucía", "Martín"], "first_dealer": 0})
    call(base, f"/matches/{escoba['id']}/hands", {"piles": [ESCOBA_PILE, [c for c in DECK if c not in ESCOBA_PILE]],
                                                  "sweeps": [2, 0]})
    return {"pair": pair["id"], "teams": teams["id"], "tournament": tournament["id"], "night": night["id"],
            "escoba": escoba["id"]}


def shoot(page, path: Path, **options) -> None:
    page.screenshot(path=str(path), animations="disabled", caret="hide", **options)
    if RECORDER is not None:
        RECORDER.taken(path.name)


def settled(page) -> None:
    """What htmx swapped in has settled: for 20 ms after a swap it keeps the class and style the
    elements had before (htmx's settling, for CSS transitions), which a picture taken at once
    would show."""
    from playwright.sync_api import expect
    expect(page.locator(".htmx-settling, .htmx-swapping")).to_have_count(0)


def to_top(page, selector: str) -> None:
    """Scroll so that ``selector`` starts at the top of the screen."""
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")


def side_by_side(browser, left: Path, right: Path, path: Path) -> None:
    """Two phone pictures side by side on a plain ground, drawn by the browser itself."""
    def data(picture: Path) -> str:
        return "data:image/png;base64," + base64.b64encode(picture.read_bytes()).decode()
    page = browser.new_page(viewport={"width": 820, "height": 884}, device_scale_factor=2)
    page.set_content(
        "<style>html,body{margin:0;background:#fff}div{display:flex;gap:20px;padding:20px}"
        "img{width:390px;height:844px;border-radius:18px;box-shadow:0 0 0 1px #ccc}</style>"
        f'<div><img src="{data(left)}"><img src="{data(right)}"></div>')
    shoot(page, path)
    page.close()


def optimise(path: Path, smallest: bool = True) -> None:
    """A palette of 256 colours, which a page's flat colours and smoothed text need no more
    than, and zlib's best: about a third of Chromium's own PNG. Not ``smallest`` (a picture
    only compared, never kept: --check and the suite), zlib's quickest: the same pixels, its
    bytes larger, a fifth of the time (zlib's best took half of the suite's run of the script)."""
    from PIL import Image
    with Image.open(path) as taken:
        small = taken.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(path, optimize=True) if smallest else small.save(path, compress_level=1)


def take(browser, base: str, ids: dict, folder: Path, kept: bool = True) -> None:
    from playwright.sync_api import expect
    pair, teams, tournament = ids["pair"], ids["teams"], ids["tournament"]
    phone = browser.new_context(base_url=base, **PHONE)
    page = phone.new_page()
    page.set_default_timeout(10_000)

    # The match page, and a hand entered by cards: the cards of the smaller pile tapped.
    page.goto(f"/matches/{pair}")
    page.wait_for_selector(".scoreboard")
    scratch = folder / "match.tmp.png"
    shoot(page, scratch)
    page.goto(f"/matches/{pair}/hands/new")
    for card in ("1d", "3d", "7d", "10d", "7c", "6c", "2s", "7s", "9s", "4b", "5b", "8b"):
        page.locator(f'.tile[data-card="{card}"]').tap()
    page.locator('.stepper:nth-of-type(1) [data-step="1"]').tap()
    expect(page.locator('.pile-count[data-pile="0"]')).to_have_text("12 cards, 4 coins")
    expect(page.locator("#preview")).to_contain_text("Scope 1 to 0")      # the last tap's preview
    settled(page)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, folder / "hand-by-cards.png")
    side_by_side(browser, scratch, folder / "hand-by-cards.png", folder / "match-and-hand.png")
    scratch.unlink()

    # The same hand's breakdown, shown as it is entered.
    to_top(page, "#preview")
    shoot(page, folder / "breakdown.png")

    page.goto("/matches/new")
    page.fill("#player1", "Anna")
    page.fill("#player2", "Bruno")
    page.locator("#player2").blur()
    # Each player's chance to win comes once both names are typed (htmx): not yet there, the
    # picture lacked it (issue 35).
    expect(page.locator('#chances [data-testid="chances"] li')).to_have_count(2)
    settled(page)
    to_top(page, "label[for=player1]")
    shoot(page, folder / "new-match.png")

    page.goto("/referee/captures?table=1c&table=3c&table=4s&table=5b&table=7d&played=8d")
    page.locator("#ruling").evaluate("e => e.scrollIntoView({block: 'end'})")
    shoot(page, folder / "referee.png")
    phone.close()

    # A second phone, in the dark, follows the team match: a hand saved elsewhere shows up.
    second = browser.new_context(base_url=base, **{**PHONE, "color_scheme": "dark"})
    page = second.new_page()
    page.set_default_timeout(10_000)
    page.clock.install()                # its poll (every 2 s) made at once, not waited for
    page.goto(f"/matches/{teams}")
    page.wait_for_selector(".scoreboard")
    before = page.locator(".scoreboard").inner_text()
    play_until(base, teams, random.Random(7), 2, over=False, hands=1, below=11)
    page.clock.run_for(2000)
    page.wait_for_function("before => document.querySelector('.scoreboard').innerText !== before", arg=before,
                           polling=50)
    settled(page)
    shoot(page, folder / "live-dark.png")
    second.close()

    wall = browser.new_context(base_url=base, **BOARD)
    page = wall.new_page()
    page.goto(f"/tournaments/{tournament}/board")
    shoot(page, folder / "board.png")
    wall.close()
    # The championship's board without JavaScript: the page the server draws first (page 1 of
    # each panel), which board.js would turn every few seconds, so the picture is the same at
    # every run.
    for name, size in (("board-60-720p.png", (1280, 720)), ("board-60-1080p.png", (1920, 1080))):
        wall = browser.new_context(base_url=base, **{**BOARD, "viewport": dict(zip(("width", "height"), size))},
                                   java_script_enabled=False)
        page = wall.new_page()
        page.goto(f"/tournaments/{ids['night']}/board")
        shoot(page, folder / name)
        wall.close()

    offline(browser, base, ids, folder)
    escoba_in_spanish(browser, base, ids["escoba"], folder)
    for name in PICTURES:
        optimise(folder / name, smallest=kept)


def escoba_in_spanish(browser, base: str, match: int, folder: Path) -> None:
    """Escoba (issue 43) on a Spanish phone: the second hand's form by cards, Lucía's smaller
    pile tapped on the Spanish pack, and the first hand's breakdown on its own page."""
    from playwright.sync_api import expect

    phone = browser.new_context(base_url=base, **{**PHONE, "locale": "es-ES"})
    page = phone.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"/matches/{match}/hands/new?mode=piles")
    for card in ("1d", "7d", "10d", "7c", "7s", "3c", "9b", "8c"):
        page.locator(f'.tile[data-card="{card}"]').tap()
    expect(page.locator('.pile-count[data-pile="0"]')).to_contain_text("8 cartas")
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, folder / "escoba-hand-es.png")
    first = call(base, f"/matches/{match}")["hands"][0]
    page.goto(f"/matches/{match}/hands/{first['id']}")
    expect(page.locator(".breakdown")).to_contain_text("Setenta")
    shoot(page, folder / "escoba-breakdown-es.png")
    phone.close()


def offline(browser, base: str, ids: dict, folder: Path) -> None:
    """The Wi-Fi drops (static/sending.js), on Italian phones: a hand saved offline stays on
    screen and waits in the outbox; a watching phone's failed poll brings the banner."""
    from playwright.sync_api import expect
    pair = ids["pair"]
    phone = browser.new_context(base_url=base, **ITALIAN)
    page = phone.new_page()
    page.set_default_timeout(10_000)
    page.clock.set_fixed_time(NINE_PM)
    page.goto(f"/matches/{pair}/hands/new?mode=tallies")
    page.fill("#t_cards_0", "22")
    page.fill("#t_coins_0", "6")
    page.locator('label:has(input[name="settebello"][value="0"])').tap()
    page.locator('label:has(input[name="primiera"][value="0"])').tap()
    expect(page.locator('[data-testid="preview-totals"]')).to_be_visible()      # the hand whole
    # The picture is the moment the save fails, before any of the page's timers runs again: the
    # hand page polls its notice every 2 s, and a poll sent offline brings the banner "Offline
    # dalle 21:03" above the outbox (static/sending.js), which a busy machine, slower than 2 s
    # from here to the picture, showed in 4 runs of 8. The page's clock stopped (Playwright's
    # fake timers, already holding Date.now at 21:03), no poll is sent; the save is sent by the
    # tap itself and fails at once, offline.
    page.clock.pause_at(NINE_PM)
    phone.set_offline(True)
    page.locator('[data-testid="save"]').tap()
    expect(page.locator('[data-testid="unsent"]')).to_contain_text("Non inviato")
    expect(page.locator('[data-testid="outbox"]')).to_contain_text("Mano 4")
    # A tap on the outbox's title, which does nothing: headless Chromium keeps the tint of the
    # last tap on Save (its tap highlight), which a phone lets fade.
    page.locator("#outbox-title").tap()
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, folder / "unsent-hand-it.png")
    phone.close()

    watching = browser.new_context(base_url=base, **ITALIAN)
    page = watching.new_page()
    page.set_default_timeout(10_000)
    page.clock.install(time=NINE_PM)    # its clock at 21:03, moved by the script only
    page.goto(f"/matches/{pair}")
    page.wait_for_selector(".scoreboard")
    watching.set_offline(True)
    page.clock.run_for(2000)            # the next poll (every 2 s), made now, fails
    expect(page.locator('[data-testid="offline"]')).to_contain_text("Offline dalle 21:03")
    shoot(page, folder / "offline-banner-it.png")
    watching.close()


# -- What the pictures are drawn from -------------------------------------------------------

# docs/screenshots/drawn-from.json: every request the companion answered while the pictures were
# taken (the browser's pages, fragments, styles, scripts and fonts, the script's own API calls),
# in the order answered, each with a digest of its answer and the picture it was answered for. A
# picture is the same while the answers it was drawn from are: tests/app/test_docs.py asks the
# recorded requests again of a companion filled with the same evening (a test client: no server,
# no browser) and compares the digests, so a page changed and its picture not taken again fails
# the suite at a tenth of the cost of taking the pictures again. What the record cannot see (a
# new Chromium, other fonts) the pictures' own comparison does: --check, and the suite with
# SCOPA_FUZZ set.
RECORD = SCREENSHOTS / "drawn-from.json"
RECORDER: Recorder | None = None
# The pictures a picture is made of (match-and-hand.png: two phones side by side).
MADE_OF = {"match.tmp.png": "match-and-hand.png"}
# The pictures taken of the page another was taken of, with no request between (scrolled): they
# are drawn from that one's answers too.
SAME_PAGE = {"match-and-hand.png": "hand-by-cards.png", "breakdown.png": "hand-by-cards.png"}


def digest(answer: bytes, encoding: str | None, base: str) -> str:
    """An answer's digest, the same whichever run drew it: unzipped, the address of the run's
    server (a free port), the CSRF tokens (a random secret and a time, signed), a new hand's
    key (random: a save sent twice is saved once) and the moments
    (a match's "created", a change's time of day in its history, below every picture's fold)
    left out."""
    if encoding == "gzip":
        answer = gzip.decompress(answer)
    answer = answer.replace(base.encode(), b"BASE")
    answer = re.sub(rb'(name="(?:csrf_token|key)"[^>]*? value=)"[^"]*"', rb"\1", answer)
    answer = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?", b"MOMENT", answer)
    answer = re.sub(rb"\b\d\d:\d\d\b", b"HH:MM", answer)
    return hashlib.sha256(answer).hexdigest()[:16]


# The request headers the record leaves out: the browser's own, which the companion reads not.
UNREAD = ("Host", "Connection", "User-Agent", "Sec-", "Upgrade-Insecure-Requests")


class Recorder:
    """A WSGI middleware writing down each request answered (its method, path, query, headers and
    body) with its answer's digest, and the picture it was answered for: the next one taken."""

    def __init__(self, app) -> None:
        self.app, self.lock = app, threading.Lock()
        self.answered: list[dict] = []
        self.base = ""

    def __call__(self, environ, start_response):
        sent = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        environ["wsgi.input"] = io.BytesIO(sent)
        said = {}

        def start(line, headers, exc_info=None):
            said.update(status=int(line.split()[0]), encoding=dict(headers).get("Content-Encoding"))
            return start_response(line, headers, exc_info)
        answer = self.app(environ, start)
        try:
            body = b"".join(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        headers = {key[5:].replace("_", "-").title(): value for key, value in environ.items()
                   if key.startswith("HTTP_")}
        headers = {key: value for key, value in headers.items() if not key.startswith(UNREAD)}
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        with self.lock:
            self.answered.append({
                "picture": None, "method": environ["REQUEST_METHOD"], "path": environ["PATH_INFO"],
                "query": environ.get("QUERY_STRING", ""), "headers": headers, "body": sent.decode("latin-1"),
                "status": said["status"], "answer": digest(body, said["encoding"], self.base)})
        return [body]

    def taken(self, name: str) -> None:
        """The requests answered since the last picture were for ``name``."""
        with self.lock:
            for request in self.answered:
                if request["picture"] is None:
                    request["picture"] = MADE_OF.get(name, name)

    def record(self) -> str:
        """The record, as drawn-from.json keeps it: the script's digest, the server's address,
        then a request a line."""
        lines = [json.dumps({"script": script_digest(), "base": self.base})]
        lines += [json.dumps(request, ensure_ascii=False) for request in self.answered if request["picture"]]
        return "\n".join(lines) + "\n"


def script_digest() -> str:
    """This script's digest: the pictures are its taps and its evening too."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def app_for(database: Path):
    """The evening's companion, at ``database``."""
    from companion import create_app
    return create_app({"SECRET_KEY": "screenshots", "DATABASE": str(database), "ORGANISER_CODE": CODE,
                       # the address the board and the QR codes show, as on a club's Wi-Fi
                       "LAN_URLS": ["http://192.168.1.23:8000/"],
                       # the record's sessions are asked again at any later date (drawn_from_today)
                       "PERMANENT_SESSION_LIFETIME": timedelta(days=36525)})


def drawn_from_today(record: Path = RECORD) -> list[str]:
    """The pictures of PICTURES whose recorded answers (``record``: drawn-from.json) a companion
    filled with the same evening answers otherwise today; all of them when the script changed.
    No server and no browser: the evening made and each recorded request asked, in the order
    answered, by a test client (the browser's cookies as it sent them); the answers to the
    script's own API calls (a hand saved while a phone watches) are not compared, their JSON
    in no picture."""
    sys.path.insert(0, str(ROOT / "tests"))
    if not record.is_file():
        return list(PICTURES)
    head, *lines = record.read_text(encoding="utf-8").splitlines()
    head = json.loads(head)
    if head["script"] != script_digest():
        return list(PICTURES)
    stale = set()
    with tempfile.TemporaryDirectory() as store:
        client = app_for(Path(store) / "evening.sqlite").test_client(use_cookies=False)
        evening(client)
        for line in lines:
            request = json.loads(line)
            answer = client.open(request["path"], method=request["method"], query_string=request["query"],
                                 headers=request["headers"], data=request["body"].encode("latin-1"),
                                 base_url=head["base"])
            if request["path"].startswith("/api/"):        # the script's own calls: no picture shows them
                answer.close()
                continue
            if (answer.status_code != request["status"]
                    or digest(answer.get_data(), answer.headers.get("Content-Encoding"), head["base"]) != request["answer"]):
                stale.add(request["picture"])
            answer.close()
    return [name for name in PICTURES if name in stale or SAME_PAGE.get(name) in stale]


def main(folder: Path = SCREENSHOTS, kept: bool = True) -> list[Path]:
    """Every picture of PICTURES, made afresh in ``folder``; their paths. Not ``kept`` (made to
    be compared with those kept, as --check does), each is the palette picture with the same
    pixels, saved quickly rather than small."""
    sys.path.insert(0, str(ROOT / "tests"))         # helpers, as pytest's pythonpath has it
    from playwright.sync_api import sync_playwright

    from helpers import serving

    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as store:
        app = app_for(Path(store) / "evening.sqlite")
        recorder = Recorder(app.wsgi_app)
        app.wsgi_app = recorder
        with serving(app, threads=4) as base, sync_playwright() as p:
            ids = evening(base)
            global RECORDER
            recorder.base, recorder.answered, RECORDER = base, [], recorder
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                take(browser, base, ids, folder, kept)
            finally:
                browser.close()
                RECORDER = None
        (folder / RECORD.name).write_text(recorder.record(), encoding="utf-8")
    return [folder / name for name in PICTURES]


def differs(made: Path, kept: Path) -> bool:
    """Whether a reader would see ``made`` and ``kept`` as different pictures: another size, or
    more than STRAY_PIXELS pixels beyond TOLERANCE once both are blurred by BLUR (a missing line
    of text, a changed word or figure), not the few grey levels a glyph's edge takes from
    another Chromium or font build. Equal bytes, or equal pixels, are equal pictures."""
    if made.read_bytes() == kept.read_bytes():
        return False
    from PIL import Image, ImageChops, ImageFilter
    with Image.open(made) as one, Image.open(kept) as other:
        if one.size != other.size:
            return True
        one, other = one.convert("RGB"), other.convert("RGB")
    if one.tobytes() == other.tobytes():        # the same pixels, saved otherwise (--check's)
        return False
    one, other = (picture.filter(ImageFilter.BoxBlur(BLUR)) for picture in (one, other))
    histogram = ImageChops.difference(one, other).convert("L").point(lambda level: level > TOLERANCE).histogram()
    return histogram[1] > STRAY_PIXELS


def stale(made: Path, kept: Path = SCREENSHOTS) -> list[str]:
    """The pictures of PICTURES in ``kept`` that are missing or differ from those in ``made``."""
    return [name for name in PICTURES if not (kept / name).is_file() or differs(made / name, kept / name)]


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Take the pictures of README.md and docs/ from a companion filled with a club evening.")
    parser.add_argument("folder", nargs="?", type=Path, default=SCREENSHOTS,
                        help="where the pictures are (default: docs/screenshots)")
    parser.add_argument("--check", action="store_true",
                        help="take them in a temporary folder and compare them with FOLDER's, changing "
                             "nothing; exit 1 naming the pictures that are out of date")
    return parser.parse_args(argv)


def renew(folder: Path) -> list[Path]:
    """The pictures taken again and the record of what they are drawn from written in
    ``folder``: a picture that does not differ from the one there is left as it was (no new
    bytes for the same picture), the record always written anew."""
    import shutil
    with tempfile.TemporaryDirectory() as fresh:
        main(Path(fresh))
        folder.mkdir(parents=True, exist_ok=True)
        for name in PICTURES:
            if not (folder / name).is_file() or differs(Path(fresh) / name, folder / name):
                shutil.copyfile(Path(fresh) / name, folder / name)
        shutil.copyfile(Path(fresh) / RECORD.name, folder / RECORD.name)
    return [folder / name for name in PICTURES]


if __name__ == "__main__":
    asked = arguments()
    if asked.check:
        with tempfile.TemporaryDirectory() as fresh:
            main(Path(fresh), kept=False)
            out_of_date = stale(Path(fresh), asked.folder)
        for name in out_of_date:
            print(f"{asked.folder / name} is out of date: run tests/tools/make_screenshots.py", file=sys.stderr)
        redrawn = drawn_from_today(asked.folder / RECORD.name)
        if redrawn:
            print(f"{asked.folder / RECORD.name} is out of date for {', '.join(redrawn)}: run "
                  "tests/tools/make_screenshots.py", file=sys.stderr)
        sys.exit(1 if out_of_date or redrawn else 0)
    for made in renew(asked.folder):
        print(f"{made} {made.stat().st_size // 1024} KiB")
