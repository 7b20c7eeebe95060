"""The API's blueprint and how it answers a refusal: JSON with the reason in words and the
status it deserves (400, 403, 404, 409, 429, 503), never an HTML page."""

from __future__ import annotations

import math

from flask import Blueprint, jsonify
from werkzeug.exceptions import HTTPException

from .. import store
from ..i18n import for_api
from ..matches import MatchOver
from ..rules import ScopaError
from ..rules.said import said, said_n
from ..web.access import TooManyTries
from .parse import Forbidden, NotFoundError

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.errorhandler(ScopaError)
def refused(error: ScopaError):
    """A request the rules refuse: 400, with the reason."""
    return jsonify({"error": for_api(error)}), 400


def api_http_error(error: HTTPException):
    """Every HTTP error under /api/ answers JSON, never an HTML page."""
    messages = {413: said("the request is too large"), 404: said("no such API endpoint"),
                405: said("that method is not allowed here")}
    response = jsonify({"error": for_api(messages.get(error.code, error.description))})
    response.status_code = error.code
    for name, value in error.get_headers():     # Allow on a 405, as HTTP asks
        if name.lower() == "allow":
            response.headers["Allow"] = value
    return response


@bp.errorhandler(NotFoundError)
def not_found(error):
    """No such match, hand, player or tournament: 404, in words."""
    return jsonify({"error": for_api(error)}), 404


@bp.errorhandler(store.StorageError)
def storage_failed(error):
    """The store could not save: 503, saying nothing was saved."""
    return jsonify({"error": for_api(error.message)}), 503


@bp.errorhandler(Forbidden)
def forbidden(error):
    """A write without the PIN it needs: 403."""
    return jsonify({"error": for_api(error)}), 403


@bp.errorhandler(MatchOver)
def refused_now(error):
    """A hand for a match already won: 409."""
    return jsonify({"error": for_api(error)}), 409


@bp.errorhandler(TooManyTries)
def too_many(limit: TooManyTries):
    """Too many wrong PINs: 429, saying how long until the next try is taken (Retry-After)."""
    minutes = math.ceil(limit.wait / 60)
    said_wait = (said_n("too many wrong PINs: try again in {count} second",
                        "too many wrong PINs: try again in {count} seconds", limit.wait, count=limit.wait)
                 if limit.wait < 60 else
                 said_n("too many wrong PINs: try again in {count} minute",
                        "too many wrong PINs: try again in {count} minutes", minutes, count=minutes))
    return jsonify({"error": for_api(said_wait)}), 429, {"Retry-After": str(limit.wait)}
