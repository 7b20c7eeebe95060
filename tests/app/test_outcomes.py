"""Every ``match`` statement of the companion over outcomes (its cases classes: a service's
dataclasses) ends in ``case _: assert_never(...)`` (issue 44): mypy (test_project.py) then proves
each covers every outcome its service may answer, so that a new outcome cannot fall through to a
redirect or a 500. A match without it is not checked. A match over data (a refusal's place, as
sequences and values) may end in a plain ``case _``: that is its default, not an outcome left out."""

import ast
import tomllib
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


def unproved(mypy: dict, module: str) -> list[str]:
    """What in mypy's configuration (pyproject's ``[tool.mypy]``) keeps it from proving that
    ``module``'s ``assert_never`` calls are never reached: its errors ignored, or the
    ``arg-type`` error (what mypy says of a case left out: "Argument 1 to assert_never has
    incompatible type ...") turned off, for the module or for its package.

    >>> unproved({"overrides": [{"module": ["a.b", "c"], "disable_error_code": ["arg-type"]}]}, "a.b")
    ['disable_error_code arg-type']
    >>> unproved({"overrides": [{"module": "a.*", "ignore_errors": True}]}, "a.b")
    ['ignore_errors']
    >>> unproved({"disable_error_code": ["index"], "overrides": [{"module": "a.b"}]}, "a.b")
    []
    """
    found = []
    for each in [mypy, *[o for o in mypy.get("overrides", []) if _names(o["module"], module)]]:
        if each.get("ignore_errors"):
            found.append("ignore_errors")
        if "arg-type" in each.get("disable_error_code", []):
            found.append("disable_error_code arg-type")
    return found


def _names(patterns: str | list[str], module: str) -> bool:
    return any(pattern == module or (pattern.endswith(".*") and module.startswith(pattern[:-1]))
               for pattern in ([patterns] if isinstance(patterns, str) else patterns))


def test_mypy_is_left_to_prove_every_assert_never():
    """A case left out of a match over outcomes fails the type check only where mypy reports
    assert_never's argument: issue 44's first slice turned ``arg-type`` off for some modules
    (tournaments.service among them, whose start_next_round matches the table's outcomes), which
    silenced it there."""
    mypy = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["mypy"]
    checked = {".".join(("companion", *path.relative_to(PACKAGE).with_suffix("").parts)): path
               for path in MODULES if "assert_never(" in path.read_text()}
    assert "companion.tournaments.service" in checked
    assert {module: unproved(mypy, module) for module in checked} == {module: [] for module in checked}
