"""The referee: settle a dispute at the table in a few taps, and say why.

Each tool answers under the rules of a match (``?match=ID``) or of any variant (``?variant=X``).
Asking is a GET that changes nothing; the same URL answers htmx with only the answer's fragment.
Recording a chiamarsi fuori in a match is the one POST.
"""

from __future__ import annotations

from typing import Any, assert_never

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..i18n import VARIANT_TITLES, explain, read_marks, say
from ..matches import Match, build
from ..rules import (
    Card,
    ScopaError,
    check_claim,
    check_deal,
    deck,
    legal_captures,
    parse_card,
    parse_cards,
    rules_for,
)
from ..rules.captures import PAGE as CAPTURES_PAGE, Ruling
from ..rules.cards import SUITS
from ..rules.deal import deal_plan
from ..rules.describe import PLAYERS
from ..rules.primiera import SCALES, PrimieraResult, decide_piles, overtaking_cards
from ..rules.rulesets import PRESETS, Rules, RulesError, check_players, seating_of
from ..rules.said import said
from ..rules.scoring import ITEMS
from ..store import reads as store
from ..table import service
from ..web.access import needs_pin, pin_page
from ..web.forms import RULE_CHOICES, PrimieraTrip, card_rows
from ..web.pages import first_error, query_kept, under_match
from ..web.phone import played_here
from .forms import CaptureForm, ClaimForm, DealForm, PrimieraForm

bp = Blueprint("referee", __name__, url_prefix="/referee")


CHOICE_ITEMS = ("bonus_suit", "primiera", "missing_suit", "capture", "void_deal", "pack")


class Context:
    """The rules and the sides a question is asked under: a match's, or a variant's."""

    def __init__(self, match: Match | None, rules: Rules, names: tuple[str, ...]):
        self.match, self.rules, self.names = match, rules, names

    @property
    def query(self) -> dict[str, Any]:
        if self.match:
            return under_match(self.match)
        preset = rules_for(self.rules.preset)
        changed = {item: getattr(self.rules, item) for item in CHOICE_ITEMS
                   if getattr(self.rules, item) != getattr(preset, item)}
        return {"variant": self.rules.preset, **changed}


def context(sides: int = 2, **overrides: Any) -> Context:
    """The rules and sides a question is asked under: ``?match=ID``, or a variant with
    any choice changed (``?variant=X&missing_suit=void``)."""
    match_id = request.args.get("match", type=int)
    if match_id is not None:
        match = store.built_match(store.get_db(), match_id, build)
        if match is None:
            abort(404)
        rules = rules_for(match.rules.preset, {**{k: v for k, v in match.rules.as_dict().items()
                                                  if k != "preset"}, **overrides})
        return Context(match, rules, match.names)
    variant = request.args.get("variant", "classica")
    # Outside a match a question may change the variant's choices: ?missing_suit=void.
    asked = {item: request.args[item] for item in CHOICE_ITEMS if item in request.args}
    try:
        rules = rules_for(variant if variant in PRESETS else "classica", {**asked, **overrides})
    except ScopaError:
        rules = rules_for(variant if variant in PRESETS else "classica", overrides)
    return Context(None, rules, tuple(_("Side %(number)s", number=i + 1) for i in range(sides)))


def answer(template: str, fragment: str, **values: Any):
    """The whole page, or only the answer when htmx asks for it (a boosted form, which is sent
    by htmx too, wants the whole page: sending.js)."""
    if request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true":
        response = make_response(render_template(fragment, **values))
    else:
        response = make_response(render_template(template, **values))
    response.headers["Vary"] = "HX-Request"
    return response


@bp.get("/")
def tools():
    """The referee's tools, under a match's rules or a variant's."""
    ctx = context()
    return render_template("referee/tools.html", ctx=ctx, presets=VARIANT_TITLES)


# -- Captures ------------------------------------------------------------------------------

@bp.get("/captures")
def captures():
    """What the card played may capture from the table, and why."""
    ctx = context()
    form = CaptureForm(ctx.rules, request.args)
    ruling = error = None
    # A page of the captures at a time: a table of 39 cards under quindici holds thousands.
    page = min(max(request.args.get("page", 1, type=int), 1), 1_000_000)
    if form.played.data:
        try:
            table = parse_cards(form.table.data or [], said("the table"))
            ruling = legal_captures(table, parse_card(form.played.data), ctx.rules, form.last_play.data,
                                    first=(page - 1) * CAPTURES_PAGE, limit=CAPTURES_PAGE)
        except ScopaError as problem:
            error = explain(problem, ctx.rules.pack)
    return answer("referee/captures.html", "referee/_ruling.html", ctx=ctx, form=form,
                  ruling=ruling, error=error, page=page, pages=captures_pages(ruling, page))


