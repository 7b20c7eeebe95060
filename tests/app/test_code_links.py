"""Found in a hostile review (issue 41, finding 4): Chromium sends neither ``Sec-Fetch-*`` nor
``Origin`` for a cross-site ``<img>`` or ``<iframe>`` over plain http to a LAN address (a club's
box is ``http://192.168.x.y``, not a "potentially trustworthy" origin), and with
``referrerpolicy="no-referrer"`` such a request looks exactly like the organiser opening the link.
Five ``<img src="http://192.168.1.10/organiser?code=WRONG">`` on any page a member opened locked
that address out of the organiser's login; a scorer's QR link with a wrong key the same.

Now a GET never checks a code: a link that carries one answers a page holding it in a form that
POSTs it with the CSRF token, and sends itself at once by a script (templates/link_opened.html,
static/sends_itself.js), with a button for a phone without JavaScript. Only that POST tries it
and counts a wrong one; another site's page can send no such POST (no token) nor frame the page.
"""

import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from companion import create_app
from companion.web import limits
from helpers import ORGANISER_CODE, ORGANISER_LINK, open_link, phone, serving
from markup import attr, form_data, nodes, text

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

CLUB = "192.168.1.10"       # every member's phone, as the companion sees it behind the club's NAT


@pytest.fixture
def csrf() -> bool:
    """As a real server: a POST without the page's token is refused (a cross-site form)."""
    return True


@pytest.fixture
def table(client) -> tuple[int, int]:
    """A tournament's first table: (tournament, match)."""
    night = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "pin": "246813",
        "entrants": ["Anna", "Bruno", "Carla", "Dario"]}).get_json()
    started = client.post(f"/api/v1/tournaments/{night['id']}/rounds", json={}).get_json()
    return night["id"], started["rounds"][0]["tables"][0]["match"]


def scorer_link(client, tournament: int, match_id: int) -> str:
    """The table's link, as the organiser's scorers' page shows it (and draws as a QR code)."""
    page = client.get(f"/tournaments/{tournament}/scorers")
    return attr(page, f'a[href*="/scorer/{match_id}?key="]', "href").removeprefix("http://localhost")


# -- In a browser, first: a test without it before them would stop the worker's Chromium, to
# be started again for them (tests/conftest.py's ``Chromium``) ---------------------------------

@pytest.fixture(scope="module")
def lan_server(tmp_path_factory, migrated_store):
    """The companion on waitress (CSRF and all), as a phone on the club's Wi-Fi reaches it over
    plain http at a LAN address: there Chromium sends no ``Sec-Fetch-*`` and no ``Origin`` for
    another site's <img> or <iframe> (not a "potentially trustworthy" origin), which 127.0.0.1,
    a trustworthy one, would get. So they are taken off every request here."""
    database = tmp_path_factory.mktemp("db") / "lan.sqlite"
    shutil.copyfile(migrated_store, database)
    app = create_app({"SECRET_KEY": "lan", "DATABASE": str(database), "ORGANISER_CODE": ORGANISER_CODE})
    inner = app.wsgi_app

    def over_plain_http(environ, start_response):
        for name in [n for n in environ if n.startswith("HTTP_SEC_FETCH_") or n == "HTTP_ORIGIN"]:
            del environ[name]
        return inner(environ, start_response)

    app.wsgi_app = over_plain_http
    with serving(app, threads=4) as base:
        yield base


def guests_phone(browser):
    """A phone at 360 px: a guest's (not the organiser's by header, as the suite's browser is)."""
    return browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                               extra_http_headers={})


def logged_in_by_the_link(page, lan_server: str) -> None:
    """The organiser's link opened on ``page``, in one step (the page sends itself, by its
    script); the phone is sent on to the page the link names, the organiser's. (Without
    JavaScript, one tap: ``test_opening_the_organisers_link_without_javascript_logs_the_phone_in_in_one_tap``.)"""
    page.goto(f"{lan_server}/organiser?code={ORGANISER_CODE}&next=/players")
    page.wait_for_url(f"{lan_server}/players")
    page.goto(f"{lan_server}/organiser")
    assert page.locator('[data-testid="is-organiser"]').count() == 1


