"""What every folder of tests shares: the language the pages are read in, the Hypothesis
profile, the companion as a test client sees it (``app``, ``client``), the wrong PINs forgotten
(``fresh_rate_limit``), a real server on waitress (``live_server``), and the browser's fixtures
(``browser`` and its ``server``).

Nearly every test makes an app of its own; what that would do again each time is done once per
run (per worker under xdist): each app's store is a copy of one built through the migrations
(``migrated_store``), its templates are compiled once for all apps (``CompiledTemplates``), and so
are werkzeug's URL builders (``_url_builders_made_once``); its PINs are hashed by a cheap method
of werkzeug's (``SCOPA_PIN_HASH_METHOD`` below). The same code as a club's, in a fraction of the
time.

The test client is the organiser: every app here is made with the organiser's code
``helpers.ORGANISER_CODE``, and the ``client`` fixture sends it in X-Scopa-Organiser with every
request, as a program does (no address is the organiser, not even 127.0.0.1). A phone, which
is not, is ``helpers.phone(app)``; a test of what a guest may do uses one. A real server's
caller sends the header itself (``helpers.api``, ``helpers.ORGANISER``) or logs a browser in
with ``/organiser?code=`` (``helpers.ORGANISER_LINK``).

The one conftest.py of the suite: --doctest-modules imports each conftest.py as a module named
``conftest``, so a second one in a subfolder (without packages) would clash with this one."""

import os
import shutil
from pathlib import Path

import pytest
from flask import Flask
from hypothesis import settings
from jinja2 import BytecodeCache

from companion import create_app, store
from companion.web import limits
from helpers import FUZZ, ORGANISER_CODE, organiser, serving

# The suite reads the pages in English, the messages' own language, unless a test asks for
# another (tests/app/test_languages.py renders every page in Italian, English and French). Servers
# the tests start inherit it.
os.environ["SCOPA_LANG"] = "en"
# PINs hashed by PBKDF2 with 1,000 rounds rather than werkzeug's scrypt (tens of ms a PIN, 16 % of
# a run): the same code path (web.access.hash_pin, check_password_hash reads either), a setting of
# the companion's (companion/settings.py), so the apps the tests make themselves and the servers
# they start take it too. tests/app/test_settings.py checks that a club's default is scrypt and
# that a restore accepts these hashes.
os.environ["SCOPA_PIN_HASH_METHOD"] = "pbkdf2:sha256:1000"



class CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates kept in memory for every app of the run, each under its name and
    its source's checksum (Jinja's own bucket key). Every test makes an app of its own, and every
    app's Jinja compiled each page it rendered again: 40 % of the table's tests' time. Jinja's
    documented bytecode cache, as a club's server would use one, only kept in a dict: the
    templates render the same. (Jinja's file cache would do too, at the cost of a file per
    template read every time.)"""

    def __init__(self):
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


# Every app these tests make, whoever makes it, reads its templates through the one cache: the
# apps of a run differ only in their configuration, never in their Jinja environment's options.
Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}


def _url_builders_made_once() -> None:
    """werkzeug makes two URL builders for each route of every app (Python source built as an
    AST, then compile()): 19 of the 24 ms an app takes to make, and nearly every test makes one.
    A builder is the same function for the same route whichever app it serves (it is handed the
    rule as its first argument, and reads nothing else of it but through it), so the run makes
    each once, under what it is made from. Where werkzeug names it otherwise (another version),
    nothing changes."""
    from werkzeug.routing.rules import Rule
    make = getattr(Rule, "_compile_builder", None)
    if make is None:
        return
    made: dict = {}

    def made_once(rule, append_unknown: bool = True):
        key = (rule.rule, rule.subdomain, rule.host, rule.merge_slashes, rule.map.host_matching,
               repr(sorted((rule.defaults or {}).items())), append_unknown)
        if key not in made:
            made[key] = make(rule, append_unknown)
        return made[key]

    Rule._compile_builder = made_once


_url_builders_made_once()

# The generated cases are the same on every run unless SCOPA_FUZZ asks for fresh ones
# (helpers.FUZZ and helpers.examples). No deadline: Hypothesis's default fails an example that
# takes over 200 ms, a timing assertion a busy machine trips (speed is the benchmarks' business).
settings.register_profile("suite", derandomize=not FUZZ, deadline=None)
settings.load_profile("suite")

# Scripts, not tests: pytest (and --doctest-modules) leaves them alone.
collect_ignore = ["benchmarks", "tools"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Each schemathesis case (one per operation of the OpenAPI document) gets a node id of its
    own. schemathesis names them ``test_x[POST /api/v1/score]``, but under pytest 9 their node
    ids all read ``file::test_x``: pytest now builds an id from the function's original name and
    its parametrization, and schemathesis gives it neither the operation. The id given here is
    the case's address in the collection tree (the module, schemathesis's collector
    ``test_x``, the case), so ``pytest 'file::test_x::test_x[POST /api/v1/score]'`` runs that
    one case alone. Where the id already names the case (pytest 8), nothing changes."""
    for item in items:
        # pytest-xdist's loadgroup (pyproject's addopts): a file's tests run in one worker, as
        # loadfile would, but a `spread` test's cases go to whichever worker is free.
        if item.get_closest_marker("spread") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
        if getattr(item, "operation_label", None) and not item.nodeid.endswith("]"):
            nodeid = f"{item.nodeid}::{item.name}"
            if hasattr(item, "_id"):            # pytest 9 keeps a structured id
                from _pytest.nodeid import NodeId
                item._id = NodeId.parse(nodeid)
            else:
                item._nodeid = nodeid


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory) -> Path:
    """A store built through every migration by the companion itself, once per run (per worker
    under xdist), then checkpointed into one whole file: each test's store is a copy of it
    (``copy_of_migrated``), which takes less than half the time of migrating a new one. The
    tests of the migrations build theirs from nothing (tests/store)."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite"
    create_app({"TESTING": True, "SECRET_KEY": "migrated", "DATABASE": str(path)})
    store.stop_cleanly(str(path))       # the WAL folded in: the file alone is the store
    assert not Path(f"{path}-wal").exists() and store.examine(str(path)) == len(store.MIGRATIONS)
    return path


@pytest.fixture
def copy_of_migrated(migrated_store):
    """``copy(path)``: the migrated store copied to ``path`` unless a store is there already
    (a module's ``app_config`` may name one it made), and ``path``."""
    def copy(path: str) -> str:
        if not Path(path).exists():
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(migrated_store, path)
        return path
    return copy


@pytest.fixture
def csrf() -> bool:
    """Whether the ``app`` fixture's companion checks CSRF tokens. Off: most tests post the
    pages' forms without fetching a token first. A module whose tests need the check, as a real
    server has it, overrides this fixture to return True."""
    return False


@pytest.fixture
def app_config(tmp_path, csrf) -> dict:
    """The configuration ``app`` is made with: testing, a store of the test's own, CSRF as
    ``csrf`` says. A module that needs more (another folder, another setting) overrides it."""
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "t.sqlite"),
              "ORGANISER_CODE": ORGANISER_CODE}
    if not csrf:
        config["WTF_CSRF_ENABLED"] = False
    return config


