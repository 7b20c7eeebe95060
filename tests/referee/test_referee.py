"""The referee's pages: every capture and primiera example of the seeds, asked through the pages."""

import pytest

from markup import attr, attrs, content, nodes, texts


def captures(client, table, played, last=False, **query):
    """The captures the page lists (each a set of card names), and its verdict and reasons."""
    params = [("table", card) for card in table.split()] + [("played", played)]
    params += list(query.items()) + ([("last_play", "y")] if last else [])
    page = client.get("/referee/captures", query_string=params).get_data(as_text=True)
    found = sorted((capture.attributes["data-cards"], capture.attributes["data-sweep"])
                   for capture in nodes(page, "[data-cards][data-sweep]"))
    verdict = texts(page, '[data-testid="verdict"]')
    return found, (verdict[0] if verdict else None), page


@pytest.mark.parametrize("played, expected", [
    # 000: "The table contains 3, 5, 5, Fante. Playing a 5 captures one of the 5s from the table
    # at the player's choice. Playing a Re (king) captures both 5s. Playing a Fante (jack)
    # captures the one on the table - the player is not allowed to take the 5 and the 3 instead."
    ("5c", [("5d", "no"), ("5s", "no")]),
    ("10c", [("5d 5s", "no")]),
    ("8c", [("8b", "no")]),
])
def test_seed_000_three_five_five_fante(client, played, expected):
    found, verdict, page = captures(client, "3c 5d 5s 8b", played)
    assert found == expected
    assert verdict == "The card must capture: it cannot stay on the table."
    if played == "8c":
        assert "a single card of equal value must be taken before a sum" in page


@pytest.mark.parametrize("played, expected", [
    # 003: "The face up cards on the table are A, 3, 4, 5, 7. If the next player plays a 3, it
    # captures the 3 ... a Horse (9), it captures the 4 and the 5 ... a 6 it captures the Ace and
    # the 5 ... a 5 it just captures the 5 ... a Jack (8) ... either 5+3 or 4+3+A or 7+A."
    ("3d", ["3c"]),
    ("9d", ["1c 3c 5c", "4c 5c"]),       # A+3+5 is a set of 9 too (the seed names one)
    ("6d", ["1c 5c"]),
    ("5d", ["5c"]),
    ("8d", ["1c 3c 4c", "1c 7c", "3c 5c"]),
])
def test_seed_003_ace_three_four_five_seven(client, played, expected):
    found, _, _ = captures(client, "1c 3c 4c 5c 7c", played)
    assert [cards for cards, _ in found] == expected


def test_seed_004_knave_takes_the_knave(client):
    # 004: "if the table has contains a 1, 3, 4, and 8 ... and the player plays another Knave,
    # the player is not allowed to capture the 1, 3, and 4"
    assert captures(client, "1d 3c 4s 8b", "8d")[0] == [("8b", "no")]


def test_seed_004_six_must_take_two_and_four(client):
    # 004: "If, for example, a 2 and 4 are on the table, and a player holds a 6, the player must
    # either take that trick, or play a different card from his hand."
    found, verdict, _ = captures(client, "2c 4s", "6d")
    assert found == [("2c 4s", "yes")] and verdict == "The card must capture: it cannot stay on the table."
    last, _, page = captures(client, "2c 4s", "6d", last=True)
    assert last == [("2c 4s", "no")] and "the last card of the hand never makes a sweep" in page


def test_seed_001_sco_papa_king(client):
    # 001: "Le roi peut ainsi capturer le 7 et le 3" ... "le 7 et le 3 ne peuvent être capturés par
    # votre roi, car vous devez prendre le moins de cartes possible : vous capturez donc le roi"
    assert captures(client, "2c 7s 3b", "10d", variant="sco-papa")[0] == [("7s 3b", "no")]
    assert captures(client, "7s 3b 10c", "10d", variant="sco-papa")[0] == [("10c", "no")]


