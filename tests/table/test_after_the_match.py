"""Issue 21, points 5, 8 and 9: what a match offers around it.

- A tournament's table leads back to its tournament: its page says which table of which round
  it is, offers neither a rematch nor a delete (and refuses both in words when they are sent
  from an old page), and once over its main button is "Back to the tournament".
- The new match page offers "Same players as last time": one tap fills the names, the seating,
  the variant and its rules, and the deal passing on, from the newest casual match (for a phone
  that played none: a phone's own last match is tests/table/test_same_players_per_phone.py's).
- A finished match can be shared: its result in one line, in the page's language, with the
  address the other phones open.

The browser tests at 360 px, with JavaScript and without, come first."""

import re

import pytest
from table_helpers import page_scripts, polled_now
from werkzeug.datastructures import MultiDict

from helpers import FOUR_NIL, api, finish, new_match
from markup import attr, attrs, form_data, nodes, one, text as text_of, words

# -- In the browser, at 360 px (first: a test without the browser before them stops Chromium) ----


def below(upper, lower) -> bool:
    """``lower``'s box starts below ``upper``'s: the two never overlap."""
    a, b = upper.bounding_box(), lower.bounding_box()
    return a["y"] + a["height"] <= b["y"]


def tournament_table_of(server) -> tuple[int, int]:
    """A round robin of Anna and Bruno to 3, its round started: (its id, its table's match)."""
    made = api(server, "/tournaments", {"name": "Circolo Arci", "format": "round-robin",
                                         "options": {"target": 3}, "entrants": ["Anna", "Bruno"]})
    tournament = api(server, f"/tournaments/{made['id']}/rounds", {})
    return made["id"], tournament["rounds"][0]["tables"][0]["match"]


def back_then_share(page, scripts: bool):
    """The finished table's main button, as wide as the score's card, and Share under it,
    smaller (without JavaScript, Share is the box of text to copy: .js-hide hides the button);
    nothing wider than the screen. The button."""
    back = page.locator('[data-testid="back-to-tournament"]')
    card = page.locator(".scoreboard").bounding_box()
    assert back.bounding_box()["width"] > card["width"] - 2 * 20
    share = page.locator('[data-testid="share"]' if scripts else '[data-testid="share-text"] > summary')
    assert below(back, share) and share.bounding_box()["width"] < back.bounding_box()["width"]
    assert page.evaluate("document.documentElement.scrollWidth <= 360")
    return back


@pytest.mark.browser
def test_in_the_browser_a_table_leads_back_to_its_tournament(phone_page, server):
    """With JavaScript: the live region learns of the end by itself. Without it, the finished
    table's page is test_without_javascript_a_finished_table_leads_back_and_its_result_is_there_to_copy's."""
    expect = pytest.importorskip("playwright.sync_api").expect
    tournament_id, match_id = tournament_table_of(server)
    page = phone_page()
    page.clock.install()                        # its polls made at once: polled_now
    page.goto(f"/matches/{match_id}")
    link = page.locator('[data-testid="from-tournament"] a')
    expect(link).to_have_text("Table 1 · Round 1 of Circolo Arci")
    expect(page.get_by_text("Delete…")).to_have_count(0)
    finish(server, match_id)          # the hands saved on another phone
    polled_now(page)                  # the live region's poll, every 2 s
    back = page.locator('[data-testid="back-to-tournament"]')
    expect(back).to_be_visible()
    expect(back).to_contain_text("Back to the tournament")
    expect(page.locator('[data-testid="rematch"]')).to_have_count(0)
    expect(page.get_by_text("Delete…")).to_have_count(0)
    back_then_share(page, scripts=True).click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{tournament_id}$"))


@pytest.mark.browser
def test_without_javascript_a_finished_table_leads_back_and_its_result_is_there_to_copy(phone_page, server):
    """Share is another box without JavaScript: the text to copy, opened by a tap (the same
    partial as a casual match's: test_a_finished_match_shares_its_result_with_its_address reads
    its words)."""
    expect = pytest.importorskip("playwright.sync_api").expect
    tournament_id, match_id = tournament_table_of(server)
    finish(server, match_id)
    page = phone_page()
    page_scripts(page)(False)                     # a phone without JavaScript
    page.goto(f"/matches/{match_id}")
    assert page.evaluate("document.documentElement.classList.contains('js')") is False
    back = back_then_share(page, scripts=False)
    expect(back).to_contain_text("Back to the tournament")
    expect(page.locator('[data-testid="share"]')).to_be_hidden()
    shared = page.locator("[data-share-text][data-share-url]")
    line = shared.get_attribute("data-share-text") + "\n" + shared.get_attribute("data-share-url")
    assert line.startswith("Anna wins") and line.endswith(f"/matches/{match_id}")
    page.locator('[data-testid="share-text"] > summary').click()
    area = page.get_by_label("Select the text and copy it:")
    expect(area).to_be_visible()
    expect(area).to_have_value(line)
    assert page.evaluate("document.documentElement.scrollWidth <= 360")
    back.click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{tournament_id}$"))


