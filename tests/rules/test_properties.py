"""Properties of the rules that hold for every deal, checked over random deals."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules import HandError, deck
from companion.rules.primiera import primiera_of
from companion.rules.rulesets import PRESETS, rules_for
from companion.rules.scoring import Tally, score_piles, score_tallies

ONE_WINNER_ITEMS = ("carte", "denari", "settebello", "primiera", "re_bello", "piva")

presets = st.sampled_from(sorted(PRESETS))
options = st.fixed_dictionaries({}, optional={
    "primiera": st.sampled_from(["standard", "half", "hurrikan", "no-figures", "sevens-sixes",
                                 "count-down", "sevens"]),
    "missing_suit": st.sampled_from(["loses", "void", "zero"]),
    "bonus_suit": st.sampled_from("dcsb"),
    "re_bello": st.booleans(),
    "piva": st.booleans(),
    "napola": st.sampled_from(["off", "to-six", "to-horse"]),
})


@st.composite
def deals(draw, sides=st.integers(2, 4)):
    """(rules, piles, sweeps): a finished hand, every card in some pile."""
    preset = draw(presets)
    chosen = draw(options)
    if PRESETS[preset].get("scalette"):
        chosen.pop("napola", None)
    rules = rules_for(preset, chosen)
    cards = draw(st.permutations(deck(rules.deck)))
    n = draw(sides)
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=n - 1, max_size=n - 1)))
    bounds = [0, *cuts, len(cards)]
    piles = [list(cards[a:b]) for a, b in zip(bounds, bounds[1:])]
    sweeps = [draw(st.integers(0, len(pile) // 2)) for pile in piles]
    return rules, piles, sweeps


@given(deals())
def test_each_point_goes_to_at_most_one_side(deal):
    rules, piles, sweeps = deal
    hand = score_piles(piles, sweeps, rules)
    for line in hand.lines:
        if line.item in ONE_WINNER_ITEMS:
            assert sum(1 for p in line.points if p) <= 1, line


@given(deals(), st.data())
def test_swapping_two_piles_swaps_their_points(deal, data):
    rules, piles, sweeps = deal
    i, j = data.draw(st.lists(st.integers(0, len(piles) - 1), min_size=2, max_size=2, unique=True))
    hand = score_piles(piles, sweeps, rules)
    piles[i], piles[j] = piles[j], piles[i]
    sweeps[i], sweeps[j] = sweeps[j], sweeps[i]
    swapped = score_piles(piles, sweeps, rules)
    assert swapped.points(i) == hand.points(j) and swapped.points(j) == hand.points(i)


@given(st.sampled_from(["standard", "half", "hurrikan", "no-figures", "sevens-sixes", "count-down"]),
       st.permutations(deck()), st.integers(0, 39))
def test_one_more_card_never_lowers_a_primiera(method, cards, size):
    pile, more = cards[:size], cards[:size + 1]
    before, after = primiera_of(pile, method), primiera_of(more, method)
    if before.value is None:
        assert all(b <= a for b, a in zip(before.counts, after.counts))
    else:
        assert after.value >= before.value
        assert len(after.best) >= len(before.best)


@given(deals(), st.data())
def test_piles_that_do_not_partition_the_deck_are_refused(deal, data):
    rules, piles, sweeps = deal
    side = data.draw(st.sampled_from([i for i, pile in enumerate(piles) if pile]))
    if data.draw(st.booleans()):
        piles[side].pop(data.draw(st.integers(0, len(piles[side]) - 1)))        # a card lost
    else:
        other = (side + 1) % len(piles)
        piles[other].append(data.draw(st.sampled_from(piles[side])))             # a card twice
    sweeps = [0] * len(piles)
    with pytest.raises(HandError):
        score_piles(piles, sweeps, rules)


def count_like_a_player(pile, sweeps, rules, won_primiera):
    """The tally a player would enter after counting a pile by hand."""
    bonus = rules.bonus_suit
    coins = sorted(card.value for card in pile if card.suit == bonus)
    suit = sorted({card.value for card in deck(rules.deck)})

    def run(order):
        length = 0
        for value in order:
            if value not in coins:
                break
            length += 1
        return length

    return Tally(
        cards=len(pile), coins=len(coins), settebello=7 in coins, re_bello=10 in coins,
        sweeps=sweeps, sevens=sum(c.value == 7 for c in pile), sixes=sum(c.value == 6 for c in pile),
        aces=sum(c.value == 1 for c in pile), napola=run(suit), scaletta_alta=run(suit[::-1]),
        piva=any(c.value == 2 and c.suit == "b" for c in pile), primiera=won_primiera)


@given(deals())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_tally_scoring_agrees_with_pile_scoring(deal):
    rules, piles, sweeps = deal
    by_piles = score_piles(piles, sweeps, rules)
    tallies = [count_like_a_player(pile, count, rules, side == by_piles.primiera.winner)
               for side, (pile, count) in enumerate(zip(piles, sweeps))]
    by_counts = score_tallies(tallies, rules)
    assert [l.points for l in by_counts.lines] == [l.points for l in by_piles.lines]
    assert by_counts.outright == by_piles.outright


@given(deals(sides=st.just(2)))
def test_entered_counts_that_miss_a_card_are_refused(deal):
    rules, piles, sweeps = deal
    tallies = [count_like_a_player(pile, count, rules, False) for pile, count in zip(piles, sweeps)]
    tallies[0] = tallies[0]._replace(cards=tallies[0].cards + 1)
    with pytest.raises(HandError):
        score_tallies(tallies, rules)
