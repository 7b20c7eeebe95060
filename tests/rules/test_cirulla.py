"""Cirulla, the Scopa of Liguria (issues 34 and 42; RULES §11, docs/rules.md §11): each point
with the sentence of the source it is read from."""

import pytest

from companion.rules import check_deal, deck, legal_captures, parse_card, score_piles
from companion.rules.cards import CardError
from companion.rules.deal import deal_plan
from companion.rules.declarations import Declaration, Seats, judge, score_declarations
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


def test_the_ace_that_takes_all_makes_a_scopa_but_with_the_last_card():
    # sourceforge.net/p/cirulla/wiki: "L'asso piglia tutto e fa scopa, a meno che non ce ne sia
    # uno in tavola." RULES §11: "except with the very last card of the hand (§7)".
    _, ruling = taken("3c 5d 7s 10b", "1d")
    assert ruling.captures[0].sweep
    ruling = legal_captures(cards("3c 5d 7s 10b"), parse_card("1d"), CIRULLA, last_play=True)
    assert len(ruling.captures) == 1 and not ruling.captures[0].sweep


def test_an_ace_on_an_ace_takes_it_or_a_set_making_fifteen_even_the_whole_table():
    # sourceforge.net/p/cirulla/wiki: "In questo caso, prende il solo asso, senza fare scopa, a
    # meno che non sia quindici la somma totale. Solo in questo caso piglia tutto, anche con un
    # altro asso in tavola." Issue 42: "table 1c, 3s, 10b, played 1d offers only [1c], though
    # 1+1+3+10 makes 15 and takes the whole table."
    options, ruling = taken("1c 3s 10b", "1d")
    assert options == ["1c", "1c 3s 10b"]
    assert [capture.sweep for capture in ruling.captures if len(capture.cards) == 3] == [True]
    assert not ruling.may_place


def test_an_ace_on_an_ace_never_takes_all_otherwise():
    # 7thsea: "“L’ASSO PIGLIA TUTTO” senza nessun conto (a meno che non ci sia già un asso in
    # tavola: ti costringe a prender solo l’asso o eventuali somme)": 4 + 10 + 1 = 15.
    options, _ = taken("1c 4s 10b 6d", "1d")
    assert options == ["1c", "4s 10b"]


def test_a_single_card_of_equal_value_excludes_a_set_adding_up_to_it():
    # regoledelgioco.com: "se si cala un 7 e sul tavolo ci sono un 3, un 5, un 6 e un 7, con la
    # presa semplice si può raccogliere il solo 7, non è permessa la presa 2 + 5; è possibile
    # però raccogliere il 3 e il 5 attraverso la presa da 15". Issue 42: "table 2c, 5s, 7b, 3d,
    # played 7d offers 2c+5s, which Scopa's capture rule (that the sources apply to Cirulla)
    # forbids while the 7 lies there."
    options, ruling = taken("2c 5s 7b 3d", "7d")
    assert options == ["5s 3d", "7b"]
    assert "a single card of equal value must be taken before a sum" in map(str, ruling.reasons)
    options, _ = taken("3c 5d 6s 7b", "7d")
    assert options == ["3c 5d", "7b"]


def test_a_card_that_can_capture_must_capture():
    # regoledelgioco.com: "Se invece è possibile una qualsiasi presa, il giocatore deve prendere."
    _, ruling = taken("2c 6s", "7d")          # 2 + 6 + 7 = 15
    assert ruling.count == 1 and not ruling.may_place
    options, ruling = taken("2c 6s", "10d")
    assert options == [] and ruling.may_place


def test_the_matta_in_play_is_a_seven():
    # RULES §11: "in play it is a 7 (the referee treats it so, and its page says so)".
    options, _ = taken("7s 8d 3b", "7c")
    assert options == ["7s", "8d"]


# -- The deal: 15 and 30 give the dealer scope; two Aces void it ----------------------------

@pytest.mark.parametrize("table, scope", [("2d 3c 4s 6b", 1), ("10d 10c 4s 6b", 2),
                                          ("8d 9c 7s 6b", 2), ("2d 3c 4s 5b", 0)])
def test_fifteen_gives_the_dealer_one_scopa_thirty_two(table, scope):
    # regoledelgioco.com: "se la somma di queste carte è 15 il mazziere le raccoglie e segna una
    # Scopa, se la somma è 30, ne segna due."
    check = check_deal(cards(table), CIRULLA)
    assert not check.void and check.scope == scope


@pytest.mark.parametrize("table, scope", [("2c 2s 3b 1d", 3), ("2c 3s 3b 1d", 3),
                                          ("2c 4s 3b 1d", 0)])
