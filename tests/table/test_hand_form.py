"""The hand's form as scripts and phones post it: its field names, each side's fields read by
their own names, its refusals in the page's language, and its round trip through the referee's
primiera tool."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from helpers import new_match
from markup import attrs, text

# Every field a phone posts on a hand's page, per rules: scripts post these names. Of two
# sides, the second's counts the deck decides are shown, not typed (issue 42): a script may
# still post them (read when the first side's is blank).
CARDS_40 = [f"c_{value}{suit}" for suit in "dcsb" for value in range(1, 11)]
TWO_SIDES = ["sweeps_0", "sweeps_1", "t_cards_0", "t_coins_0"]


def posted_names(page) -> list[str]:
    """The names of the fields the hand's form sends (the buttons and the typing aside)."""
    names = attrs(page, "form.hand-form [name]", "name")
    return sorted(set(names) - {"switch", "check", "save", "work_out", "typing", "tapping"})


@pytest.mark.parametrize("body, extra", [
    ({"players": ["Anna", "Bruno"]}, ["settebello", "primiera", "primiera_best"]),
    ({"players": ["Anna", "Bruno"], "variant": "bazzica"},
     ["settebello", "primiera", "primiera_best",
      *(f"decl_{k}_{part}" for k in range(4) for part in ("side", "deal", "cards"))]),
    ({"players": ["Anna", "Bruno"], "variant": "scalette"},
     ["settebello", "primiera", "primiera_best", "t_napola_0", "t_napola_1", "t_alta_0", "t_alta_1"]),
    ({"players": ["Anna", "Bruno"], "variant": "sco-papa"},
     ["settebello", "t_sevens_0", "t_sixes_0"]),
    ({"players": ["Anna", "Bruno"], "variant": "piva"},
     ["settebello", "re_bello", "piva", "primiera", "primiera_best",
      *(f"decl_{k}_{part}" for k in range(4) for part in ("side", "deal", "cards"))]),
])
def test_the_hand_form_posts_the_names_scripts_post(client, body, extra):
    match_id = new_match(client, **body)
    page = client.get(f"/matches/{match_id}/hands/new")
    expected = ["mode", "key", "version", "number", "csrf_token", "rest", *CARDS_40, *TWO_SIDES, *extra]
    assert posted_names(page) == sorted(set(expected) - {"csrf_token"})  # no CSRF in the tests' app


def test_a_four_player_count_down_match_has_each_sides_counts_and_36_cards_without_twos(client):
    # Four players each for themselves: a 36-card deck never seats three (RULES §10).
    match_id = new_match(client, players=["Anna", "Bruno", "Carla", "Dario"], variant="classica",
                         options={"primiera": "count-down", "deck": 36})
    names = posted_names(client.get(f"/matches/{match_id}/hands/new"))
    per_side = [f"{row}_{i}" for row in ("sweeps", "t_cards", "t_coins", "t_sevens", "t_sixes", "t_aces")
                for i in range(4)]
    cards = [name for name in CARDS_40 if not name.startswith("c_2")]
    assert names == sorted(["mode", "key", "version", "number", "rest", "settebello", "primiera",
                            *cards, *per_side])


def test_each_sides_count_is_read_by_its_own_name_whatever_else_is_posted(client):
    """Bruno's counts posted alone, beside fields of sides the match does not have: Bruno's stay
    Bruno's (a FieldList would renumber them into the first side's), Anna gets the rest."""
    match_id = new_match(client)
    answer = client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "save": "1", "t_cards_1": "18", "t_coins_1": "4", "sweeps_1": "2",
        "t_cards_5": "3", "sweeps_9": "7", "settebello": "0", "primiera": "0"})
    assert answer.status_code == 303
    tallies = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"][0]["entry"]["tallies"]
    assert [(t["cards"], t["coins"], t["sweeps"]) for t in tallies] == [(22, 6, 0), (18, 4, 2)]


@pytest.mark.parametrize("language, refusal", [       # said alone, a sentence (issue 42)
    ("it", "Indica quale giocatore ha fatto ogni dichiarazione"),
    ("fr", "Indiquez quel camp a fait chaque déclaration"),
    ("en", "Say which side made each declaration"),
])
def test_a_declaration_without_its_side_is_refused_in_the_pages_language(client, language, refusal):
    match_id = new_match(client, variant="bazzica")
    hand = {"mode": "piles", "rest": "1", "c_7d": "0", "decl_0_cards": ["1d", "1c", "1s"], "decl_0_deal": "2"}
    headers = {"Accept-Language": language}
    answer = client.post(f"/matches/{match_id}/hands/new", data={**hand, "save": "1"}, headers=headers)
    assert answer.status_code == 400
    assert text(answer, "[data-testid=error]") == refusal
    preview = client.post(f"/matches/{match_id}/hands/preview", data=hand, headers=headers)
    assert text(preview, "[data-testid=preview-error]") == refusal
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []


