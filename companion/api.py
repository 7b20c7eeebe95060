"""The JSON API: ``/api/v1/...``. It stores nothing; each call answers from the rules engine.

Bad input answers 400 with ``{"error": "<what is wrong>"}`` in the player's words.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import HTTPException

from .rules import (Declaration, HandScore, ScopaError, Tally, check_claim, check_deal,
                    legal_captures, parse_card, parse_cards, rules_for, score_piles,
                    score_tallies)
from .rules.cards import SUITS
from .rules.primiera import clean_number
from .rules.rulesets import ITEMS, PRESET_TITLES, PRESETS, Rules
from .rules.scoring import ITEMS as POINT_ITEMS

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class BadRequest(ScopaError):
    """A request that is not of the API's form."""


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None:
        raise BadRequest("send a JSON object, with Content-Type: application/json")
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _rules(data: dict[str, Any]) -> Rules:
    return rules_for(data.get("variant", "classica"), data.get("options") or {})


def _list(data: dict[str, Any], key: str, required: bool = True) -> list:
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise BadRequest(f"{key} must be a list")
    return value


def _names(data: dict[str, Any], n: int) -> tuple[str, ...] | None:
    names = data.get("names")
    if names is None:
        return None
    if (not isinstance(names, list) or len(names) != n
            or not all(isinstance(x, str) and 0 < len(x) <= 40 for x in names)):
        raise BadRequest(f"names must be a list of {n} names of 1 to 40 characters")
    return tuple(names)


def _declarations(data: dict[str, Any]) -> list[Declaration]:
    declared = []
    for entry in _list(data, "declarations", required=False):
        if not isinstance(entry, dict) or not isinstance(entry.get("side"), int):
            raise BadRequest('each declaration is {"side": 0, "deal": 1, "cards": [three cards]}')
        declared.append(Declaration(entry["side"], entry.get("deal", 1),
                                    tuple(parse_cards(entry.get("cards"), "a declaration"))))
    return declared


_TALLY_FIELDS = Tally._fields


def _tally(entry: Any, side: int) -> Tally:
    if not isinstance(entry, dict):
        raise BadRequest(f"tally {side + 1} must be an object of counts")
    unknown = set(entry) - set(_TALLY_FIELDS)
    if unknown:
        raise BadRequest(f"{sorted(unknown)[0]} is not a count; the counts are "
                         f"{', '.join(_TALLY_FIELDS)}")
    for field in ("cards", "coins"):
        if field not in entry:
            raise BadRequest(f"tally {side + 1} needs {field}")
    for field in ("settebello", "re_bello", "piva", "primiera"):
        if field in entry and not isinstance(entry[field], bool):
            raise BadRequest(f"{field} must be true or false")
    return Tally(**entry)


def _side_json(hand: HandScore, side: int) -> dict[str, Any]:
    tally = hand.tallies[side]
    primiera = hand.primiera.sides[side]
    best = [str(primiera.best[suit]) for suit in SUITS if suit in primiera.best]
    points = hand.points(side)
    return {
        "cards": tally.cards,
        "coins": tally.coins,
        "settebello": tally.settebello,
        "re_bello": tally.re_bello,
        "sevens": tally.sevens,
        "sixes": tally.sixes,
        "aces": tally.aces,
        "napola": tally.napola,
        "scaletta_alta": tally.scaletta_alta,
        "piva": tally.piva,
        "sweeps": tally.sweeps,
        "primiera_value": None if primiera.value is None else clean_number(primiera.value),
        "primiera_cards": best or None,
        "points": points,
        "total": sum(points.values()),
    }


def hand_json(hand: HandScore) -> dict[str, Any]:
    return {
        "sides": [_side_json(hand, side) for side in range(len(hand.tallies))],
        "breakdown": [
            {"item": line.item, "label": POINT_ITEMS[line.item][0], "points": list(line.points),
             "winner": line.winner, "why": line.why}
            for line in hand.lines
        ],
        "outright": (None if hand.outright is None
                     else {"side": hand.outright, "reason": hand.outright_reason}),
        "rules": hand.rules.as_dict(),
    }


@bp.post("/score")
def score():
    data = _body()
    rules = _rules(data)
    declarations = _declarations(data)
    if "tallies" in data:
        entries = _list(data, "tallies")
        tallies = [_tally(entry, side) for side, entry in enumerate(entries)]
        hand = score_tallies(tallies, rules, declarations, _names(data, len(tallies)))
    else:
        raw = _list(data, "piles")
        piles = [parse_cards(pile, f"pile {side + 1}") for side, pile in enumerate(raw)]
        sweeps = data.get("sweeps", [0] * len(piles))
        if not isinstance(sweeps, list):
            raise BadRequest("sweeps must be a list with one count per side")
        hand = score_piles(piles, sweeps, rules, declarations, _names(data, len(piles)))
    return jsonify(hand_json(hand))


@bp.post("/captures")
def captures():
    data = _body()
    rules = _rules(data)
    table = parse_cards(_list(data, "table"), "the table")
    if "played" not in data:
        raise BadRequest("say which card is played (played)")
    played = parse_card(data["played"])
    last_play = data.get("last_play", False)
    if not isinstance(last_play, bool):
        raise BadRequest("last_play must be true or false")
    ruling = legal_captures(table, played, rules, last_play)
    return jsonify({
        "captures": [{"cards": [str(c) for c in capture.cards], "sweep": capture.sweep,
                      "reason": capture.reason} for capture in ruling.captures],
        "may_place": ruling.may_place,
        "reasons": list(ruling.reasons),
    })


@bp.post("/deal")
def deal():
    data = _body()
    rules = _rules(data)
    table = parse_cards(_list(data, "table"), "the table")
    check = check_deal(table, rules)
    return jsonify({"void": check.void, "reason": check.reason})


@bp.post("/claim")
def claim():
    data = _body()
    rules = _rules(data)
    raw = _list(data, "piles")
    piles = [parse_cards(pile, f"pile {side + 1}") for side, pile in enumerate(raw)]
    sweeps = data.get("sweeps", [0] * len(piles))
    totals = data.get("totals", [0] * len(piles))
    claimer = data.get("claimer")
    if not isinstance(claimer, int) or isinstance(claimer, bool):
        raise BadRequest("claimer must be the number of the claiming side, from 0")
    if not isinstance(totals, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                               for t in totals):
        raise BadRequest("totals must be a list of whole numbers, one per side")
    if not isinstance(sweeps, list):
        raise BadRequest("sweeps must be a list with one count per side")
    checked = check_claim(claimer, piles, sweeps, totals, rules,
                          _names(data, len(piles)) or tuple(f"side {i + 1}" for i in range(len(piles))),
                          _declarations(data))
    return jsonify({"holds": checked.holds, "certain": checked.certain,
                    "certain_total": checked.certain_total, "why": checked.text})


@bp.get("/variants")
def variants():
    return jsonify({
        "variants": {name: {"title": PRESET_TITLES[name], "rules": rules_for(name).as_dict()}
                     for name in PRESETS},
        "items": list(ITEMS),
    })


@bp.errorhandler(ScopaError)
def refused(error: ScopaError):
    return jsonify({"error": str(error)}), 400


def api_http_error(error: HTTPException):
    """Every HTTP error under /api/ answers JSON, never an HTML page."""
    messages = {413: "the request is too large", 404: "no such API endpoint",
                405: "that method is not allowed here"}
    return jsonify({"error": messages.get(error.code, error.description)}), error.code
