"""A hand by counts fixed in one go (issue 42): of two sides, what the deck decides is asked
once. The second side's cards, coins (and sevens, sixes, aces) are the rest of the deck, shown
beside the first's and never typed; editing the first side's figure is enough. With three or
four sides every side is typed, and the JSON API still takes both figures, refusing them where
they cannot be.

The figure following as it is typed (the page's script) is checked in the browser by
tests/table/test_counts_help.py's test_in_the_browser_the_other_sides_figure_follows_as_it_is_typed,
on that module's phone: a browser test here was a server and a phone started for one page."""

from werkzeug.datastructures import MultiDict

from helpers import FOUR_NIL, new_match
from markup import count, form_data, text

# -- The forms and the API ---------------------------------------------------------------------

def recorded(client) -> tuple[int, int]:
    """A match of Anna and Bruno with one hand by counts: Anna 22 cards, 6 coins."""
    match_id = new_match(client)
    saved = client.post(f"/api/v1/matches/{match_id}/hands", json=FOUR_NIL)
    assert saved.status_code == 201, saved.get_json()
    return match_id, saved.get_json()["hand"]["id"]


def stored(client, match_id) -> list[tuple[int, int]]:
    tallies = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]["entry"]["tallies"]
    return [(tally["cards"], tally["coins"]) for tally in tallies]


def test_changing_only_annas_coins_in_the_edit_form_is_enough(client):
    # Issue 42: "Changing only Anna's coins from 6 to 5 in the edit form answers "le carte di
    # denari sono 9 in tutto, non 10": the player must edit the other side too, whose figure the
    # deck already decides."
    match_id, hand_id = recorded(client)
    edit = f"/matches/{match_id}/hands/{hand_id}/edit"
    page = client.get(edit).get_data(as_text=True)
    assert (text(page, '[data-testid="rest-cards"]'), text(page, '[data-testid="rest-coins"]')) == ("18", "4")
    assert count(page, 'input[name="t_coins_1"], input[name="t_cards_1"]') == 0
    fields = [(name, "5" if name == "t_coins_0" else value) for name, value in form_data(page, "form.hand-form")]
    saved = client.post(edit, data=MultiDict([*fields, ("save", "1")]))
    assert saved.status_code == 303, saved.get_data(as_text=True)[-600:]
    assert stored(client, match_id) == [(22, 5), (18, 5)]


def test_a_page_of_before_that_sends_both_figures_reads_the_first(client):
    """A phone that kept the old form posts Bruno's 4 beside Anna's new 5: Anna's is read, and
    Bruno's is the rest of the deck (the refusal "9 in all, not 10" was the issue's)."""
    match_id, hand_id = recorded(client)
    edit = f"/matches/{match_id}/hands/{hand_id}/edit"
    fields = dict(form_data(client.get(edit).get_data(as_text=True), "form.hand-form"))
    saved = client.post(edit, data={**fields, "t_coins_0": "5", "t_coins_1": "4", "t_cards_1": "18", "save": "1"})
    assert saved.status_code == 303
    assert stored(client, match_id) == [(22, 5), (18, 5)]


def test_without_javascript_the_shown_figure_follows_when_the_score_is_shown(client):
    """The form's "Show the score" (no script) draws the page again with Bruno's figures worked
    out from what Anna's now are."""
    match_id, hand_id = recorded(client)
    edit = f"/matches/{match_id}/hands/{hand_id}/edit"
    fields = dict(form_data(client.get(edit).get_data(as_text=True), "form.hand-form"))
    page = client.post(edit, data={**fields, "t_coins_0": "7", "t_cards_0": "25", "check": "1"})
    assert (text(page, '[data-testid="rest-cards"]'), text(page, '[data-testid="rest-coins"]')) == ("15", "3")
    # A figure the deck cannot hold shows nothing beside it, and is refused in words.
    page = client.post(edit, data={**fields, "t_coins_0": "12", "check": "1"})
    assert text(page, '[data-testid="rest-coins"]') == ""


def test_with_three_sides_every_side_is_typed(client):
    match_id = new_match(client, players=["Anna", "Bruno", "Carla"])
    page = client.get(f"/matches/{match_id}/hands/new?mode=tallies").get_data(as_text=True)
    assert count(page, "output.tally-rest") == 0
    assert count(page, 'input[name^="t_cards_"], input[name^="t_coins_"]') == 6


def test_the_api_still_takes_both_figures_and_refuses_them_where_they_cannot_be(client):
    tallies = [{**FOUR_NIL["tallies"][0], "coins": 5}, {**FOUR_NIL["tallies"][1], "coins": 5}]
    assert client.post("/api/v1/score", json={"tallies": tallies}).status_code == 200
    wrong = [{**FOUR_NIL["tallies"][0], "coins": 5}, FOUR_NIL["tallies"][1]]
    refused = client.post("/api/v1/score", json={"tallies": wrong})
    assert refused.status_code == 400 and refused.get_json()["error"] == "the denari add up to 9, not 10"
