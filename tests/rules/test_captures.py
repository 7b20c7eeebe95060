"""RULES §7: the capture referee, with every capture example of the seed documents."""

import random
from itertools import combinations

import pytest

from companion.rules import deck, parse_card
from companion.rules.captures import LONGEST_PAGE, PAGE, check_deal, legal_captures
from companion.rules.cards import CardError
from companion.rules.rulesets import rules_for
from helpers import cards


def taken(table, played, rule="standard", **kwargs):
    """The legal captures as sets of card names, and whether the card may be placed."""
    ruling = legal_captures(cards(table), parse_card(played), rule, **kwargs)
    return sorted(" ".join(str(c) for c in capture.cards) for capture in ruling.captures), ruling


# -- Seed 000: "The table contains 3, 5, 5, Fante." --------------------------------------------

def test_a_five_takes_one_of_the_two_fives_at_the_players_choice():
    # 000: "Playing a 5 captures one of the 5s from the table at the player's choice."
    options, ruling = taken("3c 5d 5s 8b", "5c")
    assert options == ["5d", "5s"]
    assert not ruling.may_place


def test_a_king_takes_both_fives():
    # 000: "Playing a Re (king) captures both 5s."
    options, _ = taken("3c 5d 5s 8b", "10c")
    assert options == ["5d 5s"]


def test_single_card_must_be_taken_before_a_sum():
    # 000: "Playing a Fante (jack) captures the one on the table - the player is not allowed to
    # take the 5 and the 3 instead."
    options, ruling = taken("3c 5d 5s 8b", "8c")
    assert options == ["8b"]
    assert "a single card of equal value must be taken before a sum" in [str(r) for r in ruling.reasons]


# -- Seed 003: "The face up cards on the table are A, 3, 4, 5, 7." ------------------------------

TABLE_003 = "1c 3c 4c 5c 7c"


@pytest.mark.parametrize("played, expected", [
    ("3d", ["3c"]),                    # "If the next player plays a 3, it captures the 3"
    # "plays a Horse (9), it captures the 4 and the 5": the seed names one set, but by its own
    # rule ("If there is more than one such set, the player chooses") A+3+5 is legal too.
    ("9d", ["1c 3c 5c", "4c 5c"]),
    ("6d", ["1c 5c"]),                 # "plays a 6 it captures the Ace and the 5"
    ("5d", ["5c"]),                    # "plays a 5 it just captures the 5 ... not ... the Ace and the 4"
    ("8d", ["1c 3c 4c", "1c 7c", "3c 5c"]),  # "a Jack (8) ... either 5+3 or 4+3+A or 7+A"
])
def test_seed_003_table_of_ace_three_four_five_seven(played, expected):
    options, _ = taken(TABLE_003, played)
    assert options == expected


# -- Seed 004 ----------------------------------------------------------------------------------

def test_a_knave_takes_the_knave_not_the_ace_three_and_four():
    # 004: "if the table has contains a 1, 3, 4, and 8 (Knave ...), and the player plays another
    # Knave, the player is not allowed to capture the 1, 3, and 4 ... only allowed to capture
    # the Knave."
    options, _ = taken("1d 3c 4s 8b", "8d")
    assert options == ["8b"]


def test_a_six_on_two_and_four_must_take_them():
    # 004: "If, for example, a 2 and 4 are on the table, and a player holds a 6, the player must
    # either take that trick, or play a different card from his hand."
    options, ruling = taken("2c 4s", "6d")
    assert options == ["2c 4s"]
    assert not ruling.may_place
    assert ruling.captures[0].sweep


def test_seed_004_hand_of_two_five_seven():
    # 004: "the ace of coins, 5 of cups, and 6 of swords ... Place the 2 of coins ... Take the 5
    # of cups using the 5 of swords ... Take the 6 of swords and ace of coins using the 7"
    table = "1d 5c 6s"
    assert taken(table, "2d")[0] == [] and taken(table, "2d")[1].may_place
    assert taken(table, "5s")[0] == ["5c"]
    assert taken(table, "7b")[0] == ["1d 6s"]


# -- Seed 001: the King with 7, 3 and a King on the table --------------------------------------

