"""The tournament module: round robin, Swiss and knockout pairings, and the standings."""

import ast
import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from companion.tournaments import pairing as tournament
from companion.tournaments.pairing import (
    TIE_BREAKS,
    berger_rounds,
    knockout_champion,
    knockout_first_round,
    knockout_next_round,
    seeding_order,
    standings,
    swiss_round,
)


def test_imports_only_the_standard_library():
    tree = ast.parse(Path(tournament.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"__future__", "random", "collections", "dataclasses"}, imported


# Round robin ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9])
def test_round_robin_everyone_meets_everyone_once(n):
    rounds = berger_rounds(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(t) for games in rounds for t in games if t[1] is not None)
    assert met == Counter(frozenset(p) for p in combinations(range(n), 2))
    for games in rounds:
        seated = [e for t in games for e in t if e is not None]
        assert sorted(seated) == list(range(n))          # everyone once, a bye included


@pytest.mark.parametrize("n", [5, 7, 9])
def test_round_robin_odd_gives_each_entrant_one_bye(n):
    rounds = berger_rounds(n)
    byes = [t[0] for games in rounds for t in games if t[1] is None]
    assert [sum(1 for t in games if t[1] is None) for games in rounds] == [1] * n
    assert sorted(byes) == list(range(n))


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9])
def test_round_robin_alternates_who_is_named_first(n):
    first, second = Counter(), Counter()
    for games in berger_rounds(n):
        for a, b in games:
            if b is not None:
                first[a] += 1
                second[b] += 1
    for entrant in range(n):
        assert first[entrant] > 0 and second[entrant] > 0, entrant
        assert abs(first[entrant] - second[entrant]) <= 1, entrant


def test_round_robin_follows_the_published_berger_table_for_six():
    # The FIDE Handbook's Berger table for 6 players, numbered from 1.
    published = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
    expected = [[tuple(int(x) - 1 for x in game.split("-")) for game in line.split()]
                for line in published]
    assert berger_rounds(6) == expected


def test_round_robin_needs_two():
    with pytest.raises(ValueError):
        berger_rounds(1)


# Swiss ----------------------------------------------------------------------------------------