def test_a_first_table_of_nine_or_less_gives_the_dealer_three(table, scope):
    # it.wikipedia.org "Cirulla": "se la somma di queste quattro carte in tavola dà esattamente
    # 15, 30 oppure, in alcuni casi, meno di 10, il mazziere le raccoglie e segna rispettivamente
    # 1, 2 o 3 scope." Issue 42: {"table":["2c","2s","3b","1d"]} "answers scope: 0".
    check = check_deal(cards(table), CIRULLA)
    assert (check.void, check.scope) == (False, scope)


def test_without_the_low_table_a_table_of_nine_gives_nothing():
    # RULES §11: "`15-30` leaves the low table out"; a `true` stored before is read as 15-30.
    for deal_scope in ("15-30", True):
        rules = rules_for("cirulla", {"deal_scope": deal_scope})
        assert rules.deal_scope == "15-30"
        assert check_deal(cards("2c 2s 3b 1d"), rules).scope == 0
        assert check_deal(cards("2d 3c 4s 6b"), rules).scope == 1
    assert CIRULLA.deal_scope == "15-30-low"
    assert check_deal(cards("2d 3c 4s 6b"), rules_for("cirulla", {"deal_scope": False})).scope == 0


def test_the_matta_on_the_table_counts_as_the_dealer_wishes():
    # Parlett, The Penguin Book of Card Games, "Cirulla": "The 7 (♥), if among them, is wild, and
    # represents any valid count the dealer wishes."
    fifteen_thirty = rules_for("cirulla", {"deal_scope": "15-30"})
    assert check_deal(cards("7c 2d 3s 4b"), fifteen_thirty).scope == 1      # the matta as a 6
    assert check_deal(cards("7c 10d 9s 4b"), CIRULLA).scope == 2            # ... as a 7: 30
    assert check_deal(cards("7c 2d 3s 4b"), rules_for("cirulla", {"matta": False})).scope == 0
    # RULES §11: "it makes 15, 30 or a low table where it can": as an Ace, 1 + 2 + 3 + 3 = 9
    # gives three, better than 15 (as a 6).
    check = check_deal(cards("7c 2d 3s 3b"), CIRULLA)
    assert check.scope == 3 and "matta" in str(check.reason)


def test_two_or_more_aces_void_the_deal():
    # regoledelgioco.com: "Se invece tra le quattro carte iniziali in tavola ci sono due o più
    # Assi, la mano viene considerata a monte"
    assert check_deal(cards("1d 1c 5s 8b"), CIRULLA).void      # and 15, but void first
    assert not check_deal(cards("1d 2c 5s 8b"), CIRULLA).void
    assert not check_deal(cards("10d 10c 10s 8b"), CIRULLA).void   # three Kings do not


# -- The accusi: cirulla and decino, with the matta -----------------------------------------

def test_a_hand_of_nine_or_less_is_a_cirulla_of_three():
    # Parlett: "If, after any such deal or re-deal, a player’s three cards total less than 10,
    # he may ‘knock’ (bussare), reveal them all, and score 3 scope". The Sanremo rules name it:
    # "accusare cirulla ... e decino" (RULES §11).
    assert judge(cards("1d 2c 6s"), "cirulla")[:2] == ("cirulla", 3)
    with pytest.raises(CardError, match="add up to 10"):
        judge(cards("1d 3c 6s"), "cirulla")


def test_three_of_a_kind_is_a_decino_of_ten():
    # Parlett: "A player dealt three of a kind at any time may also knock for 10 points."
    assert judge(cards("5d 5c 5s"), "cirulla")[:2] == ("decino", 10)


def test_the_matta_is_wild_in_a_declaration():
    # Parlett: "the 7 (or 7) may be used as a wild card for the purpose of knocking for a low
    # total or three of a kind." blunote.it "Cirulla: il re dei giochi di carte liguri": "il 7
    # di Cuori, detto la “Matta”, che può assumere qualunque valore"
    assert judge(cards("9d 9c 7c"), "cirulla", matta=True).kind == "decino"
    assert judge(cards("2d 3c 7c"), "cirulla", matta=True).kind == "cirulla"
    with pytest.raises(CardError):
        judge(cards("2d 3c 7c"), "cirulla", matta=False)


NAMES = ("Anna", "Bruno")


def accusi(*shown):
    """Declarations from (side, deal, "cards") triples."""
    return [Declaration(side, deal, tuple(cards(text))) for side, deal, text in shown]


