"""Every ``match`` statement of the companion over outcomes (its cases classes: a service's
dataclasses) ends in ``case _: assert_never(...)`` (issue 44): mypy (test_project.py) then proves
each covers every outcome its service may answer, so that a new outcome cannot fall through to a
redirect or a 500. A match without it is not checked. A match over data (a refusal's place, as
sequences and values) may end in a plain ``case _``: that is its default, not an outcome left out."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "companion"


def unchecked(source: str) -> list[int]:
    """The lines of the ``match`` statements over outcomes in ``source`` whose last case is not
    ``case _: assert_never(...)``.

    >>> unchecked("match x:\\n    case 1: pass\\n    case _: assert_never(x)\\n")
    []
    >>> unchecked("match x:\\n    case 1: pass\\n    case _: pass\\n")
    [1]
    >>> unchecked("match x:\\n    case Done(): pass\\n    case _: pass\\n")
    [1]
    >>> unchecked("match x:\\n    case 1: pass\\n")
    [1]
    >>> unchecked("match x:\\n    case (\'pin\', *_): pass\\n    case _: pass\\n")
    []
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Match) and _over_outcomes(node):
            last = node.cases[-1]
            first = last.body[0]
            if not (isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None
                    and last.pattern.name is None and last.guard is None
                    and isinstance(first, ast.Expr) and isinstance(first.value, ast.Call)
                    and isinstance(first.value.func, ast.Name) and first.value.func.id == "assert_never"):
                lines.append(node.lineno)
    return lines


def _over_outcomes(node: ast.Match) -> bool:
    """A match whose cases name classes (``case Done():``, ``case A() | B():``), or with nothing
    else to tell (``case 1:``), is over outcomes; one whose cases are sequences over data."""
    def classes(pattern: ast.pattern) -> bool:
        if isinstance(pattern, ast.MatchOr):
            return any(classes(each) for each in pattern.patterns)
        return isinstance(pattern, ast.MatchClass)
    if any(classes(case.pattern) for case in node.cases):
        return True
    return not any(isinstance(case.pattern, ast.MatchSequence) for case in node.cases)


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_matches_are_found():
    """The test below looks at something: the views' matches over the services' outcomes."""
    found = {path.relative_to(PACKAGE).as_posix() for path in MODULES if "match (" in path.read_text()}
    assert {"table/views.py", "table/hands.py", "players/views.py", "backup/views.py",
            "organiser/views.py", "api/matches.py", "tournaments/views.py"} <= found


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_every_match_ends_in_assert_never(path):
    assert unchecked(path.read_text()) == [], f"{path}: a match without case _: assert_never(...)"
