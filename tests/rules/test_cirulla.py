"""Cirulla, the Scopa of Liguria (issue 34; docs/rules.md §11): each point of its core with
the sentence of the source it is read from."""

import pytest

from companion.rules import check_deal, deck, legal_captures, parse_card, score_piles
from companion.rules.cards import CardError
from companion.rules.deal import deal_plan
from companion.rules.declarations import Declaration, judge
from companion.rules.rulesets import RulesError, check_seating, rules_for
from helpers import cards, split_deck

CIRULLA = rules_for("cirulla")


def taken(table, played, rules=CIRULLA):
    ruling = legal_captures(cards(table), parse_card(played), rules)
    return sorted(" ".join(str(c) for c in capture.cards) for capture in ruling.captures), ruling


# -- The pack, the seats, the target --------------------------------------------------------

def test_forty_cards_to_fifty_one():
    # casinosanremogratis.growthagents.org "Cirulla": "Una partita classica consiste in più
    # smazzate fino al raggiungimento di 51 punti." pagat.com: "Cirulla is played with a 40-card
    # pack with French suits".
    assert (CIRULLA.deck, CIRULLA.target, CIRULLA.pack) == (40, 51, "french")


@pytest.mark.parametrize("sides, per_side", [(2, 1), (3, 1), (2, 2)])
def test_two_or_three_players_or_two_teams_of_two(sides, per_side):
    # regoledelgioco.com "Cirulla": "In 2, in 3 o in 4 a coppie."
    check_seating(CIRULLA, sides, per_side)


@pytest.mark.parametrize("sides, per_side", [(4, 1), (2, 3)])
def test_four_each_for_themselves_or_teams_of_three_are_refused(sides, per_side):
    with pytest.raises(RulesError, match="two or three players, or by two teams of two"):
        check_seating(CIRULLA, sides, per_side)


@pytest.mark.parametrize("players, deals", [(2, 6), (3, 4), (4, 3)])
def test_the_deal_plan_adds_up_to_forty(players, deals):
    # it.wikipedia.org "Cirulla": "con un mazzo si fanno 6 turni nel gioco a due giocatori, 4
    # turni nel gioco a tre e 3 turni nel gioco a quattro."
    plan = deal_plan(CIRULLA, players)
    assert plan.hands == (3,) * deals and plan.table == 4
    assert sum(plan.hands) * players + plan.table == 40


# -- Captures: as in Scopa, or 15 with the card played; the Ace takes all --------------------

def test_a_three_takes_a_king_and_a_two_making_fifteen():
    # the7thseacomix.altervista.org "la Cirulla": "Es: hai un 3, in “campo” ci sono un Re (10)
    # ed un 2. Verrà quindi 10+3+2=15. Puoi prendere."
    options, ruling = taken("10d 2c", "3b")
    assert options == ["10d 2c"]
    assert not ruling.may_place


def test_a_five_takes_two_and_three_by_sum():
    # the7thseacomix.altervista.org: "Es: hai un 5, in campo ci sono 2+3, cali il 5 poichè = 2+3
    # e prendi tutto."
    options, _ = taken("2d 3c", "5b")
    assert options == ["2d 3c"]


def test_equal_value_or_fifteen_free_choice():
    # regoledelgioco.com: "se si cala un 7 e sul tavolo ci sono un 3, un 5, un 6 e un 7 [...] si
    # può raccogliere il solo 7 [...] è possibile però raccogliere il 3 e il 5 attraverso la
    # presa da 15"
    options, _ = taken("3d 5c 6s 7b", "7d")
    assert "7b" in options and "3d 5c" in options


def test_the_ace_takes_the_whole_table_unless_an_ace_lies_on_it():
    # casinosanremogratis.growthagents.org "Cirulla": "Nel caso giochi un asso, se in tavola c’è
    # un asso prende l’asso, se in tavola non ci sono assi prende tutte le carte in tavola e se
    # non ci sono carte in tavola scarta l’asso senza fare prese."
    options, ruling = taken("10d 4c 6s", "1b")
    assert options == ["10d 4c 6s"] and ruling.captures[0].sweep
    options, _ = taken("1d 4c 6s", "1b")
    assert options == ["1d"]
    options, ruling = taken("", "1b")
    assert options == [] and ruling.may_place


# -- The deal: 15 and 30 give the dealer scope; two Aces void it ----------------------------

@pytest.mark.parametrize("table, scope", [("2d 3c 4s 6b", 1), ("10d 10c 4s 6b", 2),
                                          ("8d 9c 7s 6b", 2), ("2d 3c 4s 5b", 0)])
def test_fifteen_gives_the_dealer_one_scopa_thirty_two(table, scope):
    # regoledelgioco.com: "se la somma di queste carte è 15 il mazziere le raccoglie e segna una
    # Scopa, se la somma è 30, ne segna due."
    check = check_deal(cards(table), CIRULLA)
    assert not check.void and check.scope == scope


