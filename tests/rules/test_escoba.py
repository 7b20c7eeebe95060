"""Escoba, RULES §12: the Spanish game of the family, every reading of its section checked
against a scorer of its own written here from the rules' words (``reference_points``, small and
independent of the engine), and against the sources' sentences.

Sources (docs/rules.md §12): en.wikipedia "Escoba"; pagat's Escoba page; melele.es "Escoba";
studylib's "Escoba de quince"; playingcards.io "Escoba"; entretodos.com.uy (the Uruguayan
setenta); magnojuegos (the escobas of the first table).
"""

from __future__ import annotations

import pytest
from escoba_reference import reference_captures, reference_dealer_escobas, reference_points
from hypothesis import given, strategies as st

from companion.rules import (
    HandError,
    HandResult,
    RulesError,
    Tally,
    check_deal,
    check_seating,
    deck,
    legal_captures,
    match_outcome,
    parse_card,
    parse_cards,
    rules_for,
    score_piles,
    score_tallies,
)
from companion.rules.deal import deal_plan

ESCOBA = rules_for("escoba")
SETENTAS = ("sevens", "count-down", "standard")


ENGINE_NAMES = {"carte": "cartas", "denari": "oros", "settebello": "velo", "primiera": "setenta",
                "scope": "escobas"}


def engine_points(piles: list[set[str]], escobas: list[int], method: str) -> list[dict]:
    hand = score_piles([parse_cards(sorted(p)) for p in piles], escobas,
                       rules_for("escoba", {"primiera": method}))
    return [{ENGINE_NAMES[item]: points for item, points in hand.points(side).items()}
            for side in range(len(piles))]


