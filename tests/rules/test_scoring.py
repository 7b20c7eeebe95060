"""RULES §2, §4 and §5: the score of a hand, from piles or from counts."""

import pytest

from companion.rules import HandError, deck
from companion.rules.cards import CardError
from companion.rules.declarations import Declaration
from companion.rules.rulesets import rules_for
from companion.rules.scoring import Tally, score_piles, score_tallies
from helpers import cards, split_deck

CLASSICA = rules_for("classica")


def line(hand, item):
    return next(l for l in hand.lines if l.item == item)


def test_each_punto_di_mazzo_goes_to_the_side_ahead():
    first, second = split_deck("7d 7c 7s 6b 1d 2d 3d")   # primiera 81 v 75
    hand = score_piles([first, second], [1, 0], CLASSICA)
    assert line(hand, "carte").points == (0, 1) and str(line(hand, "carte").why) == "7 v 33"
    assert line(hand, "denari").points == (0, 1) and str(line(hand, "denari").why) == "4 v 6"
    assert line(hand, "settebello").points == (1, 0)
    assert line(hand, "primiera").points == (1, 0) and str(line(hand, "primiera").why) == "81 v 75"
    assert line(hand, "scope").points == (1, 0)
    assert hand.totals == (3, 2)


def test_twenty_cards_each_gives_nobody_the_carte():
    # 000: "If they split 20-20 the point is not awarded." ... "If they split 5-5 the point is
    # not awarded."
    first = cards("1d 2d 3d 4d 5d 1c 2c 3c 4c 5c 1s 2s 3s 4s 5s 1b 2b 3b 4b 5b")
    second = [c for c in deck() if c not in first]
    hand = score_piles([first, second], [0, 0], CLASSICA)
    assert line(hand, "carte").points == (0, 0) and "tie" in str(line(hand, "carte").why)
    assert line(hand, "denari").points == (0, 0)


def test_three_sides_a_tie_at_the_top_gives_nobody_the_point():
    full = deck()
    piles = [full[:14], full[14:28], full[28:]]     # 14, 14, 12 cards
    hand = score_piles(piles, [0, 0, 0], CLASSICA)
    assert line(hand, "carte").points == (0, 0, 0)
    assert str(line(hand, "carte").why) == "14 v 14 v 12: tie, no point"


def test_four_sides():
    full = deck()
    piles = [full[:13], full[13:22], full[22:31], full[31:]]
    hand = score_piles(piles, [0, 2, 0, 1], CLASSICA)
    assert line(hand, "carte").points == (1, 0, 0, 0)
    assert line(hand, "scope").points == (0, 2, 0, 1)
    assert len(hand.totals) == 4


@pytest.mark.parametrize("piles, message", [
    (lambda: [cards("7d"), cards("7d")], "7d is in both piles"),
    (lambda: [deck()[:20], deck()[19:]], "is in both piles"),
    (lambda: [deck()[:20], deck()[20:39]], "1 card is in no pile: 10b"),
    (lambda: [deck()], "2, 3 or 4 sides"),
    (lambda: [[], [], [], [], deck()], "2, 3 or 4 sides"),
    (lambda: [deck()[:10], deck()[10:20], deck()[21:]], "1 card is in no pile: 1s"),
])
def test_piles_must_partition_the_deck(piles, message):
    piles = piles()
    with pytest.raises(HandError, match=message):
        score_piles(piles, [0] * len(piles), CLASSICA)


def test_a_card_outside_scopa_corse_deck_is_refused():
    with pytest.raises(HandError, match="2d is not in the 36-card deck"):
        score_piles([cards("2d"), deck(36)], [0, 0], rules_for("corse"))


def test_scopa_corse_scores_36_cards():
    first, second = split_deck("7d 1d 3d 4d 5d", 36)
    hand = score_piles([first, second], [0, 0], rules_for("corse"))
    assert str(line(hand, "carte").why) == "5 v 31"
    assert str(line(hand, "denari").why) == "5 v 4"


@pytest.mark.parametrize("sweeps, message", [
    ([3, 0], "cannot have made 3 sweeps: 4 cards taken"),
    ([-1, 0], "must be a whole number"),
    ([0], "one sweep count per side"),
    ([1.5, 0], "must be a whole number"),
])
def test_impossible_sweeps_are_refused(sweeps, message):
    first, second = split_deck("7d 7c 1s 1b")
    with pytest.raises(HandError, match=message):
        score_piles([first, second], sweeps, CLASSICA)