def all_pairings(people):
    """Every way to pair up an even list of people (945 for ten)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for more in all_pairings(rest[:i] + rest[i + 1:]):
            yield [(first, other)] + more


def group_steps(pairs, points):
    """How many score groups (distinct match points among the paired) each pair spans, summed."""
    levels = sorted({points[e] for pair in pairs for e in pair}, reverse=True)
    return sum(abs(levels.index(points[a]) - levels.index(points[b])) for a, b in pairs)


def play_swiss(n, rounds, decide, check_round):
    """Run a Swiss tournament; ``decide(a, b)`` gives a game's winner (None for a draw).

    Returns the final match points.
    """
    points = {e: 0 for e in range(n)}
    played, had_bye = set(), set()
    for number in range(rounds):
        order = sorted(range(n), key=lambda e: (-points[e], e))
        pairs, bye = swiss_round(order, played, had_bye, points)
        check_round(number, order, dict(points), set(played), set(had_bye), pairs, bye)
        for a, b in pairs:
            played.add(frozenset((a, b)))
            winner = decide(a, b)
            for e in (a, b):
                points[e] += 2 if winner == e else 1 if winner is None else 0
        if bye is not None:
            had_bye.add(bye)
            points[bye] += 2
    return points


def check_swiss_round(n, optimal=False):
    def check(number, order, points, played, had_bye, pairs, bye):
        seated = [e for pair in pairs for e in pair] + ([] if bye is None else [bye])
        assert sorted(seated) == list(range(n)), "everyone plays once or has the bye"
        assert not [p for p in pairs if frozenset(p) in played], "a pair met again"
        if n % 2 == 0:
            assert bye is None
        else:
            assert bye not in had_bye
            assert bye == [e for e in order if e not in had_bye][-1], "lowest-ranked without a bye"
        if optimal:
            # No repeat-free pairing of the same entrants spans fewer score groups.
            rest = [e for e in order if e != bye]
            best = min(group_steps(p, points) for p in all_pairings(rest)
                       if not any(frozenset(pair) in played for pair in p))
            assert group_steps(pairs, points) == best, (number, pairs)
    return check


@pytest.mark.parametrize("n", [8, 11])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_swiss_with_random_results(n, seed):
    rng = random.Random(seed)
    play_swiss(n, 4, lambda a, b: rng.choice([a, b, a, b, None]), check_swiss_round(n, optimal=True))


@pytest.mark.parametrize("n", [8, 11])
def test_swiss_with_the_lower_index_always_winning(n):
    points = play_swiss(n, 4, min, check_swiss_round(n, optimal=True))
    assert max(points.values()) == 8 and list(points.values()).count(8) == 1


def test_swiss_pairs_winners_with_winners():
    rounds = []
    play_swiss(8, 3, min, lambda *args: rounds.append(args))
    for number, order, points, played, had_bye, pairs, bye in rounds:
        assert all(points[a] == points[b] for a, b in pairs), (number, pairs)
    assert rounds[0][5] == [(0, 1), (2, 3), (4, 5), (6, 7)]     # nearest in the standing


def test_swiss_odd_score_group_floats_its_lowest_to_the_next_groups_top():
    points = {0: 4, 1: 4, 2: 4, 3: 2, 4: 2, 5: 2}
    pairs, bye = swiss_round([0, 1, 2, 3, 4, 5], set(), set(), points)
    assert (pairs, bye) == ([(0, 1), (2, 3), (4, 5)], None)


def test_swiss_backtracks_to_avoid_a_repeat():
    # Pairing 0 with 1 leaves 2 and 3, who have met: 0 must take 2 instead.
    pairs, bye = swiss_round([0, 1, 2, 3], {frozenset((2, 3))}, set(), dict.fromkeys(range(4), 0))
    assert (pairs, bye) == ([(0, 2), (1, 3)], None)


def test_swiss_allows_the_fewest_repeats_when_they_cannot_be_avoided():
    played = {frozenset((0, e)) for e in range(1, 6)}            # 0 has met everyone
    pairs, _ = swiss_round(list(range(6)), played, set(), dict.fromkeys(range(6), 0))
    assert sorted(e for p in pairs for e in p) == list(range(6))
    assert sum(frozenset(p) in played for p in pairs) == 1
    everyone_met = {frozenset(p) for p in combinations(range(4), 2)}
    pairs, _ = swiss_round([0, 1, 2, 3], everyone_met, set(), dict.fromkeys(range(4), 0))
    assert sorted(e for p in pairs for e in p) == [0, 1, 2, 3]


def test_swiss_moves_the_bye_up_when_the_lowest_would_force_a_repeat():
    pairs, bye = swiss_round([0, 1, 2], {frozenset((0, 1))}, set(), dict.fromkeys(range(3), 0))
    assert (pairs, bye) == ([(0, 2)], 1)


def test_swiss_bye_to_the_lowest_when_everyone_has_had_one():
    pairs, bye = swiss_round([4, 0, 1, 2, 3], set(), set(range(5)), dict.fromkeys(range(5), 0))
    assert bye == 3 and sorted(e for p in pairs for e in p) == [0, 1, 2, 4]


@pytest.mark.parametrize("n, rounds", [(16, 6), (32, 7), (33, 7), (64, 6)])
def test_swiss_pairs_many_entrants(n, rounds):
    # How long a round takes to pair is measured by tests/benchmarks/bench_pairing.py, never here.
    rng = random.Random(n)
    play_swiss(n, rounds, lambda a, b: rng.choice([a, b, a, b, None]), check_swiss_round(n))


# Knockout -------------------------------------------------------------------------------------

def test_seeding_order_keeps_the_top_seeds_apart():
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 8, 16, 32):
        order = seeding_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
        for part in (2, 4):                          # halves, then quarters, hold one top seed each
            if part <= size:
                chunks = [order[i:i + size // part] for i in range(0, size, size // part)]
                assert sorted(min(c) for c in chunks) == list(range(1, part + 1))
    with pytest.raises(ValueError):
        seeding_order(6)


def play_knockout(entrants, pick):
    """Every round of a knockout; ``pick(a, b)`` names the winner of a real game."""
    rounds = [knockout_first_round(entrants)]
    while len(rounds[-1]) > 1:
        winners = [a if b is None else pick(a, b) for a, b in rounds[-1]]
        nxt = knockout_next_round(rounds[-1], winners)
        assert [e for t in nxt for e in t] == winners    # exactly the supplied winners, in order
        rounds.append(nxt)
    return rounds


@pytest.mark.parametrize("n", [5, 6, 7, 8, 12])
def test_knockout_rounds_and_byes(n):
    seeds = [100 + s for s in range(n)]              # seed 1 is 100
    rounds = play_knockout(seeds, min)
    size = 1
    while size < n:
        size *= 2
    assert [len(r) for r in rounds] == [size // 2 ** k for k in range(1, size.bit_length())]
    first = rounds[0]
    assert sorted(e for t in first for e in t if e is not None) == seeds
    byes = sorted(a for a, b in first if b is None)
    assert byes == seeds[:size - n], "the byes go to the top seeds"
    assert all(b is not None for r in rounds[1:] for _, b in r), "byes only in round one"
    assert sorted(rounds[-1][0]) == [100, 101], "seeds 1 and 2 meet in the final"
    assert knockout_champion(rounds[-1], [100]) == 100


@pytest.mark.parametrize("n", [6, 8, 12])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_knockout_seeds_1_and_2_meet_only_in_the_final(n, seed):
    rng = random.Random(seed)

    def pick(a, b):                                  # 0 and 1 always win, others by chance
        if {a, b} & {0, 1}:
            return min(a, b)
        return rng.choice([a, b])

    rounds = play_knockout(list(range(n)), pick)
    for r in rounds[:-1]:
        assert (0, 1) not in r and (1, 0) not in r
    assert rounds[-1] == [(0, 1)]


def test_knockout_drawn_with_a_random_generator():
    entrants = list(range(7))
    first = knockout_first_round(entrants, random.Random(5))
    assert first == knockout_first_round(entrants, random.Random(5))
    assert entrants == list(range(7))                # the caller's list is left alone
    assert sorted(e for t in first for e in t if e is not None) == entrants
    draws = {tuple(knockout_first_round(entrants, random.Random(s))) for s in range(10)}
    assert len(draws) > 1


def test_knockout_refuses_a_winner_who_did_not_play_there():
    first = knockout_first_round([0, 1, 2, 3, 4, 5])   # (0, None), (3, 4), (1, None), (2, 5)
    with pytest.raises(ValueError):
        knockout_next_round(first, [0, 2, 1, 5])
    with pytest.raises(ValueError):
        knockout_next_round(first, [0, 3, 1])
    assert knockout_next_round(first, [None, 4, 1, 5]) == [(0, 4), (1, 5)]
    with pytest.raises(ValueError):
        knockout_next_round([(0, 1)], [0])
    with pytest.raises(ValueError):
        knockout_champion(first, [0, 3, 1, 2])


# Standings ------------------------------------------------------------------------------------

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


def test_head_to_head_beats_a_better_difference():
    games = [("A", "B", 11, 10, "A"), ("B", "C", 11, 0, "B"), ("C", "A", 11, 9, "C"),
             ("A", "D", 11, 9, "A"), ("B", "D", 11, 0, "B"), ("D", "C", 11, 8, "D")]
    entrants = ["B", "A", "C", "D"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    # A and B have 4 points each; B's difference is +21 and A's +1, but A beat B.
    assert [r.entrant for r in rows] == ["A", "B", "D", "C"]
    assert [r.decided_by for r in rows] == [None, "head_to_head", "points", "head_to_head"]
    by = {r.entrant: r for r in rows}
    assert (by["A"].difference, by["B"].difference) == (1, 21)


def test_difference_when_head_to_head_is_level():
    games = [("A", "B", 8, 8, None), ("A", "C", 11, 2, "A"), ("B", "C", 11, 5, "B")]
    entrants = ["B", "A", "C"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    assert [(r.entrant, r.match_points, r.drawn) for r in rows] == [("A", 3, 1), ("B", 3, 1),
                                                                     ("C", 0, 0)]
    assert [r.decided_by for r in rows] == [None, "difference", "points"]


def test_points_scored_when_the_difference_is_level():
    games = [("A", "B", 10, 10, None), ("A", "C", 12, 9, "A"), ("B", "C", 7, 4, "B")]
    entrants = ["B", "A", "C"]
    rows = standings(entrants, games)
    check_figures(rows, entrants, games)
    assert [(r.entrant, r.difference, r.scored) for r in rows[:2]] == [("A", 3, 22), ("B", 3, 17)]
    assert rows[1].decided_by == "scored"


def test_the_seed_when_everything_is_level():
    games = [("A", "B", 5, 5, None), ("A", "C", 11, 5, "A"), ("B", "C", 11, 5, "B")]
    rows = standings(["B", "A", "C"], games)
    assert [(r.entrant, r.decided_by) for r in rows] == [("B", None), ("A", "seed"), ("C", "points")]
    rows = standings(["A", "B", "C"], games)
    assert [r.entrant for r in rows] == ["A", "B", "C"]


def test_buchholz_decides_in_a_swiss_only():
    games = [("A", "C", 11, 7, "A"), ("B", "D", 11, 7, "B"), ("E", "F", 11, 7, "E"),   # round 1
             ("A", "E", 11, 7, "A"), ("B", "F", 11, 7, "B"), ("C", "D", 11, 7, "C")]   # round 2
    entrants = ["B", "A", "C", "D", "E", "F"]
    rows = standings(entrants, games, swiss=True)
    check_figures(rows, entrants, games)
    points = {e: f["match_points"] for e, f in tally(entrants, games).items()}
    for row in rows:
        met = [b if a == row.entrant else a for a, b, *_ in games if row.entrant in (a, b)]
        assert row.buchholz == sum(points[o] for o in met)
    # A and B: 4 points each, never met, +8 and 22 scored each; A met stronger opponents.
    assert [r.entrant for r in rows] == ["A", "B", "C", "E", "D", "F"]
    assert [r.decided_by for r in rows] == [None, "buchholz", "points", "seed", "points", "seed"]
    round_robin = standings(entrants, games)
    assert [r.entrant for r in round_robin][:2] == ["B", "A"]
    assert round_robin[1].decided_by == "seed" and round_robin[1].buchholz is None


def test_a_bye_counts_as_a_win_without_points_scored():
    games = [("A", "B", 11, 5, "A")]
    byes = [("C", 1)]
    rows = standings(["C", "B", "A"], games, byes, swiss=True)
    check_figures(rows, ["C", "B", "A"], games, byes)
    by = {r.entrant: r for r in rows}
    assert (by["C"].played, by["C"].won, by["C"].byes, by["C"].match_points) == (1, 1, 1, 2)
    assert (by["C"].scored, by["C"].conceded, by["C"].buchholz) == (0, 0, 0)
    assert by["B"].buchholz == 2
    assert [(r.entrant, r.decided_by) for r in rows] == [("A", None), ("C", "difference"),
                                                         ("B", "points")]


def test_standings_refuse_a_game_that_does_not_fit():
    with pytest.raises(ValueError):
        standings(["A", "B"], [("A", "Z", 11, 0, "A")])
    with pytest.raises(ValueError):
        standings(["A", "B"], [("A", "B", 11, 0, "C")])
    with pytest.raises(ValueError):
        standings(["A", "B"], [("A", "A", 11, 0, "A")])
    with pytest.raises(ValueError):
        standings(["A", "B"], [], [("Z", 1)])


def test_every_row_names_a_known_tie_break():
    rng = random.Random(7)
    entrants = list(range(9))
    games = [(a, b, rng.randint(0, 11), rng.randint(0, 11), rng.choice([a, b, None]))
             for a, b in combinations(entrants, 2)]
    rows = standings(entrants, games, swiss=True)
    assert rows[0].decided_by is None
    assert {r.decided_by for r in rows[1:]} <= set(TIE_BREAKS)
    check_figures(rows, entrants, games)
    keys = [(r.match_points, r.head_to_head, r.difference, r.scored, r.buchholz) for r in rows]
    assert [k[0] for k in keys] == sorted((k[0] for k in keys), reverse=True)


def test_a_tie_break_is_said_only_where_it_decided_a_place_after_games():
    """Issue 22: before any game every row is below the one above by its seed alone, and the
    pages said "tie-break: entry order" on each. A tie-break is said (``tie_break``) only where
    it put a row below the one above after one of the two had played."""
    before = standings(["A", "B", "C", "D"], [])
    assert [r.decided_by for r in before] == [None, "seed", "seed", "seed"]
    assert [r.tie_break for r in before] == [None] * 4
    # A beat B; C and D have not played: C above D by its seed alone, D above B on difference.
    rows = standings(["A", "B", "C", "D"], [("A", "B", 11, 5, "A")])
    assert [(r.entrant, r.decided_by, r.tie_break) for r in rows] == [
        ("A", None, None), ("C", "points", None), ("D", "seed", None), ("B", "difference", "difference")]
    # Everything level after a draw: the seed decided, and is said.
    rows = standings(["B", "A", "C"], [("A", "B", 5, 5, None), ("A", "C", 11, 5, "A"), ("B", "C", 11, 5, "B")])
    assert [(r.entrant, r.tie_break) for r in rows] == [("B", None), ("A", "seed"), ("C", None)]