class OtherSite(BaseHTTPRequestHandler):
    """Another site, on another origin (127.0.0.2): a page with five <img> of the wrong-code
    link and a frame of it, as any page a member opens could hold them."""
    target = ""

    def do_GET(self):
        images = "".join(f'<img src="{self.target}/organiser?code=WRONG-{i}" referrerpolicy="no-referrer">'
                         for i in range(5))
        frame = f'<iframe src="{self.target}/organiser?code=WRONG-F" referrerpolicy="no-referrer"></iframe>'
        body = f"<!doctype html><title>cats</title><p>cats</p>{images}{frame}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.mark.browser
def test_another_sites_page_with_five_images_of_the_link_locks_nobody_out(browser, lan_server):
    other = ThreadingHTTPServer(("127.0.0.2", 0), type("Cats", (OtherSite,), {"target": lan_server}))
    threading.Thread(target=other.serve_forever, daemon=True).start()
    context = guests_phone(browser)
    try:
        page = context.new_page()
        # Each answered by the companion, then dropped by Chromium (not an image: ERR_BLOCKED_BY_ORB;
        # the frame: X-Frame-Options, ERR_BLOCKED_BY_RESPONSE).
        answered = []
        for ending in ("requestfinished", "requestfailed"):
            page.on(ending, lambda r: answered.append(r.url) if "code=WRONG" in r.url else None)
        page.goto(f"http://127.0.0.2:{other.server_address[1]}/")     # waits for every image and the frame
        assert len(answered) == 6
        assert page.frames[1].locator('[data-testid="link-opened"]').count() == 0
        assert limits.held() == []
        # The organiser, on a phone behind the same address: the link still logs it in, in one
        # step (its page sends itself).
        logged_in_by_the_link(page, lan_server)
    finally:
        context.close()
        other.shutdown()
        other.server_close()


# -- Without a browser ----------------------------------------------------------------------------

def test_ten_gets_with_a_wrong_code_or_key_count_nothing_and_lock_nobody_out(app, client, table):
    """Ten <img> of the organiser's link with a wrong code, and ten of a scorer's link with a
    wrong key, as Chromium sends them over plain http (no Sec-Fetch-Site, no Origin, no
    Referer): before, the fifth locked the address out (403 403 403 403 403 429...)."""
    tournament, match_id = table
    guest = phone(app, CLUB)
    for _ in range(10):
        answer = guest.get("/organiser?code=AAA-AAA")
        assert answer.status_code == 200
        assert dict(form_data(answer, "form[data-sends-itself]"))["code"] == "AAA-AAA"
        assert guest.get(f"/tournaments/{tournament}/scorer/{match_id}?key=wrong").status_code == 200
    assert limits.held() == []
    assert guest.get("/tournaments/new").status_code == 403         # nothing tried: nobody's
    member = phone(app, CLUB)
    assert open_link(member, ORGANISER_LINK).status_code == 303
    assert member.get("/tournaments/new").status_code == 200
    scorer = phone(app, CLUB)
    opened = open_link(scorer, scorer_link(client, tournament, match_id))
    assert opened.status_code == 303 and opened.headers["Location"] == f"/matches/{match_id}"
    assert scorer.get(f"/matches/{match_id}/hands/new").status_code == 200


