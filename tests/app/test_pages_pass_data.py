"""The views pass what a page shows; the templates only lay it out.

While a template renders, the store is out of reach: every page and every htmx fragment renders
with ``store.get_db`` refusing, so no template helper reads the database behind its view's back
(the series of rematches, whether this phone may record, the known players' names are read by
the views). Whether a phone may record comes from its own session and is never kept with the
match: two phones on one version of a PIN match each see their own. One ``<head>`` for every page,
the board's included; one way to write a CSRF token."""

from pathlib import Path

import pytest
from flask import before_render_template, template_rendered
from jinja2 import meta

from companion import store
from companion.store import reads
from helpers import organiser, phone
from markup import attr, one

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def token(page: str) -> str:
    """The CSRF token of the page's first form."""
    return attr(page, 'input[name="csrf_token"]', "value")


def points(a: int, b: int) -> dict:
    """A hand, as the API takes it, that scores exactly a to b under the classic items."""
    first = a >= 1
    return {"tallies": [
        {"cards": 20, "coins": 5, "settebello": first, "sweeps": a - 1 if first else a},
        {"cards": 20, "coins": 5, "settebello": not first, "sweeps": b if first else b - 1}]}


@pytest.fixture
def csrf() -> bool:
    """The tokens the pages carry are checked here, as on a real server."""
    return True


@pytest.fixture
def made(app):
    """Matches of every kind the live part draws, through the JSON API: one being played, one over
    and its rematch (a series), one over and not yet followed, one with a PIN, one with a PIN and hands after its end, one that
    allows claims; a tournament with a round, another with a PIN that may start."""
    client = organiser(app)

    def post(path, body, pin=""):
        answer = client.post("/api/v1" + path, json=body, headers={"X-Scopa-PIN": pin})
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()

    def match(**body):
        return post("/matches", {"first_dealer": 0, "players": ["Anna", "Bruno"], **body})["id"]

    ids = {"playing": match(), "over": match(options={"target": 3}),
           "done": match(options={"target": 3}), "pin": match(pin="432198"),
           "after_end": match(pin="123456", options={"target": 11}),
           "claims": match(options={"claims": True})}
    ids["hand"] = post(f"/matches/{ids['playing']}/hands", points(3, 1))["hand"]["id"]
    post(f"/matches/{ids['over']}/hands", points(4, 0))
    post(f"/matches/{ids['done']}/hands", points(4, 0))
    post(f"/matches/{ids['pin']}/hands", points(2, 1), pin="432198")
    hands = [post(f"/matches/{ids['after_end']}/hands", points(a, b), pin="123456")["hand"]["id"]
             for a, b in [(5, 0), (5, 0), (0, 1), (1, 0)]]
    edited = client.put(f"/api/v1/matches/{ids['after_end']}/hands/{hands[2]}",
                        json={**points(1, 0), "version": 1}, headers={"X-Scopa-PIN": "123456"})
    assert edited.status_code == 200
    page = client.get(f"/matches/{ids['over']}/rematch").get_data(as_text=True)
    rematch = client.post(f"/matches/{ids['over']}/rematch", data={"csrf_token": token(page)})
    assert rematch.status_code == 303
    ids["rematch"] = int(rematch.headers["Location"].rsplit("/", 1)[1])
    post(f"/matches/{ids['rematch']}/hands", points(0, 4))
    tournament = post("/tournaments", {"name": "Giovedì", "format": "round-robin",
                                       "entrants": ["Anna", "Bruno", "Carla", "Dario"]})
    ids["tournament"] = post(f"/tournaments/{tournament['id']}/rounds", {})["id"]
    ids["locked"] = post("/tournaments", {"name": "Venerdì", "format": "round-robin", "pin": "999999",
                                          "entrants": ["Anna", "Bruno", "Carla"]})["id"]
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}
    ids["anna"], ids["bruno"] = players["Anna"], players["Bruno"]
    return ids


PAGES = """/ /matches?state=playing /matches?state=finished /matches?state=archived
/matches/new /matches/new?preset=scopone /matches/new/rules?preset=scopone /matches/new/summary
/matches/{playing} /matches/{over} /matches/{rematch} /matches/{pin} /matches/{after_end} /matches/{claims}
/matches/{playing}/poll /matches/{rematch}/poll /matches/{pin}/poll /matches/{after_end}/poll
/matches/{playing}/poll?part=notice /matches/{playing}/hands/new /matches/{playing}/hands/new?mode=tallies
/matches/{playing}/hands/{hand} /matches/{playing}/hands/{hand}/edit /matches/{playing}/hands/{hand}/delete
/matches/{playing}/delete /matches/{done}/rematch /matches/{pin}/pin /matches/{playing}/join
/backup /referee/ /referee/captures /referee/captures?table=1c&table=3c&played=4d /referee/primiera
/referee/deal /referee/rules /referee/claim /referee/claim?match={claims}
/referee/claim?match={claims}&claimer=0&c_7d=0&c_1c=0&sweeps_0=1
/players /players?variant=scopone&period=30 /players/{anna} /players/{bruno}/merge?into={anna}
/tournaments /tournaments/new /tournaments/{tournament} /tournaments/{locked}
/tournaments/{tournament}/board /tournaments/{tournament}/board?refresh=1
/tournaments/{tournament}/board/live /tournaments/{tournament}/pairings
/tournaments/{tournament}/standings""".split()