def test_seed_003_quindici_and_ace_takes_all(client):
    # 003: "if the table cards are A, 3, 4, 7 and you play a 4, it captures either the 4 and the
    # 7 or the A, 3 and 7 at your choice."
    found, _, _ = captures(client, "1c 3c 4c 7c", "4d", variant="quindici", capture="quindici-1")
    assert [cards for cards, _ in found] == ["1c 3c 7c", "4c 7c"]
    # 003: "playing an Ace takes all the table cards and scores a point for a sweep"
    assert captures(client, "3c 5c 9s", "1d", variant="asso-pigliatutto")[0] == [("3c 5c 9s", "yes")]
    # 003 Scopa d'Assi: "taking all the cards with an Ace does not count as a sweep"
    assert captures(client, "3c 5c 9s", "1d", variant="scopa-d-assi")[0] == [("3c 5c 9s", "no")]


def test_nothing_to_take_means_placing(client):
    found, verdict, _ = captures(client, "9c 10s", "2d")
    assert found == [] and verdict == "The card stays on the table."


def test_a_card_both_played_and_on_the_table_is_refused(client):
    _, _, page = captures(client, "7d 3c", "7d")
    assert "Seven of coins cannot be both on the table and played" in page


def test_htmx_gets_only_the_answer(client):
    response = client.get("/referee/captures?table=2c&table=4s&played=6d", headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert "<html" not in text and 'data-cards="2c 4s"' in text
    assert "HX-Request" in response.vary


def test_a_form_sent_by_htmx_whole_gets_the_whole_page(client):
    """A boosted form (the hand form's "Who has it? Work it out", sent by htmx and redirected
    here) swaps the whole page: it must get the page, not the answer alone."""
    response = client.get("/referee/captures?table=2c&table=4s&played=6d",
                          headers={"HX-Request": "true", "HX-Boosted": "true"})
    text = response.get_data(as_text=True)
    assert "<html" in text and "2c 4s" in attrs(text, "[data-cards]", "data-cards")


# -- Primiera ------------------------------------------------------------------------------

def primiera(client, **query):
    """The tool's answer for ``query``: who wins, and the page's words (its text, white space
    folded)."""
    page = client.get("/referee/primiera", query_string=query).get_data(as_text=True)
    winner = texts(page, '[data-testid="winner"]')
    return (winner[0] if winner else None), content(page, "body")


def test_seed_004_primiera_of_76(client):
    # 004: "the sevens of cups and coins, the six of clubs and the ace of swords, that team's
    # prime is (21 + 21 + 18 + 16) = 76."
    _, page = primiera(client, best_0_d=7, best_0_c=7, best_0_b=6, best_0_s=1)
    assert "Seven of coins 21 + Seven of cups 21 + Ace of swords 16 + Six of clubs 18 = 76" in page


@pytest.mark.parametrize("lang, placeholder, marks, typed", [
    ("en", "7co 7cu 6cl 1sw", "co coins, cu cups, sw swords, cl clubs", "7co 7cu 6cl 1sw"),
    ("it", "7d 7c 6b 1s", "d denari, c coppe, s spade, b bastoni", "7d 7c 6b 1s"),
    ("fr", "7d 7c 6b 1é", "d deniers, c coupes, é épées, b bâtons", "7d 7c 6b 1é"),
    ("es", "7o 7c 6b 1e", "o oros, c copas, e espadas, b bastos", "7o 7c 6b 1e"),
])
def test_every_card_is_shown_and_read_with_the_pages_own_suit_marks(client, lang, placeholder, marks, typed):
    """Issue 35: the "or every card" box showed "7d 7c 6b 1s" to an English player, who reads "7c"
    as the seven of clubs: it means cups. Each page writes the suits as its card tiles mark them,
    says what the marks are, and reads them; RULES §1's notation is read on every page too."""
    client.set_cookie("lang", lang)
    page = client.get("/referee/primiera").get_data(as_text=True)
    assert attr(page, "#cards_0", "placeholder") == placeholder
    assert marks in content(page, "#cards_0 ~ .hint")
    # 004's 76: the sevens of cups and coins, the six of clubs and the ace of swords.
    for cards in (typed, "7d 7c 6b 1s"):
        _, answer = primiera(client, cards_0=cards, cards_1="7s")
        assert "= 76" in answer, (cards, answer)


def test_seed_001_primiera_of_47(client):
    # 001: "14 + 13 + 10 + 10 = 47"
    _, page = primiera(client, cards_0="4s 3c 10d 9b")
    assert "= 47" in page


def test_seed_000_jacks_and_a_seven_beat_three_sevens(client):
    # 000: "even three jacks and a seven (51 points) is sufficient to beat three sevens with no
    # card in the fourth suit."
    winner, page = primiera(client, cards_0="8d 8c 8s 7b", cards_1="7d 7c 7s")
    assert winner == "Side 1 wins the primiera" and "= 51" in page and "= 63" in page


@pytest.mark.parametrize("missing_suit", ["loses", "void", "zero"])
def test_seed_004_seven_and_three_aces_beat_three_sevens(client, missing_suit):
    # 004: "If one player has three sevens (3x21) and no cards of the fourth suit (sum=63), his
    # opponent can win the 'prime' with one seven (21) and three aces (3x16) ... 69."
    winner, page = primiera(client, cards_0="7d 1c 1s 1b", cards_1="7c 7s 7b", missing_suit=missing_suit)
    assert winner == "Side 1 wins the primiera" and "= 69" in page and "= 63" in page


def test_the_trailing_side_is_told_what_would_overtake(client):
    # Side 1: 7d 6c 6s 6b = 75; side 2: 5d 7c 7s 5b = 72. The 7 of bastoni would give side 2
    # 21 + 21 + 15 + 21 = 78; the 6 of denari only ties at 75; the 7 of denari is taken.
    query = {"cards_0": "7d 6c 6s 6b", "cards_1": "7s 7c 5d 5b"}
    winner, _ = primiera(client, **query)
    assert winner == "Side 1 wins the primiera"
    page = client.get("/referee/primiera", query_string=query)
    assert content(page, '[data-testid="overtake-1"]').startswith("Side 2: the Seven of clubs would give 78.")
    assert texts(page, '[data-testid="overtake-1"] > b') == ["Side 2"]


def test_when_no_single_card_overtakes_it_says_so(client):
    # 78 v 72: the 7 of bastoni would only tie at 78.
    _, page = primiera(client, cards_0="7d 7c 6s 6b", cards_1="7s 6d 6c 5b")
    assert "Side 2: no single card still free would win it." in page


def test_same_card_for_two_sides_is_refused(client):
    _, page = primiera(client, cards_0="7d", cards_1="7d 6c")
    assert "Seven of coins is entered for both Side 1 and Side 2" in page


def test_sevens_and_sixes_through_the_page(client):
    # 001: "le plus de cartes de valeur 7. En cas d'égalité ... le plus de cartes de valeur 6"
    winner, _ = primiera(client, variant="sco-papa", cards_0="7d 7c", cards_1="7s 7b 6d")
    assert winner == "Side 2 wins the primiera"


# -- The deal and the rules card -----------------------------------------------------------

def test_three_kings_on_the_first_table_deal_again(client):
    # 000: "If three or all four of the table cards are kings, the cards are thrown in"
    page = client.get("/referee/deal?table=10d&table=10c&table=10s&table=4b")
    assert texts(page, '[data-testid="verdict"]') == ["Deal again"]
    page = client.get("/referee/deal?table=10d&table=10c&table=5s&table=4b")
    assert texts(page, '[data-testid="verdict"]') == ["The deal stands"]
    # 003 Chkobba: "three or four equal valued cards in the initial table layout"
    page = client.get("/referee/deal?variant=chkobba&table=4d&table=4c&table=4s&table=5b")
    assert texts(page, '[data-testid="verdict"]') == ["Deal again"]


def test_the_deal_check_takes_the_four_cards_of_the_first_table(client):
    # RULES §10: "The deal check takes exactly the four cards of the first table; any other
    # number is refused (400), as is a first table for Scopone, which deals none."
    for table in (["10d", "10c", "10s"], ["10d", "10c", "10s", "4b", "5b"], []):
        answer = client.post("/api/v1/deal", json={"table": table})
        assert answer.status_code == 400
        assert answer.get_json()["error"] == (
            f"the first table is 4 cards: {len(table)} card{'s were' if len(table) != 1 else ' was'} given")
    answer = client.post("/api/v1/deal", json={"variant": "scopone", "table": ["10d", "10c", "10s", "4b"]})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == "Scopone deals every card to the players: there is no first table"


def test_the_referees_deal_tool_waits_for_four_cards_and_has_none_for_scopone(client):
    page = client.get("/referee/deal?table=10d&table=10c").get_data(as_text=True)
    assert 'data-testid="tap-more"' in page and "Tap the 4 cards of the first table (2 so far)." in page
    assert 'data-testid="error"' not in page and 'data-testid="verdict"' not in page
    page = client.get("/referee/deal?table=10d&table=10c&table=10s&table=4b&table=5b").get_data(as_text=True)
    assert "The first table is 4 cards: 5 cards were given" in page       # a sentence (issue 42)
    page = client.get("/referee/deal?variant=scopone&players=4").get_data(as_text=True)
    assert 'data-testid="no-table"' in page and "there is no first table" in page
    assert 'name="table"' not in page              # no grid to tap: nothing to check


@pytest.mark.parametrize("variant, players, plan", [
    ("classica", 2, "3 cards each, 4 face up on the table; then 3 each, 6 deals in all"),
    ("classica", 4, "3 cards each, 4 face up on the table; then 3 each, 3 deals in all"),
    ("scopone", 4, "10 cards each, none on the table"),
    # 003 and RULES §10: two players get 3 cards each with 4 on the table, then 3, 3, 3 and 4.
    ("corse", 2, "3 cards each, 4 face up on the table; then 3, 3, 3, 4 each, 5 deals in all"),
])
def test_the_deal_plan_of_each_variant(client, variant, players, plan):
    page = client.get(f"/referee/deal?variant={variant}&players={players}").get_data(as_text=True)
    assert plan in page


@pytest.mark.parametrize("variant, says", [
    ("classica", "First to 11"), ("napola", "Napola"), ("piva", "−5 for the Two of clubs"),
    ("hurrikan", "Double game when the loser has under 8"), ("sco-papa", "most sevens, then most sixes"),
    ("quindici", "an Ace takes all"), ("corse", "capturing never compulsory"),
])
def test_the_rules_card(client, variant, says):
    page = client.get(f"/referee/rules?variant={variant}").get_data(as_text=True)
    assert says in page


# -- Chiamarsi fuori in a match ------------------------------------------------------------

def claims_match(client, claims=True):
    data = {"layout": "2", "player1": "Anna", "player2": "Bruno", "first_dealer": "0",
            "preset": "classica", "deck": "40", "bonus_suit": "d", "primiera": "standard",
            "missing_suit": "loses", "napola": "off", "declarations": "off", "target": "11",
            "capture": "standard", "void_deal": "kings", "pack": "italian"}
    if claims:
        data["claims"] = "y"
    response = client.post("/matches/new", data=data)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_a_claim_checked_and_recorded_ends_the_match(client):
    match_id = claims_match(client)
    client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "rest": "1", "t_cards_0": "22", "t_coins_0": "6", "settebello": "0",
        "primiera": "0", "sweeps_0": "5", "sweeps_1": "0"})           # Anna 9
    assert "Chiamarsi fuori" in client.get(f"/matches/{match_id}").get_data(as_text=True)
    query = {"match": match_id, "claimer": "0", "c_7d": "0", "c_1c": "0", "sweeps_0": "1"}
    page = client.get("/referee/claim", query_string=query).get_data(as_text=True)
    assert "Anna is out: the claim holds" in page and "9 + 2 certain" in page
    response = client.post(f"/referee/claim?match={match_id}", data={k: v for k, v in query.items() if k != "match"})
    assert response.status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Anna called out and wins" in page


