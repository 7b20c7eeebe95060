"""Issue 41: a hand's form drew its 40 tiles' selects with WTForms and markupsafe at every request
(about 17 ms of the costliest guest pages: a new hand, by counts, an edit). The grid is now kept
once drawn (``web.forms.pile_tiles``), by everything it is drawn from: it must be the grid the
template drew, and never another language's, pack's, table's or hand's."""

import pytest
from flask import render_template_string

from companion.table.hand_form import HandForm
from companion.web.forms import pile_tiles
from companion.web.pages import load_match
from helpers import new_match, split_deck
from markup import nodes

# The grid as hand.html included it before it was kept.
INCLUDED = '{% include "_pile_tiles.html" %}'


def grid(page: bytes) -> str:
    return nodes(page, ".piles-entry .grid")[0].html


def tapped(grid_html: str) -> dict[str, str]:
    """Each tapped tile's card and the side its select holds."""
    return {tile.attributes["data-card"]: option.attributes["value"]
            for tile in nodes(grid_html, ".tile") for option in tile.css("option[selected]")
            if option.attributes["value"]}


@pytest.mark.parametrize("lang", ["it", "en", "fr", "es"])
@pytest.mark.parametrize("pack", ["italian", "french", "spanish"])
def test_the_kept_grid_is_the_grid_the_template_draws(app, client, lang, pack):
    match_id = new_match(client, players=["Anna", "Bruno", "Carla"], options={"pack": pack})
    tapped = {f"c_{card}": str(i % 3) for i, card in enumerate(split_deck("1d 7d 3c 10s", 40)[0])}
    for data in ({}, tapped):
        with app.test_request_context(headers={"Accept-Language": lang}):
            form = HandForm(load_match(match_id), formdata=None, data=data)
            rows = form.card_fields()
            drawn = render_template_string(INCLUDED, rows=rows, pack=pack)
            assert pile_tiles(rows, pack) == drawn          # drawn, then kept
            assert pile_tiles(form.card_fields(), pack) == drawn


def test_a_kept_grid_is_never_another_languages_packs_tables_or_hands(app, client):
    italian = new_match(client, players=["Anna", "Bruno"])
    french = new_match(client, players=["Anna", "Bruno"], options={"pack": "french"})
    others = new_match(client, players=["Dario", "Elena"])
    first = grid(client.get(f"/matches/{italian}/hands/new", headers={"Accept-Language": "it"}).data)
    assert "7 di denari" in first and "Anna" in first
    english = grid(client.get(f"/matches/{italian}/hands/new", headers={"Accept-Language": "en"}).data)
    assert "Seven of coins" in english and "7 di denari" not in english
    hearts = grid(client.get(f"/matches/{french}/hands/new", headers={"Accept-Language": "it"}).data)
    assert 'data-pack="french"' in hearts and "7 di denari" not in hearts
    names = grid(client.get(f"/matches/{others}/hands/new", headers={"Accept-Language": "it"}).data)
    assert "Dario" in names and "Anna" not in names
    assert tapped(first) == {}
    hand = client.post(f"/api/v1/matches/{italian}/hands",
                       json={"piles": [[str(c) for c in pile] for pile in split_deck("7d 1d")]}).get_json()
    edited = grid(client.get(f"/matches/{italian}/hands/{hand['hand']['id']}/edit",
                             headers={"Accept-Language": "it"}).data)
    assert tapped(edited) == {"1d": "0", "7d": "0"}                 # the hand's two cards, Anna's
    again = grid(client.get(f"/matches/{italian}/hands/new", headers={"Accept-Language": "it"}).data)
    assert again == first
