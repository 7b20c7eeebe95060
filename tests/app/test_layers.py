"""The layers stay honest: the import-linter contracts in pyproject.toml hold, a back-arrow breaks
them, no module of the companion imports itself round a circle, and no file or view grows past
the size at which it should be split (ARCHITECTURE.md).

The contracts are checked by the ``lint-imports`` command itself, run in a child process on a
given checkout (``PYTHONPATH`` first, so the package analysed is that checkout's, never another
one installed), its result read contract by contract from what it prints.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import inspect
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"

SETTINGS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
CONTRACTS = [contract["name"] for contract in SETTINGS]


def contract(kind: str, source: str | None = None, forbids: str | None = None) -> str:
    """The name of the contract of that type (of a forbidden one, whose sources include
    ``source`` and whose forbidden modules ``forbids``)."""
    [name] = [c["name"] for c in SETTINGS
              if c["type"] == kind and (source is None or source in c["source_modules"])
              and (forbids is None or forbids in c["forbidden_modules"])]
    return name


LAYERS, INDEPENDENT = contract("layers"), contract("independence")
API_APART = contract("forbidden", "companion.api", "companion.table.views")
PLAIN_PYTHON = contract("forbidden", "companion.rules")
STORE_READS = contract("forbidden", "companion.api", "companion.store")
FROZEN = contract("forbidden", "companion.store.migration_001")


def lint_imports_command() -> list[str]:
    """``lint-imports`` as installed beside this Python (``.venv/bin``, ``.venv\\Scripts``)."""
    for name in ("lint-imports", "lint-imports.exe"):
        script = Path(sys.executable).with_name(name)
        if script.is_file():
            return [str(script)]
    return [sys.executable, "-c", "from importlinter.cli import lint_imports_command as run; run()"]


def lint_imports(checkout: Path) -> tuple[dict[str, str], str]:
    """Each contract of ``checkout``'s pyproject.toml with what lint-imports found ("KEPT" or
    "BROKEN"), and its whole output (to show when a test fails)."""
    environment = {**os.environ, "PYTHONPATH": str(checkout), "COLUMNS": "1000", "NO_COLOR": "1"}
    run = subprocess.run([*lint_imports_command(), "--no-cache"], cwd=checkout,
                         env=environment, capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr
    found = dict(re.findall(rf"^({'|'.join(map(re.escape, CONTRACTS))}) (KEPT|BROKEN)\b",
                            output, re.M))
    assert set(found) == set(CONTRACTS), f"lint-imports did not report every contract:\n{output}"
    assert (run.returncode == 0) == all(v == "KEPT" for v in found.values()), output
    return found, output


def test_every_contract_is_kept():
    found, output = lint_imports(ROOT)
    assert found == dict.fromkeys(CONTRACTS, "KEPT"), output


# A back-arrow each contract must catch: the file that gains it, the import, the contracts it
# breaks. The store importing the table breaks more than the layers: through the store, which
# every room imports, each room (the API among them) now reaches the table's views.
BACK_ARROWS = {
    "store imports a room": ("store/db.py", "from ..table import views",
                             {LAYERS, INDEPENDENT, API_APART}),
    "one room imports another": ("players/views.py", "from ..tournaments import views",
                                 {INDEPENDENT}),
    "the rules import Flask": ("rules/cards.py", "import flask", {PLAIN_PYTHON}),
    "a migration calls today's code": ("store/migration_019.py", "from .matches import keep_summary",
                                       {FROZEN}),
    "a migration keys names as today": ("store/migration_010.py", "from ..names import name_key",
                                        {FROZEN}),
    # Migrations 4, 6, 8, 17 and 19 were handed the model's Ledger before issue 44, typed by it.
    "a migration is typed to take the live Ledger": ("store/migration_008.py",
                                                     "from .ledger import MakeLedger", {FROZEN}),
    # ... or importing it: the store under the model, a back-arrow of the layers too.
    "a migration scores hands as today": ("store/migration_004.py", "from ..matches import Ledger",
                                          {FROZEN, LAYERS}),
    # A page that could call the store's writers (players.views' rename, before issue 44).
    "a page imports the store whole": ("players/views.py", "from .. import store", {STORE_READS}),
    "an endpoint imports a writer's module": ("api/matches.py", "from ..store import trash",
                                              {STORE_READS}),
    # The web kit reads as the rooms do (issue 44: web.organiser wrote the organiser's phones
    # through the whole store, under no contract).
    "the web kit imports the store whole": ("web/pages.py", "from .. import store", {STORE_READS}),
}

# What writes through a connection: sqlite3's and sqlite-utils' writers.
WRITERS = {"execute", "executescript", "executemany", "insert", "insert_all", "upsert", "upsert_all",
           "delete_where", "create_table", "add_column", "transform"}


def test_no_page_endpoint_or_web_kit_writes_through_the_connection_it_reads_by():
    """``store.reads`` hands the rooms, the API and the web kit the store's connection
    (``get_db``) to read by: none of them calls a writer on anything (SQL included, which a
    SELECT does not need: the reads are the store's functions). The services, which the
    contract leaves out, are the doors; web.limit_store keeps the limits' counts in a file of
    its own, not the store. A list's ``insert(0, x)`` (a position first) is no write."""
    [reads] = [c for c in SETTINGS if c["name"] == STORE_READS]
    doors = {line.split(" -> ")[0] for line in reads["ignore_imports"]} | {"companion.web.limit_store"}
    found = []
    for source in reads["source_modules"]:
        folder = PACKAGE / source.removeprefix("companion.").replace(".", "/")
        for path in sorted(folder.rglob("*.py")):
            module = "companion." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
            if module in doors:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in WRITERS
                        and not (node.func.attr == "insert" and node.args
                                 and isinstance(node.args[0], ast.Constant)
                                 and isinstance(node.args[0].value, int))):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.func.attr}(...)")
    assert not found, "written outside a service:\n" + "\n".join(found)