@pytest.mark.browser
def test_in_the_browser_same_players_as_last_time_in_one_tap(phone_page, server):
    """With JavaScript (a boosted link): without it, the link is followed and the form sent as
    test_same_players_fills_names_seating_variant_rules_and_the_deal_passing_on follows and sends them."""
    expect = pytest.importorskip("playwright.sync_api").expect
    names = ["Giulia", "Marco", "Luca"]
    last = api(server, "/matches", {"players": names, "first_dealer": 2, "options": {"target": 5}})
    page = phone_page()
    page.goto("/matches/new")
    offer = page.locator('[data-testid="same-players"]')
    expect(offer).to_contain_text(f"Same players as last time {', '.join(names)} · Scopa classica")
    offer.click()                                                     # tap 1
    expect(page.locator('[data-testid="same-filled"]')).to_be_visible()
    for seat, name in enumerate(names, start=1):
        expect(page.locator(f"#player{seat}")).to_have_value(name)
    expect(page.locator('input[name="layout"][value="3"]')).to_be_checked()
    expect(page.locator("#preset")).to_have_value("classica")
    expect(page.locator("#target")).to_have_value("5")
    expect(page.locator("#first_dealer")).to_have_value("2")          # no hand played: Luca still
    page.locator('[data-testid="start"]').click()                    # tap 2
    page.wait_for_selector(".scoreboard")
    new_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    started = api(server, f"/matches/{new_id}")
    assert new_id != last["id"] and started["sides"] == last["sides"] and started["rules"] == last["rules"]
    assert started["next_hand"]["dealer"] == names[2]


STUB_SHARE = """Object.defineProperty(Navigator.prototype, "share", { configurable: true,
  value: (data) => { window.shared = data; return Promise.resolve(); } });"""
STUB_CLIPBOARD = """Object.defineProperty(Navigator.prototype, "share", { configurable: true, value: undefined });
Object.defineProperty(Navigator.prototype, "clipboard", { configurable: true,
  get: () => ({ writeText: (text) => { window.copied = text; return Promise.resolve(); } }) });"""
NEITHER = """Object.defineProperty(Navigator.prototype, "share", { configurable: true, value: undefined });
Object.defineProperty(Navigator.prototype, "clipboard", { configurable: true, value: undefined });"""


@pytest.mark.browser
def test_in_the_browser_share_uses_the_share_sheet_else_the_clipboard_else_shows_the_text(phone_page, server):
    """Three phones in turn on one page: the script asks for the share sheet and the clipboard
    at each tap (static/companion.js, shareResult), so each stub below stands for a phone that
    has, or has not, a share sheet or a clipboard."""
    expect = pytest.importorskip("playwright.sync_api").expect
    match_id = new_match(server, players=["Giulia", "Marco"], options={"target": 3})
    finish(server, match_id)
    line, url = "Giulia wins 4 to 0 · Scopa classica · 1 hand", f"{server}/matches/{match_id}"
    page = phone_page()
    page.goto(f"/matches/{match_id}")
    share = page.locator('[data-testid="share"]')
    assert below(page.locator('[data-testid="rematch"]'), share)
    # A phone with a share sheet: the sheet, nothing shown.
    page.evaluate(STUB_SHARE)
    share.click()
    page.wait_for_function("window.shared !== undefined")
    assert page.evaluate("window.shared") == {"title": "Giulia – Marco", "text": line, "url": url}
    expect(page.locator('[data-testid="share-text"]')).to_be_hidden()
    # Without one: copied, and said so.
    page.evaluate(STUB_CLIPBOARD)
    share.click()
    expect(page.locator('[data-testid="share-status"]')).to_have_text("Copied: paste it in a message.")
    assert page.evaluate("window.copied") == f"{line}\n{url}"
    # Over plain http on the table's Wi-Fi (http://192.168...): no share sheet, no clipboard
    # API. The text is shown, selected (and copied the old way where the browser still allows it).
    page.evaluate(NEITHER)
    share.click()
    area = page.locator('[data-testid="share-text"] textarea')
    expect(area).to_be_visible()
    expect(area).to_have_value(f"{line}\n{url}")
    assert area.evaluate("a => a.selectionStart === 0 && a.selectionEnd === a.value.length")


# -- The pages and the forms -----------------------------------------------------------------

