"""The rules pages: every variant at a glance (``/rules``), and one variant explained from the
deal to the end of the match (``/rules/<variant>``).

A variant's page is worked out from its rule items, never written per variant: each section of
its templates answers one item's value, and each figure or example comes from the rules engine
(``guide.facts``). So the page changes with an item, as the score does: ``?target=21`` or
``?capture=fewest`` explain a variant with that item changed, and ``?match=ID`` explains the
rules a match was created with (the link on the match page and the referee's).
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..i18n import explain, value_words
from ..matches import Match
from ..rules import RulesError, rules_for
from ..rules.rulesets import ITEMS, PRESETS, Rules
from ..store import reads as store
from ..web.forms import rule_in_words
from ..web.pages import load_match
from .facts import facts

bp = Blueprint("guide", __name__)

NUMBERS = ("deck", "target", "hands", "double_under")
YES = {"1", "true", "on", "yes"}
NO = {"0", "false", "off", "no", ""}


@bp.context_processor
def helpers() -> dict[str, Any]:
    return {"value_words": value_words}


def asked_items(args: Mapping[str, str]) -> dict[str, Any]:
    """The rule items a query changes, read as a form sends them (``?target=21``, ``?piva=1``,
    ``?hands=`` for none). A value that cannot be is passed on as it is, for ``rules_for`` to
    refuse in words."""
    items: dict[str, Any] = {}
    for name in ITEMS:
        if name not in args:
            continue
        text = args[name].strip()
        if name in NUMBERS:
            items[name] = (None if text == "" and name in ("hands", "double_under")
                           else store.number_from(text) if text.isdecimal() else text)
        elif isinstance(getattr(Rules, name), bool) or name == "deal_scope":
            # deal_scope reads a yes or a no as its true and false (15-30, off: RULES §8)
            low = text.lower()
            items[name] = True if low in YES else False if low in NO else text
        else:
            items[name] = text
    return items


def changed_words(rules: Rules) -> list[tuple[str, str]]:
    """The items these rules change from their variant's own, in words."""
    preset = rules_for(rules.preset)
    told = []
    for item in ITEMS:
        value = getattr(rules, item)
        if value == getattr(preset, item):
            continue
        label, words = rule_in_words(item, value)
        if isinstance(value, bool):     # "Added: Cappotto: 7 to 0 wins at once"
            label, words = (_("Added") if value else _("Left out")), label
        elif value is None:
            words = _("none")
        told.append((label, words))
    return told


@bp.get("/rules")
def index():
    """Every variant at a glance: who plays it, the deck, the target, what sets it apart."""
    variants = [(name, rules, facts(rules)) for name in PRESETS for rules in [rules_for(name)]]
    return render_template("guide/index.html", variants=variants)


@bp.get("/rules/<variant>")
def variant(variant: str):
    """One variant from start to end: its own rules, some items changed, or a match's."""
    if variant not in PRESETS:
        abort(404)
    match: Match | None = None
    error = None
    if "match" in request.args:
        match = load_match(request.args.get("match", type=int) or 0)
        if match.rules.preset != variant:
            return redirect(url_for(".variant", variant=match.rules.preset, match=match.id))
        rules = match.rules
    else:
        try:
            rules = rules_for(variant, asked_items(request.args))
        except RulesError as problem:
            rules, error = rules_for(variant), explain(problem)
    players = len(match.seats) if match else None
    page = render_template("guide/variant.html", r=rules, match=match, error=error,
                           changed=changed_words(rules), facts=facts(rules, players))
    return page, 400 if error else 200