def test_sco_papa_king_takes_seven_and_three():
    # 001: "Le roi peut ainsi capturer le 7 et le 3 (7 + 3 = 10)."
    assert taken("2c 7s 3b", "10d", "fewest")[0] == ["7s 3b"]


def test_sco_papa_king_takes_the_king_not_seven_and_three():
    # 001: "le 7 et le 3 ne peuvent être capturés par votre roi, car vous devez prendre le moins
    # de cartes possible : vous capturez donc le roi révélé sur la table."
    assert taken("7s 3b 10c", "10d", "fewest")[0] == ["10c"]


def test_sco_papa_takes_at_most_two_cards():
    # 001: "Vous pouvez alors capturer 1 ou 2 cartes du centre de la table."
    options, ruling = taken("1c 3c 4c", "8d", "fewest")
    assert options == [] and ruling.may_place


def test_fewest_any_keeps_only_the_smallest_sets():
    # 001 "CAPTURER PLUS DE CARTES": sets of more cards, still the fewest cards possible.
    options, ruling = taken(TABLE_003, "8d", "fewest-any")
    assert options == ["1c 7c", "3c 5c"]
    assert "only the fewest cards possible may be taken" in [str(r) for r in ruling.reasons]
    assert taken("1c 3c 4c", "8d", "fewest-any")[0] == ["1c 3c 4c"]


# -- Scopa di Quindici (003) -------------------------------------------------------------------

def test_quindici_takes_cards_that_make_fifteen_with_the_played_card():
    # 003: "if the table cards are A, 3, 4, 7 and you play a 4, it captures either the 4 and the
    # 7 or the A, 3 and 7 at your choice."
    assert taken("1c 3c 4c 7c", "4d", "quindici-1")[0] == ["1c 3c 7c", "4c 7c"]


def test_first_quindici_cannot_take_an_equal_card():
    # 003 First version: "a card cannot capture a card or set of cards whose value is equal to
    # the played card."
    options, ruling = taken("5c 2s", "5d", "quindici-1")
    assert options == [] and ruling.may_place


def test_third_quindici_king_has_a_free_choice():
    # 003 Third version: "with 3, 5, 7, King on the table a played King can take either the 5
    # or the King or the 3+7."
    assert taken("3c 5c 7c 10c", "10d", "quindici-3")[0] == ["10c", "3c 7c", "5c"]
    assert taken("3c 5c 7c 10c", "10d", "quindici-2")[0] == ["10c", "3c 7c", "5c"]


def test_third_quindici_ace_takes_all_with_a_sweep():
    ruling = legal_captures(cards("3c 5c 7c"), parse_card("1d"), "quindici-3")
    assert [len(c.cards) for c in ruling.captures] == [3] and ruling.captures[0].sweep


# -- A full table: the captures counted, a page listed ------------------------------------------

def sets_making(total, values):
    """How many sets of cards with these values add up to ``total``: the coefficient of
    x**total in the product of (1 + x**value) over the cards (a generating function, worked out
    apart from the engine's own count)."""
    ways = [1] + [0] * total
    for value in values:
        for reached in range(total, value - 1, -1):
            ways[reached] += ways[reached - value]
    return ways[total]


def test_a_table_of_39_cards_under_quindici_counts_every_choice_and_lists_a_page():
    # RULES §7 quindici-2: "an equal-valued card or set, or a set totalling 15 with the played
    # card; free choice". With every other card of the deck on the table, a 5 has thousands of
    # choices: the ruling counts them all and lists the first page, the fewest cards first.
    played = parse_card("5d")
    table = [card for card in deck(40) if card != played]
    ruling = legal_captures(table, played, "quindici-2")
    values = [card.value for card in table]
    # an equal card or a set adding up to 5 (every set of 5, singles included), or a set of 10
    assert ruling.count == sets_making(5, values) + sets_making(10, values) == 1702
    assert len(ruling.captures) == PAGE and ruling.first == 0 and ruling.after == 1702 - PAGE
    shown = [" ".join(map(str, capture.cards)) for capture in ruling.captures]
    assert shown[:7] == ["5c", "5s", "5b", "10d", "10c", "10s", "10b"]
    assert not ruling.may_place


