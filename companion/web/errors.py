"""What a phone sees when something goes wrong: an error page in its language (the JSON API
answers in JSON under its own prefix), a store that cannot save said in the player's words,
and the security headers every answer carries."""

from __future__ import annotations

import sqlite3
from typing import Callable

from flask import Flask, render_template, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException, SecurityError

from ..i18n import http_message, say, sentence
from ..store import reads as store
from .posts import BadPost

# Every answer's, the static files' included (web.assets sets them on those once).
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
}

# prefix -> (answer to an HTTPException, answer to a StorageError): the JSON API's, set by
# answer_under() when its blueprint is registered.
_EXTENSION = "scopa.error_answers"


def answer_under(app: Flask, prefix: str, http: Callable, storage: Callable) -> None:
    """Requests under ``prefix`` get their errors answered by these instead of a page."""
    app.extensions.setdefault(_EXTENSION, {})[prefix] = (http, storage)


def _answers_for(app: Flask) -> tuple[Callable, Callable] | None:
    for prefix, answers in app.extensions.get(_EXTENSION, {}).items():
        if request.path.startswith(prefix):
            return answers
    return None


def init_app(app: Flask) -> None:
    """The error pages, the storage failures in words, and every answer's security headers."""
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        answers = _answers_for(app)
        if answers:
            return answers[0](error)
        if error.code is None or error.code < 400:
            return error        # a redirect
        # a 405 keeps werkzeug's Allow header, as HTTP asks
        headers = {k: v for k, v in error.get_headers() if k.lower() == "allow"}
        if isinstance(error, SecurityError) or request_ctx.url_adapter is None:   # a Host not ours
            return http_message(error.code), error.code, {"Content-Type": "text/plain; charset=utf-8"}
        # An address refused for its length is not written back, not even in the language links.
        here = {"here": "/"} if error.code == 414 else {}
        return render_template("error.html", message=http_message(error.code), **here), error.code, headers

    @app.errorhandler(sqlite3.DatabaseError)
    @app.errorhandler(store.StorageError)
    def storage_failed(error: sqlite3.Error | store.StorageError):
        if not isinstance(error, store.StorageError):    # a read failed: the store is not right
            error = store.StorageError.of(error)
        answers = _answers_for(app)
        if answers:
            return answers[1](error)
        return render_template("error.html", message=say(error.message)), 503

    @app.errorhandler(BadPost)
    def bad_post(error: BadPost):
        """A value no page sends (``web.posts``): said, nothing changed."""
        return render_template("error.html", message=sentence(say(error.args[0]))), 400

    @app.after_request
    def security_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response