def captures_pages(ruling: Ruling | None, page: int) -> dict[str, str | None]:
    """The addresses of the pages of captures before and after this one (None where none)."""
    asked: dict[str, Any] = query_kept("page")

    def at(number: int) -> str:
        return url_for("referee.captures", **asked, page=number) + "#ruling"
    return {"previous": at(page - 1) if ruling and page > 1 and ruling.count else None,
            "next": at(page + 1) if ruling and ruling.after else None}


# -- Primiera ------------------------------------------------------------------------------

@bp.get("/primiera")
def primiera():
    """Who has the primiera, from each side's best card of each suit, and why."""
    sides = request.args.get("sides", 2, type=int)
    ctx = context(sides=min(max(sides, 2), 4))
    n = len(ctx.names)
    form = PrimieraForm(ctx.rules, n, request.args)
    piles, error, result, overtake = [], None, None, []
    try:
        piles = [pile_of(form, i, ctx) for i in range(n)]
        seen: dict[Any, int] = {}
        for i, pile in enumerate(piles):
            for card in pile:
                if card in seen:
                    raise ScopaError(said("{card} is entered for both {first} and {second}", card=card,
                                          first=ctx.names[seen[card]], second=ctx.names[i]))
                seen[card] = i
        if any(piles):
            result = decide_piles(piles, ctx.rules.primiera, ctx.rules.missing_suit)
            if result.winner is not None or n == 2:
                for side in range(n):
                    if side != result.winner:
                        overtake.append((side, overtaking_cards(piles, side, ctx.rules.primiera,
                                                                ctx.rules.missing_suit, deck(ctx.rules.deck))))
    except ScopaError as problem:
        error = explain(problem, ctx.rules.pack)
    return answer("referee/primiera.html", "referee/_primiera_answer.html", ctx=ctx, form=form,
                  result=result, overtake=overtake, error=error, n=n, back=back_to_hand(ctx, result))


def pile_of(form: PrimieraForm, i: int, ctx: Context) -> list[Card]:
    """Side ``i``'s cards in the primiera tool: every card typed (as the page marks the suits,
    "7co" on an English page, or RULES §1's "7d" on any), else its best card of each suit."""
    typed = [read_marks(token, ctx.rules.pack)
             for token in (form.cards[i].data or "").replace(",", " ").split()]
    if typed:
        return parse_cards(typed, said("the cards of {name}", name=ctx.names[i]))
    best = form.best[i]
    return [parse_card(f"{best[suit].data}{suit}") for suit in SUITS if best[suit].data]


def back_to_hand(ctx: Context, result: PrimieraResult | None) -> dict[str, Any] | None:
    """Where the answer goes when the tool was opened from a hand's form in counts mode ("Who
    has it? Work it out", ``PrimieraTrip``): the form's address, and what the form held
    (``keep``, carried through the tool's own questions), posted back with the answer (each
    side's best card of each suit: ``best``), or without one. None when the tool was opened on
    its own, or where the counts decide the primiera."""
    trip = PrimieraTrip(request.args)
    fields = trip.kept()
    if ctx.match is None or fields is None or ctx.rules.primiera not in SCALES:
        return None
    hand = trip.hand.data
    action = (url_for("table.edit_hand", match_id=ctx.match.id, hand_id=hand) if hand
              else url_for("table.new_hand", match_id=ctx.match.id))
    edited = ctx.match.hand(hand) if hand else None
    number = edited.number if edited else ctx.match.next_number
    best = "/".join(" ".join(str(side.best[suit]) for suit in SUITS if suit in side.best)
                    for side in result.sides) if result else ""
    return {"action": action, "keep": trip.keep.data, "hand": hand, "fields": fields,
            "number": number, "best": best, "answered": trip.answered()}


# -- The deal ------------------------------------------------------------------------------

