"""The tournament module: round robin, Swiss and knockout pairings, and the standings."""

import ast
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from companion import tournament
from companion.tournament import berger_rounds


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
