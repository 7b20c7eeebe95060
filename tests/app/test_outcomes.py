"""Every ``match`` statement of the companion ends in ``case _: assert_never(...)`` (issue 44):
mypy (test_project.py) then proves each covers every outcome its service may answer, so that a
new outcome cannot fall through to a redirect or a 500. A match without it is not checked."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "companion"


def unchecked(source: str) -> list[int]:
    """The lines of the ``match`` statements in ``source`` whose last case is not
    ``case _: assert_never(...)``.

    >>> unchecked("match x:\\n    case 1: pass\\n    case _: assert_never(x)\\n")
    []
    >>> unchecked("match x:\\n    case 1: pass\\n    case _: pass\\n")
    [1]
    >>> unchecked("match x:\\n    case 1: pass\\n")
    [1]
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Match):
            last = node.cases[-1]
            first = last.body[0]
            if not (isinstance(last.pattern, ast.MatchAs) and last.pattern.pattern is None
                    and last.pattern.name is None and last.guard is None
                    and isinstance(first, ast.Expr) and isinstance(first.value, ast.Call)
                    and isinstance(first.value.func, ast.Name) and first.value.func.id == "assert_never"):
                lines.append(node.lineno)
    return lines


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_matches_are_found():
    """The test below looks at something: the views' matches over the services' outcomes."""
    found = {path.relative_to(PACKAGE).as_posix() for path in MODULES if "match (" in path.read_text()}
    assert {"table/views.py", "table/hands.py", "players/views.py", "backup/views.py",
            "organiser/views.py", "api/matches.py", "tournaments/views.py"} <= found


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_every_match_ends_in_assert_never(path):
    assert unchecked(path.read_text()) == [], f"{path}: a match without case _: assert_never(...)"