@pytest.mark.parametrize("lang, certain", [("en", "9 + 2 certain (Settebello 1, Scope 1)"),
                                           ("es", "9 + 2 seguros (Settebello 1, Escobas 1)"),
                                           ("fr", "(Settebello 1, Scope 1)")])
def test_a_claims_certain_points_are_named_in_the_pages_words(client, lang, certain):
    """The certain points were the rules' keys on every page: "(settebello 1, scope 1)", Italian
    on a Spanish or French page. The API's sentence keeps them (test_api's claim)."""
    match_id = claims_match(client)
    client.post(f"/matches/{match_id}/hands/new", data={
        "mode": "tallies", "rest": "1", "t_cards_0": "22", "t_coins_0": "6", "settebello": "0",
        "primiera": "0", "sweeps_0": "5", "sweeps_1": "0"})           # Anna 9
    client.set_cookie("lang", lang)
    query = {"match": match_id, "claimer": "0", "c_7d": "0", "c_1c": "0", "sweeps_0": "1"}
    page = client.get("/referee/claim", query_string=query).get_data(as_text=True)
    assert certain in page and "scope 1" not in page


def test_a_failed_claim_loses_the_match(client):
    match_id = claims_match(client)
    client.post(f"/referee/claim?match={match_id}", data={"claimer": "1", "c_1c": "1"})
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Bruno called out and loses: Anna wins" in page
    # The claim can be deleted, and the match goes on.
    client.post(f"/matches/{match_id}/hands/1/delete", data={"version": "1"})
    assert "called out" not in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_a_claim_for_a_match_deleted_meanwhile_is_not_found(client, monkeypatch):
    """The match is deleted on another phone while the claim is being checked: the claim is
    answered as a hand for that match is (404), not with a server error."""
    from companion import store
    match_id = claims_match(client)
    found = store.reads.built_match

    def deleted_meanwhile(db, wanted, build):
        shown = found(db, wanted, build)
        store.delete_match(db, wanted)          # another phone, just after the page loaded it
        return shown

    monkeypatch.setattr(store.reads, "built_match", deleted_meanwhile)      # as the referee reads it
    response = client.post(f"/referee/claim?match={match_id}", data={"claimer": "1", "c_1c": "1"})
    assert response.status_code == 404


