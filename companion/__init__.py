"""The Scopa companion: keeps the score of a real game of Scopa, computed from the cards."""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping

import platformdirs
import hashlib
from functools import lru_cache

from flask import Flask, render_template, request
from flask.globals import request_ctx
from flask_compress import Compress
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from flask_wtf.csrf import CSRFProtect

__version__ = "0.1.0"

csrf = CSRFProtect()
compress = Compress()
YEAR = 365 * 24 * 3600
RESTORE_LIMIT = 200 * 1024 * 1024     # years of club nights are a few MiB

# In a checkout templates/ and static/ stand beside the package; an installed wheel carries
# them inside it (see pyproject.toml).
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE if (_HERE / "templates").is_dir() else _HERE.parent


def data_folder() -> Path:
    """Where the store and the secret key live: ``SCOPA_DATA``, else the user's data folder
    (``~/.local/share/scopa-companion`` on Linux, ``~/Library/Application Support/...`` on macOS,
    ``%LOCALAPPDATA%\\scopa-companion`` on Windows), never inside the package or the virtual
    environment, so reinstalling the companion keeps every match."""
    return Path(os.environ.get("SCOPA_DATA")
                or platformdirs.user_data_dir("scopa-companion", appauthor=False))


def secret_key(folder: Path) -> str:
    """The key that signs the phones' cookies, kept in ``folder`` so that an unlocked phone
    stays unlocked across a restart. Written whole or not at all (a temporary file renamed);
    an empty or damaged key file is replaced. If it cannot be written (a full or read-only
    disk), the key lasts until the server stops."""
    path = folder / "secret_key"
    try:
        kept = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        kept = ""
    if re.fullmatch(r"[0-9a-f]{64}", kept):
        return kept
    key = secrets.token_hex(32)
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".secret_key-")
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(key)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except OSError as error:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
        print(f"scopa-companion: the secret key could not be saved in {folder} ({error.strerror}): "
              f"phones will need the PIN again after a restart", file=sys.stderr)
    return key


def adopt_old_store(old: Path, new: Path) -> str | None:
    """Move a store left at the old default place (the Flask instance folder, inside the
    virtual environment for an installed companion) to the data folder, once. Returns what was
    done, for the start-up banner; a store that cannot be moved is used where it is."""
    source, target = old / "scopa.sqlite", new / "scopa.sqlite"
    if not source.is_file() or target.exists() or old.resolve() == new.resolve():
        return None
    from . import store
    try:
        new.mkdir(parents=True, exist_ok=True)
        copied = new / "scopa.sqlite.moving"
        store.backup_to(str(source), str(copied))      # with whatever its WAL still held
        os.replace(copied, target)
        if (old / "secret_key").is_file() and not (new / "secret_key").exists():
            os.replace(old / "secret_key", new / "secret_key")
        for leftover in ("scopa.sqlite", "scopa.sqlite-wal", "scopa.sqlite-shm"):
            (old / leftover).unlink(missing_ok=True)
    except (OSError, sqlite3.Error) as error:
        return f"could not move the store from {source} ({error}): using it there"
    return f"moved the store from {source} to {target}"


def _static_files_cached_for_good(app: Flask) -> None:
    """Static files get URLs with their content's hash (``/static/companion.css?v=1a2b3c4d5e``)
    and are kept by the phones for a year without asking again: a new version of a file has a
    new URL. (A dozen lines rather than a library: Flask-Static-Digest needs a build step that
    writes digested copies of the files, and a wheel here carries the files as they are.)"""
    @lru_cache(maxsize=None)
    def digest(filename: str) -> str | None:
        path = Path(app.static_folder, filename)
        if not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()[:10]

    @app.url_defaults
    def hashed_static_urls(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            values["v"] = digest(values["filename"])

    @app.after_request
    def keep_hashed_static_files(response):
        if (request.endpoint == "static" and response.status_code == 200
                and request.args.get("v") == digest(request.view_args.get("filename", ""))):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(_ROOT / "templates"), static_folder=str(_ROOT / "static"))
    folder = data_folder()
    database = os.environ.get("SCOPA_DB")
    note = None
    if database is None and test_config is None and "SCOPA_DATA" not in os.environ:
        note = adopt_old_store(Path(app.instance_path), folder)
        if note and note.endswith("using it there"):
            database = str(Path(app.instance_path) / "scopa.sqlite")
    app.config.from_mapping(
        DATABASE=database or str(folder / "scopa.sqlite"),
        TRUST_PROXY=os.environ.get("SCOPA_TRUST_PROXY", "") not in ("", "0", "false", "no"),
        STORE_NOTE=note,
        LANG=os.environ.get("SCOPA_LANG") or "it",   # when neither the switch nor the phone says
        MAX_CONTENT_LENGTH=64 * 1024,   # a whole hand in JSON is under 2 KiB
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,       # a hand can take longer than an hour to play
        # gzip is what phones accept over plain HTTP (br and zstd only over HTTPS); the live
        # fragment every phone fetches after a change shrinks about tenfold.
        COMPRESS_ALGORITHM=["gzip"],
        COMPRESS_STREAMS=False,         # static files: sent as they are, and kept a year
    )
    if test_config is None:
        app.config["SECRET_KEY"] = secret_key(folder)
    else:
        app.config.from_mapping(test_config)

    app.json.sort_keys = False  # points in the order they are scored, as players read them
    if app.config.get("TRUST_PROXY"):
        # Behind a reverse proxy: the phone's own address and the host it asked for, from the
        # one proxy in front (never from headers a phone could send on its own).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)

    @app.before_request
    def restore_size_limit():
        """A backup upload may be far larger than any other request: its limit is set before
        the CSRF check reads the form (registered first, so it runs first)."""
        if request.endpoint == "table.backup_restore":
            request.max_content_length = RESTORE_LIMIT

    csrf.init_app(app)
    compress.init_app(app)
    from . import i18n
    i18n.init_app(app)
    _static_files_cached_for_good(app)

    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    from . import api, players, referee, store, tournament_pages, views
    store.init_app(app)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # JSON only: a cross-site form cannot send application/json
    app.register_blueprint(views.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(tournament_pages.bp)
    app.add_template_global(lambda: store.player_names(store.get_db()), "known_players")
    app.add_template_global(views.history)
    app.add_template_global(views.series_of)
    from .charts import running_totals
    app.add_template_global(running_totals, "running_chart")
    from .forms import rule_in_words
    app.add_template_global(rule_in_words)
    from .access import unlocked
    from .rules.cards import parse_card
    for helper in (parse_card, unlocked):
        app.add_template_global(helper)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if request.path.startswith("/api/"):
            return api.api_http_error(error)
        if error.code is None or error.code < 400:
            return error        # a redirect
        # a 405 keeps werkzeug's Allow header, as HTTP asks
        headers = {k: v for k, v in error.get_headers() if k.lower() == "allow"}
        if request_ctx.url_adapter is None:     # a Host not ours: no page links to build
            return i18n.http_message(error.code), error.code, {"Content-Type": "text/plain; charset=utf-8"}
        return render_template("error.html", message=i18n.http_message(error.code)), error.code, headers

    @app.errorhandler(sqlite3.DatabaseError)
    @app.errorhandler(store.StorageError)
    def storage_failed(error: Exception):
        if not isinstance(error, store.StorageError):    # a read failed: the store is not right
            error = store.StorageError.of(error)
        if request.path.startswith("/api/"):
            return api.storage_failed(error)
        return render_template("error.html", message=i18n.say(error.message)), 503

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
        return response

    return app
