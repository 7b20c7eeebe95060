"""Issue 33, item 5: "'Same players as last time' is this phone's last match (the phone that
created or scored it), and falls back to the club's newest only for a phone with none."

A phone is a test client of its own (``helpers.phone``: an address and its own session cookie,
the one that keeps the PINs it entered and the matches it played). Each plays a casual match
from the pages, as a phone at the table does."""

from helpers import FOUR_NIL, counts_form, match_form, new_match, phone
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


def test_two_phones_are_each_offered_their_own_players(app):
    """Two phones behind one address (a club's Wi-Fi behind a relay, or the browser tests' two
    Chromium contexts on 127.0.0.1 before issue 44): each is its own signed cookie, which a
    browser keeps as the test client does (every browser test's form posts with the CSRF token
    kept in that cookie), so each is offered its own players."""
    salvatore, franco = phone(app, "192.168.1.31"), phone(app, "192.168.1.31")
    started(salvatore, "Salvatore", "Gianni")
    started(franco, "Franco", "Gianni")                    # the club's newest match
    assert offered(salvatore) == "Salvatore, Gianni · Scopa classica"
    assert filled(salvatore) == ["Salvatore", "Gianni"]
    assert offered(franco) == "Franco, Gianni · Scopa classica"
    assert filled(franco) == ["Franco", "Gianni"]
    # A phone with no match of its own: the club's newest.
    newcomer = phone(app, "192.168.1.31")
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
