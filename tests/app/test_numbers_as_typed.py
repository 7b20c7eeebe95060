"""A number typed as text ("abc", "2.5") on a page is refused in the words the JSON API gives the
same text, in the player's language, at its field. Before, every number field of the pages
(a new match's target, a hand's counts and scope, a claim's scope and totals, a Swiss's rounds)
was WTForms' IntegerField, which refused the text itself in WTForms' words: "Not a valid integer
value." (in Italian its catalogue's "Non è una valore intero valido"), and the hand form's counts
were summed first (the text made a 500 once IntegerField no longer refused it:
``web.forms.WholeNumberField`` keeps the text for the request, the hand form refuses it at its
field). A late entrant's points were a choice parsed by hand."""

from __future__ import annotations

import sqlite3

import pytest

from companion.i18n import sentence
from helpers import counts_form, match_form, new_match
from markup import texts

LANGS = ["it", "en", "fr", "es"]


def spaced(words: str) -> str:
    return " ".join(words.split())


def refused_alike(client, lang: str, api_path: str, body: dict, page_path: str, form: dict,
                  field: str | None = None, alike=spaced) -> str:
    """The page's refusal of ``form`` and the API's of ``body``, the same sentence (at the page's
    ``field``, by its id, if given; compared as ``alike`` gives them); the API's words."""
    headers = {"Accept-Language": lang}
    answer = client.post(api_path, json=body, headers=headers)
    assert answer.status_code == 400, answer.get_json()
    api = answer.get_json()["error"]
    page = client.post(page_path, data=form, headers=headers)
    assert page.status_code == 400
    html = page.get_data(as_text=True)
    assert "integer" not in html and "intero valido" not in html and "entero válido" not in html
    assert [alike(words) for words in texts(page, "p.error")] == [alike(sentence(api))]
    if field:
        assert texts(page, f"#field-{field} p.error") == [spaced(sentence(api))]
    return api


@pytest.mark.parametrize("lang", LANGS)
def test_a_target_typed_as_text(client, lang):
    api = refused_alike(client, lang, "/api/v1/matches", {"players": ["Anna", "Bruno"], "options": {"target": "abc"}},
                        "/matches/new", match_form(target="abc"))
    if lang == "en":
        assert api.startswith("the target must be a whole number from 1 to 1000")
    with sqlite3.connect(client.application.config["DATABASE"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field, tally, english", [
    ("t_cards_0", {"cards": "abc"}, "the cards of Anna must be a whole number, 0 or more"),
    ("sweeps_0", {"sweeps": "2.5"}, "the sweeps of Anna must be a whole number, 0 or more"),
])
def test_a_hands_count_typed_as_text(client, lang, field, tally, english):
    match_id = new_match(client)
    body = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, **tally},
                        {"cards": 18, "coins": 4}]}
    api = refused_alike(client, lang, f"/api/v1/matches/{match_id}/hands", body,
                        f"/matches/{match_id}/hands/new", {**counts_form(22, 6), field: next(iter(tally.values()))})
    if lang == "en":
        assert api.startswith(english)
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_swiss_rounds_typed_as_text(client, lang):
    entrants = ["Anna", "Bruno", "Carla"]
    body = {"name": "Night", "format": "swiss", "variant": "classica", "entrants": entrants, "seeding": "order"}
    form = {**{k: v for k, v in body.items() if k != "entrants"}, "entrants": "\n".join(entrants)}
    refused_alike(client, lang, "/api/v1/tournaments", {**body, "rounds": "abc"},
                  "/tournaments/new", {**form, "rounds": "abc"}, field="t-rounds")


@pytest.mark.parametrize("lang", LANGS)
def test_a_claims_scope_typed_as_text(client, lang):
    """The claim's checker on the referee's page (no match) and the API's /claim. The page names
    the sides "Side 1" as its fields' labels do, the API's sides unnamed are "side 1": the case
    of the name's first letter aside, the same words."""
    refused_alike(client, lang, "/api/v1/claim", {"piles": [[], []], "sweeps": ["abc", 0], "claimer": 0},
                  "/referee/claim?sides=2", {"claimer": "0", "sweeps_0": "abc", "sweeps_1": "0"},
                  alike=lambda words: spaced(words).lower())


@pytest.mark.parametrize("typed, points", [("2", 2), ("", 0), ("0", 0)])
def test_a_late_entrants_points_as_chosen(typed, points, app):
    """The choice's number read by the field itself (``whole_or_text``), not parsed by hand."""
    from companion.tournaments.forms import LateEntrantForm
    with app.test_request_context(method="POST", data={"entrant": "Dario", "points": typed}):
        assert LateEntrantForm(meta={"csrf": False}).asked()["points_per_missed_round"] == points
