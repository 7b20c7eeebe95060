"""The Scopa companion: keeps the score of a real game of Scopa, computed from the cards."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, request
from werkzeug.exceptions import HTTPException
from flask_wtf.csrf import CSRFProtect

__version__ = "0.1.0"

csrf = CSRFProtect()

# In a checkout templates/ and static/ stand beside the package; an installed wheel carries
# them inside it (see pyproject.toml).
_HERE = Path(__file__).resolve().parent
_ROOT = _HERE if (_HERE / "templates").is_dir() else _HERE.parent


def _secret_key(instance: Path) -> str:
    """A key kept in the instance folder, so sessions outlive a restart."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(_ROOT / "templates"), static_folder=str(_ROOT / "static"))
    instance = Path(os.environ.get("SCOPA_INSTANCE", app.instance_path))
    app.config.from_mapping(
        DATABASE=os.environ.get("SCOPA_DB") or str(instance / "scopa.sqlite"),
        MAX_CONTENT_LENGTH=64 * 1024,   # a whole hand in JSON is under 2 KiB
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,       # a hand can take longer than an hour to play
    )
    if test_config is None:
        instance.mkdir(parents=True, exist_ok=True)
        app.config["SECRET_KEY"] = _secret_key(instance)
    else:
        app.config.from_mapping(test_config)

    app.json.sort_keys = False  # points in the order they are scored, as players read them
    csrf.init_app(app)

    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    from . import api, referee, store, views
    store.init_app(app)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # JSON only: a cross-site form cannot send application/json
    app.register_blueprint(views.bp)
    app.register_blueprint(referee.bp)
    from .access import unlocked
    from .rules.cards import card_name, parse_card, short_label, suit_label
    for helper in (card_name, parse_card, short_label, suit_label, unlocked):
        app.add_template_global(helper)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if request.path.startswith("/api/"):
            return api.api_http_error(error)
        return error

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
        return response

    return app