def test_the_links_post_counts_a_wrong_code_and_logs_a_right_one_in(app, client, table):
    tournament, match_id = table
    guesser = phone(app, CLUB)
    answers = [open_link(guesser, "/organiser?code=AAA-AAA") for _ in range(6)]
    assert [a.status_code for a in answers] == [403] * 5 + [429]
    assert text(answers[0], '[data-testid="error"]') == "That is not the organiser's code."
    assert [(h.kind, h.key) for h in limits.held()] == [("organiser code", CLUB)]
    # Held: even the right code waits (the address's tries are spent), until the organiser lifts it.
    assert open_link(phone(app, CLUB), ORGANISER_LINK).status_code == 429
    organiser_phone = phone(app, "192.168.1.11")
    assert open_link(organiser_phone, ORGANISER_LINK).status_code == 303
    assert organiser_phone.get("/tournaments/new").status_code == 200
    # A scorer's link: the POST counts a wrong key as a wrong PIN.
    prowler = phone(app, "192.168.1.12")
    keys = [open_link(prowler, f"/tournaments/{tournament}/scorer/{match_id}?key=wrong{i}").status_code
            for i in range(6)]
    assert keys == [403] * 5 + [429]
    assert prowler.get(f"/matches/{match_id}/hands/new").status_code == 303    # still the PIN page


def test_a_post_from_another_sites_form_has_no_token_and_counts_nothing(app, client, table):
    """A cross-site form can POST to the companion, but holds no CSRF token of this phone's
    session: refused (400) before any code is tried."""
    tournament, match_id = table
    guest = phone(app, CLUB)
    guest.get("/organiser")                     # a member's phone, with its session cookie
    for _ in range(10):
        assert guest.post("/organiser", data={"code": "AAA-AAA"}).status_code == 400
        assert guest.post(f"/tournaments/{tournament}/scorer/{match_id}", data={"key": "wrong"}).status_code == 400
    assert limits.held() == []
    assert open_link(guest, ORGANISER_LINK).status_code == 303


def test_the_links_page_cannot_be_framed_and_its_cookie_is_not_sent_cross_site(app, client, table):
    tournament, match_id = table
    for link in (ORGANISER_LINK, f"/tournaments/{tournament}/scorer/{match_id}?key=any"):
        answer = phone(app).get(link)
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        assert "SameSite=Lax" in answer.headers["Set-Cookie"]
        # The page's own script, served by the app: no inline script (the CSP allows none).
        assert sorted(s.attributes["src"].split("/")[-1].split(".")[0] for s in nodes(answer, "script")) == [
            "bundle", "sends_itself"]
        assert all(not s.text().strip() for s in nodes(answer, "script"))


def test_opening_the_organisers_link_without_javascript_logs_the_phone_in_in_one_tap(app):
    """Without JavaScript the link's page is the organiser's form and one button, the tap a
    phone makes: the form posted as such a browser posts it (its fields, the CSRF token) logs
    the phone in and sends it on to the page the link names. (Read as drawn, where a browser
    without JavaScript was a context of its own to tap that button; with JavaScript, in one
    step: the end of ``test_another_sites_page_with_five_images_of_the_link_locks_nobody_out``.)"""
    guest = phone(app, CLUB)
    link = ORGANISER_LINK + "&next=/players"
    page = guest.get(link)
    assert text(page, '[data-testid="link-opened"] h1') == "Organiser"
    assert [(b.attributes.get("type"), b.attributes.get("data-testid"))
            for b in nodes(page, "form[data-sends-itself] button")] == [("submit", "open-link")]
    assert not nodes(page, "[hidden] form[data-sends-itself], form[data-sends-itself][hidden]")
    tapped = open_link(guest, link)
    assert tapped.status_code == 303 and tapped.headers["Location"] == "/players"
    assert nodes(guest.get("/organiser"), '[data-testid="is-organiser"]')


def test_a_phone_already_the_organisers_opening_the_link_again_goes_straight_on(app):
    organiser_phone = phone(app)
    assert open_link(organiser_phone, ORGANISER_LINK + "&next=/players").headers["Location"] == "/players"
    again = organiser_phone.get(ORGANISER_LINK + "&next=/players")
    assert again.status_code == 303 and again.headers["Location"] == "/players"