def tournament_table(client, name="Circolo Arci", target=3):
    """A tournament of Anna and Bruno, its first round started: (its id, its one table's
    match id)."""
    made = client.post("/api/v1/tournaments", json={"name": name, "format": "round-robin",
                                                    "options": {"target": target},
                                                    "entrants": ["Anna", "Bruno"]})
    assert made.status_code == 201, made.get_json()
    tournament = client.post(f"/api/v1/tournaments/{made.get_json()['id']}/rounds", json={}).get_json()
    return tournament["id"], tournament["rounds"][0]["tables"][0]["match"]


def text(answer) -> str:
    return answer.get_data(as_text=True)


# -- 5. A tournament's table leads back --------------------------------------------------------

def test_a_tables_page_names_its_table_and_round_and_links_to_the_tournament(client):
    tournament_id, match_id = tournament_table(client)
    page = text(client.get(f"/matches/{match_id}"))
    link = one(page, '[data-testid="from-tournament"] > a')
    assert (link.attributes["href"], words(link)) == (f"/tournaments/{tournament_id}", "Table 1 · Round 1 of Circolo Arci")
    assert client.get(link.attributes["href"]).status_code == 200
    # In play: neither a delete nor (not yet) anything to do with a rematch.
    assert f"/matches/{match_id}/delete" not in page and "rematch" not in page.lower()


def test_a_finished_table_leads_back_to_the_tournament_instead_of_a_rematch(client):
    tournament_id, match_id = tournament_table(client)
    version = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    finish(client, match_id)
    page = text(client.get(f"/matches/{match_id}"))
    assert attr(page, "a.button.primary.wide.back-to-tournament", "href") == f"/tournaments/{tournament_id}"
    assert "Back to the tournament" in page
    assert f"/matches/{match_id}/rematch" not in page and 'data-testid="rematch"' not in page
    assert f"/matches/{match_id}/delete" not in page
    # The phones polling the match learn of it: the live region they get has the same button.
    live = text(client.get(f"/matches/{match_id}/poll?since={version}"))
    assert 'data-testid="back-to-tournament"' in live and 'data-testid="rematch"' not in live


def test_a_tables_rematch_sent_from_an_old_page_is_refused_in_words(client):
    _, match_id = tournament_table(client)
    finish(client, match_id)
    before = client.get(f"/api/v1/matches/{match_id}").get_json()
    for method in ("post", "get"):
        answer = getattr(client, method)(f"/matches/{match_id}/rematch")
        assert answer.status_code == 303 and answer.headers["Location"] == f"/matches/{match_id}"
    shown = text(client.get(f"/matches/{match_id}"))
    assert "a rematch would not count in the tournament" in shown
    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert after["version"] == before["version"]               # nothing changed: no rematch made
    assert client.get(f"/api/v1/matches/{match_id + 1}").status_code == 404


def test_a_tables_delete_page_says_at_once_that_it_is_never_deleted(client):
    _, match_id = tournament_table(client)
    client.post(f"/api/v1/matches/{match_id}/hands", json=FOUR_NIL)
    page = client.get(f"/matches/{match_id}/delete")
    assert page.status_code == 200
    words = text(page)
    assert "This match is table 1 of Circolo Arci: its result makes the standings." in words
    assert "Yes, delete it" not in words and 'name="version"' not in words       # nothing to confirm
    assert f'href="/matches/{match_id}"' in words and "Back to the match" in words
    # A POST from an old page (even with the right version) changes nothing, in words.
    version = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    refused = client.post(f"/matches/{match_id}/delete", data={"version": version}, follow_redirects=True)
    assert refused.status_code == 200 and "This match is table 1 of Circolo Arci" in text(refused)
    still = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert still["version"] == version and len(still["hands"]) == 1


def test_a_casual_match_keeps_its_rematch_and_delete(client):
    made = new_match(client, players=["Anna", "Bruno"], options={"target": 3})
    page = text(client.get(f"/matches/{made}"))
    assert 'data-testid="from-tournament"' not in page and f"/matches/{made}/delete" in page
    finish(client, made)
    page = text(client.get(f"/matches/{made}"))
    assert f'action="/matches/{made}/rematch"' in page and "back-to-tournament" not in page
    assert client.get(f"/matches/{made}/delete").status_code == 200
    assert "Yes, delete it" in text(client.get(f"/matches/{made}/delete"))


# -- 8. The same players again -----------------------------------------------------------------

def field_values(page: str) -> dict[str, str]:
    """The new match form as the page fills it: text inputs' values, checked radios, selected
    options."""
    return dict(form_data(page, "form.new-match"))


def test_no_offer_before_any_casual_match(client):
    assert 'data-testid="same-players"' not in text(client.get("/matches/new"))
    # A tournament's table is not "last time": its players are the pairing, not a group.
    tournament_table(client)
    assert 'data-testid="same-players"' not in text(client.get("/matches/new"))
    # Asked for anyway: the usual empty form.
    page = text(client.get("/matches/new?same=last"))
    assert 'data-testid="same-filled"' not in page and field_values(page)["player1"] == ""


