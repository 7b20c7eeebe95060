"""Every JSON answer of the API checked against the OpenAPI document as it is served: the
schema of its operation and status (``answers_as_documented``, in tests/conftest.py, for every
test under tests/api; tests/api/test_openapi_answers.py for an answer of every operation).

The answers are built by ``api/answers.py`` and the views, their schemas generated from the
models of ``api/answer_models.py`` and its kin: a key added to an answer and not to its model,
a value of another type, a field left out or a status not documented fails the test whose
request got it. Flask's ``request_finished`` signal, sent for every request any app serves,
reads each answer as the test client gets it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

import jsonschema
from flask import Flask, Response, request, request_finished

from companion.api.openapi import SPEC


def _path(rule: str) -> str:
    """A Flask rule as the document writes its path: ``<int:match_id>`` is ``{match_id}``."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


_validators: dict[tuple[str, str, str], jsonschema.Draft202012Validator | None] = {}


def validator(path: str, method: str, status: str) -> jsonschema.Draft202012Validator | None:
    """The validator of that operation's answer with that status; None for an answer that is not
    JSON (a CSV, a 304). KeyError where the document says nothing of it."""
    key = (path, method, status)
    if key not in _validators:
        answer = SPEC["paths"][path][method]["responses"][status]
        content = answer.get("content", {}).get("application/json")
        _validators[key] = None if content is None else jsonschema.Draft202012Validator(
            {**content["schema"], "components": SPEC["components"]})
    return _validators[key]


class Seen:
    """The API's answers while it listens: each operation and status, and what was wrong."""

    def __init__(self) -> None:
        self.answered: list[tuple[str, str, str]] = []
        self.wrong: list[str] = []

    def answer(self, sender: Flask, response: Response, **extra: object) -> None:
        if not request.path.startswith("/api/v1/") or request.url_rule is None:
            return                  # a page, or an address the API has no route for
        path, method = _path(request.url_rule.rule), request.method.lower()
        if path == "/api/v1/openapi.json" or method in ("head", "options"):
            return
        status = str(response.status_code)
        said = f"{request.method} {request.path} answered {status}"
        try:
            check = validator(path, method, status)
        except KeyError:
            self.wrong.append(f"{said}, which the document does not say")
            return
        self.answered.append((path, method, status))
        if check is None or response.is_streamed or response.headers.get("Content-Encoding"):
            return
        body = json.loads(response.get_data())
        for error in sorted(check.iter_errors(body), key=lambda error: list(error.absolute_path)):
            # Of one of several schemas (a change or null): the way the answer came closest.
            error = jsonschema.exceptions.best_match(error.context) if error.context else error
            self.wrong.append(f"{said}: {list(error.absolute_path)} {error.message[:300]}")


@contextmanager
def listened() -> Iterator[Seen]:
    """The API's answers, every app's, while the block runs."""
    seen = Seen()
    request_finished.connect(seen.answer)
    try:
        yield seen
    finally:
        request_finished.disconnect(seen.answer)