@bp.get("/deal")
def deal():
    """How many cards each player gets, and whether the first table is void."""
    ctx = context()
    form = DealForm(ctx.rules, request.args)
    players = len(ctx.match.seats) if ctx.match else (form.players.data or 2)
    players = min(max(players, 2), 6)
    try:
        check_players(ctx.rules, players)
    except RulesError as problem:       # no plan for a table these rules do not seat
        return answer("referee/deal.html", "referee/_deal_answer.html", ctx=ctx, form=form, check=None,
                      error=None, plan=None, unseated=explain(problem), players=players, tapped=0)
    plan = deal_plan(ctx.rules, players)
    check = error = None
    tapped = len(form.table.data or [])
    # Fewer cards than the first table holds: still being tapped, not wrong (the check takes
    # exactly the first table's cards, RULES §10).
    if plan.table and tapped >= plan.table:
        try:
            check = check_deal(parse_cards(form.table.data or [], said("the table")), ctx.rules)
        except ScopaError as problem:
            error = explain(problem, ctx.rules.pack)
    return answer("referee/deal.html", "referee/_deal_answer.html", ctx=ctx, form=form, check=check,
                  error=error, plan=plan, players=players, tapped=tapped)


# -- Rules card ----------------------------------------------------------------------------

@bp.get("/rules")
def rules_card():
    """The rules in force, item by item."""
    ctx = context()
    # A match's own table, else the variant's usual one (Scopone's four: two would get 20 each).
    players = len(ctx.match.seats) if ctx.match else PLAYERS[seating_of(ctx.rules)]
    words = {item: dict(choices) for item, choices in RULE_CHOICES.items()}
    return render_template("referee/rules.html", ctx=ctx, words=words, items=ITEMS,
                           plan=deal_plan(ctx.rules, players), presets=VARIANT_TITLES)


# -- Chiamarsi fuori -----------------------------------------------------------------------

@bp.route("/claim", methods=["GET", "POST"])
def claim():
    """Check a chiamarsi fuori (a GET changes nothing); in a match, a POST records it, once
    this phone may record there."""
    ctx = context(sides=min(max(request.args.get("sides", 2, type=int), 2), 4), claims=True)
    match, posted = ctx.match, request.method == "POST"
    if match is not None and not match.rules.claims:
        flash(_("This match was created without chiamarsi fuori."))
        return redirect(url_for("table.match", match_id=match.id), code=303)
    if posted and match is not None and needs_pin(match.id):
        return pin_page(match.id, url_for("referee.claim", match=match.id))
    form = ClaimForm(ctx.rules, ctx.names, match is not None, request.form if posted else request.args)
    valid = form.validate()
    claimer, piles, sweeps, totals = form.asked(valid, list(match.totals) if match is not None else None)
    checked, error, status = None, None, 400
    if not valid:
        error = first_error(form)
    elif any(piles) or posted or "claimer" in request.args:
        try:
            checked = check_claim(claimer, [parse_cards(p) for p in piles], sweeps, totals,
                                  ctx.rules, ctx.names)
        except ScopaError as problem:
            error = explain(problem, ctx.rules.pack)
    if posted and checked is not None and match is not None:
        match (outcome := service.claim(match.id, claimer, piles, sweeps)):
            case service.Added():
                played_here(match.id)
                return claim_recorded(match, claimer, checked.holds)
            case service.Over(why) | service.NotSaved(why):     # a store that cannot save: 503
                error, status = say(why), 503 if isinstance(outcome, service.NotSaved) else 400
            case service.NoSuchMatch():
                abort(404)          # deleted meanwhile on another phone, as a hand's page says
            case _: assert_never(outcome)
    response = answer("referee/claim.html", "referee/_claim_answer.html", ctx=ctx, form=form,
                      checked=checked, error=error, totals=totals, items=ITEMS, n=len(ctx.names),
                      rows=card_rows(form.c), pack=ctx.rules.pack)
    if error and (posted or not valid):
        response.status_code = status
    return response


def claim_recorded(match: Match, claimer: int, holds: bool):
    """A claim recorded as the match's next hand (it ends the match, or not: the model works it
    out): back to the match, saying whether it held."""
    name = match.names[claimer]
    flash(_("%(name)s called out: the claim holds.", name=name) if holds
          else _("%(name)s called out: the claim fails.", name=name))
    return redirect(url_for("table.match", match_id=match.id), code=303)