@st.composite
def escoba_hands(draw, sides=st.integers(2, 4)):
    """A finished hand of Escoba: the 40 cards shared among 2 to 4 sides (a side is a player or
    a team: the score knows only sides), and each side's escobas."""
    cards = draw(st.permutations([str(card) for card in deck()]))
    n = draw(sides)
    cuts = sorted(draw(st.lists(st.integers(0, 40), min_size=n - 1, max_size=n - 1)))
    bounds = [0, *cuts, 40]
    piles = [set(cards[a:b]) for a, b in zip(bounds, bounds[1:])]
    escobas = [draw(st.integers(0, len(pile) // 2)) for pile in piles]
    return piles, escobas


@pytest.mark.parametrize("method", SETENTAS)
@given(hand=escoba_hands())
def test_the_engine_scores_as_the_reference_does(method, hand):
    piles, escobas = hand
    assert engine_points(piles, escobas, method) == reference_points(piles, escobas, method)


@given(hand=escoba_hands(sides=st.just(2)), method=st.sampled_from(SETENTAS))
def test_two_sides_or_two_teams_score_as_the_reference_does(hand, method):
    piles, escobas = hand
    assert engine_points(piles, escobas, method) == reference_points(piles, escobas, method)


def test_the_reference_itself_on_a_hand_worked_by_hand():
    """Anna takes 21 cards with 6 oros, the velo and three sevens; Bruno the 19 others."""
    anna = {"7d", "7c", "7s", "1d", "2d", "3d", "4d", "5d", "1c", "2c", "3c", "4c", "5c", "6c",
            "1s", "2s", "3s", "4s", "5s", "6s", "8s"}
    bruno = {str(c) for c in deck()} - anna
    assert len(anna) == 21
    assert reference_points([anna, bruno], [1, 2]) == [
        {"cartas": 1, "oros": 1, "velo": 1, "setenta": 1, "escobas": 1},
        {"cartas": 0, "oros": 0, "velo": 0, "setenta": 0, "escobas": 2}]
    assert engine_points([anna, bruno], [1, 2], "sevens") == reference_points([anna, bruno], [1, 2])


def test_a_tie_in_cartas_oros_or_setenta_scores_nothing():
    """playingcards.io: "If there is a tie in any category, none of the players are awarded
    points". 20 cards each, 5 oros each, two sevens each."""
    first = {"1d", "2d", "3d", "4d", "5d", "7c", "7s", "1c", "2c", "3c", "4c", "5c", "6c", "8c",
             "9c", "10c", "1s", "2s", "3s", "4s"}
    second = {str(c) for c in deck()} - first
    hand = score_piles([parse_cards(sorted(first)), parse_cards(sorted(second))], [0, 0], ESCOBA)
    assert {line.item: line.points for line in hand.lines} == {
        "carte": (0, 0), "denari": (0, 0), "settebello": (0, 1), "primiera": (0, 0), "scope": (0, 0)}


def test_the_setenta_goes_to_the_most_sevens_by_default():
    """melele.es: "Un punto al que tiene más sietes (por defecto) o mejor setenta"."""
    assert ESCOBA.primiera == "sevens"
    three = {"7d", "7c", "7s"}
    rest = {str(c) for c in deck()} - three
    hand = score_piles([parse_cards(sorted(three)), parse_cards(sorted(rest))], [0, 0], ESCOBA)
    assert hand.points(0)["primiera"] == 1 and hand.points(1)["primiera"] == 0


def test_count_down_breaks_a_tie_in_sevens_on_the_sixes_then_the_aces():
    """entretodos.com.uy: "En caso de empate se cuentan los seis, luego los unos"."""
    rules = rules_for("escoba", {"primiera": "count-down"})
    first = parse_cards(["7d", "7c", "6d", "6c", "1d"])
    second = [card for card in deck() if card not in first]      # 7s 7b 6s 6b 1c 1s 1b ...
    assert score_piles([first, second], [0, 0], rules).points(1)["primiera"] == 1
    assert score_piles([first, second], [0, 0], ESCOBA).points(0)["primiera"] == 0   # sevens tie


def test_standard_setenta_a_missing_suit_loses():
    """RULES §12: "Under `standard` the setenta's missing suit loses"; three sevens and no
    bastos lose to any side with the four suits."""
    rules = rules_for("escoba", {"primiera": "standard"})
    assert rules.missing_suit == "loses"
    first = parse_cards(["7d", "7c", "7s", "6d", "6c", "6s"])
    second = [card for card in deck() if card not in first]
    assert score_piles([first, second], [0, 0], rules).points(1)["primiera"] == 1


def test_the_preset():
    """RULES §12 and §8: the Spanish pack of 40, the setenta by the sevens, 21 points, captures
    making 15, the first table's escobas, no void deal, no declarations, no cappotto."""
    assert (ESCOBA.pack, ESCOBA.deck, ESCOBA.primiera, ESCOBA.target, ESCOBA.capture,
            ESCOBA.void_deal, ESCOBA.declarations, ESCOBA.cappotto) == (
        "spanish", 40, "sevens", 21, "escoba", "off", "off", False)
    assert ESCOBA.deal_scope not in (False, "off")
    assert {rules_for("escoba", {"target": t}).target for t in (15, 31)} == {15, 31}


def test_a_36_card_deck_is_refused():
    with pytest.raises(RulesError, match="40 cards"):
        rules_for("escoba", {"deck": 36})


@pytest.mark.parametrize("sides, per_side", [(2, 1), (3, 1), (4, 1), (2, 2), (2, 3)])
def test_every_seat_of_the_section(sides, per_side):
    """RULES §12: "two, three or four players each for themselves, or two teams of two or of
    three"; pagat: "four can play individually or in partnerships"."""
    check_seating(ESCOBA, sides, per_side)


@pytest.mark.parametrize("players, deals", [(2, 6), (3, 4), (4, 3), (6, 2)])
def test_the_deal(players, deals):
    """studylib: "distribuirá ... tres a cada uno ... Luego pondrá sobre la mesa, boca arriba,
    cuatro cartas más"; RULES §12: 6 deals for two players, 4 for three, 3 for four, 2 for six."""
    plan = deal_plan(ESCOBA, players)
    assert plan.table == 4 and plan.hands == (3,) * deals
    assert 4 + 3 * deals * players == 40


# -- Captures ----------------------------------------------------------------------------------

tables = st.lists(st.sampled_from([str(c) for c in deck()]), min_size=0, max_size=9, unique=True)


@given(table=tables, played=st.sampled_from([str(c) for c in deck()]), last=st.booleans())
def test_captures_are_the_sets_making_15_and_never_compulsory(table, played, last):
    if played in table:
        table = [c for c in table if c != played]
    ruling = legal_captures(parse_cards(table), parse_card(played), ESCOBA, last_play=last, limit=100)
    found = {frozenset(map(str, capture.cards)) for capture in ruling.captures}
    assert found == reference_captures(table, played)
    assert ruling.count == len(found)
    assert ruling.may_place            # never compulsory
    for capture in ruling.captures:    # an escoba with any card, the last one too
        assert capture.sweep == (len(capture.cards) == len(table))


def test_a_card_never_takes_its_equal():
    """melele.es: "puede coger cartas de la mesa si junto a una de las suyas suman 15"; a 7 on
    a 7, 5 and 3 takes the 5 and the 3, never the 7."""
    ruling = legal_captures(parse_cards(["7c", "5d", "3s"]), parse_card("7b"), ESCOBA)
    assert [[str(c) for c in capture.cards] for capture in ruling.captures] == [["5d", "3s"]]
    assert any("never compulsory" in str(reason) and "lay the card" in str(reason)
               for reason in ruling.reasons)


def test_the_naipes_example_is_an_escoba():
    """naipes-casino.com.ar: "En la mesa hay un tres, un dos y dos ases ( que suman 7); con una
    sota ( que vale 8) el jugador recoge todas las cartas haciendo ¨escoba¨"."""
    ruling = legal_captures(parse_cards(["3c", "2s", "1d", "1b"]), parse_card("8c"), ESCOBA,
                            last_play=True)
    assert [capture.sweep for capture in ruling.captures] == [True]


def test_the_reference_sota_example():
    """reference.com: "if there is a Sota, ... Rey, ... two; and four card on the table, and the
    player uses the five card in his hand, he can capture the Sota and the two, or the Rey"."""
    ruling = legal_captures(parse_cards(["8d", "10c", "2s", "4b"]), parse_card("5c"), ESCOBA)
    assert {frozenset(map(str, c.cards)) for c in ruling.captures} == {
        frozenset({"8d", "2s"}), frozenset({"10c"})}


# -- The first table ---------------------------------------------------------------------------

@given(st.lists(st.sampled_from([str(c) for c in deck()]), min_size=4, max_size=4, unique=True))
def test_the_first_table_gives_the_dealer_escobas_as_the_reference_does(table):
    check = check_deal(parse_cards(table), ESCOBA)
    assert not check.void                       # no void deal
    assert check.scope == reference_dealer_escobas(table)


def test_the_first_tables_the_sources_give():
    """en.wikipedia: "where the four initial cards dealt to the board add up to 15, they are
    taken by the dealer"; magnojuegos: "estas cuatro cartas formen dos pares de cartas que suman
    15 cada par, en ese caso habrá conseguido dos escobas"."""
    assert check_deal(parse_cards(["2d", "3c", "4s", "6b"]), ESCOBA).scope == 1
    assert check_deal(parse_cards(["7d", "8c", "10s", "5b"]), ESCOBA).scope == 2


def test_a_first_table_adding_up_to_30_gives_two_escobas_however_it_splits():
    """RULES §12: "A first table adding up to 15 is taken by the dealer as one escoba, 30 (two
    fifteens) as two (`deal_scope: 15-30`)": the sum decides, as `deal_scope: 15-30` decides it
    for Cirulla (§11: "four cards adding up to 15 give the dealer one scopa, 30 two"). Worth 10,
    10, 9 and 1, no two of them make 15, and they add up to 30: two escobas. The same items on
    another preset answer the same."""
    table = parse_cards(["10d", "10c", "9s", "1b"])
    dealt = check_deal(table, ESCOBA)
    assert (dealt.void, dealt.scope) == (False, 2)
    assert "30" in str(dealt.reason) and "2 escobas" in str(dealt.reason)
    same_items = rules_for("classica", {**{item: getattr(ESCOBA, item) for item in
                                           ("capture", "deal_scope", "void_deal", "primiera")}})
    assert check_deal(table, same_items).scope == dealt.scope
    stands = check_deal(parse_cards(["10d", "10c", "10s", "1b"]), ESCOBA)
    assert (stands.void, stands.scope) == (False, 0) and "31" in str(stands.reason)


# -- By counts and the match -------------------------------------------------------------------

def test_by_counts_the_sevens_decide_the_setenta():
    tallies = [Tally(22, 6, True, sweeps=1, sevens=3), Tally(18, 4, False, sweeps=0, sevens=1)]
    hand = score_tallies(tallies, ESCOBA)
    assert hand.totals == (5, 0)
    even = [Tally(20, 5, True, sevens=2), Tally(20, 5, False, sevens=2)]
    assert score_tallies(even, ESCOBA).totals == (1, 0)


def test_by_counts_the_sevens_are_needed():
    with pytest.raises(HandError, match="sevens"):
        score_tallies([Tally(22, 6, True), Tally(18, 4, False)], ESCOBA)


def _refusal(tallies: list[Tally], rules=ESCOBA) -> str:
    with pytest.raises(HandError) as refused:
        score_tallies(tallies, rules)
    return str(refused.value.args[0])


@pytest.mark.parametrize("tallies, says", [
    ([Tally(22, 6, False, sevens=3), Tally(18, 4, False, sevens=1)], "exactly one side has the velo"),
    ([Tally(22, 6, True, sevens=3), Tally(18, 4, True, sevens=1)], "only one side can have the velo"),
    ([Tally(22, 6, True, sevens=0), Tally(18, 4, False, sevens=4)],
     "side 1 has the velo, so at least one seven"),
    ([Tally(22, 0, True, sevens=3), Tally(18, 10, False, sevens=1)],
     "side 1 holds more oros (the velo among them) than the 0 entered"),
    ([Tally(22, 6, True, sweeps=12, sevens=3), Tally(18, 4, False, sevens=1)],
     "side 1 cannot have made 12 escobas: 22 cards taken, and each escoba takes at least 2 cards"),
    ([Tally(22, 6, True, sweeps=-1, sevens=3), Tally(18, 4, False, sevens=1)],
     "the escobas of side 1 must be a whole number, 0 or more"),
    ([Tally(22, 6, True), Tally(18, 4, False)], "enter each side's sevens: they decide the setenta"),
    ([Tally(2, 1, True, sevens=3), Tally(38, 9, False, sevens=1)],
     "side 1 cannot have 3 sevens in 2 cards"),
    ([Tally(22, 6, True, sevens=2, primiera=True), Tally(18, 4, False, sevens=2)],
     "the sevens tie: nobody wins the setenta, so no side can be marked as winning it"),
    ([Tally(22, 6, True, sevens=3), Tally(18, 4, False, sevens=1, primiera=True)],
     "the counts give the setenta to side 1, not side 2"),
    ([Tally(22, 11, True, sevens=3), Tally(18, 4, False, sevens=1)], "the oros add up to 15, not 10"),
])
def test_a_refused_hand_is_told_in_escobas_words(tallies, says):
    """RULES §12's words: the velo, the escobas, the setenta and the oros, as the hand form
    asks them, never the settebello, sweeps, primiera and denari of Scopa."""
    told = _refusal(tallies)
    assert told == says
    for scopa in ("settebello", "sweep", "primiera", "denari", "coins"):
        assert scopa not in told


@pytest.mark.parametrize("tallies, says", [
    # One card, an oro and a seven: the siete de oros, though the velo is marked for side 2.
    ([Tally(1, 1, False, sevens=1), Tally(39, 9, True, sevens=3)],
     "side 1's oros (1) and sevens (1) are more than the cards (1): only the 7d is both"),
    ([Tally(5, 5, False, sevens=2), Tally(35, 5, True, sevens=2)],
     "side 1's oros (5) and sevens (2) are more than the cards (5): only the 7d is both"),
    # The velo is both: 2 oros and 2 sevens fit in 3 cards with it, never in 2.
    ([Tally(2, 2, True, sevens=2), Tally(38, 8, False, sevens=2)],
     "side 1's oros (2) and sevens (2) are more than the cards (2): only the 7d is both"),
])
def test_counts_the_deck_cannot_deal_are_refused(tallies, says):
    """The siete de oros (el velo) is the only card that is both an oro and a seven (RULES
    §12), so a side's cards hold its oros and its other sevens: counts that do not fit are no
    hand the deck deals."""
    assert _refusal(tallies) == says
    fits = [Tally(3, 2, True, sevens=2), Tally(37, 8, False, sevens=2)]
    assert score_tallies(fits, ESCOBA).totals == (1, 2)      # velo; cartas and oros


@given(hand=escoba_hands())
def test_the_counts_of_real_piles_are_never_refused(hand):
    """What a real hand's piles count (cards, oros, sevens, the velo, escobas) scores by counts
    as it does by cards: no check refuses a hand the deck deals."""
    piles, escobas = hand
    by_cards = score_piles([parse_cards(sorted(p)) for p in piles], escobas, ESCOBA)
    assert score_tallies(by_cards.tallies, ESCOBA).totals == by_cards.totals


def test_scopa_keeps_its_words():
    classica = rules_for("classica", {"primiera": "sevens-sixes"})
    assert _refusal([Tally(22, 6, False, sevens=3, sixes=2), Tally(18, 4, False, sevens=1, sixes=2)],
                    classica) == "exactly one side has the settebello"


def test_21_wins_and_a_tie_at_the_top_plays_on():
    """melele.es: "hasta que uno de los jugadores obtenga 21 puntos (por defecto) o más y no haya
    empate (en este caso la partida continúa)"."""
    level = match_outcome([HandResult((10, 10)), HandResult((11, 11))], ESCOBA, ("Ana", "Bea"))
    assert not level.over
    won = match_outcome([HandResult((10, 10)), HandResult((12, 11))], ESCOBA, ("Ana", "Bea"))
    assert won.over and won.winner == 0