def test_re_bello_is_a_point_for_the_king_of_coins():
    # 003 Re Bello: "an extra point to the player or team that wins the King of coins/diamonds"
    first, second = split_deck("10d")
    hand = score_piles([first, second], [0, 0], rules_for("re-bello"))
    assert line(hand, "re_bello").points == (1, 0)
    assert "re_bello" not in [l.item for l in score_piles([first, second], [0, 0], CLASSICA).lines]


def test_napola_scores_one_point_a_card_from_the_ace():
    # 003 Napola: "One point is scored for each card in the sequence, so the smallest Napola
    # A-2-3 scores 3 points."
    first, second = split_deck("1d 2d 3d 5d")
    assert line(score_piles([first, second], [0, 0], rules_for("napola")), "napola").points == (3, 0)
    first, second = split_deck("1d 2d 4d 5d")        # A-2 is no Napola
    assert line(score_piles([first, second], [0, 0], rules_for("napola")), "napola").points == (0, 0)


def test_napola_to_six_stops_at_six():
    # 003: "Some play that the maximum Napola is A-2-3-4-5-6 for 6 points."
    first, second = split_deck("1d 2d 3d 4d 5d 6d 7d 8d")
    hand = score_piles([first, second], [0, 0], rules_for("napola"))
    assert line(hand, "napola").points == (6, 0)
    assert hand.outright is None


def test_in_36_cards_napola_limits_are_cards_not_counts():
    # RULES §10: "Limits are cards, not counts: a Napola `to-six` goes as far as the 6
    # (A-3-4-5-6, 5 points at most), `to-horse` as far as the Cavallo (8 points at most), and
    # the whole suit (9 cards) is a Napoleone."
    first, second = split_deck("1d 3d 4d 5d 6d 7d 8d 9d", 36)
    to_six = rules_for("corse", {"napola": "to-six"})
    assert line(score_piles([first, second], [0, 0], to_six), "napola").points == (5, 0)
    to_horse = rules_for("corse", {"napola": "to-horse"})
    assert line(score_piles([first, second], [0, 0], to_horse), "napola").points == (8, 0)
    first, second = split_deck("1d 3d 4d 5d 6d 7d 8d 9d 10d", 36)
    hand = score_piles([first, second], [0, 0], to_horse)
    assert line(hand, "napola").points == (8, 0)
    assert (hand.outright, hand.outright_reason) == (0, "Napoleone")
    # Counts entered by hand are capped the same way.
    counted = score_tallies([Tally(cards=20, coins=9, napola=9, settebello=True, primiera=True),
                             Tally(cards=16, coins=0)], to_six)
    assert line(counted, "napola").points == (5, 0)


def test_napola_to_horse_and_the_napoleone():
    # 003: "up to 9 points for a sequence of 9 up to the Queen/Horse, and in this case a sequence
    # of 10 (the whole suit) is a Napoleone (or Napolone) which wins the game outright."
    rules = rules_for("napola", {"napola": "to-horse"})
    first, second = split_deck("1d 2d 3d 4d 5d 6d 7d 8d")
    assert line(score_piles([first, second], [0, 0], rules), "napola").points == (8, 0)
    first, second = split_deck("1d 2d 3d 4d 5d 6d 7d 8d 9d 10d")
    hand = score_piles([first, second], [0, 0], rules)
    assert line(hand, "napola").points == (9, 0)
    assert (hand.outright, hand.outright_reason) == (0, "Napoleone")


