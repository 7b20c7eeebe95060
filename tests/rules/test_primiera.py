"""RULES §3: the primiera, with every worked example of the seed documents."""

import pytest

from companion.rules.primiera import decide_piles, primiera_of
from companion.rules.rulesets import rules_for
from companion.rules.scoring import score_piles
from helpers import cards, split_deck


def test_two_sevens_a_six_and_an_ace_make_76():
    # 004: "If one team captures the sevens of cups and coins, the six of clubs and the ace of
    # swords, that team's prime is (21 + 21 + 18 + 16) = 76."
    assert primiera_of(cards("7c 7d 6b 1s"), "standard").value == 76


def test_four_three_king_and_horse_make_47():
    # 001: "4 d'épée ... 3 de coupe ... Roi de denier ... Cavalier de massue ...
    # votre primiera a une valeur de 14 + 13 + 10 + 10 = 47."
    assert primiera_of(cards("4s 3c 10d 9b"), "standard").value == 47


def test_best_card_of_each_suit_counts_not_every_card():
    side = primiera_of(cards("7d 6d 1d 5c 2s 3s 10b 8b"), "standard")
    assert [str(side.best[s]) for s in "dcsb"] == ["7d", "5c", "3s", "10b"]
    assert side.value == 21 + 15 + 13 + 10


def test_three_jacks_and_a_seven_beat_three_sevens_missing_a_suit():
    # 000: "even three jacks and a seven (51 points) is sufficient to beat three sevens with no
    # card in the fourth suit."
    jacks = cards("8d 8c 8s 7b")
    sevens = cards("7d 7c 7s")
    result = decide_piles([jacks, sevens], "standard", "loses")
    assert (result.sides[0].value, result.sides[1].value) == (51, 63)
    assert result.winner == 0


def test_one_seven_and_three_aces_beat_three_sevens_under_every_rule():
    # 004: "If one player has three sevens (3x21) and no cards of the fourth suit (sum=63), his
    # opponent can win the 'prime' with one seven (21) and three aces (3x16), for his sum would
    # be 69."
    aces = cards("7d 1c 1s 1b")
    sevens = cards("7c 7s 7b")
    for missing_suit in ("loses", "void", "zero"):
        result = decide_piles([aces, sevens], "standard", missing_suit)
        assert result.winner == 0, missing_suit
        assert (result.sides[0].value, result.sides[1].value) == (69, 63)


def test_when_no_side_has_all_four_suits_the_rules_differ():
    # 000: "In the rare case where both players are missing an entire suit, the prime point is
    # won by player with the higher point total using the best card from each of the three suits"
    three_sevens = cards("7d 7c 7s")
    two_sixes = cards("6d 6c")
    assert decide_piles([three_sevens, two_sixes], "standard", "loses").winner == 0
    # 003: "a player or team that does not have at least one card in each suit cannot score"
    assert decide_piles([three_sevens, two_sixes], "standard", "void").winner is None
    assert decide_piles([three_sevens, two_sixes], "standard", "zero").winner == 0


def test_zero_rule_lets_a_higher_total_with_a_missing_suit_win():
    # 001 variant: "Aucune 0" -- a missing suit counts 0 and totals are compared as they are.
    complete = cards("10d 10c 10s 10b")         # 40
    missing = cards("7d 7c 6s")                 # 60
    assert decide_piles([complete, missing], "standard", "zero").winner == 1
    assert decide_piles([complete, missing], "standard", "loses").winner == 0
    assert decide_piles([complete, missing], "standard", "void").winner == 0


def test_equal_primiere_give_nobody_the_point():
    # 003: "two opponents have 7-7-6-6, or one has 7-7-6-4 while the the other has A-A-7-7 -
    # no one scores the point."
    assert decide_piles([cards("7d 7c 6s 6b"), cards("7s 7b 6d 6c")], "standard", "loses").winner is None
    assert decide_piles([cards("7d 7c 6s 4b"), cards("1d 1c 7s 7b")], "standard", "loses").winner is None


def test_half_scale_counts_aces_five_and_a_half_and_figures_a_half():
    # 003 "Deciding the Primiera": "some count 2-7 as face value, Aces as 5½ and picture cards as ½"
    assert primiera_of(cards("1d 10c 7s 2b"), "half").value == 5.5 + 0.5 + 7 + 2


def test_hurrikan_scale_counts_queen_nine_and_jack_eight():
    # 003 Hurrikan: "the Queen and Jack are worth 9 and 8 respectively rather than 10 each"
    assert primiera_of(cards("8d 9c 10s 7b"), "hurrikan").value == 8 + 9 + 10 + 21
    assert primiera_of(cards("8d 9c 10s 7b"), "no-figures").value == 21


def test_sevens_then_sixes():
    # 001: "le plus de cartes de valeur 7. En cas d'égalité, le point va au joueur concerné qui a
    # capturé le plus de cartes de valeur 6. S'il y a encore égalité, ce point n'est pas attribué."
    assert decide_piles([cards("7d 7c"), cards("7s 7b 6d")], "sevens-sixes", "loses").winner == 1
    assert decide_piles([cards("7d 7c 6s"), cards("7s 7b 6d")], "sevens-sixes", "loses").winner is None
    assert decide_piles([cards("7d 7c 7s"), cards("7b 6d 6c 6s 6b")], "sevens-sixes", "loses").winner == 0


def test_sevens_sixes_among_three_sides_looks_only_at_those_tied_on_sevens():
    piles = [cards("7d 7c"), cards("7s 7b 6d"), cards("6c 6s 6b")]
    assert decide_piles(piles, "sevens-sixes", "loses").winner == 1


def test_count_down_goes_on_to_aces_and_below():
    # 004: "award the prime to the person with the most sevens, or the person with the most
    # sixes if there is a tie, down to aces, and so on."
    first = cards("7d 7c 6d 6c 1d 5d")
    second = cards("7s 7b 6s 6b 1s 5s 5b")
    assert decide_piles([first, second], "count-down", "loses").winner == 1
    assert decide_piles([first, second], "sevens-sixes", "loses").winner is None


def test_count_down_all_equal_gives_nobody():
    first, second = cards("7d 7c 6d 6c 1d 1c 5d 5c"), cards("7s 7b 6s 6b 1s 1b 5s 5b")
    assert decide_piles([first, second], "count-down", "loses").winner is None


def test_primiera_value_is_reported_and_null_under_counting_methods():
    first, second = split_deck("7c 7d 6b 1s")
    hand = score_piles([first, second], [0, 0], rules_for("classica"))
    assert hand.primiera.sides[0].value == 76
    hand = score_piles([first, second], [0, 0], rules_for("chkobba"))
    assert hand.primiera.sides[0].value is None


@pytest.mark.parametrize("missing_suit", ["loses", "void", "zero"])
def test_a_complete_primiera_beats_an_empty_pile(missing_suit):
    assert decide_piles([cards("2d 2c 2s 2b"), []], "standard", missing_suit).winner == 0
