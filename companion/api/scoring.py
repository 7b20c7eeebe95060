"""The rules engine over JSON: score a hand, what a card may capture, whether a deal is void, a
chiamarsi fuori, and the variants. Nothing is stored."""

from __future__ import annotations

from flask import Response

from ..i18n import for_api
from ..rules import check_claim, check_deal, legal_captures, parse_card, parse_cards, rules_for
from ..rules.describe import description
from ..rules.rulesets import ITEMS, PRESET_TITLES, PRESETS
from ..rules.scoring import point_name
from ..web.hand_requests import ScoreRequest
from ..web.question_requests import CapturesAsked, ClaimAsked, DealAsked
from .answer_models import Capture, Captures, Claim, Deal, Variant, Variants
from .answers import hand_json, sent
from .blueprint import bp
from .parse import body


@bp.post("/score")
def score() -> Response:
    """The breakdown of one hand, from the cards of each pile or from counts."""
    return sent(hand_json(ScoreRequest.read(body()).score()))


@bp.post("/captures")
def captures() -> Response:
    """What the card played may capture from the table, and why."""
    asked = CapturesAsked.read(body())
    limit, page = asked.limit, asked.page
    ruling = legal_captures(parse_cards(asked.table), parse_card(asked.played), asked.rules, asked.last_play,
                            first=(page - 1) * limit, limit=limit)
    return sent(Captures(
        captures=[Capture(cards=[str(c) for c in capture.cards], sweep=capture.sweep,
                          reason=for_api(capture.reason)) for capture in ruling.captures],
        count=ruling.count, after=ruling.after, may_place=ruling.may_place,
        reasons=[for_api(reason) for reason in ruling.reasons]))


@bp.post("/deal")
def deal() -> Response:
    """Whether the first table of a deal is void under the variant's rule."""
    asked = DealAsked.read(body())
    check = check_deal(parse_cards(asked.table), asked.rules)
    return sent(Deal(void=check.void, reason=for_api(check.reason), scope=check.scope))


@bp.post("/claim")
def claim() -> Response:
    """Whether a chiamarsi fuori holds, from the piles so far and the totals before the hand."""
    asked = ClaimAsked.read(body())
    totals = asked.totals if asked.totals is not None else [0] * len(asked.piles)
    checked = check_claim(asked.claimer, asked.cards(), asked.swept(), totals, asked.rules,
                          asked.sides_named(), [d.declared() for d in asked.declarations or ()])
    certain = {point_name(item, asked.rules): points for item, points in checked.certain.items()}
    return sent(Claim(holds=checked.holds, certain=certain, certain_total=checked.certain_total,
                      why=for_api(checked.text)))


@bp.get("/variants")
def variants() -> Response:
    """Every variant with its rules and a short description (in the language asked for, as
    every explanation), and the rule items a request may set."""
    return sent(Variants(
        variants={name: Variant(title=PRESET_TITLES[name], description=for_api(description(rules)),
                                rules=rules.as_dict())
                  for name in PRESETS for rules in [rules_for(name)]},
        items=list(ITEMS)))
