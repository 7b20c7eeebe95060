"""The table's pages: the list of matches, a new match, the match page with its live score, the
rematch, archive and delete, joining from another phone, and the edit PIN.

Views read the request, call the store, the match model or the forms, then render or redirect.
Every form works as a plain POST; htmx only makes the preview and the variant switch faster.
"""

from __future__ import annotations

from typing import Any, assert_never

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..i18n import explain, how_long, sentence
from ..matches import Match, listed
from ..names import all_different
from ..rules import RulesError
from ..rules.rulesets import PRESETS
from ..store import reads as store
from ..tournaments.model import build as tournament_of
from ..web import access, exports, limits, organiser, welcome
from ..web.access import TooManyTries, pin_required, try_pin, unlock_new
from ..web.forms import PRESETS_SEATING, rules_summary
from ..web.pages import (
    csv_answer,
    first_error,
    flash_action,
    join_url,
    load_match,
    on_this_site,
    qr_svg,
    under_match,
)
from ..web.phone import matches_here, played_here
from ..web.posts import Archived, MatchAt, posted
from ..web.record import record_guarded
from . import changelog, live, match_service, service
from .forms import PLAYER_COUNTS, NewMatchForm, PinForm, RulesPreviewForm
from .live import match_url

bp = Blueprint("table", __name__)


def in_tournament(table: int, tournament: str) -> str:
    """Why a tournament's table is never deleted."""
    return _("This match is table %(table)s of %(tournament)s: its result makes the standings. "
             "Correct its hands instead.", table=table, tournament=tournament)


PAGE = 20    # matches listed at a time: the home page costs the same after years of club nights


def page_of(over: bool | None, before: int | None = None,
            archived: bool = False) -> tuple[list[Match | dict[str, Any]], int | None]:
    """A page of matches (in play, or over, or archived), newest first, from their rows'
    summaries, a tournament's tables as one line ({"night": how it stands}: its page has the
    tables); and the id to list the next page from, if there are more."""
    rows = store.listed_rows(store.get_db(), over=over, before=before, limit=PAGE + 1,
                             archived=archived)
    more = rows[PAGE]["id"] + 1 if len(rows) > PAGE else None
    return [{"night": night_line(row["tournament"])} if row["tournament"] else listed(row)
            for row in rows[:PAGE]], more


def night_line(night: dict[str, Any]) -> dict[str, Any]:
    """A tournament's line as ``store.listed_rows`` gives it, with ``winner`` (a name) once its
    last round is over: the tournament's own model says who won, so the night is read whole,
    but only when none of its tables is still in play."""
    if night["playing"]:
        return night
    state = store.tournament_state(store.get_db(), night["id"])
    tournament = tournament_of(state) if state else None
    if tournament is None or not tournament.over or tournament.winner is None:
        return night
    return {**night, "winner": tournament.names[tournament.winner]}


@bp.get("/")
def index():
    playing, more_playing = page_of(over=False)
    finished, more_finished = page_of(over=True)
    return render_template("table/index.html", playing=playing, finished=finished,
                           more_playing=more_playing, more_finished=more_finished,
                           join_url=join_url(), qr_svg=qr_svg(welcome.shown(join_url(), organiser.is_organiser())))


@bp.get("/matches")
def match_list():
    """Every match, a page at a time: ``state`` playing, finished or archived, ``before`` an id."""
    state = request.args.get("state")
    state = state if state in ("playing", "finished", "archived") else "playing"
    before = request.args.get("before", type=int)
    if before is not None and not 0 < before <= store.MAX_ID:
        before = None
    archived = state == "archived"
    shown, more = page_of(None if archived else state == "finished", before, archived)
    return render_template("table/matches.html", matches=shown, more=more, state=state)


@bp.route("/matches/new", methods=["GET", "POST"])
@access.new_match_limit
def new_match():
    if request.method == "GET":
        # This phone's last match; the club's newest only for a phone with none (a phone that
        # scored only tournament tables, or deleted matches, is offered none: not another's).
        db = store.get_db()
        here = matches_here()
        last = store.last_casual_match(db, here) if here else store.last_casual_match(db)
        same = NewMatchForm.same_as(listed(last)) if last else None
        if same and request.args.get("same") == "last":     # "Same players as last time"
            return new_match_page(NewMatchForm(data=same), filled=True)
        preset = request.args.get("preset", "classica")
        preset = preset if preset in PRESETS else "classica"
        form = NewMatchForm(data={**NewMatchForm.preset_data(preset), "preset": preset})
        form.seat_for_variant()
        return new_match_page(form, last=listed(last) if same and last else None)
    form = NewMatchForm()
    if "load_preset" in request.form:     # without JavaScript: the variant's rules, names kept
        form = NewMatchForm(formdata=None, data={
            **{name: field.data for name, field in form._fields.items()},
            **NewMatchForm.preset_data(form.preset.data if form.preset.data in PRESETS else "classica")})
        form.seat_for_variant()
        return new_match_page(form)
    if not form.validate_on_submit():
        return new_match_page(form, 400)
    made = service.new_match(form.request)
    played_here(made.match_id)
    if form.request.pin:
        unlock_new(made.access_key)         # its creator may record
    return redirect(url_for("table.match", match_id=made.match_id), code=303)