def test_the_pages_of_a_ruling_follow_one_another():
    played = parse_card("5d")
    table = [card for card in deck(40) if card != played]
    pages = [legal_captures(table, played, "quindici-2", first=first, limit=100).captures
             for first in range(0, 1702, 100)]
    every = [capture.cards for page in pages for capture in page]
    assert len(every) == len(set(every)) == 1702
    assert [len(cards) for cards in every] == sorted(len(cards) for cards in every)
    assert all(sum(c.value for c in cards) in (5, 10) for cards in every)
    assert legal_captures(table, played, "quindici-2", first=1702).captures == ()


def test_a_page_is_never_longer_than_the_longest_allowed():
    table = [card for card in deck(40) if card != parse_card("1d")]
    ruling = legal_captures(table, parse_card("1d"), "quindici-1", limit=10**9)
    assert len(ruling.captures) == LONGEST_PAGE and ruling.count == sets_making(14, [c.value for c in table])


@pytest.mark.parametrize("seed", range(20))
def test_the_counted_captures_are_every_set_the_rule_allows(seed):
    """Every legal capture of a random table, found the slow way (every set of table cards,
    kept if RULES §7 allows it), is what the pages of the ruling list, in the same order."""
    rng = random.Random(seed)
    dealt = rng.sample(list(deck(40)), 13)
    table, played = dealt[:12], dealt[12]
    rule = ("standard", "fewest", "fewest-any", "quindici-1", "quindici-2")[seed % 5]
    value = played.value
    every = [chosen for size in range(1, 13) for chosen in combinations(table, size)]
    total = {chosen: sum(c.value for c in chosen) for chosen in every}
    if rule == "quindici-1":
        allowed = [s for s in every if total[s] + value == 15]
    elif rule == "quindici-2":
        allowed = [s for s in every if total[s] == value or total[s] + value == 15]
    else:
        allowed = [s for s in every if total[s] == value]
        if any(len(s) == 1 for s in allowed):       # a single card of equal value first
            allowed = [s for s in allowed if len(s) == 1]
        elif rule == "fewest":
            allowed = [s for s in allowed if len(s) == 2]
        elif rule == "fewest-any" and allowed:
            allowed = [s for s in allowed if len(s) == min(map(len, allowed))]
    listed = [capture.cards for first in range(0, 4096, 7)
              for capture in legal_captures(table, played, rule, first=first, limit=7).captures]
    assert sorted(listed) == sorted(allowed)
    assert legal_captures(table, played, rule).count == len(allowed)


# -- Asso pigliatutto and Scopa d'Assi (003) ---------------------------------------------------

def test_ace_takes_all_and_scores_a_sweep():
    # 003: "playing an Ace takes all the table cards and scores a point for a sweep, provided
    # that there is no Ace on the table."
    ruling = legal_captures(cards("3c 5c 9s"), parse_card("1d"), "asso-pigliatutto")
    assert len(ruling.captures) == 1 and ruling.captures[0].sweep
    assert str(ruling.captures[0].reason) == "the Ace takes the whole table"


def test_ace_on_the_table_is_all_an_ace_takes():
    # 003: "If there is an Ace in the table layout, then playing an Ace takes only the Ace and
    # leaves the other cards in place. If there is an Ace alone on the table, a played Ace takes
    # it and scores a sweep."
    options, ruling = taken("1c 5c 9s", "1d", "asso-pigliatutto")
    assert options == ["1c"] and not ruling.captures[0].sweep
    ruling = legal_captures(cards("1c"), parse_card("1d"), "asso-pigliatutto")
    assert ruling.captures[0].sweep


def test_ace_on_an_empty_table_stays():
    # 003: "If the table is empty (or "clean"), an Ace played remains on the table (it can't
    # take itself)."
    options, ruling = taken("", "1d", "asso-pigliatutto")
    assert options == [] and ruling.may_place