def test_same_players_fills_names_seating_variant_rules_and_the_deal_passing_on(client):
    teams = [{"name": "Noi", "players": ["Anna", "Carla"]}, {"name": "Voi", "players": ["Bruno", "Dario"]}]
    last = client.post("/api/v1/matches", json={"variant": "scopone", "teams": teams, "first_dealer": 1,
                                                "options": {"target": 3, "capture": "fewest"}})
    match_id = last.get_json()["id"]
    played = client.post(f"/api/v1/matches/{match_id}/hands", json=FOUR_NIL)     # the deal moves on
    assert played.status_code == 201, played.get_json()
    tournament_table(client, name="Later")                                 # newer, but a table
    offer = text(client.get("/matches/new"))
    link = attr(offer, "a.button.wide.same-players", "href")
    assert link == "/matches/new?same=last"
    assert text_of(offer, "a.same-players") == "Same players as last time Anna, Bruno, Carla, Dario · Scopone"
    assert text_of(offer, "a.same-players > small") == "Anna, Bruno, Carla, Dario · Scopone"
    filled = text(client.get(link))
    assert 'data-testid="same-filled"' in filled and 'data-testid="same-players"' not in filled
    values = field_values(filled)
    assert {k: values[k] for k in ("player1", "player2", "player3", "player4", "team1", "team2")} == {
        "player1": "Anna", "player2": "Bruno", "player3": "Carla", "player4": "Dario",
        "team1": "Noi", "team2": "Voi"}
    assert values["layout"] == "2x2" and values["preset"] == "scopone"
    assert values["target"] == "3" and values["capture"] == "fewest"
    # The deal passes on as a rematch's would: Bruno dealt hand 1, so Carla (seat 2) deals.
    assert values["first_dealer"] == "2"
    # Started as it is (its form as a browser sends it, with JavaScript or without): the same
    # sides, rules and dealer.
    started = client.post("/matches/new", data=MultiDict(form_data(filled, "form.new-match")))
    assert started.status_code == 303
    new = client.get(f"/api/v1{started.headers['Location']}").get_json()
    old = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert new["sides"] == old["sides"] and new["rules"] == old["rules"]


def test_same_players_follows_the_newest_match_and_skips_a_deleted_one(client):
    first = new_match(client, players=["Giulia", "Marco", "Luca"])
    second = new_match(client, players=["Sara", "Teo"])
    assert "Sara, Teo · Scopa classica" in text(client.get("/matches/new"))
    version = client.get(f"/api/v1/matches/{second}").get_json()["version"]
    assert client.post(f"/matches/{second}/delete", data={"version": version}).status_code == 303
    values = field_values(text(client.get("/matches/new?same=last")))
    assert (values["layout"], values["player1"], values["player2"], values["player3"]) == ("3", "Giulia", "Marco", "Luca")
    assert first


# -- 9. Share the result -----------------------------------------------------------------------

def share_of(page: str) -> tuple[str, str] | None:
    found = nodes(page, "[data-share-text][data-share-url]")
    return (found[0].attributes["data-share-text"], found[0].attributes["data-share-url"]) if found else None


def test_a_finished_match_shares_its_result_with_its_address(client):
    made = new_match(client, players=["Giulia", "Marco"], options={"target": 3})
    assert share_of(text(client.get(f"/matches/{made}"))) is None        # nothing to share yet
    finish(client, made)
    page = text(client.get(f"/matches/{made}"))
    assert share_of(page) == ("Giulia wins 4 to 0 · Scopa classica · 1 hand", f"http://localhost/matches/{made}")
    # Without JavaScript: the same text and address, in a box to select and copy.
    box = one(page, 'textarea[id^="share-"][readonly][rows="3"]')
    assert box.text() == f"Giulia wins 4 to 0 · Scopa classica · 1 hand\nhttp://localhost/matches/{made}"
    # The Share button sits after the main button, not in its place.
    assert attrs(page, '[data-testid="rematch"], [data-testid="share"]', "data-testid") == ["rematch", "share"]
    client.get("/lang/it")
    assert share_of(text(client.get(f"/matches/{made}")))[0] == "Giulia vince 4 a 0 · Scopa classica · 1 mano"
    client.get("/lang/fr")
    assert share_of(text(client.get(f"/matches/{made}")))[0].endswith("· Scopa classica · 1 manche")


def test_the_shared_address_is_the_one_the_phones_open(app, client):
    app.config["LAN_URLS"] = ["http://192.168.1.23:8000/"]
    made = new_match(client, players=["Giulia", "Marco"], options={"target": 3})
    finish(client, made)
    assert share_of(text(client.get(f"/matches/{made}")))[1] == f"http://192.168.1.23:8000/matches/{made}"
