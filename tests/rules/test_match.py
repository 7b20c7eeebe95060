"""RULES §6: winning the match."""

import pytest

from companion.rules import HandError, deck
from companion.rules.match import HandResult, check_claim, match_outcome
from companion.rules.rulesets import rules_for
from helpers import cards

NAMES = ("Anna", "Bruno")


def hands(*totals):
    return [HandResult(tuple(t)) for t in totals]


def test_first_to_eleven_wins():
    # 000: "The first player to have 11 or more points at the end of a hand wins."
    outcome = match_outcome(hands((5, 4), (4, 3), (2, 1)), rules_for("classica"), NAMES)
    assert outcome.over and outcome.winner == 0 and outcome.reason == "target"
    assert str(outcome.text) == "Anna wins 11 to 8"


def test_both_past_the_target_the_higher_wins():
    # 000: "If both sides reach 11 in the same hand the side with more points wins."
    outcome = match_outcome(hands((9, 9), (3, 4)), rules_for("classica"), NAMES)
    assert outcome.winner == 1 and str(outcome.text) == "Bruno wins 13 to 12"


def test_a_tie_past_the_target_plays_another_hand():
    # 000: "If both are equal, play further hands until one side has more points at the end of a
    # hand."
    outcome = match_outcome(hands((9, 9), (3, 3)), rules_for("classica"), NAMES)
    assert not outcome.over and outcome.reason == "tie"
    assert str(outcome.text) == "12 all: play another hand"
    outcome = match_outcome(hands((9, 9), (3, 3), (0, 1)), rules_for("classica"), NAMES)
    assert outcome.over and outcome.winner == 1 and str(outcome.text) == "Bruno wins 13 to 12"


def test_three_sides_tie_only_matters_at_the_top():
    names = ("Anna", "Bruno", "Carla")
    outcome = match_outcome(hands((6, 6, 2), (6, 6, 9)), rules_for("classica"), names)
    assert str(outcome.text) == "Anna and Bruno level at 12: play another hand"
    outcome = match_outcome(hands((6, 6, 2), (6, 5, 3)), rules_for("classica"), names)
    assert str(outcome.text) == "Anna wins with 12 (Bruno 11, Carla 5)"


def test_below_the_target_the_match_goes_on():
    outcome = match_outcome(hands((5, 4)), rules_for("classica"), NAMES)
    assert not outcome.over and str(outcome.text) == "Anna 5, Bruno 4: first to 11"


def test_a_fixed_number_of_hands():
    # 002: "The winner is the first to a certain number of points or having most points after a
    # set number of hands are played"
    rules = rules_for("classica", {"hands": 3})
    assert not match_outcome(hands((20, 1), (1, 1)), rules, NAMES).over
    outcome = match_outcome(hands((20, 1), (1, 1), (0, 0)), rules, NAMES)
    assert outcome.over and outcome.winner == 0 and outcome.reason == "hands"
    tie = match_outcome(hands((2, 1), (1, 2), (0, 0)), rules, NAMES)
    assert not tie.over and tie.reason == "tie"


def test_napoleone_wins_outright():
    outcome = match_outcome([HandResult((3, 15), outright=0, outright_reason="Napoleone")],
                            rules_for("napola", {"napola": "to-horse"}), NAMES)
    assert outcome.winner == 0 and outcome.reason == "Napoleone"
    assert str(outcome.text) == "Napoleone: Anna wins the match"


def test_cappotto_seven_to_nothing():
    # 004: "if a player is winning 7 points to 0, the game can be considered over"
    rules = rules_for("classica", {"cappotto": True})
    outcome = match_outcome(hands((4, 0), (3, 0)), rules, NAMES)
    assert outcome.over and outcome.reason == "cappotto" and str(outcome.text) == "Cappotto: Anna wins 7 to 0"
    assert not match_outcome(hands((4, 0), (3, 0)), rules_for("classica"), NAMES).over
    assert not match_outcome(hands((4, 0), (3, 1)), rules, NAMES).over


