"""The rules engine over JSON: score a hand, what a card may capture, whether a deal is void, a
chiamarsi fuori, and the variants. Nothing is stored."""

from __future__ import annotations

from flask import jsonify

from ..i18n import for_api
from ..rules import (
    check_claim,
    check_deal,
    legal_captures,
    parse_card,
    parse_cards,
    rules_for,
)
from ..rules.captures import LONGEST_PAGE, PAGE
from ..rules.describe import description
from ..rules.rulesets import ITEMS, PRESET_TITLES, PRESETS
from ..rules.said import said
from ..rules.scoring import point_name
from ..web.hand_requests import ScoreRequest, declarations_of, names_of, piles_and_sweeps
from .answers import hand_json
from .blueprint import bp
from .parse import BadRequest, body, list_of, rules_of


@bp.post("/score")
def score():
    """The breakdown of one hand, from the cards of each pile or from counts."""
    return jsonify(hand_json(ScoreRequest.read(body()).score()))


@bp.post("/captures")
def captures():
    """What the card played may capture from the table, and why."""
    data = body()
    rules = rules_of(data)
    table = parse_cards(list_of(data, "table"), said("the table"))
    if "played" not in data:
        raise BadRequest(said("say which card is played (played)"))
    played = parse_card(data["played"])
    last_play = data.get("last_play", False)
    if not isinstance(last_play, bool):
        raise BadRequest(said("{name} must be true or false", name="last_play"))
    limit = _capture_number(data, "limit", PAGE, LONGEST_PAGE)
    page = _capture_number(data, "page", 1, 1_000_000)
    ruling = legal_captures(table, played, rules, last_play, first=(page - 1) * limit, limit=limit)
    return jsonify({
        "captures": [{"cards": [str(c) for c in capture.cards], "sweep": capture.sweep,
                      "reason": for_api(capture.reason)} for capture in ruling.captures],
        "count": ruling.count,
        "after": ruling.after,
        "may_place": ruling.may_place,
        "reasons": [for_api(reason) for reason in ruling.reasons],
    })


def _capture_number(data: dict, name: str, default: int, most: int) -> int:
    """``limit`` (the captures listed at once) or ``page`` (from 1) of a captures question."""
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise BadRequest(said("{name} must be a whole number from 1 to {most}", name=name, most=most))
    return value


@bp.post("/deal")
def deal():
    """Whether the first table of a deal is void under the variant's rule."""
    data = body()
    rules = rules_of(data)
    table = parse_cards(list_of(data, "table"), said("the table"))
    check = check_deal(table, rules)
    return jsonify({"void": check.void, "reason": for_api(check.reason), "scope": check.scope})


@bp.post("/claim")
def claim():
    """Whether a chiamarsi fuori holds, from the piles so far and the totals before the hand."""
    data = body()
    rules = rules_of(data)
    piles, sweeps = piles_and_sweeps(data.get("piles"), data.get("sweeps"), "sweeps" in data)
    totals = data.get("totals", [0] * len(piles))
    claimer = data.get("claimer")
    if not isinstance(claimer, int) or isinstance(claimer, bool):
        raise BadRequest(said("claimer must be the number of the claiming side, from 0"))
    if not isinstance(totals, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                               for t in totals):
        raise BadRequest(said("totals must be a list of whole numbers, one per side"))
    checked = check_claim(claimer, piles, sweeps, totals, rules,
                          names_of(data.get("names"), len(piles)) or tuple(said("side {number}", number=i + 1) for i in range(len(piles))),
                          declarations_of(data.get("declarations")))
    certain = {point_name(item, rules): points for item, points in checked.certain.items()}
    return jsonify({"holds": checked.holds, "certain": certain,
                    "certain_total": checked.certain_total, "why": for_api(checked.text)})


@bp.get("/variants")
def variants():
    """Every variant with its rules and a short description (in the language asked for, as
    every explanation), and the rule items a request may set."""
    return jsonify({
        "variants": {name: {"title": PRESET_TITLES[name], "description": for_api(description(rules)),
                            "rules": rules.as_dict()}
                     for name in PRESETS for rules in [rules_for(name)]},
        "items": list(ITEMS),
    })
