"""Found in review (issue 41, finding 1): pages wrote the request's whole address back into
themselves, so a page asked with 15 KB of query answered several times that: the organiser's
link (``next``), the organiser's delete of the ticked matches (``next``), the claim ready to be
recorded (each query item a hidden field), the way to the PIN page and back, the organiser's
403 page, the API's next pages. Each keeps a page's own query (``web.pages.back_here``,
``query_kept``: up to 2 KiB) and leaves a longer one out."""

from urllib.parse import parse_qs, urlsplit

import pytest

from helpers import ORGANISER_CODE, finish, new_match, phone
from markup import attr, form_data

JUNK = "&".join(f"x{n}=%26%3D%25" for n in range(1000))       # 15 KB, three times that encoded again
PIN = "246813"


def size(answer) -> int:
    """What the phone is sent: the page and where it is sent on."""
    return len(answer.get_data()) + len(answer.headers.get("Location", ""))


def ask_organiser(app, client):
    return phone(app), "/tournaments?"


def delete_selected(app, client):
    new_match(client)
    return client, "/matches?"


def claim(app, client):
    match_id = new_match(client, options={"claims": True})
    return phone(app), f"/referee/claim?match={match_id}&claimer=0&c_7d=0&c_1c=0&sweeps_0=1&"


def pin_page(app, client):
    match_id = new_match(client, pin=PIN)
    return phone(app), f"/matches/{match_id}/hands/new?mode=counts&"


def organiser_only(app, client):
    return phone(app), "/tournaments/new?"


def players_next_page(app, client):
    finish(client, new_match(client))
    finish(client, new_match(client, players=["Carla", "Dario"]))
    return phone(app), "/api/v1/players?limit=1&"


def rating_history_next_page(app, client):
    for _ in range(2):
        finish(client, new_match(client))
    player = client.get("/api/v1/players").get_json()["players"][0]["id"]
    return phone(app), f"/api/v1/players/{player}?limit=1&"


@pytest.mark.parametrize("asked", [ask_organiser, delete_selected, claim, pin_page, organiser_only,
                                   players_next_page, rating_history_next_page])
def test_no_page_writes_a_long_query_back(app, client, asked):
    who, path = asked(app, client)
    normal = who.get(path.rstrip("&?"))
    long_query = who.get(path + JUNK)
    assert long_query.status_code == normal.status_code, long_query.get_data(as_text=True)[:500]
    assert size(long_query) < size(normal) + 4096, (size(normal), size(long_query))


def test_the_organisers_link_comes_back_to_the_filtered_page(app, client):
    """The way in for the organiser, from a player's page filtered to the month: the code typed,
    the same page, filtered."""
    finish(client, new_match(client))
    player = client.get("/api/v1/players").get_json()["players"][0]["id"]
    guest = phone(app)
    link = attr(guest.get(f"/players/{player}?period=month"), '[data-testid="ask-organiser"] a', "href")
    back = parse_qs(urlsplit(link).query)["next"]
    assert back == [f"/players/{player}?period=month"]
    typed = guest.post("/organiser", data={"code": ORGANISER_CODE, "next": back[0]})
    assert typed.status_code == 303 and typed.headers["Location"] == back[0]


def test_the_pin_page_comes_back_to_the_hand_form_with_its_query(app, client):
    match_id = new_match(client, pin=PIN)
    guest = phone(app)
    sent = guest.get(f"/matches/{match_id}/hands/new?mode=counts")
    assert sent.status_code == 303
    back = parse_qs(urlsplit(sent.headers["Location"]).query)["next"]
    assert back == [f"/matches/{match_id}/hands/new?mode=counts"]
    entered = guest.post(f"/matches/{match_id}/pin", data={"pin": PIN, "next": back[0]})
    assert entered.status_code == 303 and entered.headers["Location"] == back[0]
    assert guest.get(back[0]).status_code == 200


def test_the_claim_recorded_is_the_claim_checked(app, client):
    """The claim's form carries the cards and scope checked, and nothing of the query besides;
    posted, it ends the match."""
    match_id = new_match(client, options={"claims": True})
    page = phone(app).get(f"/referee/claim?match={match_id}&claimer=0&c_7d=0&c_1c=0&sweeps_0=1&junk=1")
    fields = dict(form_data(page, ".record-claim"))
    assert {name: value for name, value in fields.items() if name != "csrf_token"} == {
        "variant": "classica", "claimer": "0", "c_7d": "0", "c_1c": "0", "sweeps_0": "1",
        "sweeps_1": "0"}
    recorded = client.post(f"/referee/claim?match={match_id}", data=fields)
    assert recorded.status_code == 303 and recorded.headers["Location"] == f"/matches/{match_id}"
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["outcome"]["over"]


def test_no_page_writes_a_long_path_back(app):
    """Found in review (r41-qr): the language links of a page not found carried its path, each
    of the four percent-encoded again, so a 404 asked with 15 KB of path answered 64 KB. No page
    of the companion has a path of more than a few dozen characters: a longer one comes back to
    the home page."""
    guest = phone(app)
    normal = guest.get("/rules/nothing")
    long_path = guest.get("/rules/" + "%C3%A8" * 2600)
    assert long_path.status_code == normal.status_code == 404
    assert size(long_path) < size(normal) + 4096, (size(normal), size(long_path))