def test_scalette_bassa_and_alta():
    # 003: "A Scaletta bassa (low sequence) is equivalent to a Napola (A-2-3 ...) and it scores 3
    # points ... a Scaletta alta (high sequence) of King-Horse/Queen-Jack ... is worth 5 points.
    # It can be extended downwards scoring an extra point for each additional card as far as the
    # 2 (for 11 points)."
    rules = rules_for("scalette")
    first, second = split_deck("1d 2d 3d 8d 9d 10d")
    assert line(score_piles([first, second], [0, 0], rules), "scalette").points == (3 + 5, 0)
    first, second = split_deck("1d 2d 3d 4d 6d 7d 8d 9d 10d")        # bassa 4, alta of 5: 7
    assert line(score_piles([first, second], [0, 0], rules), "scalette").points == (4 + 7, 0)
    first, second = split_deck("1d 2d 3d 4d 5d 6d 7d 8d 9d")          # bassa as far as the Cavallo
    hand = score_piles([first, second], [0, 0], rules)
    assert line(hand, "scalette").points == (9, 0) and hand.outright is None
    first, second = split_deck("2d 3d 4d 5d 6d 7d 8d 9d 10d")         # alta as far as the 2
    assert line(score_piles([first, second], [0, 0], rules), "scalette").points == (11, 0)


def test_scalette_split_between_sides():
    first, second = split_deck("1d 2d 3d")          # the other side holds the Re down to the 4
    assert line(score_piles([first, second], [0, 0], rules_for("scalette")), "scalette").points == (3, 5 + 4)


def test_the_whole_suit_is_a_scala_that_wins_outright():
    # 003: "A player who takes all the coins/diamonds has a Scala (somplete sequence) and wins
    # the whole game."
    first, second = split_deck("1d 2d 3d 4d 5d 6d 7d 8d 9d 10d")
    hand = score_piles([first, second], [0, 0], rules_for("scalette"))
    assert (hand.outright, hand.outright_reason) == (0, "Scala")


def test_piva_costs_five_and_totals_can_go_negative():
    # 003: "the 2 of clubs scores minus 5 points for the player who takes it. A player's total
    # score can thus be negative."
    first, second = split_deck("2b 3b")
    hand = score_piles([first, second], [0, 0], rules_for("piva"))
    assert line(hand, "piva").points == (-5, 0)
    assert hand.totals[0] < 0


def test_hurrikan_bonus_suit_is_hearts():
    # 003 Hurrikan: "The bonus suit is hearts rather than diamonds. There is a point for the seven
    # of hearts, and a point for taking the majority of hearts (6 or more)."
    first, second = split_deck("7c 1c 2c 3c 4c 5c")
    hand = score_piles([first, second], [0, 0], rules_for("hurrikan"))
    assert line(hand, "settebello").points == (1, 0)
    assert line(hand, "denari").points == (1, 0) and str(line(hand, "denari").why) == "6 v 4"


def test_points_hold_one_entry_per_item_in_force_including_zeros():
    first, second = split_deck("2b")
    hand = score_piles([first, second], [0, 0], rules_for("piva"))
    assert list(hand.points(0)) == ["carte", "denari", "settebello", "primiera", "scope",
                                    "re_bello", "piva", "declarations"]


# -- Declarations (RULES §5) -------------------------------------------------------------------

def declare(side, deal, text):
    return Declaration(side, deal, tuple(cards(text)))


def hand_with(preset, *declarations):
    first, second = split_deck("7d")
    return line(score_piles([first, second], [0, 0], rules_for(preset), declarations), "declarations")


def test_bazzica_three_and_bazzicotto_ten():
    # 003 Bazzica: "any three cards which add up to 9 or less ... Scores 3 points. Bazzicotto:
    # three cards of the same rank. Scores 10 points."
    assert hand_with("bazzica", declare(0, 1, "2d 1c 1s")).points == (3, 0)
    assert hand_with("bazzica", declare(1, 2, "10d 10c 10s")).points == (0, 10)


def test_any_bazzicotto_beats_any_bazzica():
    assert hand_with("bazzica", declare(0, 1, "2d 1c 1s"), declare(1, 1, "10d 10c 10s")).points == (0, 10)


def test_the_lower_bazzica_is_better_and_equal_ones_score_nothing():
    # 003: "If both players have a bazzica, the one with the lower total card value is better.
    # The best is 2+A+A (value 4). If they are equal in value (for example A+2+6 against 2+3+4)
    # then neither player scores."
    assert hand_with("bazzica", declare(0, 1, "2d 1c 1s"), declare(1, 1, "2c 3c 4c")).points == (3, 0)
    assert hand_with("bazzica", declare(0, 1, "1d 2c 6s"), declare(1, 1, "2s 3c 4c")).points == (0, 0)