def test_scopa_d_assi_ace_takes_all_without_a_sweep():
    # 003 Scopa d'Assi: "taking all the cards with an Ace does not count as a sweep."
    ruling = legal_captures(cards("3c 5c 9s"), parse_card("1d"), "scopa-d-assi")
    assert len(ruling.captures[0].cards) == 3 and not ruling.captures[0].sweep
    # Issue 42: the reason is the rule's, not a game's ("in Scopa d'Assi ..." on Sbarazzina's page).
    assert "taking the whole table with an Ace is never a scopa" in [str(r) for r in ruling.reasons]


def test_scopa_d_assi_option_ace_takes_itself():
    # 003: "Some play that if an Ace is played to the empty table it 'takes itself'."
    ruling = legal_captures([], parse_card("1d"), rules_for("scopa-d-assi", {"ace_takes_itself": True}))
    assert [c.cards for c in ruling.captures] == [()] and not ruling.may_place
    assert not ruling.captures[0].sweep


def test_other_cards_follow_the_standard_rule_under_ace_rules():
    assert taken(TABLE_003, "5d", "asso-pigliatutto")[0] == ["5c"]


# -- Corse, sweeps, and refusals ---------------------------------------------------------------

def test_scopa_corse_never_forces_a_capture():
    # 003 Scopa Corse: "capturing is not compulsory. It is legal to play a card and leave it on
    # the table without capturing even if its value matches"
    options, ruling = taken("5c 2s", "5d", "corse")
    assert options == ["5c"] and ruling.may_place


def test_clearing_the_table_is_a_sweep_but_never_with_the_last_card():
    # 000: "Taking the last cards from the table at the end of a hand never counts as a sweep"
    assert legal_captures(cards("3c 4s"), parse_card("7d"), "standard").captures[0].sweep
    ruling = legal_captures(cards("3c 4s"), parse_card("7d"), "standard", last_play=True)
    assert not ruling.captures[0].sweep
    assert "the last card of the hand never makes a sweep" in [str(r) for r in ruling.reasons]


def test_nothing_to_take_means_the_card_is_placed():
    options, ruling = taken("9c 10s", "2d")
    assert options == [] and ruling.may_place
    assert [str(r) for r in ruling.reasons] == ["nothing on the table can be taken with a 2: the card is placed"]


@pytest.mark.parametrize("table, played, message", [
    ("7d 3c", "7d", "both on the table and played"),
    ("2c", "5d", "2c is not in the 36-card deck"),
])
def test_impossible_tables_are_refused(table, played, message):
    with pytest.raises(CardError, match=message):
        legal_captures(cards(table), parse_card(played), rules_for("corse"))


# -- The void deal -----------------------------------------------------------------------------

def test_three_kings_void_the_deal():
    # 000: "If three or all four of the table cards are kings, the cards are thrown in and there
    # is a new deal by the same dealer."
    assert check_deal(cards("10d 10c 10s 5b"), rules_for("classica")).void
    assert check_deal(cards("10d 10c 10s 10b"), rules_for("classica")).void
    assert not check_deal(cards("10d 10c 5s 5b"), rules_for("classica")).void


def test_chkobba_voids_three_equal_values():
    # 003 Chkobba: "If there are three or four equal valued cards in the initial table layout the
    # cards are gathered up, shuffled and dealt again."
    assert check_deal(cards("4d 4c 4s 5b"), rules_for("chkobba")).void
    assert not check_deal(cards("4d 4c 5s 5b"), rules_for("chkobba")).void
    assert not check_deal(cards("4d 4c 4s 5b"), rules_for("classica")).void


def test_scopa_d_assi_option_voids_any_ace():
    # 003: "Some play that if one or more Aces appear in the face-up cards in the original deal,
    # the cards are thrown in and redealt."
    rules = rules_for("scopa-d-assi", {"void_deal": "aces"})
    assert check_deal(cards("1d 4c 6s 5b"), rules).void
    assert not check_deal(cards("1d 4c 6s 5b"), rules_for("scopa-d-assi")).void


def test_a_first_table_from_outside_the_deck_is_refused():
    # RULES §1: "Scopa Corse removes the four 2s (36 cards)": a 2 cannot be dealt there.
    assert not check_deal(cards("10d 10c 5s 5b"), rules_for("corse")).void
    with pytest.raises(CardError, match="2d is not in the 36-card deck"):
        check_deal(cards("2d 10c 10s 10b"), rules_for("corse"))
