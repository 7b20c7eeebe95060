"""Reading a request to the JSON API: its body (a JSON object, not nested past reason) and numbers
in the query, each refused in words (400) when it is not of the API's form; and the exceptions
the API answers with a status. What a body says is described, and checked, once for the API and
the pages alike, by the requests' models: ``web/requests.py`` and its neighbours."""

from __future__ import annotations

import json
import re
from typing import Any, overload

from flask import Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider

from ..rules import ScopaError
from ..rules.said import said
from ..store import reads as store
from ..web.requests import NoBody


class BadRequest(ScopaError):
    """A request that is not of the API's form."""


class Forbidden(ScopaError):
    """A write without the PIN it needs (403)."""


class NotFoundError(Exception):
    """No such match, hand, player or tournament (404), said in words."""

    def __init__(self, message: Any = said("no such match")):
        super().__init__(message)


DEPTH = 8     # the deepest a real request nests: a hand's piles in a list in an object


_LONG_NUMBER = re.compile(rb"[0-9]{4301}")
_TOO_DEEP = said("the JSON is nested too deeply (at most {most} levels)", most=DEPTH)


def body() -> dict[str, Any]:
    """The request's JSON object, or 400 in words."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:          # nested past what Python's json reader can follow
        raise BadRequest(_TOO_DEEP) from None
    if _depth(data) > DEPTH:
        raise BadRequest(_TOO_DEEP)
    if data is None and request.is_json and _LONG_NUMBER.search(request.get_data()):
        # Python reads no integer of more than 4,300 digits: the JSON reader refused the body.
        raise BadRequest(said("a number in the JSON has more than {most} digits", most=4300))
    if data is None:
        raise BadRequest(said("send a JSON object, with Content-Type: application/json"))
    if not isinstance(data, dict):
        raise BadRequest(said("the request body must be a JSON object"))
    return data


def no_body() -> None:
    """A request that says nothing (``web.requests.NoBody``): no body, or ``{}``; else 400 in
    words, a key named."""
    NoBody.read(body() if request.get_data() else {})


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (walked without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level > DEPTH:
                break
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


@overload
def query_number(name: str, default: int) -> int: ...
@overload
def query_number(name: str, default: None) -> int | None: ...


def query_number(name: str, default: int | None) -> int | None:
    """A whole number from the query string, or ``default`` (a number when the default is one)."""
    value = request.args.get(name)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or store.number_from(value) < 1:
        raise BadRequest(said("{field} must be a whole number from 1", field=name))
    return min(store.number_from(value), store.MAX_ID)     # beyond the biggest id: no id is left out


def listing(key: str, texts: list[str], following: str | None) -> Response:
    """``jsonify({key: items, "next": following})``, byte for byte, of items kept as their JSON
    text (``answers.json_text``, compact): a list's items are not parsed to be written again."""
    provider = current_app.json
    if (not isinstance(provider, DefaultJSONProvider) or key > "next" or provider.compact is False
            or (provider.compact is None and current_app.debug)):
        # jsonify sorts the keys, and indents under debug: written by it, as it would
        return jsonify({key: [json.loads(text) for text in texts], "next": following})
    return current_app.response_class(f'{{"{key}":[{",".join(texts)}],"next":{provider.dumps(following)}}}\n',
                                      mimetype=provider.mimetype)
