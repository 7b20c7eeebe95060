"""Dependencies that pull their weight (issue 45): ``pip install .`` brings only what the
companion imports and what those need, so that a new heavy package cannot slip in unnoticed
(flask-compress brought brotli and backports.zstd, 7 MB, for a companion that sends gzip only).

Read from the installed distributions' metadata, as pip resolved them: the requirements walked
from scopa-companion (no extras), each marker evaluated for this Python."""

import ast
import re
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]

# Each package pip may install with the companion, by who needs it. A new one goes here with
# its reason, or does not go in.
ALLOWED = {
    # the companion's own requirements (pyproject.toml), each imported by companion/
    "flask", "flask-wtf", "wtforms", "sqlite-utils", "waitress", "segno", "platformdirs",
    "whitenoise", "flask-babel", "openskill", "limits", "cachetools", "filelock", "pydantic",
    "pydantic-settings", "confusable-homoglyphs", "idna",
    # Flask's
    "werkzeug", "jinja2", "itsdangerous", "click", "blinker", "markupsafe",
    # sqlite-utils' (its command line and its plugins)
    "sqlite-fts4", "click-default-group", "tabulate", "python-dateutil", "six", "tzdata",
    "pluggy", "pip",
    # Flask-Babel's
    "babel", "pytz",
    # pydantic-settings'
    "python-dotenv",
    # limits'
    "ordered-set", "deprecated", "wrapt", "packaging", "typing-extensions",
    # pydantic's
    "pydantic-core", "annotated-types", "typing-inspection",
}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_with(name: str) -> dict[str, str]:
    """Every distribution ``name`` brings (itself included), each with who requires it."""
    found: dict[str, str] = {}
    todo = [(name, "")]
    while todo:
        wanted, by = todo.pop()
        if normal(wanted) in found:
            continue
        found[normal(wanted)] = by
        try:
            requires = distribution(wanted).requires or []
        except PackageNotFoundError:        # a marker-less requirement not installed: said below
            continue
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append((requirement.name, normal(wanted)))
    return found


def test_pip_install_brings_nothing_the_companion_does_not_need():
    brought = installed_with("scopa-companion")
    brought.pop("scopa-companion")
    unexpected = {name: by for name, by in brought.items() if name not in ALLOWED}
    assert unexpected == {}, f"not in the allowed list (name: required by): {unexpected}"
    assert not {"flask-compress", "brotli", "backports-zstd"} & set(brought)


def test_the_companion_imports_each_of_its_requirements():
    """A requirement in pyproject.toml that no module of companion/ imports is dead weight."""
    imported = set()
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    providers = packages_distributions()
    used = {normal(dist) for module in imported for dist in providers.get(module, [])}
    required = {normal(Requirement(text).name) for text in distribution("scopa-companion").requires
                if "extra ==" not in text}
    assert required - used == set()
