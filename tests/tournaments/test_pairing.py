"""The pairing module: round robin, Swiss and knockout pairings (the standings: test_standings.py)."""

import ast
import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from companion.tournaments import pairing as tournament
from companion.tournaments.pairing import (
    berger_rounds,
    knockout_champion,
    knockout_first_round,
    knockout_next_round,
    seeding_order,
    swiss_round,
)


def test_imports_only_the_standard_library():
    tree = ast.parse(Path(tournament.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"__future__", "random", "collections"}, imported


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