def new_match_page(form: NewMatchForm, status: int = 200, last: Match | None = None,
                   filled: bool = False):
    """The new match form, the dealer offered by the names typed (and the known players' names
    to choose from), the rules in one line; ``last``, the match offered as "Same players as last
    time"; ``filled``, the form filled from it."""
    try:
        summary = rules_summary(form.rules())
    except (RulesError, KeyError, TypeError):
        summary = ""
    return render_template("table/new_match.html", form=form.seat_choices(), summary=summary,
                           seatings=PRESETS_SEATING, seats=PLAYER_COUNTS, last=last, filled=filled,
                           known_players=store.player_names(store.get_db())), status


@bp.get("/matches/new/rules")
def preset_rules():
    """The rule fields as the chosen variant sets them: htmx swaps them in, and the summary
    line with them."""
    preset = request.args.get("preset", "classica")
    form = RulesPreviewForm(formdata=None, data=NewMatchForm.preset_data(
        preset if preset in PRESETS else "classica"))
    return render_template("table/_rules_fields.html", form=form, summary=rules_summary(form.rules()), oob=True)


@bp.get("/matches/new/chances")
def new_match_chances():
    """Each side's chance to win, from its players' ratings, once every name is typed on the
    new match form (htmx asks as the names change); nothing until then."""
    form = RulesPreviewForm(request.args)
    names = form.player_names
    if not all(names) or not all_different(names) or form.layout.data not in PLAYER_COUNTS:
        return ""
    sides = form.sides()
    chances = store.chances_by_name(store.get_db(), [side["players"] for side in sides])
    return render_template("table/_chances.html", names=[side["name"] for side in sides], chances=chances)


@bp.get("/matches/new/summary")
def rules_summary_line():
    """The rules as changed on the form, in one line (or what is wrong with them)."""
    form = RulesPreviewForm(request.args)
    if form.preset.data not in PRESETS:
        form.preset.data = "classica"
    try:
        return rules_summary(form.rules())
    except RulesError as error:
        return sentence(explain(error))
    except (KeyError, TypeError):
        return ""


@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    current = load_match(match_id)
    # The referee's tools, under this match's rules (referee/_links.html); its changes, folded.
    return render_template("table/match.html", **live.page(current), **changelog.lines(current),
                           ctx={"match": current, "query": under_match(current)})


@bp.route("/matches/<int:match_id>/rematch", methods=["GET", "POST"])
@access.new_match_limit
@pin_required
def rematch(match_id: int):
    """The next match with the same players and rules, the deal passing on. Asked twice (two
    phones, a double tap), it is made once."""
    current = load_match(match_id)
    table = store.table_of(store.get_db(), match_id)
    if table:       # its next match is the next round's (asked from an old page): nothing is made
        flash(_("This match is table %(table)s of %(tournament)s: a rematch would not count in "
                "the tournament. Its next round starts from the tournament's page.",
                table=table["table"], tournament=table["tournament"]))
        return redirect(url_for("table.match", match_id=match_id), code=303)
    if request.method == "GET" or not current.over:
        if current.followed_by:
            return redirect(url_for("table.match", match_id=current.followed_by), code=303)
        if not current.over:
            flash(_("The match is not over yet: a rematch starts when it is."))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        return render_template("table/rematch.html", match=current)
    match (outcome := match_service.rematch(match_id, current.next_first_dealer)):
        case match_service.NoSuchMatch():
            abort(404)
        case match_service.NotOver():
            flash(_("The match is not over yet: a rematch starts when it is."))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        case match_service.Rematched(new_id, key):
            if key and current.has_pin:
                unlock_new(key)         # the phone that may record this match may record the next
            played_here(new_id)
            return redirect(url_for("table.match", match_id=new_id), code=303)
        case _:
            assert_never(outcome)


@bp.post("/matches/<int:match_id>/archive")
@record_guarded
@pin_required
def archive(match_id: int):
    """Put a match out of the lists, or back (to ``next``, the page the player was on). A match
    still being played vanishes from "In play": its notice offers the Undo that puts it back."""
    current = load_match(match_id)
    match (outcome := match_service.archive(match_id, posted(Archived).archived)):
        case match_service.NoSuchMatch():
            abort(404)
        case match_service.Archived(False):
            flash(_("%(match)s is back in the list.", match=current.title))
            back = on_this_site(request.form.get("next", ""), url_for("table.match", match_id=match_id))
            return redirect(back, code=303)
        case match_service.Archived():          # archived
            text = _("%(match)s is archived: it is listed under Archive.", match=current.title)
            if current.over:
                flash(text)
            else:
                flash_action(text, url_for("table.archive", match_id=match_id), _("Undo"),
                             [("archived", "0"), ("next", url_for("table.index"))])
            return redirect(url_for("table.index"), code=303)
        case _:
            assert_never(outcome)


