"""Found in review (issue 41, r41-last, findings 1 and 2): from one address, 30 matches asked
with cookies the companion never signed spent its new phones, and a phone of the club starting
its first match of the night was refused for the hour; and each cookieless match answered a
cookie already known, so one address made some 1,000 matches an hour. Now the organiser's QR of
the night lets the club's phones in (each limited as itself alone), and every phone it has not
let in counts against its address's ceiling again (120 new matches an hour). Through the real
server, each phone from 127.0.0.x with its own cookies, as test_new_phones does; the QR codes
read back from the pages' own SVG as a phone's camera would (zxing-cpp)."""

import html
import re
import time
from urllib.parse import urlsplit

import pytest
from flask import Flask
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from test_new_phones import (
    CLUB,
    ELSEWHERE,
    MATCH,
    Phone,
    admissions,
    ceiling,
    fresh,
    new_phones,
    per_phone,
    smaller,
)

from companion.web import limits, welcome
from helpers import ORGANISER_HEADERS, api
from markup import form_data, nodes

pytestmark = pytest.mark.usefixtures("fresh_rate_limit", "smaller_limits")
zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR codes back (pip install -e '.[test]')")

ORGANISER = "127.0.0.9"


@pytest.fixture
def smaller_limits(monkeypatch):
    """An address's limits at a quarter of their figures or less, as in test_new_phones.py
    (whose SMALLER says why, and what holds the figures themselves)."""
    smaller(monkeypatch)


def qr_read(svg: str) -> list[str]:
    """What a camera reads in a QR code drawn by ``web.pages.qr_svg`` (segno's one path of
    rows: ``M x y.5`` to start, ``h n`` for n dark modules, ``m dx dy`` to move on)."""
    size = int(re.search(r'd="M0 0h(\d+)', svg).group(1))
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    dark, x, y = set(), 0.0, 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if op == "h":
            dark.update((int(x) + i, int(y)) for i in range(int(float(a))))
            x += float(a)
        else:
            x, y = (float(a), float(b)) if op == "M" else (x + float(a), y + float(b))
    scale, margin = 4, 4
    width = (size + 2 * margin) * scale
    pixels = bytearray(b"\xff" * width * width)
    for column, row in dark:
        for line in range((row + margin) * scale, (row + margin + 1) * scale):
            start = line * width + (column + margin) * scale
            pixels[start:start + scale] = b"\x00" * scale
    grey = bytes(pixels)        # kept: the view does not hold it
    return [code.text for code in zxingcpp.read_barcodes(
        zxingcpp.ImageView(grey, width, width, zxingcpp.ImageFormat.Lum))]


def qr_on(page: str, selector: str = ".qr svg") -> str:
    [svg] = [node.html for node in nodes(page, selector)]
    [read] = qr_read(svg)
    return read


def organiser(base: str) -> Phone:
    phone = Phone(base, ORGANISER)
    phone.headers = ORGANISER_HEADERS
    return phone


def the_night_link(base: str) -> str:
    """The link the home page's QR carries on the organiser's screen, as a phone scanning it
    reads it: its path and query."""
    read = urlsplit(qr_on(organiser(base).ask("GET", "/").body.decode()))
    assert read.query.startswith("welcome=")
    return f"{read.path}?{read.query}"


def flooded(base: str) -> None:
    """A guest's 30 matches with cookies the companion never signed: its address's new phones
    spent for the hour, the next new phone refused."""
    for _ in range(new_phones()):
        assert fresh(base).new_match() == 201
    assert fresh(base).new_match() == 429


def let_in(phone: Phone, link: str) -> str:
    """``phone`` opens ``link``: sent on to the same page without the token (the address bar
    shows none to pass on); the page it lands on, as text."""
    opened = phone.ask("GET", link)
    assert opened.status == 303
    assert urlsplit(opened.headers["Location"]).path == urlsplit(link).path
    assert "welcome" not in opened.headers["Location"]
    landed = phone.ask("GET", opened.headers["Location"])
    assert landed.status == 200
    return re.sub(r"\s+", " ", html.unescape(landed.body.decode()))


def test_a_phone_let_in_by_the_organisers_qr_starts_its_match_after_a_flood(live_server):
    base, _ = live_server
    link = the_night_link(base)
    flooded(base)
    club = fresh(base)
    assert "Welcome: this phone is one of the club's tonight." in let_in(club, link)
    # Its own 20 new matches an hour, and nothing the guest's new phones did.
    assert [club.new_match() for _ in range(per_phone())] == [201] * per_phone()
    assert club.new_match() == 429
    # Any page with the token does it: a tournament's page, its query kept.
    other = fresh(base)
    assert "one of the club's tonight" in let_in(other, link.replace("/?", "/matches?state=finished&"))
    assert other.new_match() == 201