def test_every_migration_is_frozen_and_every_other_store_module_out_of_its_reach():
    """A migration added (store/migration_022.py) is a source of the frozen migrations' contract,
    and a module added to the store is among what they may not import: the contract's lists are
    written out, so this keeps them whole. The ledger's typing among them (issue 44): no
    migration is handed the model's Ledger any more."""
    [frozen] = [c for c in SETTINGS if c["name"] == FROZEN]
    modules = {f"companion.store.{path.stem}" for path in (PACKAGE / "store").glob("*.py")
               if path.stem != "__init__"}
    migrations = {name for name in modules if name.startswith("companion.store.migration_")}
    assert set(frozen["source_modules"]) == migrations
    assert set(frozen["forbidden_modules"]) >= modules - migrations
    assert "companion.store.ledger" in frozen["forbidden_modules"]


def handed(step) -> list[str]:
    """What a migration is handed, by its parameters' names.

    >>> handed(lambda db: None), handed(lambda db, ledger: None)
    (['db'], ['db', 'ledger'])
    """
    return list(inspect.signature(step).parameters)


def test_every_migration_is_handed_the_store_alone():
    """A migration handed anything but the store could be handed live code, today's Ledger as
    m004, m006, m008, m017 and m019 were before issue 44: the summaries the rules work out are
    asked for (``summary_work``), and worked out after the migrations."""
    from companion.store.migrations import MIGRATIONS

    assert {step.__name__: handed(step) for step in MIGRATIONS} == {
        step.__name__: ["db"] for step in MIGRATIONS}



