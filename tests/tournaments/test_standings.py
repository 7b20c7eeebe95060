"""The standings (issue 40, point 2): match points, then the tie-breaks as chess arbiters apply
them, each format its own list (FIDE Handbook C.07 and the lists of C.02 13.16), ending with the
order the organiser typed the entrants in.

The issue: "Marta (4 points, +6) is listed below Carla (4 points, +3) by 'spareggio: scontri
diretti', but they never played each other: a mini-league is built out of whatever games exist.
The last tie-break is called 'ordine di iscrizione' but follows the rating seed: Dario was placed
above Anna, typed first." C.07, 6.2: head-to-head decides "if all tied participants have met
each other"; otherwise the next tie-break.

Every table here is built from results written out by hand, through the standings and the
tournament's model, without HTTP; every figure is recounted game by game (``tally``)."""

import random
from fractions import Fraction
from itertools import combinations

import pytest

from companion.rules import rules_for
from companion.tournaments.model import build
from companion.tournaments.standings import TIE_BREAKS, Unplayed, standings


def tally(entrants, games, byes=()):
    """The figures worked out the plain way, game by game, to check the module against."""
    table = {e: dict(played=0, won=0, drawn=0, lost=0, match_points=0, scored=0, conceded=0)
             for e in entrants}
    for a, b, sa, sb, winner in games:
        table[a]["played"] += 1
        table[b]["played"] += 1
        table[a]["scored"] += sa
        table[a]["conceded"] += sb
        table[b]["scored"] += sb
        table[b]["conceded"] += sa
        if winner is None:
            for e in (a, b):
                table[e]["drawn"] += 1
                table[e]["match_points"] += 1
        else:
            loser = b if winner == a else a
            table[winner]["won"] += 1
            table[winner]["match_points"] += 2
            table[loser]["lost"] += 1
    for e, _ in byes:
        table[e]["played"] += 1
        table[e]["won"] += 1
        table[e]["match_points"] += 2
    return table


def check_figures(rows, entrants, games, byes=()):
    expected = tally(entrants, games, byes)
    for row in rows:
        figures = expected[row.entrant]
        for name, value in figures.items():
            assert getattr(row, name) == value, (row.entrant, name)
        assert row.difference == figures["scored"] - figures["conceded"]
        assert row.played == row.won + row.drawn + row.lost


def order(rows):
    return [(row.entrant, row.decided_by) for row in rows]


# -- Head-to-head: only among entrants who have all met ---------------------------------------------