def sign(key: str, word: str, age: float) -> str:
    """A token as the companion draws one, signed with ``key``, ``age`` seconds ago."""
    class Then(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time() - age)
    return URLSafeTimedSerializer(key, salt=welcome.SALT, signer=Then).dumps(word)


def test_a_forged_an_old_or_a_renewed_token_lets_nothing_in(live_server, live_config):
    base, _ = live_server
    link = the_night_link(base)
    word = URLSafeTimedSerializer(live_config["SECRET_KEY"], salt=welcome.SALT).loads(
        urlsplit(link).query.removeprefix("welcome="))
    flooded(base)
    head = organiser(base)
    page = head.ask("GET", "/organiser/qr").body.decode()
    assert head.ask("POST", "/organiser/qr/renew", form=dict(form_data(page, '[data-testid="renew-qr"] form'))).status == 303
    for token in [sign("not the key", word, 60),                           # forged
                  sign(live_config["SECRET_KEY"], word, welcome.NIGHT + 60),  # last night's
                  link.removeprefix("/?welcome="),                          # before the renewal
                  "garbage", "x" * 5000]:
        phone = fresh(base)
        landed = let_in(phone, f"/?welcome={token}")
        assert "club's tonight" not in landed
        assert phone.new_match() == 429
    # The renewed QR lets a phone in.
    phone = fresh(base)
    assert "club's tonight" in let_in(phone, the_night_link(base))
    assert phone.new_match() == 201


def test_the_token_is_in_no_page_a_guest_gets(live_server):
    base, _ = live_server
    made = api(base, "/tournaments", {"name": "Torneo", "format": "swiss", "rounds": 3,
                                      "entrants": ["Anna", "Bruno", "Carla", "Dario"]})
    board = f"/tournaments/{made['id']}/board"
    guest = fresh(base, ELSEWHERE)
    for path in ["/", board, "/organiser", "/organiser/qr", "/matches/new", f"/tournaments/{made['id']}"]:
        answer = guest.ask("GET", path)
        assert answer.status in (200, 403), path
        assert "welcome=" not in answer.body.decode().lower(), path
    # The QR codes a guest sees carry the plain addresses.
    assert qr_on(guest.ask("GET", "/").body.decode()) == f"{base}/"
    assert qr_on(guest.ask("GET", board).body.decode()) == f"{base}/tournaments/{made['id']}"
    # The organiser's carry the token, on pages kept by no cache; a guest's page may be kept.
    head = organiser(base)
    for path, url in [("/", f"{base}/"), (board, f"{base}/tournaments/{made['id']}"), ("/organiser/qr", f"{base}/")]:
        answer = head.ask("GET", path)
        assert qr_on(answer.body.decode()).startswith(f"{url}?welcome="), path
        assert answer.headers["Cache-Control"] == "private, no-store", path
    assert guest.ask("GET", "/").headers.get("Cache-Control") != "private, no-store"


def test_a_cookieless_match_answers_a_phone_that_is_not_known(live_server):
    """Each cookieless match answered a cookie already known: 20 an hour each, for a night."""
    base, _ = live_server
    flooded(base)
    program = Phone(base, CLUB)         # keeps the cookie it is given
    assert program.new_match() == 201   # the address's one phone without a cookie
    refused = program.ask("POST", "/api/v1/matches", MATCH)
    assert refused.status == 429        # its cookie is a new phone's: the new phones are spent
    assert "ask the organiser for the QR of the night" in refused.body.decode()


def test_an_address_makes_120_matches_an_hour_without_the_qr_and_the_organiser_lifts_it(live_server):
    """However a guest plays its cookies (none, fresh ones, the ones it kept), the phones the
    QR has not let in make 120 new matches an hour from one address; a phone let in goes on."""
    base, _ = live_server
    made = 0
    program = Phone(base, CLUB, cookies=False)
    while program.new_match() == 201:          # 20: the address's phone without a cookie
        made += 1
    kept = []
    while len(kept) < new_phones() - 1 and made < 200:     # fresh cookies: each a new phone, then known
        phone = fresh(base)
        if phone.new_match() != 201:
            break
        made += 1
        kept.append(phone)
    for phone in kept:                         # the known phones, each up to its own 20
        while made < 1000 and phone.new_match() == 201:
            made += 1
    assert made == ceiling()
    refused = kept[-1].ask("POST", "/api/v1/matches", MATCH)
    assert refused.status == 429 and 3500 < int(refused.headers["Retry-After"]) <= 3600
    assert "too many matches started or deleted from this address" in refused.body.decode()
    club = fresh(base)
    let_in(club, the_night_link(base))
    assert club.new_match() == 201
    # The organiser sees the address held, and lifts it.
    head = organiser(base)
    page = head.ask("GET", "/organiser").body.decode()
    [listed] = [re.sub(r"\s+", " ", node.text()).strip() for node in nodes(page, '[data-testid="held-one"]')
                if "without the QR" in node.text()]
    assert listed.startswith(f"phones at {CLUB} without the QR of the night new matches · until")
    [form] = [node.html for node in nodes(page, '[data-testid="held-one"]') if "without the QR" in node.text()]
    assert head.ask("POST", "/organiser/held/lift", form=dict(form_data(form))).status == 303
    assert kept[-1].new_match() == 201
    assert not [h for h in limits.held() if h.kind == "new matches" and h.scope == "address"]