@pytest.mark.parametrize("players, per_side, deals", [(2, 1, 6), (3, 1, 4), (2, 2, 3)])
def test_an_accuso_is_made_after_one_of_the_hands_deals(players, per_side, deals):
    # it.wikipedia.org "Cirulla": "con un mazzo si fanno 6 turni nel gioco a due giocatori, 4
    # turni nel gioco a tre e 3 turni nel gioco a quattro." Issue 42: "once in deal 9 of 6".
    names = ("Anna", "Bruno", "Carla")[:players]
    seats = Seats(per_side, deals)
    points, _ = score_declarations(accusi((0, deals, "1d 2c 5s")), "cirulla", names, seats=seats)
    assert points[0] == 3
    with pytest.raises(CardError, match=f"a hand has {deals} deals"):
        score_declarations(accusi((0, deals + 1, "1d 2c 5s")), "cirulla", names, seats=seats)


def test_a_player_makes_one_accuso_a_deal():
    # RULES §11: "A player declares at most once in a deal (a side of one player once, a team of
    # two twice)". Issue 42: "in a 1-v-1 match one side declared twice in deal 1 (six cards from
    # a three-card hand)".
    twice = accusi((0, 1, "1d 2c 5s"), (0, 1, "6d 6c 6s"))
    with pytest.raises(CardError, match="Anna has 2 accusi after deal 1"):
        score_declarations(twice, "cirulla", NAMES, seats=Seats(1, 6))
    points, _ = score_declarations(twice, "cirulla", NAMES, seats=Seats(2, 3))     # two partners
    assert points == [13, 0]
    thrice = twice + accusi((0, 1, "9d 9b 9s"))
    with pytest.raises(CardError, match="team's 2 players"):
        score_declarations(thrice, "cirulla", NAMES, seats=Seats(2, 3))


def test_an_accuso_is_three_different_cards_never_declared_twice_in_a_hand():
    # RULES §11: "each declaration is three different cards, and no card is declared twice in
    # a hand".
    with pytest.raises(CardError, match="three different cards"):
        same = Declaration(0, 1, (parse_card("1d"), parse_card("1d"), parse_card("5s")))
        score_declarations([same], "cirulla", NAMES, seats=Seats(1, 6))
    with pytest.raises(CardError, match="a card is dealt once a hand"):
        score_declarations(accusi((0, 1, "1d 2c 5s"), (1, 3, "1d 2s 3b")), "cirulla", NAMES,
                           seats=Seats(1, 6))


def test_a_hand_stored_before_is_scored_as_it_was_taken():
    """The checks of the table's deals are made when a hand is entered; a hand stored before
    them (two accusi in deal 1, one in deal 9) is still shown, never a 500."""
    stored = accusi((0, 1, "1d 2c 5s"), (0, 1, "6d 6c 6s"), (1, 9, "9d 9b 7c"))
    points, _ = score_declarations(stored, "cirulla", NAMES, matta=True)
    assert points == [13, 10]


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


@pytest.mark.parametrize("run, piccola", [("1d 2d 3d 4d 5d 6d", 6), ("1d 2d 3d 4d 5d 6d 7d", 6),
                                          ("1d 2d 3d 4d 5d 6d 7d 8d 9d 10d", 6)])
def test_the_piccola_stops_at_the_six_and_never_reaches_the_grande(run, piccola):
    # RULES §11: "the piccola (Ace, 2 and 3 of the bonus suit) 3, and one more for each next
    # card in sequence as far as the 6 (6 at most): the piccola never reaches the grande's
    # cards." Issue 42: "all ten coins score piccola 10 plus grande 5. The sources stop it at
    # the 6".
    first, second = split_deck(run)
    hand = score_piles([first, second], [0, 0], CIRULLA)
    assert hand.points(0)["piccola"] == piccola
    assert hand.points(0)["grande"] == (5 if "8d" in run else 0)


def test_cirulla_is_never_played_with_thirty_six_cards():
    # RULES §11: "A 36-card deck is refused (no source plays Cirulla without its twos, and the
    # piccola needs them)". Issue 42: "a Cirulla with `deck: 36` is taken".
    with pytest.raises(RulesError, match="all 40 cards"):
        rules_for("cirulla", {"deck": 36})
    with pytest.raises(RulesError, match="all 40 cards"):
        rules_for("classica", {"deck": 36, "grande_piccola": True})


def test_the_points_of_scopa_stand():
    # the7thseacomix.altervista.org: "1 punto guadagnato per: a) 7 “bello” (di denari), b)
    # Denari (almeno 6 carte del seme) c) Carte (almeno 21 carte totali), d) Primiera"
    first, second = split_deck("7d 6d 5d 4d 2d 1d 7c 7s 7b 6c 6s 6b 1c 1s 1b 5c 5s 5b 4c 4s 4b")
    hand = score_piles([first, second], [2, 1], CIRULLA)
    assert [hand.points(0)[item] for item in ("carte", "denari", "settebello", "primiera", "scope")] \
        == [1, 1, 1, 1, 2]
    assert "grande" in hand.points(1) and "declarations" in hand.points(1)