def test_hurrikan_double_game_under_eight():
    # 003 Hurrikan: "If the loser has fewer than 8 points the winner wins a double game."
    rules = rules_for("hurrikan")
    outcome = match_outcome(hands((10, 4), (6, 3)), rules, NAMES)
    assert outcome.winner == 0 and outcome.double
    assert str(outcome.text) == "Anna wins 16 to 7: double game (8 not reached)"
    assert not match_outcome(hands((10, 4), (6, 4)), rules, NAMES).double


def test_hands_after_the_win_do_not_count():
    outcome = match_outcome(hands((11, 0), (0, 20)), rules_for("classica"), NAMES)
    assert outcome.winner == 0 and outcome.hands_played == 1


def test_a_hand_for_the_wrong_number_of_sides_is_refused():
    with pytest.raises(HandError, match="scores 3 sides, but the match has 2"):
        match_outcome(hands((1, 2, 3)), rules_for("classica"), NAMES)


# -- Chiamarsi fuori ---------------------------------------------------------------------------

CLAIMS = rules_for("classica", {"claims": True})


def test_a_claim_with_21_cards_6_coins_and_the_settebello_holds_at_nine():
    # 003: "In a two player game a player needs 21 cards to claim the point for cards and 6
    # coins/diamonds to claim the point for that suit."
    claimer = cards("7d 1d 2d 3d 4d 5d 1c 2c 3c 4c 5c 6c 1s 2s 3s 4s 5s 6s 1b 2b 3b")
    assert len(claimer) == 21
    check = check_claim(0, [claimer, []], [0, 0], [8, 5], CLAIMS, NAMES)
    assert check.certain["carte"] == 1 and check.certain["denari"] == 1
    assert check.certain["settebello"] == 1
    assert check.holds  # 8 + 3 at least


def test_twenty_cards_are_not_enough_for_the_carte():
    claimer = cards("1d 2d 3d 4d 5d 1c 2c 3c 4c 5c 6c 1s 2s 3s 4s 5s 6s 1b 2b 3b")
    check = check_claim(0, [claimer, []], [0, 0], [8, 5], CLAIMS, NAMES)
    assert check.certain["carte"] == 0 and check.certain["denari"] == 0
    assert not check.holds


def test_primiera_is_certain_only_if_it_beats_the_complement():
    # 003: "The prime can be claimed if the claimer can demonstrate that they will win the prime
    # even if the opponent takes all the cards that are not yet captured."
    four_sevens = cards("7d 7c 7s 7b")
    assert check_claim(0, [four_sevens, []], [0, 0], [0, 0], CLAIMS, NAMES).certain["primiera"] == 1
    three_sevens = cards("7d 7c 7s")
    assert check_claim(0, [three_sevens, []], [0, 0], [0, 0], CLAIMS, NAMES).certain["primiera"] == 0


def test_sweeps_so_far_count():
    check = check_claim(0, [cards("7d 1c"), cards("2c 3c")], [1, 1], [10, 10], CLAIMS, NAMES)
    assert check.certain["scope"] == 1 and check.certain["settebello"] == 1
    assert check.holds and str(check.text).startswith("10 + 2 certain")


def test_with_three_sides_each_opponent_is_the_worst_case_in_turn():
    names = ("Anna", "Bruno", "Carla")
    claimer = cards(" ".join(str(c) for c in deck()[:14]))          # 14 cards: 1d..10d, 1c..4c
    check = check_claim(0, [claimer, [], []], [0, 0, 0], [9, 0, 0], CLAIMS, names)
    # 26 cards left could all go to one opponent, so 14 cards do not hold the carte.
    assert check.certain["carte"] == 0 and check.certain["denari"] == 1


def test_a_lost_claim_loses_the_match():
    check = check_claim(0, [cards("1c"), []], [0, 0], [9, 9], CLAIMS, NAMES)
    assert not check.holds
    outcome = match_outcome([HandResult((0, 0), claim=check)], CLAIMS, NAMES)
    assert outcome.over and outcome.winner == 1 and outcome.reason == "claim"
    assert str(outcome.text) == "Anna called out and loses: Bruno wins"


def test_claims_need_rules_that_allow_them():
    with pytest.raises(HandError, match="do not allow chiamarsi fuori"):
        check_claim(0, [[], []], [0, 0], [0, 0], rules_for("classica"), NAMES)