@pytest.fixture
def store_out_of_reach_while_rendering(app, monkeypatch):
    """``store.get_db`` raises while any template renders (nested renders counted): a template that
    reads the store, through any helper, fails the page."""
    rendering = []
    get_db = store.get_db

    def guarded():
        if rendering:
            raise AssertionError(f"{rendering[-1]} read the store while rendering")
        return get_db()

    def started(sender, template, context, **extra):
        rendering.append(template.name)

    def finished(sender, template, context, **extra):
        rendering.pop()

    monkeypatch.setattr(store, "get_db", guarded)
    monkeypatch.setattr(reads, "get_db", guarded)      # as the pages import it
    before_render_template.connect(started, app)
    template_rendered.connect(finished, app)
    yield
    before_render_template.disconnect(started, app)
    template_rendered.disconnect(finished, app)


def unlock(client, match_id: int, pin: str) -> None:
    page = client.get(f"/matches/{match_id}/pin").get_data(as_text=True)
    answer = client.post(f"/matches/{match_id}/pin", data={"pin": pin, "csrf_token": token(page)})
    assert answer.status_code == 303


def test_no_template_reads_the_store(app, made, store_out_of_reach_while_rendering):
    watching, recording = organiser(app), organiser(app)
    unlock(recording, made["pin"], "432198")
    unlock(recording, made["after_end"], "123456")
    for client in (watching, recording):
        for page in PAGES:
            answer = client.get(page.format(**made))
            assert answer.status_code == 200, (page, answer.get_data(as_text=True)[-2000:])
        assert client.get("/no/such/page").status_code == 404
    # The pages did show what their views read.
    assert 'data-testid="series"' in watching.get(f"/matches/{made['rematch']}").get_data(as_text=True)
    assert '<option value="Anna">' in watching.get("/matches/new").get_data(as_text=True)


def test_the_helpers_that_read_the_store_are_gone(app):
    for name in ("series_of", "unlocked", "known_players"):
        assert name not in app.jinja_env.globals
    for template in TEMPLATES.rglob("*.html"):
        source = template.read_text()
        for call in ("series_of(", "unlocked(", "known_players("):
            assert call not in source, f"{template.name} calls {call})"


@pytest.mark.parametrize("part", ["page", "poll"])
def test_two_phones_on_one_version_of_a_pin_match_each_see_their_own(app, made, part):
    """The match (and its list of hands) is worked out once per version and shared; whether this
    phone may record is not part of it."""
    watching, recording = phone(app, "192.168.1.20"), phone(app)
    unlock(recording, made["after_end"], "123456")
    unlock(recording, made["pin"], "432198")
    url = "/matches/{}" + ("/poll" if part == "poll" else "")
    for first, second in ((watching, recording), (recording, watching)):
        for match_id in (made["pin"], made["after_end"]):
            seen = {client: client.get(url.format(match_id)).get_data(as_text=True)
                    for client in (first, second)}
            may_record = {client: 'data-testid="watching"' not in html
                          and "Enter the PIN to record hands" not in html for client, html in seen.items()}
            if match_id == made["after_end"]:
                may_record = {client: 'data-testid="remove-after-end"' in html for client, html in seen.items()}
                assert all('data-testid="after-end"' in html for html in seen.values())
            assert may_record == {watching: False, recording: True}
            hands = [one(html, "ol.hands").html for html in seen.values()]
            assert hands[0] == hands[1]


@pytest.mark.parametrize("template, reads", [
    ("table/_history.html", {"match", "lines"}),
    ("table/_hand_line.html", {"show", "show_all", "_"})])
def test_the_history_shows_nothing_of_one_phone(app, template, reads):
    """_history.html is kept for the match and shared by every phone, and each of its lines
    (_hand_line.html) is kept for what it shows (table/drawn.py): they read the match, the lines
    and the macro's arguments, never the session nor whether this phone may record."""
    source = (TEMPLATES / template).read_text()
    names = meta.find_undeclared_variables(app.jinja_env.parse(source))
    assert not names & {"may_record", "session", "unlocked", "series", "request", "current_user"}
    assert names <= reads, names


def test_the_board_has_base_htmls_one_head(app, made):
    board = organiser(app).get(f"/tournaments/{made['tournament']}/board").get_data(as_text=True)
    home = organiser(app).get("/").get_data(as_text=True)
    assert board.count("<head>") == 1 and board.count("</head>") == 1
    assert "<head>" not in (TEMPLATES / "tournaments/board.html").read_text()

    def head(html):
        """The elements of the page's head, its title left out."""
        return [node.html for node in one(html, "head").iter() if node.tag != "title"]

    assert head(board) == head(home)
    assert '<html lang="en" class="board-page">' in board and '<body class="board">' in board
    assert 'class="bar"' not in board and 'class="languages"' not in board
    refreshed = organiser(app).get(f"/tournaments/{made['tournament']}/board?refresh=1").get_data(as_text=True)
    assert attr(refreshed, 'head meta[http-equiv="refresh"]', "content") == "10"
    refreshed_head = head(refreshed)
    refreshed_head.remove('<noscript><meta http-equiv="refresh" content="10"></noscript>')
    assert refreshed_head == head(home)


def test_a_token_is_written_one_way(app, made):
    """By csrf() from _macros.html, or by a WTForms form's own hidden_tag(); and it is valid."""
    for template in TEMPLATES.rglob("*.html"):
        if template.name != "_macros.html":
            assert "csrf_token()" not in template.read_text(), template.name
    client = organiser(app)
    page = client.get(f"/matches/{made['playing']}").get_data(as_text=True)
    archive = one(page, 'form[method="post"][action^="/matches/"][action$="/archive"]')
    archived_token = attr(archive.html, 'input[type="hidden"][name="csrf_token"]', "value")
    assert archived_token
    assert client.post(f"/matches/{made['playing']}/archive",
                       data={"archived": "1", "csrf_token": archived_token}).status_code == 303
    assert client.post(f"/matches/{made['playing']}/archive", data={"archived": "0"}).status_code == 400