@pytest.fixture
def app(app_config, copy_of_migrated):
    """The companion, with the organiser's code ``helpers.ORGANISER_CODE`` unless the module's
    ``app_config`` sets its own (then the ``client`` sends that one), on a copy of the migrated
    store."""
    copy_of_migrated(app_config["DATABASE"])
    return create_app({"ORGANISER_CODE": ORGANISER_CODE, **app_config})


@pytest.fixture
def client(app):
    """The organiser's test client: it sends the app's organiser's code with every request."""
    return organiser(app)


@pytest.fixture(autouse=True)
def one_serving_process(monkeypatch):
    """The command serves in one process in tests, whatever the machine's cores: a test that
    replaces ``waitress.serve`` must not see the command fork real servers instead (a 2-core
    CI machine's default is two). tests/app/test_processes.py tests several on purpose."""
    monkeypatch.setenv("SCOPA_PROCESSES", "1")


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    """The wrong PINs (and organiser's codes, new and deleted matches) counted so far forgotten,
    before every test: the limits' tables are one for the whole process, and under xdist which
    files ran before a test in its worker differs from run to run, so no test may depend on what
    another counted. (Modules that count tries still name it, with ``pytest.mark.usefixtures``.)"""
    limits.reset()


@pytest.fixture
def live_config(tmp_path) -> dict:
    """The configuration ``live_server`` is made with: as a real server runs (no TESTING, CSRF
    checked). A module that needs otherwise overrides it."""
    return {"SECRET_KEY": "live", "DATABASE": str(tmp_path / "server.sqlite"),
            "ORGANISER_CODE": ORGANISER_CODE}       # helpers.api sends it


@pytest.fixture
def live_server(live_config, copy_of_migrated):
    """The companion on waitress with 8 threads, for one test: (its address, its store's file).
    It stops cleanly (helpers.serving)."""
    copy_of_migrated(live_config["DATABASE"])
    with serving(create_app(live_config), threads=8) as base:
        yield base, live_config["DATABASE"]


# -- The browser: tests that use these are marked ``browser`` ------------------------------------

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(tmp_path_factory, migrated_store):
    """The companion the browser talks to, on waitress as a real server is (CSRF and all), for a
    whole module of browser tests: its address."""
    database = tmp_path_factory.mktemp("db") / "b.sqlite"
    shutil.copyfile(migrated_store, database)
    app = create_app({"SECRET_KEY": "browser", "DATABASE": str(database),
                      "ORGANISER_CODE": ORGANISER_CODE})
    with serving(app, threads=4) as base:
        yield base


class OrganisersBrowser:
    """Chromium whose every context sends the organiser's code (X-Scopa-Organiser), as the
    test client does: the browser tests' pages are the organiser's, as the machine's own browser
    was before issue 32, and their matches are not held by the limit on new matches. A context
    that is a guest's phone passes ``extra_http_headers={}``."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("extra_http_headers", {"X-Scopa-Organiser": ORGANISER_CODE})
        return self._browser.new_context(**options)

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser), for a whole
    module. The test is skipped where Chromium is not installed, except on CI, which must have it."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium for the browser tests (.ci/run)")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    # Every wait of an expect() ends as soon as its condition holds: its bound is only how long
    # a loaded machine may take, never a claim about speed (5 s by default; CI is busy).
    playwright_api.expect.set_options(timeout=20_000)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield OrganisersBrowser(browser)
        browser.close()