def test_the_primiera_tool_carries_the_hand_forms_own_fields_and_brings_them_back(client):
    match_id = new_match(client)
    answer = client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "key": "k1", "number": "1", "t_cards_0": "22", "sweeps_1": "1",
        "t_coins_1": "", "work_out": "primiera", "tapping": "0", "typing": "t_cards_0",
        "csrf_token": "x", "confirm_extreme": "1"})
    assert answer.status_code == 303
    query = dict(parse_qsl(urlsplit(answer.headers["Location"]).query))
    assert parse_qsl(query["keep"]) == [("mode", "tallies"), ("key", "k1"), ("number", "1"),
                                        ("t_cards_0", "22"), ("sweeps_1", "1")]
    tool = client.get(answer.headers["Location"] + "&best_0_d=7&best_1_d=6")
    back = {name: value for name, value in zip(
        attrs(tool, "[data-testid=back-to-hand] form:first-child input", "name"),
        attrs(tool, "[data-testid=back-to-hand] form:first-child input", "value"))}
    assert back["t_cards_0"] == "22" and back["sweeps_1"] == "1" and back["primiera_best"] == "7d/6d"
    again = client.post(f"/matches/{match_id}/hands/new", data={**back, "primiera": "0"})
    assert again.status_code == 200
    assert text(again, "[data-testid=worked-out]").startswith("Worked out by the referee:")


@pytest.mark.parametrize("keep", [None, "t_cards_0=1&" * 600])
def test_the_primiera_tool_asked_without_a_hand_form_or_with_too_much_goes_back_nowhere(client, keep):
    match_id = new_match(client)
    tool = client.get("/referee/primiera", query_string={"match": match_id, "keep": keep, "best_0_d": "7"})
    assert tool.status_code == 200
    assert attrs(tool, "[data-testid=back-to-hand]", "class") == []


# -- Each refusal by its field (issue 44) --------------------------------------------------

@pytest.mark.parametrize("fields, at, said", [
    ({"mode": "tallies", "t_cards_0": "-1", "t_coins_0": "6", "settebello": "0", "primiera": "0"},
     "t_cards_0", "The cards of Anna must be a whole number, 0 or more"),
    ({"mode": "tallies", "t_cards_0": "22", "t_coins_0": "-2", "settebello": "0", "primiera": "0"},
     "t_coins_0", "The coins of Anna must be a whole number, 0 or more"),
    ({"mode": "tallies", "t_cards_0": "22", "t_coins_0": "6", "settebello": "0", "primiera": "0",
      "sweeps_1": "-1"}, "sweeps_1", "The sweeps of Bruno must be a whole number, 0 or more"),
    ({"mode": "piles", "rest": "1", "c_7d": "0", "sweeps_0": "-4"},
     "sweeps_0", "The sweeps of Anna must be a whole number, 0 or more"),
])
def test_a_refused_count_is_said_by_its_own_field(client, fields, at, said):
    """The hand's request names the count it refuses (its loc: ``("tallies", 0, "cards")``):
    the page says it in that field's own error element, which the field names, and not at the
    top. Before, every refusal was at the top, the first only."""
    match_id = new_match(client)
    page = client.post(f"/matches/{match_id}/hands/new", data={**fields, "save": "1"})
    assert page.status_code == 400
    assert text(page, f"#{at}-error") == said
    assert attrs(page, f"#{at}", "aria-describedby") == [f"{at}-error"]
    assert attrs(page, f"#{at}", "aria-invalid") == ["true"]
    assert attrs(page, "[data-testid=error]", "class") == []         # nothing at the top
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []


def test_a_refusal_no_field_says_is_at_the_top(client):
    """A card in two piles names no one field: it stays at the top, and no field is marked."""
    match_id = new_match(client)
    page = client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "t_cards_0": "22", "t_coins_0": "11", "settebello": "0", "primiera": "0",
        "save": "1"})
    assert page.status_code == 400
    assert text(page, "[data-testid=error]") == "The coins entered add up to more than 10"
    assert attrs(page, "[aria-invalid]", "id") == []