def test_no_claims_in_a_match_without_them(client):
    match_id = claims_match(client, claims=False)
    response = client.get(f"/referee/claim?match={match_id}")
    assert response.status_code == 303
    assert "Chiamarsi fuori <small>" not in client.get(f"/matches/{match_id}").get_data(as_text=True)


def test_every_tool_is_one_tap_from_the_match_page(client):
    match_id = claims_match(client)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    for tool in ("captures", "primiera", "deal", "rules", "claim"):
        assert f'href="/referee/{tool}?match={match_id}"' in page
        assert client.get(f"/referee/{tool}?match={match_id}").status_code == 200


# -- Issue 32, finding 6: a full table lists a page of captures and counts the rest --------------

FULL_TABLE = " ".join(f"{value}{suit}" for suit in "dcsb" for value in range(1, 11) if f"{value}{suit}" != "5d")


def test_a_table_of_39_cards_lists_a_page_and_counts_the_rest(client):
    # RULES §7 quindici: "an equal-valued card or set, or a set totalling 15 with the played
    # card". 39 cards on the table make 1,702 choices: the page lists 20, says how many more,
    # and links to the next 20 (it was every choice, 5 MB).
    found, verdict, page = captures(client, FULL_TABLE, "5d", variant="quindici")
    assert len(found) == 20 and len(page) < 100_000
    assert "1,702 captures" in page and "and 1,682 more" in page
    assert verdict == "The card must capture: it cannot stay on the table."
    following = attr(page, '[rel="next"][href]', "href")
    second = client.get(following).get_data(as_text=True)
    assert "Captures 21 to 40" in second and "and 1,662 more" in second and 'rel="prev"' in second
    assert not set(attrs(second, "[data-cards]", "data-cards")) & {cards for cards, _ in found}


@pytest.mark.parametrize("language, words", [
    ("it", "1.702 prese"), ("fr", "1\u202f702 prises"), ("en", "1,702 captures"),
    ("es-ES", "1.702 jugadas"), ("es-MX", "1,702 jugadas")])
def test_the_count_is_said_in_the_phones_language(client, language, words):
    params = [("table", card) for card in FULL_TABLE.split()] + [("played", "5d"), ("variant", "quindici")]
    page = client.get("/referee/captures", query_string=params, headers={"Accept-Language": language})
    assert words in page.get_data(as_text=True)


def test_a_page_past_the_last_lists_nothing_and_leads_back(client):
    found, _, page = captures(client, FULL_TABLE, "5d", variant="quindici", page="9999")
    assert found == [] and "1,702 captures" in page and 'rel="prev"' in page and 'rel="next"' not in page