def test_an_address_lets_60_phones_in_a_night(live_server):
    """Whoever holds the token can let phones in: 60 a night at one address, each then a phone
    with 20 matches an hour of its own. The 61st opens the page as any phone does."""
    base, _ = live_server
    link = the_night_link(base)
    for _ in range(admissions()):
        assert "club's tonight" in let_in(Phone(base, CLUB), link)
    phone = Phone(base, CLUB)
    assert "club's tonight" not in let_in(phone, link)
    [held] = [h for h in limits.held() if h.kind == "admissions"]
    assert (held.scope, held.key) == ("address", CLUB) and held.until - time.time() > 11 * 3600
    again = Phone(base, "127.0.0.10")           # another address lets its own in
    assert "club's tonight" in let_in(again, link)


def test_a_renewed_qr_lets_the_club_in_where_a_guest_spent_the_admissions(live_server):
    """Found in review (r41-qr): whoever holds the token (a photo of the board's QR on the
    wall) spent an address's 60 admissions in a second, and renewing the QR still let no phone
    in there until the organiser also lifted the hold by hand. A renewed QR starts them afresh."""
    base, _ = live_server
    old = the_night_link(base)
    for _ in range(admissions()):
        assert "club's tonight" in let_in(Phone(base, CLUB), old)
    head = organiser(base)
    page = head.ask("GET", "/organiser/qr").body.decode()
    assert head.ask("POST", "/organiser/qr/renew", form=dict(form_data(page, '[data-testid="renew-qr"] form'))).status == 303
    assert "club's tonight" not in let_in(Phone(base, CLUB), old)
    club = Phone(base, CLUB)
    assert "club's tonight" in let_in(club, the_night_link(base))
    assert club.new_match() == 201


def test_a_token_drawn_outside_a_request_lets_a_phone_in(live_server, live_config):
    """The terminal's QR (``cli.print_join``) is drawn before any request, from the app alone."""
    base, _ = live_server
    app = Flask(__name__)
    app.config.update(SECRET_KEY=live_config["SECRET_KEY"], DATABASE=live_config["DATABASE"])
    read = urlsplit(welcome.link(f"{base}/", app))
    phone = Phone(base, CLUB)
    assert "club's tonight" in let_in(phone, f"{read.path}?{read.query}")


@pytest.mark.parametrize("path, there", [
    ("//evil.example/x?welcome=a", "/evil.example/x"),      # never to another site
    ("/\\evil.example?welcome=a", "/%5Cevil.example"),      # a backslash kept, encoded
    ("/players?period=month&welcome=a&x=%C3%A8", "/players?period=month&x=%C3%A8")])
def test_the_page_without_the_token_is_this_sites(live_server, path, there):
    base, _ = live_server
    answer = Phone(base, CLUB).ask("GET", path)
    assert answer.status == 303 and answer.headers["Location"] == there
    assert not urlsplit(answer.headers["Location"]).netloc


def test_the_cookie_of_a_phone_let_in_copied_is_that_one_phone(live_server):
    """Found in review (r41-qr): the cookie the QR gave held no phone id yet (one is made on the
    first match), so a guest let in once copied it to programs, each of which was given an id
    of its own on its first match: 20 new matches an hour each, against no ceiling, and the
    address's 60 admissions never spent. A copy is the phone it was copied from."""
    base, _ = live_server
    first = Phone(base, CLUB)
    let_in(first, the_night_link(base))
    copies = [Phone(base, CLUB) for _ in range(3)]
    for copy in copies:
        copy.cookies = dict(first.cookies)
    made = sum(copy.new_match() == 201 for copy in copies for _ in range(per_phone() // 2))
    assert made == per_phone()


def test_a_renewal_that_cannot_be_read_lets_no_old_token_in(tmp_path):
    """Found in review (r41-qr): the renewal's word read from its file fell back to the first
    night's word on any error (a file it cannot open: out of descriptors, a directory in its
    place), so the tokens drawn before the first renewal let phones in again. Only a file that
    is not there (no renewal yet) means the first word; otherwise no token lets a phone in."""
    app = Flask(__name__)
    app.config.update(SECRET_KEY="k", DATABASE=str(tmp_path / "store.sqlite"))
    first = welcome.token(app)
    assert welcome.lets_in(first, app) and welcome.renew(app)
    renewed = welcome.token(app)
    assert welcome.lets_in(renewed, app) and not welcome.lets_in(first, app)
    (tmp_path / "welcome").unlink()
    (tmp_path / "welcome").mkdir()          # cannot be read as a file
    assert not welcome.lets_in(first, app)
