"""Issue 33, item 5: "'Same players as last time' is this phone's last match (the phone that
created or scored it), and falls back to the club's newest only for a phone with none."

A phone is a test client of its own (``helpers.phone``: its own address and its own session
cookie, the one that keeps the PINs it entered), or a browser context of its own. Each plays a
casual match from the pages, as a phone at the table does."""

import pytest

from helpers import FOUR_NIL, counts_form, match_form, new_match, phone, phone_context
from markup import form_data, text as text_of


def offered(client) -> str | None:
    """The players and variant the new match page offers as "Same players as last time"."""
    page = client.get("/matches/new").get_data(as_text=True)
    return text_of(page, "a.same-players > small") if 'data-testid="same-players"' in page else None


def filled(client) -> list[str]:
    """The names the one tap fills in."""
    page = client.get("/matches/new?same=last").get_data(as_text=True)
    values = dict(form_data(page, "form.new-match"))
    return [values[f"player{seat}"] for seat in range(1, 5) if values.get(f"player{seat}")]


def started(client, *names) -> int:
    """A casual match of ``names`` started from the new match page: its id."""
    extra = {f"player{seat}": name for seat, name in enumerate(names, start=1)}
    answer = client.post("/matches/new", data=match_form(layout=str(len(names)), **extra))
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return int(answer.headers["Location"].rsplit("/", 1)[1])


# First: a test without the browser before it would stop the worker's Chromium, to be started
# again for it (tests/conftest.py's ``Chromium``).
@pytest.mark.browser
def test_in_the_browser_two_phones_are_each_offered_their_own_players(browser, server):
    expect = pytest.importorskip("playwright.sync_api").expect
    tables = {"first": ["Salvatore", "Gianni"], "second": ["Franco", "Gianni"]}
    contexts = {name: phone_context(browser, server) for name in tables}
    try:
        pages = {name: context.new_page() for name, context in contexts.items()}
        for name, players in tables.items():          # one after the other: the second is newer
            page = pages[name]
            page.goto("/matches/new")
            for seat, player in enumerate(players, start=1):
                page.locator(f"#player{seat}").fill(player)
            page.locator('[data-testid="start"]').click()
            page.wait_for_selector(".scoreboard")
        for name, players in tables.items():
            page = pages[name]
            page.goto("/matches/new")
            offer = page.locator('[data-testid="same-players"]')
            expect(offer).to_contain_text(f"Same players as last time {', '.join(players)} · Scopa classica")
            offer.click()
            for seat, player in enumerate(players, start=1):
                expect(page.locator(f"#player{seat}")).to_have_value(player)
    finally:
        for context in contexts.values():
            context.close()


def test_two_phones_are_each_offered_their_own_players_again(app):
    salvatore, franco = phone(app, "192.168.1.31"), phone(app, "192.168.1.32")
    started(salvatore, "Salvatore", "Gianni")
    started(franco, "Franco", "Gianni")                    # the club's newest match
    assert offered(salvatore) == "Salvatore, Gianni · Scopa classica"
    assert filled(salvatore) == ["Salvatore", "Gianni"]
    assert offered(franco) == "Franco, Gianni · Scopa classica"
    assert filled(franco) == ["Franco", "Gianni"]
    # A phone with no match of its own: the club's newest.
    newcomer = phone(app, "192.168.1.33")
    assert offered(newcomer) == "Franco, Gianni · Scopa classica"


def test_a_phone_that_scored_a_match_is_offered_it(app):
    anna, scorer = phone(app, "192.168.1.41"), phone(app, "192.168.1.42")
    older = started(anna, "Anna", "Bruno")
    started(scorer, "Dario", "Elena")
    started(phone(app, "192.168.1.43"), "Ugo", "Zoe")      # newer still, on a third phone
    # The scorer records a hand in Anna's match: that is its last match now.
    saved = scorer.post(f"/matches/{older}/hands/new", data=counts_form(22, 6, key="k1"))
    assert saved.status_code == 303, saved.get_data(as_text=True)
    assert offered(scorer) == "Anna, Bruno · Scopa classica"
    assert offered(anna) == "Anna, Bruno · Scopa classica"


def test_a_phones_deleted_match_or_tournament_table_is_not_last_time(app, client):
    mine = phone(app, "192.168.1.51")
    first = started(mine, "Anna", "Bruno")
    second = started(mine, "Carla", "Dario")
    new_match(client, players=["Ugo", "Zoe"])              # the club's newest, made elsewhere
    assert offered(mine) == "Carla, Dario · Scopa classica"
    version = client.get(f"/api/v1/matches/{second}").get_json()["version"]
    assert client.post(f"/matches/{second}/delete", data={"version": version}).status_code == 303
    assert offered(mine) == "Anna, Bruno · Scopa classica"     # its own match before, not Ugo's
    # A tournament's table it scores is the pairing, not a group that sat down to play.
    made = client.post("/api/v1/tournaments", json={"name": "Giovedì", "format": "round-robin",
                                                    "entrants": ["Elena", "Franco"]}).get_json()
    table = client.post(f"/api/v1/tournaments/{made['id']}/rounds", json={}).get_json()
    table_id = table["rounds"][0]["tables"][0]["match"]
    saved = client.post(f"/api/v1/matches/{table_id}/hands", json=FOUR_NIL)
    assert saved.status_code == 201
    assert offered(mine) == "Anna, Bruno · Scopa classica"
    version = client.get(f"/api/v1/matches/{first}").get_json()["version"]
    assert client.post(f"/matches/{first}/delete", data={"version": version}).status_code == 303
    # None of its own left: nothing is offered. The club's newest (Ugo's) is another table's,
    # the very offer the issue found wrong; only a phone that has played nothing is offered it.
    assert offered(mine) is None
