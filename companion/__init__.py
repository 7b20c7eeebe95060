"""The Scopa companion: keeps the score of a real game of Scopa, computed from the cards.

``create_app`` builds the Flask app: its configuration, its extensions, and its rooms, one
blueprint each (``table``, ``referee``, ``players``, ``tournaments``, ``backup``, ``organiser``,
``guide``, ``api``). See ARCHITECTURE.md for the rooms and the one-way arrows between the layers.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from .instance import adopt_old_store, data_folder, secret_key
from .settings import Settings

__version__ = "0.1.0"

csrf = CSRFProtect()
# The largest backup restored from the organiser's phone, which sends it in parts of 64 KiB
# (backup.parts): no request carries more than 64 KiB (MAX_CONTENT_LENGTH, and waitress's own
# limit, listening.waitress_options). Years of club nights are a few MiB; a larger store is
# restored on the machine, ``scopa-companion restore FILE`` (docs/running.md).
RESTORE_LIMIT = 8 * 1024 * 1024


def _private_folder(parent: Path, data: Path | None) -> None:
    """The store's folder made if missing, its owner's alone (0700); and the data folder, which
    holds the store and the key that signs the phones' cookies, closed if an older version made
    it open (0755). A folder named with --db that the companion did not make (a home folder) is
    left as it is: the store's own files are closed (``store.made_private``)."""
    from . import store
    if not parent.exists():
        parent.mkdir(mode=store.PRIVATE_FOLDER, parents=True, exist_ok=True)
    if data is not None and data.is_dir():
        store.made_private(data, folder=True)


# In a checkout templates/ and static/ stand beside the package; an installed wheel carries
# them inside it (see pyproject.toml).
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE if (_HERE / "templates").is_dir() else _HERE.parent


def create_app(test_config: Mapping[str, Any] | None = None, settings: Settings | None = None) -> Flask:
    """The companion on the store ``settings`` name (the command's, else the environment's,
    ``settings.Settings``); ``test_config`` sets any key over them."""
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(_ROOT / "templates"), static_folder=str(_ROOT / "static"))
    settings = settings or Settings()
    folder = data_folder(settings)
    database = settings.db
    note = None
    if database is None and test_config is None and settings.data is None:
        note = adopt_old_store(Path(app.instance_path), folder)
        if note and note.endswith("using it there"):
            database = str(Path(app.instance_path) / "scopa.sqlite")
    app.config.from_mapping(
        DATABASE=database or str(folder / "scopa.sqlite"),
        # The one reverse proxy whose forwarding headers waitress believes (its address), or
        # None: listening.waitress_options, docs/running.md.
        TRUST_PROXY=settings.trust_proxy,
        STORE_NOTE=note,
        # The organiser's code (web.organiser): the scopa-companion command sets a fresh one at
        # each start, or the club's own; without one nobody is the organiser.
        ORGANISER_CODE=None,
        LANG=settings.lang,             # when neither the switch nor the phone says
        # How PINs are hashed (web.access.hash_pin): None is werkzeug's default, scrypt.
        PIN_HASH_METHOD=settings.pin_hash_method,
        # Every request's body, a restore's parts included (backup.parts): a whole hand in JSON
        # is under 2 KiB. waitress refuses more before the app sees it (listening.body_limit).
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,       # a hand can take longer than an hour to play
    )
    if test_config is None:
        app.config["SECRET_KEY"] = secret_key(folder)
    else:
        app.config.from_mapping(test_config)
    app.config.setdefault("RESTORE_LIMIT", RESTORE_LIMIT)
    # When the companion started: a match finished before it is the club's record (web.record).
    app.config.setdefault("STARTED", datetime.now(timezone.utc).isoformat(timespec="seconds"))

    app.json.sort_keys = False  # type: ignore[attr-defined]  # the default provider's setting; points in the order they are scored, as players read them
    # Behind a reverse proxy (TRUST_PROXY), waitress itself takes the phone's address, scheme
    # and host from the proxy's headers, and only from that proxy's address: no ProxyFix here,
    # which believed whoever connected (listening.waitress_options).

    csrf.init_app(app)
    from . import api, i18n, store, web
    from .web import compression
    compression.init_app(app)       # registered first: its after_request runs last
    from .backup import views as backup
    from .guide import views as guide
    from .matches import Ledger
    from .organiser import views as organiser
    from .players import views as players
    from .referee import views as referee
    from .table import pages as table
    from .tournaments import views as tournaments
    from .web.access import check_hash_method
    check_hash_method(app)
    i18n.init_app(app)
    web.init_app(app)
    _private_folder(Path(app.config["DATABASE"]).parent, folder if test_config is None else None)
    store.init_app(app, Ledger)
    # Each room's blueprint from its views (a room's package imports no views, so the JSON API
    # may call a room's service module without loading its pages); the table's, from its
    # pages (every route of the room).
    for room in (table, referee, players, tournaments, backup, organiser, guide):
        app.register_blueprint(room.bp)
    api.init_app(app, csrf)
    return app


def use_store(app: Flask, path: str) -> None:
    """``app`` keeps its score in the store at ``path`` from its next request on: a store this
    version has opened before (a copy of one), since nothing here migrates or examines it. The
    tests give each test a fresh copy of one migrated store and make one app for them all
    (tests/conftest.py), where making an app for each test was a third of the suite's time.
    Every request opens its thread's connection to the store the configuration names."""
    app.config["DATABASE"] = path