def test_the_lower_bazzicotto_is_better():
    # 003: "the one with the lower cards is better (A+A+A is best, K+K+K is worst)"
    assert hand_with("bazzica", declare(0, 3, "10d 10c 10s"), declare(1, 3, "1d 1c 1s")).points == (0, 10)


def test_declarations_after_different_deals_both_score():
    assert hand_with("bazzica", declare(0, 1, "2d 1c 1s"), declare(1, 2, "2c 3c 4c")).points == (3, 3)


def test_sbarazzina_values():
    # 003: "A bazzica scores 2 points if the three cards are all of different ranks, or 3 points
    # if they include a pair. Three of a kind of any rank scores 7 points."
    assert hand_with("sbarazzina", declare(0, 1, "1d 2c 3s")).points == (2, 0)
    assert hand_with("sbarazzina", declare(0, 1, "1d 1c 3s")).points == (3, 0)
    assert hand_with("sbarazzina", declare(0, 1, "9d 9c 9s")).points == (7, 0)


@pytest.mark.parametrize("declarations, message", [
    ([declare(0, 1, "10d 9c 1s")], "is no declaration"),
    ([declare(0, 1, "1d 1c 1s"), declare(0, 1, "2d 2c 2s")], "declared twice after deal 1"),
    ([declare(0, 1, "1d 1c 1s"), declare(1, 1, "1d 2c 2s")], "show the same card"),
    ([declare(2, 1, "1d 1c 1s")], "there are 2 sides"),
])
def test_impossible_declarations_are_refused(declarations, message):
    first, second = split_deck("7d")
    with pytest.raises(CardError, match=message):
        score_piles([first, second], [0, 0], rules_for("bazzica"), declarations)


def test_a_card_declared_after_two_deals_is_refused():
    # RULES §10: "a card declared in two different deals of one hand is refused (a card is
    # dealt once a hand)."
    first, second = split_deck("7d")
    with pytest.raises(CardError, match="1c is declared after deal 1 and after deal 3: a card is dealt once a hand"):
        score_piles([first, second], [0, 0], rules_for("bazzica"),
                    [declare(1, 3, "2c 1c 3s"), declare(0, 1, "2d 1c 1s")])


def test_declarations_need_exactly_two_sides():
    # RULES §10: "Declarations need exactly two sides".
    rules = rules_for("bazzica")
    piles = [deck()[:14], deck()[14:27], deck()[27:]]
    with pytest.raises(CardError, match="declarations need exactly two sides: there are 3"):
        score_piles(piles, [0, 0, 0], rules, [declare(0, 1, "1d 1c 1s")])
    assert score_piles(piles, [0, 0, 0], rules).totals          # without any: scored as usual


def test_declarations_need_rules_that_have_them():
    first, second = split_deck("7d")
    with pytest.raises(HandError, match="no declarations"):
        score_piles([first, second], [0, 0], CLASSICA, [declare(0, 1, "1d 1c 1s")])


# -- Tallies -----------------------------------------------------------------------------------

def tallies(**changes):
    first = dict(cards=22, coins=6, settebello=True, sweeps=1, sevens=3, sixes=2, aces=2)
    second = dict(cards=18, coins=4, settebello=False, sweeps=0, sevens=1, sixes=2, aces=2)
    for key, (a, b) in changes.items():
        first[key], second[key] = a, b
    return [Tally(**first), Tally(**second)]


def test_tallies_score_like_piles():
    hand = score_tallies(tallies(primiera=(True, False)), CLASSICA)
    assert hand.totals == (5, 0)
    assert str(line(hand, "primiera").why) == "marked for side 1 by the players"


def test_sevens_sixes_is_computed_from_counts():
    hand = score_tallies(tallies(), rules_for("sco-papa"))
    assert line(hand, "primiera").points == (1, 0) and str(line(hand, "primiera").why) == "sevens 3 v 1"


def test_count_down_past_aces_needs_the_mark():
    even = dict(sevens=(2, 2), sixes=(2, 2), aces=(2, 2))
    assert line(score_tallies(tallies(**even), rules_for("classica", {"primiera": "count-down"})),
                "primiera").points == (0, 0)
    marked = score_tallies(tallies(**even, primiera=(False, True)),
                           rules_for("classica", {"primiera": "count-down"}))
    assert line(marked, "primiera").points == (0, 1)