@pytest.fixture(scope="module")
def copy_of_the_package(tmp_path_factory):
    """companion/ and pyproject.toml copied, as a checkout of their own; found to be the package
    analysed there (not the one installed), and to keep every contract before any change."""
    checkout = tmp_path_factory.mktemp("checkout")
    shutil.copytree(PACKAGE, checkout / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", checkout)
    where = subprocess.run([sys.executable, "-P", "-c", "import importlib.util as u; "
                            "print(u.find_spec('companion').origin)"], cwd=checkout,
                           env={**os.environ, "PYTHONPATH": str(checkout)},
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where) == checkout / "companion" / "__init__.py"
    found, output = lint_imports(checkout)
    assert found == dict.fromkeys(CONTRACTS, "KEPT"), output
    return checkout


def broken_chains(output: str) -> dict[str, list[str]]:
    r"""Each broken contract's chains of imports, as lint-imports lists them under the contract's
    name after "Broken contracts": each chain from its ``-`` to the blank line after it.

    >>> broken_chains(f"Broken contracts\n\n{CONTRACTS[2]}\n---\n\na is not allowed to import b:\n\n"
    ...               "- a -> c (l.3)\n  c -> b (l.9)\n\n- a -> b (l.4)\n")[CONTRACTS[2]]
    ['- a -> c (l.3)\n  c -> b (l.9)', '- a -> b (l.4)']
    """
    section = output.split("Broken contracts", 1)[-1]
    heads = re.compile(rf"^({'|'.join(map(re.escape, CONTRACTS))})\n-+$", re.M)
    found: dict[str, list[str]] = {}
    parts = heads.split(section)
    for name, text in zip(parts[1::2], parts[2::2]):
        found[name] = [chain.strip() for chain in re.split(r"\n\s*\n", text) if chain.strip().startswith("-")]
    return found


def planted_in(chain: str, arrows: dict[str, tuple[str, int]]) -> set[str]:
    """The back-arrows (each its importing module and line) that a chain goes through: the
    module named with that line, before an arrow or alone (lint-imports writes several importers
    of one module one a line, after ``&``).

    >>> sorted(planted_in("- companion.a -> companion.b (l.3, l.7)\\n  companion.b (l.9)",
    ...                   {"a": ("companion.a", 7), "b": ("companion.b", 9), "c": ("companion.a", 4)}))
    ['a', 'b']
    """
    return {case for case, (module, line) in arrows.items()
            if re.search(rf"(?<![\w.]){re.escape(module)}(?: -> [\w.]+)? \((?:l\.\d+, )*l\.{line}(?:, l\.\d+)*\)", chain)}


@pytest.fixture(scope="module")
def every_back_arrow(copy_of_the_package, tmp_path_factory) -> tuple[dict[str, set[str]], str]:
    """Every back-arrow of BACK_ARROWS planted in one copy of the package, checked by one run of
    lint-imports (issue 44: a run each was ten runs of a second on a busy machine), and each
    arrow's contracts read from its report: the contracts with a chain of imports that goes
    through that arrow and no other planted one. Such a chain is the arrow's alone (the rest of
    it is the package's own imports, which keep every contract: ``copy_of_the_package``), so the
    arrow alone breaks that contract; a chain through two arrows is credited to neither. Each
    arrow, the contracts it breaks alone, and the whole report."""
    checkout = tmp_path_factory.mktemp("arrows") / "checkout"
    shutil.copytree(copy_of_the_package, checkout)
    arrows = {}
    for case, (module, line, _) in BACK_ARROWS.items():
        path = checkout / "companion" / module
        with open(path, "a") as source:
            source.write(f"\n{line}  # the back-arrow under test\n")
        importer = "companion." + ".".join(Path(module).with_suffix("").parts)
        arrows[case] = importer, len(path.read_text().splitlines())
    found, output = lint_imports(checkout)
    credited: dict[str, set[str]] = {case: set() for case in BACK_ARROWS}
    for name, chains in broken_chains(output).items():
        assert found[name] == "BROKEN", output
        for chain in chains:
            if len(through := planted_in(chain, arrows)) == 1:
                credited[through.pop()].add(name)
    return credited, output


@pytest.mark.parametrize("case", BACK_ARROWS)
def test_a_back_arrow_breaks_its_contract(case, every_back_arrow):
    credited, output = every_back_arrow
    assert credited[case] == BACK_ARROWS[case][2], output


def test_no_module_imports_itself_round_a_circle():
    """Every import counts, those inside functions too: for each a -> b, no chain b -> ... -> a."""
    spec = importlib.util.find_spec("companion")
    assert spec and Path(spec.origin).parent == PACKAGE, f"companion is imported from {spec.origin}"
    graph = grimp.build_graph("companion", cache_dir=None)
    circles = [(importer, imported) for importer in sorted(graph.modules)
               for imported in sorted(graph.find_modules_directly_imported_by(importer))
               if graph.chain_exists(importer=imported, imported=importer)]
    assert circles == []


# Past these sizes a file is to be split by capability, a view to move its work into the model
# or the store (ARCHITECTURE.md, "Conventions").
MODULE_LINES = 400
VIEW_LINES = 40
ROUTES = {"route", "get", "post", "put", "patch", "delete"}

# Known to be over today, each a case that must fail until it is mended (strict: the day it
# passes, its entry here goes).
OVERSIZE: dict[str, str] = {}


@functools.cache
def modules() -> dict[str, int]:
    """Each module of the package by its path from the top of the checkout, with its lines."""
    return {path.relative_to(ROOT).as_posix(): len(path.read_text().splitlines())
            for path in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def views() -> dict[str, int]:
    """Each view function (decorated with ``@<blueprint>.route``, ``.get``, ``.post``, ...) as
    ``path::name``, with its lines from ``def`` to its last line (decorators left out). Read
    once for the module (issue 44: each of three tests parsed every module again), the package
    being the same throughout a run."""
    found = {}
    for path in modules():
        for node in ast.walk(ast.parse((ROOT / path).read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                    and isinstance(d.func.value, ast.Name) and d.func.attr in ROUTES
                    for d in node.decorator_list):
                found[f"{path}::{node.name}"] = node.end_lineno - node.lineno + 1
    return found


def sized(found: dict[str, int]) -> list:
    return [pytest.param(name, lines, id=name, marks=[pytest.mark.xfail(
                strict=True, reason=f"{name} is over: {OVERSIZE[name]}")] if name in OVERSIZE else [])
            for name, lines in found.items()]


@pytest.mark.parametrize(("module", "lines"), sized(modules()))
def test_no_module_is_over_400_lines(module, lines):
    assert lines <= MODULE_LINES, f"{module} has {lines} lines: split it by capability"


@pytest.mark.parametrize(("view", "lines"), sized(views()))
def test_no_view_is_over_40_lines(view, lines):
    assert lines <= VIEW_LINES, f"{view} has {lines} lines: move its work out of the view"


def test_the_views_are_found():
    """The view test measures something: every room's views, the API's and a hand's among them."""
    found = views()
    assert len(found) > 50
    for view in ("companion/table/views.py::poll", "companion/table/hands.py::new_hand",
                 "companion/api/matches.py::add_hand_api", "companion/web/site.py::healthz"):
        assert view in found


def test_every_known_oversize_names_code_that_is_there():
    """An entry of OVERSIZE for a file or view since renamed or removed is stale: drop it."""
    assert set(OVERSIZE) <= set(modules()) | set(views())


def test_the_api_loads_no_rooms_pages():
    """The JSON API calls a room's service modules; importing them must not load the room's
    pages (a room's package imports no views: create_app takes each blueprint from them)."""
    rooms = ("table", "referee", "players", "tournaments", "backup", "guide")
    pages = [f"companion.{room}.{part}" for room in rooms for part in ("views", "forms")]
    script = f"import sys, companion.api; print(sorted(set({pages!r}) & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"
