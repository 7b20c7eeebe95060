"""Reading a request to the JSON API: its body (a JSON object, not nested past reason), the rules
asked for, lists, names, declarations, piles, counts and numbers, each refused in words (400)
when it is not of the API's form; and the exceptions the API answers with a status."""

from __future__ import annotations

import re
from typing import Any

from flask import jsonify, request

from .. import store
from ..rules import Declaration, ScopaError, Tally, parse_cards, rules_for
from ..rules.rulesets import Rules
from ..rules.said import said


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


def rules_of(data: dict[str, Any]) -> Rules:
    """The rules asked for: a variant (Scopa classica by default) and its changed items."""
    return rules_for(data.get("variant", "classica"), data.get("options") or {})


def list_of(data: dict[str, Any], key: str, required: bool = True) -> list:
    """``data[key]`` as a list (an empty one when optional and absent)."""
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise BadRequest(said("{key} must be a list", key=key))
    return value


def names_of(data: dict[str, Any], n: int) -> tuple[str, ...] | None:
    """The sides' names, if given: one per side, 1 to 40 characters each."""
    names = data.get("names")
    if names is None:
        return None
    if (not isinstance(names, list) or len(names) != n
            or not all(isinstance(x, str) and 0 < len(x) <= 40 for x in names)):
        raise BadRequest(said("names must be a list of {n} names of 1 to 40 characters", n=n))
    return tuple(names)


def declarations_of(data: dict[str, Any]) -> list[Declaration]:
    """The Bazzica or Sbarazzina declarations, if any."""
    declared = []
    for entry in list_of(data, "declarations", required=False):
        if not isinstance(entry, dict) or not isinstance(entry.get("side"), int):
            raise BadRequest(said('each declaration is {form}',
                                    form='{"side": 0, "deal": 1, "cards": [three cards]}'))
        declared.append(Declaration(entry["side"], entry.get("deal", 1),
                                    tuple(parse_cards(entry.get("cards"), said("a declaration")))))
    return declared


def piles_and_sweeps(data: dict[str, Any]) -> tuple[list[list], list]:
    """Each side's cards and sweeps."""
    piles = [parse_cards(pile, said("pile {number}", number=side + 1)) for side, pile in enumerate(list_of(data, "piles"))]
    sweeps = data.get("sweeps", [0] * len(piles))
    if not isinstance(sweeps, list):
        raise BadRequest(said("sweeps must be a list with one count per side"))
    return piles, sweeps


_TALLY_FIELDS = Tally._fields


def tally_of(entry: Any, side: int) -> Tally:
    """One side's counts, checked field by field."""
    if not isinstance(entry, dict):
        raise BadRequest(said("tally {number} must be an object of counts", number=side + 1))
    unknown = set(entry) - set(_TALLY_FIELDS)
    if unknown:
        raise BadRequest(said("{field} is not a count; the counts are {fields}",
                              field=sorted(unknown)[0], fields=", ".join(_TALLY_FIELDS)))
    for field in ("cards", "coins"):
        if field not in entry:
            raise BadRequest(said("tally {number} needs {field}", number=side + 1, field=field))
    for field in ("settebello", "re_bello", "piva", "primiera"):
        if field in entry and not isinstance(entry[field], bool):
            raise BadRequest(said("{name} must be true or false", name=field))
    best = entry.get("primiera_cards")
    if best is not None:        # the referee's best cards, written as the pages store them
        entry = {**entry, "primiera_cards": [str(card) for card in parse_cards(
            best, said("the primiera cards of tally {number}", number=side + 1))]}
    return Tally(**entry)


def whole(value: Any, what: str) -> int:
    """A whole number from 1 (a hand's number, a version), or 400 naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= store.MAX_ID:
        raise BadRequest(said("{field} must be a whole number from 1", field=what))
    return value


def query_number(name: str, default: int | None) -> int | None:
    """A whole number from the query string, or ``default``."""
    value = request.args.get(name)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or store.number_from(value) < 1:
        raise BadRequest(said("{field} must be a whole number from 1", field=name))
    return min(store.number_from(value), store.MAX_ID)     # beyond the biggest id: no id is left out


def created(body: dict[str, Any], location: str):
    """201 Created: what was made, and where it lives."""
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response