@pytest.mark.parametrize("changes, message", [
    (dict(cards=(22, 17)), "the cards add up to 39, not 40"),
    (dict(cards=(22, 19)), "the cards add up to 41, not 40"),
    (dict(coins=(6, 5)), "the denari add up to 11, not 10"),
    (dict(settebello=(True, True)), "only one side can have the settebello"),
    (dict(settebello=(False, False)), "exactly one side has the settebello"),
    (dict(sevens=(3, 2)), "the sevens add up to 5, not 4"),
    (dict(sweeps=(12, 0)), "cannot have made 12 sweeps: 22 cards taken"),
    (dict(cards=(4, 36), coins=(4, 6), sweeps=(3, 0), sevens=(3, 1), aces=(1, 3), sixes=(0, 4)),
     "cannot have made 3 sweeps: 4 cards taken"),
    (dict(coins=(0, 10)), "side 1 holds more denari .* than the 0 entered"),
    (dict(sevens=(0, 4)), "has the settebello, so at least one seven"),
    (dict(sevens=(3, None)), "the sevens of every side, or of none"),
    (dict(primiera=(True, True)), "only one side can win the primiera"),
    (dict(napola=(2, 0)), None),
    (dict(napola=(11, 0)), "cannot be longer than the 10"),
    (dict(napola=(8, 0)), "more denari .* than the 6 entered"),
    (dict(napola=(3, 3)), "only one side can hold a sequence of denari from the Ace"),
    (dict(napola=(5, 0), scaletta_alta=(5, 0)), "would overlap"),
])
def test_impossible_counts_are_refused(changes, message):
    if message is None:       # a run of 2 is simply no Napola: allowed, scores nothing
        score_tallies(tallies(**changes), rules_for("napola"))
        return
    with pytest.raises(HandError, match=message):
        score_tallies(tallies(**changes), rules_for("napola"))


def test_sevens_are_required_where_they_decide_the_primiera():
    bare = [Tally(cards=22, coins=6, settebello=True), Tally(cards=18, coins=4)]
    score_tallies(bare, CLASSICA)
    with pytest.raises(HandError, match="enter each side's sevens"):
        score_tallies(bare, rules_for("sco-papa"))


def test_the_counts_cannot_contradict_the_mark():
    with pytest.raises(HandError, match="the counts give the primiera to side 1, not side 2"):
        score_tallies(tallies(primiera=(False, True)), rules_for("sco-papa"))


def test_re_bello_and_piva_must_be_held_by_one_side():
    with pytest.raises(HandError, match="exactly one side has the Re Bello"):
        score_tallies(tallies(), rules_for("re-bello"))
    with pytest.raises(HandError, match="Piva"):
        score_tallies(tallies(re_bello=(True, False)), rules_for("piva"))
    hand = score_tallies(tallies(re_bello=(True, False), piva=(False, True)), rules_for("piva"))
    assert line(hand, "piva").points == (0, -5) and line(hand, "re_bello").points == (1, 0)


def test_the_piva_cannot_be_held_in_the_36_card_deck():
    # RULES §1: "Scopa Corse removes the four 2s (36 cards)", so there is no 2 of bastoni.
    corse_piva = rules_for("corse", {"piva": True})
    hand = tallies(cards=(20, 16), coins=(5, 4), sevens=(3, 1), sixes=(2, 2), aces=(2, 2))
    assert score_tallies(hand, corse_piva).totals      # nobody holds it: scored as usual
    hand[1] = hand[1]._replace(piva=True)
    with pytest.raises(HandError, match="36-card deck has no 2 of bastoni"):
        score_tallies(hand, corse_piva)


def test_a_primiera_mark_cannot_overrule_counts_that_tie():
    # RULES §4 sevens-sixes: "if several sides tie on sevens, the one among them with most sixes
    # wins; a further tie gives nobody the point."
    level = tallies(sevens=(2, 2), sixes=(2, 2))
    assert line(score_tallies(level, rules_for("sco-papa")), "primiera").points == (0, 0)
    with pytest.raises(HandError, match="the sevens and sixes tie: nobody wins the primiera"):
        score_tallies(tallies(sevens=(2, 2), sixes=(2, 2), primiera=(True, False)),
                      rules_for("sco-papa"))