@bp.route("/matches/<int:match_id>/delete", methods=["GET", "POST"])
@access.match_delete_limit
@record_guarded
@pin_required
def delete_match(match_id: int):
    """Delete a whole match, once confirmed; a change made meanwhile on another phone asks again."""
    current = load_match(match_id)
    table = store.table_of(store.get_db(), match_id)
    if table:       # never deleted: said at once, not after the confirmation
        if request.method == "GET":
            return render_template("table/delete_match.html", match=current, table=table,
                                   error=in_tournament(table["table"], table["tournament"]))
        flash(in_tournament(table["table"], table["tournament"]))    # sent from an old page
        return redirect(url_for("table.match", match_id=match_id), code=303)
    if request.method == "GET":
        return render_template("table/delete_match.html", match=current)
    match (outcome := match_service.delete_match(match_id, posted(MatchAt).version)):
        case match_service.Stale():
            return render_template("table/delete_match.html", match=current,
                                   error=_("The match changed on another phone since you opened "
                                           "this page: here it is now.")), 409
        case match_service.NoSuchMatch():
            abort(404)
        case match_service.InTournament(number, tournament):    # said above: not reached from here
            flash(in_tournament(number, tournament))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        case match_service.MatchDeleted():
            limits.deleted_one()        # counted against this address's deletes (web.limits)
            flash(_("%(match)s deleted: for a day the organiser can bring it back.", match=current.title))
            return redirect(url_for("table.index"), code=303)
        case _:
            assert_never(outcome)


@bp.get("/matches/<int:match_id>/poll")
def poll(match_id: int):
    """Has the match changed since ``since``? If not: 200 with no body and ``HX-Reswap: none``
    (one primary-key read, nothing worked out; not 204, after which waitress closes the
    connection, so a phone polling every 2 s would open a new one each time). Else what changed
    in the live region (``live.poll_answer`` chooses the partials), or for the hand page
    (``part=notice``) a short notice."""
    version = store.match_version(store.get_db(), match_id)
    if version is None:
        if request.headers.get("HX-Request") == "true" and request.args.get("since"):
            # A match deleted on another phone: every phone showing it goes to the list.
            flash(_("This match was deleted on another phone."))
            return make_response("", 200, {"HX-Redirect": url_for("table.index")})
        abort(404)
    etag = f"m{match_id}-v{version}"     # weak: the same scores, however compressed
    if request.args.get("since") == str(version):
        response = make_response("", 200, {"HX-Reswap": "none"})
    elif request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
    else:
        current = load_match(match_id)
        if request.args.get("part") == "notice":
            response = make_response(render_template("table/_notice.html", match=current))
        else:
            # A poll from a page showing the Undo of a delete (``undo``) takes it away; one from
            # a page of a match not yet archived (no ``archived``) may be told it is now.
            response = make_response(render_template("table/_swaps.html", **live.poll_answer(
                current, request.args.get("since", type=int), request.args.get("undo") == "1",
                request.args.get("archived") == "1")))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/matches/<int:match_id>/join")
def join(match_id: int):
    current = load_match(match_id)
    url = match_url(match_id)
    return render_template("table/join.html", match=current, url=url, qr_svg=qr_svg(url))


@bp.route("/matches/<int:match_id>/pin", methods=["GET", "POST"])
def enter_pin(match_id: int):
    current = load_match(match_id)
    target = on_this_site(request.values.get("next", ""), url_for("table.match", match_id=match_id))
    form = PinForm()
    error, status = None, 200
    if form.validate_on_submit():
        try:
            if try_pin(match_id, form.pin.data or ""):     # required: validated above
                flash(_("PIN accepted: this phone can record hands in this match."))
                return redirect(target, code=303)
            error, status = _("Wrong PIN."), 403
        except TooManyTries as limit:
            error, status = _("Too many wrong PINs: try again in %(wait)s.", wait=how_long(limit.wait)), 429
    elif request.method == "POST":
        error, status = first_error(form), 400
    return render_template("table/pin.html", match=current, form=form, next=target, error=error), status


@bp.get("/matches/<int:match_id>/export.csv")
def export_match(match_id: int):
    """The match's hands for a spreadsheet: one row per hand and side."""
    current = load_match(match_id)
    return csv_answer(exports.to_csv(exports.match_rows(current)), f"scopa-match-{match_id}.csv")