def test_the_matta_on_the_table_counts_as_the_dealer_wishes():
    # Parlett, The Penguin Book of Card Games, "Cirulla": "The 7 (♥), if among them, is wild, and
    # represents any valid count the dealer wishes."
    assert check_deal(cards("7c 2d 3s 4b"), CIRULLA).scope == 1          # the matta as a 6
    assert check_deal(cards("7c 10d 9s 4b"), CIRULLA).scope == 2         # ... as a 7: 30
    assert check_deal(cards("7c 2d 3s 4b"), rules_for("cirulla", {"matta": False})).scope == 0


def test_two_or_more_aces_void_the_deal():
    # regoledelgioco.com: "Se invece tra le quattro carte iniziali in tavola ci sono due o più
    # Assi, la mano viene considerata a monte"
    assert check_deal(cards("1d 1c 5s 8b"), CIRULLA).void      # and 15, but void first
    assert not check_deal(cards("1d 2c 5s 8b"), CIRULLA).void
    assert not check_deal(cards("10d 10c 10s 8b"), CIRULLA).void   # three Kings do not


# -- Declarations: busso and tris, with the matta -------------------------------------------

def test_a_hand_under_ten_is_a_busso_of_three():
    # Parlett: "If, after any such deal or re-deal, a player’s three cards total less than 10,
    # he may ‘knock’ (bussare), reveal them all, and score 3 scope"
    assert judge(cards("1d 2c 6s"), "cirulla").points == 3
    with pytest.raises(CardError, match="add up to 10"):
        judge(cards("1d 3c 6s"), "cirulla")


def test_three_of_a_kind_is_a_tris_of_ten():
    # Parlett: "A player dealt three of a kind at any time may also knock for 10 points."
    assert judge(cards("5d 5c 5s"), "cirulla").kind == "tris"
    assert judge(cards("5d 5c 5s"), "cirulla").points == 10


def test_the_matta_is_wild_in_a_declaration():
    # Parlett: "the 7 (or 7) may be used as a wild card for the purpose of knocking for a low
    # total or three of a kind." blunote.it "Cirulla: il re dei giochi di carte liguri": "il 7
    # di Cuori, detto la “Matta”, che può assumere qualunque valore"
    assert judge(cards("9d 9c 7c"), "cirulla", matta=True).kind == "tris"
    assert judge(cards("2d 3c 7c"), "cirulla", matta=True).kind == "busso"
    with pytest.raises(CardError):
        judge(cards("2d 3c 7c"), "cirulla", matta=False)


def test_every_declaration_scores_and_three_sides_may_declare():
    piles = [cards("1s 2s 3b"), cards("5d 5c 5s"), cards("4d 4c 4b")]
    rest = [card for card in deck() if card not in sum(piles, [])]
    declared = [Declaration(0, 1, tuple(piles[0])), Declaration(1, 1, tuple(piles[1])),
                Declaration(2, 2, tuple(piles[2]))]
    hand = score_piles([piles[0] + rest, piles[1], piles[2]], [0, 0, 0], CIRULLA, declared)
    assert hand.points(0)["declarations"] == 3
    assert hand.points(1)["declarations"] == 10 and hand.points(2)["declarations"] == 10


def test_a_card_shown_twice_in_a_deal_is_refused():
    first, second = split_deck("1s 2s 3b")
    declared = [Declaration(0, 1, tuple(cards("1s 2s 3b"))), Declaration(1, 1, tuple(cards("1s 2d 3d")))]
    with pytest.raises(CardError):
        score_piles([first, second], [0, 0], CIRULLA, declared)


# -- Points: as in Scopa, and the grande and the piccola ------------------------------------

def test_grande_is_five_and_piccola_three_and_one_more_a_card():
    # issue 34 (the core several sources agree on): "the grande (King, Queen and Jack of the
    # bonus suit: 5 points) and the piccola (Ace, 2, 3 of the bonus suit: 3 points, one more
    # for each next card in sequence)"
    first, second = split_deck("10d 9d 8d 1d 2d 3d 4d 5d")
    hand = score_piles([first, second], [0, 0], CIRULLA)
    assert hand.points(0)["grande"] == 5 and hand.points(0)["piccola"] == 5
    assert hand.points(1)["grande"] == 0 and hand.points(1)["piccola"] == 0
    first, second = split_deck("10d 9d 1d 2d")
    hand = score_piles([first, second], [0, 0], CIRULLA)
    assert hand.points(0)["grande"] == 0 and hand.points(0)["piccola"] == 0


def test_the_points_of_scopa_stand():
    # the7thseacomix.altervista.org: "1 punto guadagnato per: a) 7 “bello” (di denari), b)
    # Denari (almeno 6 carte del seme) c) Carte (almeno 21 carte totali), d) Primiera"
    first, second = split_deck("7d 6d 5d 4d 2d 1d 7c 7s 7b 6c 6s 6b 1c 1s 1b 5c 5s 5b 4c 4s 4b")
    hand = score_piles([first, second], [2, 1], CIRULLA)
    assert [hand.points(0)[item] for item in ("carte", "denari", "settebello", "primiera", "scope")] \
        == [1, 1, 1, 1, 2]
    assert "grande" in hand.points(1) and "declarations" in hand.points(1)