def test_two_level_entrants_who_never_met_are_not_told_apart_by_head_to_head():
    """The issue's Marta and Carla: 4 points each, +6 and +3, never met. Carla beat Pia, also
    level at 4: the old mini-league counted it and put Carla above Marta "by head-to-head".
    Not all three met, so head-to-head says nothing; the beaten opponents' points are level (8
    each), and the points difference puts Marta first."""
    games = [("Carla", "Pia", 11, 10, "Carla"), ("Marta", "W1", 11, 8, "Marta"),
             ("Marta", "W2", 11, 8, "Marta"), ("Carla", "W3", 11, 9, "Carla"),
             ("Pia", "W1", 11, 10, "Pia"), ("Pia", "W2", 11, 10, "Pia"),
             ("W1", "W3", 11, 4, "W1"), ("W2", "W3", 11, 4, "W2")]
    entrants = ["Carla", "Marta", "Pia", "W1", "W2", "W3"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    by = {row.entrant: row for row in rows}
    assert [(by[e].match_points, by[e].difference) for e in ("Marta", "Carla", "Pia")] == [(4, 6), (4, 3), (4, 1)]
    assert [by[e].sonneborn_berger for e in ("Marta", "Carla", "Pia")] == [8, 8, 8]
    assert order(rows)[:3] == [("Marta", None), ("Carla", "difference"), ("Pia", "difference")]
    assert all(by[e].head_to_head is None for e in ("Marta", "Carla", "Pia"))


def test_a_three_way_tie_where_all_met_is_decided_by_head_to_head():
    """Anna, Bruno and Carla level on 5 points, and each met the other two: Anna beat both (4 of
    her points among them), Bruno and Carla drew. Head-to-head puts Anna first, though her
    difference is the worst of the three; applied again to Bruno and Carla, their draw leaves
    them level, and the beaten opponents' points come next: Carla beat Franco (2 points),
    Bruno beat Elena (1), so Carla is above, though Bruno's difference is +21 to her +3 (the
    old order, head-to-head then the difference, put Bruno above)."""
    games = [("Anna", "Bruno", 11, 10, "Anna"), ("Anna", "Carla", 11, 10, "Anna"),
             ("Bruno", "Carla", 8, 8, None), ("Anna", "Elena", 5, 5, None),
             ("Bruno", "Dario", 11, 0, "Bruno"), ("Bruno", "Elena", 11, 0, "Bruno"),
             ("Carla", "Dario", 11, 9, "Carla"), ("Carla", "Franco", 11, 9, "Carla"),
             ("Franco", "Elena", 11, 9, "Franco")]
    entrants = ["Elena", "Dario", "Bruno", "Carla", "Anna", "Franco"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    by = {row.entrant: row for row in rows}
    assert [by[e].match_points for e in ("Anna", "Bruno", "Carla")] == [5, 5, 5]
    assert [by[e].difference for e in ("Anna", "Bruno", "Carla")] == [2, 21, 3]
    assert [by[e].sonneborn_berger for e in ("Bruno", "Carla")] == [5 + 2, 5 + 4]
    assert order(rows)[:3] == [("Anna", None), ("Carla", "head_to_head"), ("Bruno", "sonneborn_berger")]
    assert (by["Anna"].head_to_head, by["Bruno"].head_to_head, by["Carla"].head_to_head) == (4, 1, 1)


def test_a_three_way_tie_where_one_pair_never_met_passes_to_the_next_tie_break():
    """Anna, Bruno and Carla level on 4 points; Anna beat Bruno and Carla beat Anna, but Bruno
    and Carla never met. The old mini-league put Bruno last (0 of its points, Anna and Carla 2
    each); not all met, so head-to-head does not apply: the beaten opponents' points are level
    (8 each), and the points difference decides, Bruno's +10 first."""
    games = [("Anna", "Bruno", 11, 9, "Anna"), ("Carla", "Anna", 11, 9, "Carla"),
             ("Bruno", "Dario", 11, 5, "Bruno"), ("Bruno", "Elena", 11, 5, "Bruno"),
             ("Carla", "Franco", 11, 5, "Carla"), ("Dario", "Franco", 11, 5, "Dario"),
             ("Elena", "Franco", 11, 5, "Elena"), ("Anna", "Gino", 11, 5, "Anna")]
    entrants = ["Carla", "Anna", "Bruno", "Dario", "Elena", "Franco", "Gino"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    by = {row.entrant: row for row in rows}
    assert [by[e].match_points for e in ("Anna", "Bruno", "Carla")] == [4, 4, 4]
    assert [by[e].sonneborn_berger for e in ("Bruno", "Carla", "Anna")] == [8, 8, 8]
    assert [by[e].difference for e in ("Bruno", "Carla", "Anna")] == [10, 8, 6]
    assert order(rows)[:3] == [("Bruno", None), ("Carla", "difference"), ("Anna", "difference")]
    assert by["Bruno"].head_to_head is None


def test_head_to_head_is_applied_again_among_those_it_leaves_level():
    """C.07, 6.2: four level on 4 points, all met; head-to-head gives Anna and Bruno 4 each,
    Carla and Dario 2 each; applied again to Anna and Bruno alone, Bruno's win over Anna puts
    him first, and Carla's over Dario puts her third."""
    games = [("Bruno", "Anna", 11, 10, "Bruno"), ("Anna", "Carla", 11, 10, "Anna"),
             ("Anna", "Dario", 11, 10, "Anna"), ("Bruno", "Carla", 11, 10, "Bruno"),
             ("Dario", "Bruno", 11, 10, "Dario"), ("Carla", "Dario", 11, 10, "Carla"),
             ("Carla", "Xena", 11, 0, "Carla"), ("Dario", "Yves", 11, 0, "Dario")]
    entrants = ["Anna", "Carla", "Dario", "Bruno", "Xena", "Yves"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    by = {row.entrant: row for row in rows}
    assert {by[e].match_points for e in ("Anna", "Bruno", "Carla", "Dario")} == {4}
    assert order(rows)[:4] == [("Bruno", None), ("Anna", "head_to_head"), ("Carla", "head_to_head"),
                               ("Dario", "head_to_head")]
    # The figure kept is the last group's it was counted in: Bruno's 2 of his and Anna's 2.
    assert [by[e].head_to_head for e in ("Bruno", "Anna", "Carla", "Dario")] == [2, 0, 2, 0]


def test_two_who_met_twice_count_the_average_of_their_games():
    """C.07, 6.1.2 (a Swiss may pair two again when nothing else is left): Anna won one of their
    two games and drew the other, 3 of 4 points, an average of 3/2 to Bruno's 1/2."""
    games = [("Anna", "Bruno", 11, 5, "Anna"), ("Bruno", "Anna", 6, 6, None),
             ("Carla", "Anna", 11, 5, "Carla"), ("Bruno", "Carla", 11, 5, "Bruno")]
    rows = standings(["Bruno", "Anna", "Carla"], games)
    by = {row.entrant: row for row in rows}
    assert by["Anna"].match_points == by["Bruno"].match_points == 3
    assert (by["Anna"].head_to_head, by["Bruno"].head_to_head) == (Fraction(3, 2), Fraction(1, 2))
    assert order(rows)[:2] == [("Anna", None), ("Bruno", "head_to_head")]


# -- The other tie-breaks, each format's own ------------------------------------------------------

def test_the_difference_when_head_to_head_and_the_beaten_opponents_are_level():
    games = [("A", "B", 8, 8, None), ("A", "C", 11, 2, "A"), ("B", "C", 11, 5, "B")]
    entrants = ["B", "A", "C"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    assert [(r.entrant, r.match_points, r.drawn) for r in rows] == [("A", 3, 1), ("B", 3, 1), ("C", 0, 0)]
    assert [r.decided_by for r in rows] == [None, "difference", "points"]


def test_points_scored_when_the_difference_is_level():
    games = [("A", "B", 10, 10, None), ("A", "C", 12, 9, "A"), ("B", "C", 7, 4, "B")]
    entrants = ["B", "A", "C"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    assert [(r.entrant, r.difference, r.scored) for r in rows[:2]] == [("A", 3, 22), ("B", 3, 17)]
    assert rows[1].decided_by == "scored"


def test_the_order_typed_when_everything_is_level():
    games = [("A", "B", 5, 5, None), ("A", "C", 11, 5, "A"), ("B", "C", 11, 5, "B")]
    rows = standings(["B", "A", "C"], games)
    assert order(rows) == [("B", None), ("A", "entry_order"), ("C", "points")]
    rows = standings(["A", "B", "C"], games)
    assert [r.entrant for r in rows] == ["A", "B", "C"]


def test_a_swiss_ranks_by_the_opponents_points_without_the_lowest_then_all_of_them():
    games = [("A", "C", 11, 7, "A"), ("B", "D", 11, 7, "B"), ("E", "F", 11, 7, "E"),   # round 1
             ("A", "E", 11, 7, "A"), ("B", "F", 11, 7, "B"), ("C", "D", 11, 7, "C")]   # round 2
    entrants = ["B", "A", "C", "D", "E", "F"]
    rows = standings(entrants, games, format="swiss")
    check_figures(rows, entrants, games)
    points = {e: f["match_points"] for e, f in tally(entrants, games).items()}
    for row in rows:
        met = [points[b if a == row.entrant else a] for a, b, *_ in games if row.entrant in (a, b)]
        assert row.buchholz == sum(met) and row.buchholz_cut1 == sum(met) - min(met)
    # A and B: 4 points each, never met, +8 and 22 scored each; A met stronger opponents.
    assert order(rows) == [("A", None), ("B", "buchholz_cut1"), ("C", "points"), ("E", "entry_order"),
                           ("D", "points"), ("F", "entry_order")]
    # A round robin has no Buchholz: the beaten opponents' points (A beat C and E, 2 points
    # each; B beat D and F, none) put A first there too.
    round_robin = standings(entrants, games)
    assert order(round_robin)[:2] == [("A", None), ("B", "sonneborn_berger")]
    assert round_robin[1].buchholz is None and round_robin[1].sonneborn_berger == 0


def test_the_full_buchholz_where_the_cut_leaves_them_level():
    """A and B on 4 points: A's opponents have 1 and 3, B's 3 and 0. Without the lowest, 3 each;
    all of them, 4 against 3: A above by the full Buchholz."""
    games = [("A", "X", 11, 0, "A"), ("A", "Y", 11, 0, "A"), ("B", "Z", 11, 0, "B"), ("B", "W", 11, 0, "B"),
             ("Y", "V", 11, 0, "Y"), ("Y", "U", 5, 5, None), ("X", "T", 5, 5, None),
             ("Z", "S", 11, 0, "Z"), ("Z", "U", 5, 5, None)]
    entrants = ["B", "A", "X", "Y", "Z", "W", "V", "U", "T", "S"]
    rows = standings(entrants, games, format="swiss")
    by = {row.entrant: row for row in rows}
    assert (by["A"].buchholz_cut1, by["A"].buchholz, by["B"].buchholz_cut1, by["B"].buchholz) == (3, 4, 3, 3)
    assert order(rows)[:2] == [("A", None), ("B", "buchholz")]


def test_a_knockout_ranks_by_the_round_reached_then_the_difference():
    games = [("K1", "K4", 11, 2, "K1"), ("K2", "K3", 11, 9, "K2"), ("K1", "K2", 11, 10, "K1")]
    rows = standings(["K1", "K2", "K3", "K4"], games, format="knockout")
    assert order(rows) == [("K1", None), ("K2", "points"), ("K3", "points"), ("K4", "difference")]
    assert rows[0].buchholz is None and rows[0].sonneborn_berger is None


def test_a_bye_counts_as_a_win_without_points_scored():
    games = [("A", "B", 11, 5, "A")]
    byes = [("C", 1)]
    rows = standings(["C", "B", "A"], games, byes, format="swiss")
    check_figures(rows, ["C", "B", "A"], games, byes)
    by = {r.entrant: r for r in rows}
    assert (by["C"].played, by["C"].won, by["C"].byes, by["C"].match_points) == (1, 1, 1, 2)
    assert (by["C"].scored, by["C"].conceded) == (0, 0)
    # Its bye counts, for C's own Buchholz, as an opponent as strong as C, at most a draw a round
    # (C.07, 16.4.2: 1 after one round); B met A (2).
    assert (by["C"].buchholz, by["B"].buchholz, by["A"].buchholz) == (1, 2, 0)
    assert order(rows) == [("C", None), ("A", "buchholz"), ("B", "points")]


# -- Rounds not played: a late entrant's, a withdrawn entrant's ------------------------------------

def test_a_late_entrants_missed_rounds_give_the_points_the_organiser_set():
    games = [("A", "B", 11, 5, "A"), ("L", "A", 11, 5, "L")]
    rows = standings(["A", "B", "L"], games, [Unplayed("L", 1, "missed", 1)], format="swiss", rounds=2)
    by = {r.entrant: r for r in rows}
    assert (by["L"].match_points, by["L"].played, by["L"].won) == (3, 1, 1)
    # L's missed round counts for L's Buchholz as an opponent of L's own points, at most a draw a
    # round (2): A's 2 and that 2; the Cut-1 leaves out the missed round, L's own choice.
    assert (by["L"].buchholz, by["L"].buchholz_cut1) == (4, 2)


def test_a_withdrawn_entrant_counts_as_drawing_every_round_after_for_those_who_met_them():
    """C.07, 16.3.2. W beat A in round 1 and withdrew: A's opponents' points count W at 2 + 1
    for round 2 (a draw's); W keeps its 2 points, and its unplayed round is no win for anyone."""
    games = [("W", "A", 11, 5, "W"), ("B", "C", 11, 5, "B"), ("A", "C", 11, 5, "A")]
    rows = standings(["A", "B", "C", "W"], games, [Unplayed("W", 2, "withdrawn", 0), ("B", 2)],
                     format="swiss", rounds=2, withdrawn={"W"})
    by = {r.entrant: r for r in rows}
    assert by["W"].match_points == 2 and by["W"].withdrawn and not by["A"].withdrawn
    assert by["A"].buchholz == (2 + 1) + 0
    assert by["C"].buchholz == by["B"].match_points + by["A"].match_points


def test_a_forfeit_win_counts_for_the_buchholz_as_an_opponent_no_stronger_than_the_one_who_left():
    """An opponent who withdrew from the table, the game not played, is a forfeit win for the
    one left there: for their own Buchholz, a game against an opponent with their own points,
    but no stronger than the one who withdrew (C.07, 16.4.1, before the cap of a draw a round,
    16.4.2, that stands for a bye). W won rounds 1 and 2 and left the table against A in round 3
    (A: 6 points). The table W left is a forfeit, a loss that counts its 0 for the opponents'
    Buchholz (16.3.1; only the rounds not paired after leaving count as draws, 16.3.2): W is 4,
    A's forfeit win counts 4, where the cap of a draw a round would give 3."""
    games = [("A", "X", 11, 5, "A"), ("W", "B", 11, 5, "W"),          # round 1
             ("A", "Y", 11, 5, "A"), ("W", "Z", 11, 5, "W")]          # round 2
    unplayed = [Unplayed("W", 3, "left", 0), Unplayed("A", 3, "walkover", 2, opponent="W")]
    rows = standings(["A", "B", "W", "X", "Y", "Z"], games, unplayed, format="swiss", rounds=3, withdrawn={"W"})
    by = {r.entrant: r for r in rows}
    assert (by["A"].match_points, by["A"].played, by["A"].won, by["A"].byes) == (6, 3, 3, 1)
    assert by["A"].buchholz == 0 + 0 + 4
    assert by["B"].buchholz == by["Z"].buchholz == 4


def test_a_table_left_then_the_rounds_after_count_a_draw_each_for_the_opponents():
    """The issue's case of one who leaves: Bruno beat Anna in round 1, left his round 2 table and
    was paired in no round after, of 4. For Anna's Buchholz Bruno counts his 2, 0 for the table
    he left (a forfeit loss), and a draw's 1 for each of rounds 3 and 4 (C.07, 16.3.2): 4."""
    games = [("Bruno", "Anna", 11, 5, "Bruno")]
    unplayed = [Unplayed("Bruno", 2, "left", 0), Unplayed("Bruno", 3, "withdrawn", 0),
                Unplayed("Bruno", 4, "withdrawn", 0)]
    rows = standings(["Anna", "Bruno"], games, unplayed, format="swiss", rounds=4, withdrawn={"Bruno"})
    assert {r.entrant: r.buchholz for r in rows}["Anna"] == 2 + 0 + 1 + 1


def test_a_round_robins_forfeit_wins_count_like_a_win_over_the_one_who_withdrew():
    """W loses to A in round 1 and withdraws; Berger's table for four then gives W to C in round
    2 and to B in round 3, each a forfeit win (FIDE Tournament Rules: the withdrawn player's
    unplayed games are marked "-", their opponents' "+"). A, B and C end on 4 points with a
    circle of wins among them (A beat B, B beat C, C beat A): head-to-head leaves them level,
    and so does the Sonneborn-Berger, since each forfeit win counts W (0 points, a draw for each
    of the 2 rounds after leaving: 2) twice, as A's win over W does: 12 each."""
    games = [("A", "W", 11, 5, "A"), ("B", "C", 11, 9, "B"),            # round 1
             ("A", "B", 11, 8, "A"),                                    # round 2: W v C not played
             ("C", "A", 11, 7, "C")]                                    # round 3: B v W not played
    unplayed = [Unplayed("W", 2, "withdrawn", 0), Unplayed("W", 3, "withdrawn", 0),
                Unplayed("C", 2, "walkover", 2, opponent="W"), Unplayed("B", 3, "walkover", 2, opponent="W")]
    rows = standings(["A", "B", "C", "W"], games, unplayed, rounds=3, withdrawn={"W"})
    by = {r.entrant: r for r in rows}
    assert [by[e].match_points for e in "ABC"] == [4, 4, 4]
    assert [by[e].head_to_head for e in "ABC"] == [None, None, None]       # a circle: level
    assert [by[e].sonneborn_berger for e in "ABC"] == [12, 12, 12]
    assert [(r.entrant, r.decided_by) for r in rows] == [
        ("A", None), ("C", "difference"), ("B", "difference"), ("W", "points")]


# -- The rules of the module -------------------------------------------------------------------------

def test_the_standings_refuse_what_does_not_fit():
    for games in ([("A", "Z", 11, 0, "A")], [("A", "B", 11, 0, "C")], [("A", "A", 11, 0, "A")]):
        with pytest.raises(ValueError):
            standings(["A", "B"], games)
    for unplayed in ([("Z", 1)], [Unplayed("A", 1, "forfeit", 2)], [Unplayed("A", 1, "missed", -1)]):
        with pytest.raises(ValueError):
            standings(["A", "B"], [], unplayed)
    with pytest.raises(ValueError):
        standings(["A", "B"], [], format="league")


@pytest.mark.parametrize("format", ["round-robin", "swiss", "knockout"])
def test_every_row_names_a_known_tie_break_in_its_formats_order(format):
    rng = random.Random(7)
    entrants = list(range(9))
    games = [(a, b, rng.randint(0, 11), rng.randint(0, 11), rng.choice([a, b, None]))
             for a, b in combinations(entrants, 2)]
    rows = standings(entrants, games, format=format)
    assert rows[0].decided_by is None
    assert {r.decided_by for r in rows[1:]} <= set(TIE_BREAKS)
    check_figures(rows, entrants, games)
    points = [r.match_points for r in rows]
    assert points == sorted(points, reverse=True)


def test_a_tie_break_is_said_only_where_it_decided_a_place_after_games():
    """Issue 22: before any game every row is below the one above by its entry order alone, and
    the pages said "tie-break: entry order" on each. A tie-break is said (``tie_break``) only
    where it put a row below the one above after one of the two had played."""
    before = standings(["A", "B", "C", "D"], [])
    assert [r.decided_by for r in before] == [None, "entry_order", "entry_order", "entry_order"]
    assert [r.tie_break for r in before] == [None] * 4
    # A beat B; C and D have not played: C above D by entry order alone, D above B on difference.
    rows = standings(["A", "B", "C", "D"], [("A", "B", 11, 5, "A")])
    assert [(r.entrant, r.decided_by, r.tie_break) for r in rows] == [
        ("A", None, None), ("C", "points", None), ("D", "entry_order", None), ("B", "difference", "difference")]


# -- The order typed, not the seed: through the tournament's model ------------------------------------

def night(entrants, tables, format="round-robin", rounds=None):
    """The state ``store.tournament_state`` gives of a tournament of ``entrants`` (dicts as
    stored) whose round 1 has ``tables`` ((first, second, totals, winner side), all over)."""
    return {"tournament": {"id": 1, "name": "Giovedì", "format": format,
                           "rules": rules_for("classica").as_dict(), "entrants": entrants,
                           "rounds": rounds, "seeding": "rating", "pin_hash": None, "version": 1},
            "rounds": [{"number": 1, "byes": [], "slots": [{"table": k + 1} for k in range(len(tables))]}],
            "tables": [{"round": 1, "number": k + 1, "match_id": k + 1, "first": a, "second": b,
                        "chances": None,
                        "match": {"summary": {"over": True, "winner": side, "totals": totals, "hands": 2},
                                  "deleted": None, "sides": [], "first_dealer": 0}}
                       for k, (a, b, totals, side) in enumerate(tables)]}


def test_the_last_tie_break_is_the_order_typed_not_the_rating_seed():
    """The issue's Anna and Dario: Anna typed first, Dario the better rated (seed 1). After
    round 1 both beat their opponent 11 to 5: level on everything, Anna is above."""
    entrants = [{"name": "Anna", "players": ["Anna"], "seed": 2},
                {"name": "Bruno", "players": ["Bruno"], "seed": 4},
                {"name": "Carla", "players": ["Carla"], "seed": 3},
                {"name": "Dario", "players": ["Dario"], "seed": 1}]
    tournament = build(night(entrants, [(3, 2, (11, 5), 0), (0, 1, (11, 5), 0)], "swiss", 3))
    assert tournament.seeds == [3, 0, 2, 1]
    rows = tournament.standings()
    assert [(tournament.names[r.entrant], r.tie_break) for r in rows] == [
        ("Anna", None), ("Dario", "entry_order"), ("Bruno", None), ("Carla", "entry_order")]
    # The Swiss pairs a score group by the seeds (FIDE's Dutch system), never by a tie-break.
    assert tournament.next_round()[0] == ("table", 3, 0)


def test_a_tournament_kept_before_seeds_were_kept_apart_reads_its_entrants_as_seeded():
    """Before issue 40 the entrants were stored in seed order, the typed order lost: such a
    tournament (no ``seed``) keeps its order for both, as it showed it."""
    entrants = [{"name": name, "players": [name]} for name in ("Dario", "Anna")]
    tournament = build(night(entrants, [(0, 1, (5, 5), None)]))
    assert tournament.seeds == [0, 1]
    assert [tournament.names[r.entrant] for r in tournament.standings()] == ["Dario", "Anna"]
    # Seeds that are not every entrant's, once each (a file restored by hand), are read the same.
    entrants[0]["seed"] = 7
    assert build(night(entrants, [(0, 1, (5, 5), None)])).seeds == [0, 1]
