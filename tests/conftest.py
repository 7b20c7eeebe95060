"""What every folder of tests shares: the language the pages are read in, the Hypothesis
profile, the companion as a test client sees it (``app``, ``client``), the wrong PINs forgotten
(``fresh_rate_limit``), a real server on waitress (``live_server``), and the browser's fixtures
(``browser`` and its ``server``).

Each worker makes an app once for each configuration (``apps``, ``made_for``) and points it at
each test's own store (``companion.use_store``), a copy of one built through the migrations
(``migrated_store``); the apps a test makes itself read their templates compiled once for all
(``CompiledTemplates``); PINs are hashed by a cheap method of werkzeug's
(``SCOPA_PIN_HASH_METHOD`` below). The same code as a club's, in a fraction of the time.

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
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime, timezone
from pathlib import Path

import pytest
from cachetools import LRUCache
from flask import Flask
from hypothesis import settings
from jinja2 import BytecodeCache
from table_helpers import phone_page, phones  # noqa: F401  (fixtures: below)

from companion import create_app, store, use_store
from companion.web import limits
from documented import listened
from helpers import FUZZ, ORGANISER_CODE, organiser, serving

# The browser modules' kept phones (``phone_page``, ``phones``: tests/table_helpers.py's
# ``Phones``), for the table's browser tests and tests/app's test_browser, test_browser_words and
# test_escoba_browser; a module with phones of its own (test_accessibility's) overrides them. Here,
# not in a conftest.py of tests/app: --doctest-modules imports every conftest.py as ``conftest``,
# and tests/app's, collected before this one, made this one a "file mismatch".

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


def memory_folder(needed: int = 2**30) -> str | None:
    """A folder in memory (Linux's /dev/shm, a tmpfs) for the tests' files, if it is there, is
    writable and has ``needed`` bytes free (a container's /dev/shm may have 64 MB); else None.

    Every test's store is a file, and the companion opens it as a club's (WAL, ``synchronous=FULL``,
    companion/store/db.py): each write waits for the disk to say it is written (fsync), 2 to 12 ms
    on a virtual disk, where the write itself takes a tenth of a millisecond. A test saves a few
    hands, a night's test hundreds: the tests' time was more waiting on a disk than running the
    companion. On a tmpfs an fsync returns at once; the companion's code and its pragmas are the
    same, only the disk is faster. (No test is about surviving a power cut: a restart in a test
    is a new process or connection, which reads what the old one wrote either way.)"""
    folder = Path("/dev/shm")
    try:
        if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK) and shutil.disk_usage(folder).free >= needed:
            return str(folder)
    except OSError:
        pass
    return None


# pytest's tmp_path and tmp_path_factory (and any tempfile a test makes) under the folder in
# memory, unless TMPDIR names a folder of the tester's choice; --basetemp still names one. Each
# passing test's folder is removed as it ends (pyproject's tmp_path_retention_policy), so that a
# run holds in memory no more than the stores of the tests running and those that failed.
if not os.environ.get("TMPDIR") and (folder := memory_folder()):
    tempfile.tempdir = folder



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


# The generated cases are the same on every run unless SCOPA_FUZZ asks for fresh ones
# (helpers.FUZZ and helpers.examples). No deadline: Hypothesis's default fails an example that
# takes over 200 ms, a timing assertion a busy machine trips (speed is the benchmarks' business).
settings.register_profile("suite", derandomize=not FUZZ, deadline=None)
settings.load_profile("suite")

# Scripts, not tests: pytest (and --doctest-modules) leaves them alone.
collect_ignore = ["benchmarks", "tools"]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """The files handed to pytest-xdist's workers the heaviest first.

    pytest-xdist's loadfile (pyproject's addopts): a file's tests run in one worker, so that a
    module's fixtures (its server, its filled store) are made once. (loadgroup, which grouped
    them by an xdist_group mark, grouped nothing under pytest 9: xdist 3.8 writes the group into
    ``item._nodeid``, which pytest 9 no longer reads, so every test went to either worker and a
    module's fixtures were made in both.) The files are handed out in the order of the
    collection (``--no-loadscope-reorder``), which is made here: the files with browser tests
    first, then the others, each kind by its number of tests, the most first (what xdist's own
    order goes by). A browser test takes seconds: started last, a file of them was a worker's
    whole last minutes while the other had nothing left to do; run first, one after another,
    they share a worker's Chromium (``Chromium``)."""
    groups: dict[str, list] = {}
    for item in items:
        groups.setdefault(item.nodeid.split("::")[0], []).append(item)
    ordered = sorted(groups.values(), key=lambda group: (
        not any(item.get_closest_marker("browser") for item in group), -len(group)))
    items[:] = [item for group in ordered for item in group]


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
            shutil.copy(migrated_store, path)      # its mode too: the owner's alone, as the companion makes it
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


@pytest.fixture(scope="session")
def apps() -> LRUCache:
    """The apps this worker made, each under the configuration it was made with but its store
    (``made_for``): a few, since a module whose configuration names its tmp_path makes one per
    test."""
    return LRUCache(maxsize=4)


@contextmanager
def made_for(apps: LRUCache, config: dict) -> Iterator[Flask]:
    """The companion for ``config``, on the store ``config["DATABASE"]`` names, a fresh copy of
    the migrated store: made once for each configuration (and each setting of the environment,
    which ``create_app`` reads) and pointed at the test's store (``companion.use_store``), where
    making an app for each test (its routes, its files gzipped, its store examined) was 140 ms
    on a busy machine, a third of the suite's time. What a test changes of it (its
    configuration, its extensions' state, its request class, its WSGI app) is put back after."""
    key = repr((sorted((name, repr(value)) for name, value in config.items() if name != "DATABASE"),
                sorted((name, value) for name, value in os.environ.items() if name.startswith("SCOPA_"))))
    if key not in apps:
        apps[key] = create_app(config)
    app = apps[key]
    use_store(app, config["DATABASE"])
    if "STARTED" not in config:         # when this companion started: now, as create_app says
        app.config["STARTED"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    kept = dict(app.config), dict(app.extensions), app.request_class, app.wsgi_app
    try:
        yield app
    finally:
        for state, before in zip((app.config, app.extensions), kept):
            state.clear()
            state.update(before)
        app.request_class, app.wsgi_app = kept[2], kept[3]
        # The connections the test's requests kept to its store closed, as a clean stop closes
        # them: each thread keeps its connection from one request to the next (store.db), and a
        # store of every test left open was a worker's thousand open files, and, once the passing
        # test's folder is removed (the memory folder above), its store's memory held till the end.
        # (A test may have left a file there that is not a store: closed all the same.)
        if Path(config["DATABASE"]).exists():
            with suppress(sqlite3.DatabaseError):
                store.stop_cleanly(config["DATABASE"])


@pytest.fixture
def app(app_config, copy_of_migrated, apps):
    """The companion, with the organiser's code ``helpers.ORGANISER_CODE`` unless the module's
    ``app_config`` sets its own (then the ``client`` sends that one), on a copy of the migrated
    store: the app this worker made for that configuration (``made_for``). A module that made
    its store itself gets an app of its own, which opens that store as a start would (its
    migrations, its checks)."""
    config = {"ORGANISER_CODE": ORGANISER_CODE, **app_config}
    if Path(config["DATABASE"]).exists():
        yield create_app(config)
        return
    copy_of_migrated(config["DATABASE"])
    with made_for(apps, config) as app:
        yield app


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


@pytest.fixture(autouse=True)
def answers_as_documented(request):
    """Under tests/api, every answer of the API a test gets is checked against the OpenAPI
    document (tests/documented.py): its status documented, its JSON valid against that
    operation's schema, generated from the answer's model (api/answer_models.py). A wrong
    answer fails the test that got it, with the answer's place and what is wrong. A module's
    tests named in its ``CHECKED_BY_SCHEMATHESIS`` are left to schemathesis's own checks of the
    same document (tests/api/test_matches_api.py's fuzzing: every answer checked twice before)."""
    if (request.path.parent.name != "api"
            or request.node.originalname in getattr(request.module, "CHECKED_BY_SCHEMATHESIS", ())):
        yield
        return
    with listened() as seen:
        yield
    assert not seen.wrong, "answers the OpenAPI document does not describe:\n" + "\n".join(seen.wrong[:20])


@pytest.fixture
def live_config(tmp_path) -> dict:
    """The configuration ``live_server`` is made with: as a real server runs (no TESTING, CSRF
    checked). A module that needs otherwise overrides it."""
    return {"SECRET_KEY": "live", "DATABASE": str(tmp_path / "server.sqlite"),
            "ORGANISER_CODE": ORGANISER_CODE}       # helpers.api sends it


@pytest.fixture
def live_server(live_config, copy_of_migrated, apps):
    """The companion on waitress with 8 threads, for one test: (its address, its store's file).
    It stops cleanly (helpers.serving)."""
    copy_of_migrated(live_config["DATABASE"])
    with made_for(apps, live_config) as app, serving(app, threads=8) as base:
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


class Chromium:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser): started
    for a worker's first browser test and kept for the browser modules after it (pyproject's
    addopts and ``pytest_collection_modifyitems`` run them first, one after another), where
    each module started its own (a second or two each). It is stopped before a test that does
    not use it once no module holds it: while Playwright's synchronous API runs, its event loop
    is this thread's, and ``asyncio.run`` or a second Playwright (tests/tools/make_screenshots.py)
    would refuse to start."""

    def __init__(self):
        self.playwright = self.browser = None
        self.modules = 0            # the modules whose ``browser`` fixture holds it

    def started(self):
        if self.browser is None:
            from playwright.sync_api import sync_playwright
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        return self.browser

    def stop(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.playwright.stop()
            self.playwright = self.browser = None


CHROMIUM_KEPT = Chromium()


def pytest_runtest_setup(item):
    if CHROMIUM_KEPT.modules == 0 and "browser" not in getattr(item, "fixturenames", ()):
        CHROMIUM_KEPT.stop()


def pytest_sessionfinish():
    CHROMIUM_KEPT.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium (``Chromium``), for a whole module: each context a test opens, it
    closes. The test is skipped where Chromium is not installed, except on CI, which must have
    it."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium for the browser tests (.ci/run)")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    # Every wait of an expect() ends as soon as its condition holds: its bound is only how long
    # a loaded machine may take, never a claim about speed (5 s by default; CI is busy).
    playwright_api.expect.set_options(timeout=20_000)
    CHROMIUM_KEPT.modules += 1
    try:
        chromium = CHROMIUM_KEPT.started()
        yield OrganisersBrowser(chromium)
        for context in chromium.contexts:       # any a test left open, as closing Chromium did
            context.close()
    finally:
        CHROMIUM_KEPT.modules -= 1
