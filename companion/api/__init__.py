"""The JSON API, ``/api/v1/...``, split by resource: ``scoring`` (the rules engine, nothing
stored), ``matches`` (and their hands), ``players``, ``tournaments``; ``parse`` reads a request,
``answers`` shapes what is sent back, ``openapi`` describes it all.

Bad input answers 400 with ``{"error": "<what is wrong>"}`` in the player's words, in English
unless the request's Accept-Language asks for Italian or French; every error under ``/api/`` is
JSON, never a page.
"""

from __future__ import annotations

from flask import Flask, jsonify
from flask_wtf.csrf import CSRFProtect

from ..web import errors
from . import matches, players, scoring, tournaments  # noqa: F401  (the routes, on bp)
from .blueprint import api_http_error, bp, storage_failed


def init_app(app: Flask, csrf: CSRFProtect) -> None:
    """Register the API: exempt from CSRF, with its errors answered in JSON."""
    app.register_blueprint(bp)
    csrf.exempt(bp)  # JSON only: a cross-site form cannot send application/json
    errors.answer_under(app, "/api/", http=api_http_error, storage=storage_failed)


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI document of the whole API."""
    from .openapi import SPEC
    return jsonify(SPEC)

