"""The API's blueprint and how it answers a refusal: JSON with the reason in words and the
status it deserves (400, 403, 404, 415, 429, 503; a write's own refusals, such as 409, are
worded where the table's service answers them), never an HTML page; and what every
write must show before it is read (``asks_for_json``)."""

from __future__ import annotations

import math

from flask import Blueprint, g, request
from werkzeug.exceptions import HTTPException

from ..rules import ScopaError
from ..rules.said import Said, said, said_n
from ..store import reads as store
from ..web.access import TooManyTries
from ..web.limits import sent_from_another_site
from ..web.organiser import TooManyCodes, is_organiser
from .answers import error_answer
from .parse import Forbidden, NotFoundError

bp = Blueprint("api", __name__, url_prefix="/api/v1")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@bp.before_request
def asks_for_json():
    """No write (any method but GET, HEAD, OPTIONS) is taken from another site's page, from a
    phone or from the machine itself: the browser says where a request comes from (403). A
    POST or a PUT, even one without a body (starting a round), is JSON: a form cannot send
    ``Content-Type: application/json`` (415 otherwise). The API asks no CSRF token: this is
    its defence. (A DELETE needs no Content-Type: no form sends one, and another site's script
    could only after a CORS preflight, which the companion never grants.)"""
    if request.method in SAFE_METHODS:
        return None
    if sent_from_another_site():
        return error_answer(said("this request comes from another site's page: nothing was done"), 403)
    if request.method != "DELETE" and request.mimetype != "application/json":
        return error_answer(said("send JSON, with Content-Type: application/json"), 415)
    return None


@bp.errorhandler(ScopaError)
def refused(error: ScopaError):
    """A request the rules refuse: 400, with the reason."""
    return error_answer(error, 400)


def api_http_error(error: HTTPException):
    """Every HTTP error under /api/ answers JSON, never an HTML page."""
    messages = {413: said("the request is too large"), 414: said("the address is too long"),
                404: said("no such API endpoint"),
                405: said("that method is not allowed here")}
    code = error.code or 500        # every error werkzeug raises has its code
    response = error_answer(messages[code] if code in messages else error.description, code)
    for name, value in error.get_headers():     # Allow on a 405, as HTTP asks
        if name.lower() == "allow":
            response.headers["Allow"] = value
    return response


@bp.errorhandler(NotFoundError)
def not_found(error):
    """No such match, hand, player or tournament: 404, in words."""
    return error_answer(error, 404)


@bp.errorhandler(store.StorageError)
def storage_failed(error):
    """The store could not save: 503, saying nothing was saved."""
    return error_answer(error.message, 503)


@bp.errorhandler(Forbidden)
def forbidden(error):
    """A write without the PIN it needs, or what only the organiser may do: 403."""
    return error_answer(error, 403)


def organiser_only(refusal: Said) -> None:
    """Only the organiser gets past: the machine itself, or a request with the organiser's code
    in X-Scopa-Organiser. Else 403 with ``refusal``, or 429 after too many wrong codes."""
    if is_organiser():
        return
    if g.get("organiser_wait"):
        raise TooManyCodes(g.organiser_wait)
    raise Forbidden(refusal)


@bp.errorhandler(TooManyCodes)
def too_many_codes(error: TooManyCodes):
    """Too many wrong organiser's codes from this address: 429, saying how long to wait."""
    minutes = max(1, math.ceil(error.wait / 60))
    return error_answer(said_n(
        "too many wrong organiser's codes from this address: wait {n} minute, then try again",
        "too many wrong organiser's codes from this address: wait {n} minutes, then try again",
        minutes), 429)


@bp.errorhandler(TooManyTries)
def too_many(limit: TooManyTries):
    """Too many wrong PINs: 429, saying how long until the next try is taken (Retry-After)."""
    minutes = math.ceil(limit.wait / 60)
    said_wait = (said_n("too many wrong PINs: try again in {count} second",
                        "too many wrong PINs: try again in {count} seconds", limit.wait, count=limit.wait)
                 if limit.wait < 60 else
                 said_n("too many wrong PINs: try again in {count} minute",
                        "too many wrong PINs: try again in {count} minutes", minutes, count=minutes))
    response = error_answer(said_wait, 429)
    response.headers["Retry-After"] = str(limit.wait)
    return response
