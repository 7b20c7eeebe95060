"""The pages players use at the table: matches, recording a hand, the score and its history.

Views read the request, call the store, the match model or the forms, then render or redirect.
Every form works as a plain POST; htmx only makes the preview and the variant switch faster.
"""

from __future__ import annotations

import functools
import itertools
import tempfile
import uuid
from datetime import datetime
from typing import Any
from pathlib import Path
from urllib.parse import urlsplit

from flask import (Blueprint, abort, current_app, flash, make_response, redirect, render_template,
                   request, session, url_for)

import segno
from flask_babel import get_locale, gettext as _, ngettext
from markupsafe import Markup

from . import exports, store
from .access import TooManyTries, hash_pin, new_access_key, pin_required, try_pin, unlock_new
from .forms import PRESETS_SEATING, NewMatchForm, PinForm, RulesPreviewForm, hand_form, rules_summary
from .matches import Hand, Ledger, Match, build, listed, result_of, score_entry
from .referee import Context
from .i18n import explain, say
from .rules import RulesError, ScopaError
from .rules.said import said
from .rules.rulesets import PRESETS
from .rules.scoring import ITEMS

bp = Blueprint("table", __name__)


def load(match_id: int) -> Match:
    current = store.built_match(store.get_db(), match_id, build)
    if current is None:
        abort(404)
    return current


def history(current: Match) -> Markup:
    """The list of every hand, rendered once per version of the match and language: the match
    itself is worked out once per version and kept (store.built_match), and this with it."""
    language = str(get_locale())
    if language not in current.history_html:
        current.history_html[language] = Markup(render_template("_history.html", match=current))
    return current.history_html[language]


def series_of(current: Match) -> dict[str, Any] | None:
    """The count of a series of rematches up to this match: matches won by each side (and
    drawn), once the match is a "Rivincita"."""
    if current.follows is None:
        return None
    won, drawn = [0] * len(current.sides), 0
    for row in store.series_rows(store.get_db(), current.id):
        summary = row["summary"]
        if summary and summary["over"]:
            if summary["winner"] is None:
                drawn += 1
            else:
                won[summary["winner"]] += 1
    return {"won": won, "drawn": drawn,
            "score": " – ".join(f"{name} {count}" for name, count in zip(current.names, won))}


def load_hand(match_id: int, hand_id: int) -> tuple[Match, Hand]:
    """The match and one of its hands, by the hand's id; 404 if the match has no such hand,
    HandGone if it had one that was deleted."""
    current = load(match_id)
    hand = next((h for h in current.hands if h.id == hand_id), None)
    if hand is None:
        if store.hand_row(store.get_db(), match_id, hand_id) is not None:
            raise HandGone(match_id)
        abort(404)
    return current, hand


class HandGone(Exception):
    """The hand asked for was deleted, perhaps a moment ago on another phone."""

    def __init__(self, match_id: int):
        self.match_id = match_id


@bp.app_errorhandler(HandGone)
def hand_gone(error: HandGone):
    flash(_("That hand was already deleted (perhaps on another phone): nothing was changed."))
    return redirect(url_for("table.match", match_id=error.match_id), code=303)


PAGE = 20    # matches listed at a time: the home page costs the same after years of club nights


def page_of(over: bool | None, before: int | None = None,
            archived: bool = False) -> tuple[list[Match], int | None]:
    """A page of matches (in play, or over, or archived), newest first, from their rows'
    summaries; and the id to list the next page from, if there are more."""
    rows = store.match_rows(store.get_db(), over=over, before=before, limit=PAGE + 1,
                            archived=archived)
    more = rows[PAGE]["id"] + 1 if len(rows) > PAGE else None
    return [listed(row) for row in rows[:PAGE]], more


@bp.get("/")
def index():
    playing, more_playing = page_of(over=False)
    finished, more_finished = page_of(over=True)
    return render_template("index.html", playing=playing, finished=finished,
                           more_playing=more_playing, more_finished=more_finished,
                           join_url=join_url(), qr_svg=qr_svg(join_url()))


@bp.get("/matches")
def match_list():
    """Every match, a page at a time: ``state`` playing, finished or archived, ``before`` an
    id."""
    state = request.args.get("state")
    state = state if state in ("playing", "finished", "archived") else "playing"
    before = request.args.get("before", type=int)
    if before is not None and not 0 < before <= store.MAX_ID:
        before = None
    archived = state == "archived"
    shown, more = page_of(None if archived else state == "finished", before, archived)
    return render_template("matches.html", matches=shown, more=more, state=state)


def join_url() -> str:
    """The address phones should open: the machine's LAN address when the server knows it."""
    lan = current_app.config.get("LAN_URLS") or []
    return lan[0] if lan else request.host_url


@functools.lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    """The QR code of an address, drawn once."""
    return segno.make(url, error="m").svg_inline(scale=5, dark="#1d1d1b", light="#fffdf5")


# -- A new match ---------------------------------------------------------------------------

@bp.route("/matches/new", methods=["GET", "POST"])
def new_match():
    if request.method == "GET":
        preset = request.args.get("preset", "classica")
        preset = preset if preset in PRESETS else "classica"
        form = NewMatchForm(data={**NewMatchForm.preset_data(preset), "preset": preset})
        form.seat_for_variant()
        return new_match_page(form)
    form = NewMatchForm()
    if "load_preset" in request.form:     # without JavaScript: the variant's rules, names kept
        form = NewMatchForm(formdata=None, data={
            **{name: field.data for name, field in form._fields.items()},
            **NewMatchForm.preset_data(form.preset.data if form.preset.data in PRESETS else "classica")})
        form.seat_for_variant()
        return new_match_page(form)
    if not form.validate_on_submit():
        return new_match_page(form, 400)
    pin = (form.pin.data or "").strip()
    key = new_access_key()
    match_id = store.create_match(store.get_db(), form.rules().as_dict(), form.sides(), form.dealer(),
                                  hash_pin(pin) if pin else None, Ledger, key)
    if pin:
        unlock_new(key)         # its creator may record
    return redirect(url_for("table.match", match_id=match_id), code=303)


def new_match_page(form: NewMatchForm, status: int = 200):
    """The new match form, the dealer offered by the names typed, the rules in one line."""
    try:
        summary = rules_summary(form.rules())
    except (RulesError, KeyError, TypeError):
        summary = ""
    return render_template("new_match.html", form=form.seat_choices(), summary=summary,
                           seatings=PRESETS_SEATING), status


@bp.get("/matches/new/rules")
def preset_rules():
    """The rule fields as the chosen variant sets them: htmx swaps them in, and the summary
    line with them."""
    preset = request.args.get("preset", "classica")
    form = RulesPreviewForm(formdata=None, data=NewMatchForm.preset_data(
        preset if preset in PRESETS else "classica"))
    return render_template("_rules_fields.html", form=form, summary=rules_summary(form.rules()), oob=True)


@bp.get("/matches/new/summary")
def rules_summary_line():
    """The rules as changed on the form, in one line (or what is wrong with them)."""
    form = RulesPreviewForm(request.args)
    if form.preset.data not in PRESETS:
        form.preset.data = "classica"
    try:
        return rules_summary(form.rules())
    except RulesError as error:
        return explain(error)
    except (KeyError, TypeError):
        return ""


# -- The match -----------------------------------------------------------------------------

@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    current = load(match_id)
    return render_template("match.html", match=current, items=ITEMS,
                           ctx=Context(current, current.rules, current.names))


# -- Rivincita, archive, delete --------------------------------------------------------------

@bp.route("/matches/<int:match_id>/rematch", methods=["GET", "POST"])
@pin_required
def rematch(match_id: int):
    """The next match with the same players and rules, the deal passing on. Asked twice (two
    phones, a double tap), it is made once."""
    current = load(match_id)
    if request.method == "GET" or not current.over:
        if current.followed_by:
            return redirect(url_for("table.match", match_id=current.followed_by), code=303)
        if not current.over:
            flash(_("The match is not over yet: a rematch starts when it is."))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        return render_template("rematch.html", match=current)
    key = new_access_key()
    try:
        new_id, made = store.rematch(store.get_db(), match_id, current.next_first_dealer, Ledger, key)
    except store.Gone:
        abort(404)
    except store.MatchNotOver:
        flash(_("The match is not over yet: a rematch starts when it is."))
        return redirect(url_for("table.match", match_id=match_id), code=303)
    if made and current.has_pin:
        unlock_new(key)         # the phone that may record this match may record the next
    return redirect(url_for("table.match", match_id=new_id), code=303)


@bp.post("/matches/<int:match_id>/archive")
@pin_required
def archive(match_id: int):
    current = load(match_id)
    archived = request.form.get("archived") == "1"
    try:
        store.archive_match(store.get_db(), match_id, archived)
    except store.Gone:
        abort(404)
    flash(_("%(match)s is archived: it is listed under Archive.", match=current.title) if archived
          else _("%(match)s is back in the list.", match=current.title))
    return redirect(url_for("table.index") if archived else url_for("table.match", match_id=match_id), code=303)


@bp.route("/matches/<int:match_id>/delete", methods=["GET", "POST"])
@pin_required
def delete_match(match_id: int):
    """Delete a whole match, once confirmed; a change made meanwhile on another phone asks
    again."""
    current = load(match_id)
    if request.method == "POST":
        if request.form.get("version", type=int) != current.version:
            return render_template("delete_match.html", match=current,
                                   error=_("The match changed on another phone since you opened "
                                           "this page: here it is now.")), 409
        try:
            store.delete_match(store.get_db(), match_id)
        except store.Gone:
            abort(404)
        except store.InTournament as table:
            flash(_("This match is table %(table)s of %(tournament)s: its result makes the "
                    "standings. Correct its hands instead.", table=table.table,
                    tournament=table.tournament))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        flash(_("%(match)s deleted.", match=current.title))
        return redirect(url_for("table.index"), code=303)
    return render_template("delete_match.html", match=current)


# -- Recording a hand ----------------------------------------------------------------------

@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
@pin_required
def new_hand(match_id: int):
    current = load(match_id)
    if request.method == "GET":
        if current.over:
            flash(_("The match is over: %(outcome)s. Edit a hand to change that.", outcome=say(current.outcome.text)))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        form = hand_form(current, data={"mode": request.args.get("mode", "piles"),
                                        "key": uuid.uuid4().hex, "number": current.next_number})
        return render_template("hand.html", match=current, form=form, number=current.next_number)
    form = hand_form(current)
    # The hand this form records ("Mano 3"): the number it was opened for, not the next one now.
    number = form.number.data if form.number.data and 0 < form.number.data <= 10_000 else None
    shown = number or current.next_number
    if "switch" in request.form:          # the other way to enter it, without JavaScript
        form.mode.data = request.form["switch"]
        return render_template("hand.html", match=current, form=form, number=shown)
    if "check" in request.form:           # the preview, without JavaScript
        return render_template("hand.html", match=current, form=form, number=shown, items=ITEMS,
                               preview=preview_of(current, form, None))
    db = store.get_db()
    try:
        if not form.validate_on_submit():
            raise ScopaError(first_error(form))
        entry = form.entry()
        if request.form.get("resolve") == "replace":
            return replace_hand(current, form, entry)
        saved = store.add_hand(db, match_id, entry, result_of(form.score), Ledger,
                               key=form.key.data or None, number=number)
    except store.Taken as taken:
        return hand_taken(match_id, form, taken.row)
    except store.Gone:
        abort(404)                            # the match was deleted meanwhile
    except store.KeyReused as reused:
        error = saved_message(load(match_id), reused.row["id"],
                              _("This form was already used to save hand %(number)s: open that "
                                "hand from the match page to change it."),
                              _("This form was already used to save a hand since deleted."))
        return render_template("hand.html", match=current, form=form, number=shown, error=error), 409
    except store.StorageError as failure:
        return render_template("hand.html", match=current, form=form, number=shown,
                               error=say(failure.message)), 503
    except ScopaError as error:
        return render_template("hand.html", match=current, form=form, number=shown,
                               error=explain(error)), 400
    flash(_("Hand %(number)s saved.", number=saved.number) if saved.created else
          _("That hand was already saved (the form was sent twice): it is counted once."))
    return redirect(url_for("table.match", match_id=match_id), code=303)


def saved_message(current: Match, hand_id: int, there: str, deleted: str) -> str:
    """A message naming a hand by its place in the match now (``there``, with %(number)s
    for its number, already translated), or ``deleted`` if it is gone."""
    hand = next((h for h in current.hands if h.id == hand_id), None)
    return there.replace("%(number)s", str(hand.number)) if hand else deleted


def hand_taken(match_id: int, form, recorded: dict):
    """Another phone recorded the hand this form was for: show both and let the table choose
    (keep the one recorded, replace it with this one, or add this one as the next hand)."""
    current = load(match_id)
    theirs = next(h for h in current.hands if h.id == recorded["id"])
    form.number.data, form.number.raw_data = current.next_number, None  # "add it as the next hand"
    return render_template("hand.html", match=current, form=form, number=theirs.number,
                           taken=theirs, mine=form.score), 409


def replace_hand(current: Match, form, entry: dict):
    """The player chose to replace the hand another phone recorded with this entry."""
    hand_id = request.form.get("replace_id", type=int)
    version = request.form.get("replace_version", type=int)
    db = store.get_db()
    if hand_id is None or version is None:
        raise ScopaError(said("say which hand to replace"))
    try:
        store.update_hand(db, current.id, hand_id, entry, result_of(form.score), version,
                          Ledger)
    except store.Conflict as conflict:
        return hand_taken(current.id, form, conflict.row)
    except store.Gone:
        flash(_("The hand you chose to replace was deleted meanwhile: nothing was changed. "
                "Record yours again if it is still needed."))
        return redirect(url_for("table.match", match_id=current.id), code=303)
    flash(saved_message(load(current.id), hand_id,
                        _("Hand %(number)s replaced with yours; the totals are worked out again."),
                        _("The hand was replaced with yours; the totals are worked out again.")))
    return redirect(url_for("table.match", match_id=current.id), code=303)


@bp.get("/matches/<int:match_id>/hands/<int:hand_id>")
def show_hand(match_id: int, hand_id: int):
    """One hand: its points one by one, and the way to edit or delete it."""
    current, hand = load_hand(match_id, hand_id)
    return render_template("hand_detail.html", match=current, hand=hand, items=ITEMS)


@bp.post("/matches/<int:match_id>/hands/preview")
def preview(match_id: int):
    """The breakdown the entry would give and the totals it would lead to, as a fragment."""
    current = load(match_id)
    return render_template("_preview.html", match=current, items=ITEMS,
                           **preview_of(current, hand_form(current), request.args.get("hand", type=int)))


def preview_of(current: Match, form, editing: int | None) -> dict:
    """What the preview shows for a hand form: nothing before anything is entered, else the
    refusal, else the hand's breakdown and the totals it leads to (``editing``: the id of the
    hand it replaces)."""
    if form.is_blank():
        return {"blank": True}
    try:
        if not form.validate():
            raise ScopaError(first_error(form))
        form.entry()
    except ScopaError as error:
        return {"error": explain(error)}
    hand = form.score
    # A new hand follows them all; an edited one follows the hands before it.
    earlier = current.hands
    if editing is not None:
        earlier = list(itertools.takewhile(lambda h: h.id != editing, current.hands))
    before = earlier[-1].totals_after if earlier else (0,) * len(current.sides)
    return {"hand": hand, "totals": [t + p for t, p in zip(before, hand.totals)]}


@bp.route("/matches/<int:match_id>/hands/<int:hand_id>/edit", methods=["GET", "POST"])
@pin_required
def edit_hand(match_id: int, hand_id: int):
    current, hand = load_hand(match_id, hand_id)
    if hand.claim is not None:
        flash(_("A claim cannot be edited: delete it, and check it again with the referee."))
        return redirect(url_for("table.match", match_id=match_id), code=303)
    if request.method == "GET":
        return render_template("hand.html", match=current, form=edit_form(current, hand),
                               number=hand.number, hand=hand)
    form = hand_form(current)
    if "switch" in request.form:
        form.mode.data = request.form["switch"]
        return render_template("hand.html", match=current, form=form, number=hand.number, hand=hand)
    if "check" in request.form:
        return render_template("hand.html", match=current, form=form, number=hand.number, hand=hand,
                               items=ITEMS, preview=preview_of(current, form, hand.id))
    made_from = request.form.get("version", type=int)
    try:
        if not form.validate_on_submit():
            raise ScopaError(first_error(form))
        entry = form.entry()
        if made_from is None:
            raise store.Conflict(store.hand_row(store.get_db(), match_id, hand_id))
        store.update_hand(store.get_db(), match_id, hand_id, entry, result_of(form.score),
                          made_from, Ledger)
    except store.Conflict:
        # Another phone changed this hand meanwhile: show it as it is now, never overwrite it.
        current, hand = load_hand(match_id, hand_id)
        return render_template("hand.html", match=current, form=edit_form(current, hand),
                               number=hand.number, hand=hand,
                               error=_("Another phone changed hand %(number)s while you were "
                                       "editing it: here it is now. Make your change again if it "
                                       "is still needed.", number=hand.number)), 409
    except store.Gone:
        raise HandGone(match_id) from None
    except store.StorageError as failure:
        return render_template("hand.html", match=current, form=form, number=hand.number,
                               hand=hand, error=say(failure.message)), 503
    except ScopaError as error:
        return render_template("hand.html", match=current, form=form, number=hand.number,
                               hand=hand, error=explain(error)), 400
    flash(_("Hand %(number)s changed; the totals are worked out again.", number=hand.number))
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.route("/matches/<int:match_id>/hands/<int:hand_id>/delete", methods=["GET", "POST"])
@pin_required
def delete_hand(match_id: int, hand_id: int):
    current, hand = load_hand(match_id, hand_id)
    if request.method == "GET":
        return render_template("delete_hand.html", match=current, hand=hand, items=ITEMS)
    made_from = request.form.get("version", type=int)
    try:
        if made_from is None:
            raise store.Conflict(store.hand_row(store.get_db(), match_id, hand_id))
        store.delete_hands(store.get_db(), match_id, {hand_id: made_from}, Ledger)
    except store.Conflict:
        return render_template("delete_hand.html", match=current, hand=hand, items=ITEMS,
                               error=_("Another phone changed hand %(number)s since you "
                                       "opened it: here it is now. Delete it only if it is "
                                       "still wrong.", number=hand.number)), 409
    except store.Gone:
        raise HandGone(match_id) from None
    flash(_("Hand %(number)s deleted; the totals are worked out again.", number=hand.number))
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.post("/matches/<int:match_id>/hands/after-end/delete")
@pin_required
def delete_after_end(match_id: int):
    """Remove the hands played after the end, as they were when the page showed them."""
    chosen: dict[int, int] = {}
    for value in request.form.getlist("hand"):
        hand_id, _, version = value.partition(":")
        if not (hand_id.isdigit() and version.isdigit()):
            abort(400)
        chosen[int(hand_id)] = int(version)
    current = load(match_id)
    if not chosen or not set(chosen) <= {h.id for h in current.after_end}:
        flash(_("Those hands are counted now (the match changed meanwhile): nothing was deleted."))
        return redirect(url_for("table.match", match_id=match_id), code=303)
    try:
        store.delete_hands(store.get_db(), match_id, chosen, Ledger)
    except (store.Conflict, store.Gone):
        flash(_("Another phone changed those hands meanwhile: nothing was deleted. Look again."))
    else:
        flash(ngettext("%(num)d hand played after the end deleted.",
                       "%(num)d hands played after the end deleted.", len(chosen)))
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.post("/matches/<int:match_id>/hands/<int:hand_id>/undo")
@pin_required
def undo_edit(match_id: int, hand_id: int):
    """Put back the entry a hand had before its last edit."""
    current, hand = load_hand(match_id, hand_id)
    made_from = request.form.get("version", type=int)
    if hand.previous is None or made_from is None:
        abort(400)
    try:
        previous = score_entry(hand.previous, current.rules, current.names)
        store.update_hand(store.get_db(), match_id, hand_id, hand.previous, result_of(previous),
                          made_from, Ledger)
    except store.Conflict:
        flash(_("Another phone changed hand %(number)s meanwhile: nothing was undone. Look again.", number=hand.number))
    except store.Gone:
        raise HandGone(match_id) from None
    else:
        flash(_("The edit of hand %(number)s is undone; the totals are worked out again.", number=hand.number))
    return redirect(url_for("table.match", match_id=match_id), code=303)


def edit_form(current: Match, hand: Hand):
    """The hand form filled from a stored hand, carrying the version it is made from."""
    mode = request.args.get("mode", hand.entry["mode"])
    form = hand_form(current, formdata=None, data={"mode": mode, "version": hand.version})
    if mode == hand.entry["mode"]:
        form.fill(hand.entry)
    return form


# -- Live: every phone sees a change within two seconds ----------------------------------------

@bp.get("/matches/<int:match_id>/poll")
def poll(match_id: int):
    """Has the match changed since ``since``? If not: 200 with no body and ``HX-Reswap: none``
    (one primary-key read, nothing worked out; not 204, after which waitress closes the
    connection, so a phone polling every 2 s would open a new one each time). Else the new live
    region, or for the hand page (``part=notice``) a short notice."""
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
        current = load(match_id)
        if request.args.get("part") == "notice":
            response = make_response(render_template("_notice.html", match=current))
        else:
            response = make_response(render_template("_live.html", match=current, items=ITEMS,
                                                     ctx=Context(current, current.rules, current.names)))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/matches/<int:match_id>/join")
def join(match_id: int):
    current = load(match_id)
    url = join_url().rstrip("/") + url_for("table.match", match_id=match_id)
    return render_template("join.html", match=current, url=url, qr_svg=qr_svg(url))


# -- The edit PIN -------------------------------------------------------------------------

@bp.route("/matches/<int:match_id>/pin", methods=["GET", "POST"])
def enter_pin(match_id: int):
    current = load(match_id)
    target = on_this_site(request.values.get("next", ""), url_for("table.match", match_id=match_id))
    form = PinForm()
    error, status = None, 200
    if form.validate_on_submit():
        try:
            if try_pin(match_id, form.pin.data):
                flash(_("PIN accepted: this phone can record hands in this match."))
                return redirect(target, code=303)
            error, status = _("That PIN is not right."), 403
        except TooManyTries:
            error, status = _("Too many wrong PINs: wait a minute, then try again."), 429
    elif request.method == "POST":
        error, status = first_error(form), 400
    return render_template("pin.html", match=current, form=form, next=target, error=error), status


C0_AND_SPACE = "".join(map(chr, range(0x21)))


def on_this_site(target: str, fallback: str) -> str:
    """``target`` if it is a path on this site as a browser would read it, else ``fallback``.

    A browser strips spaces and control characters around an address, drops tabs and line
    breaks anywhere in it, and reads a backslash as a slash: "/\t/evil.example" and "/\\evil"
    lead to another site. So they are read the same way here (every control character dropped:
    none belongs in a Location header) before the check."""
    cleaned = "".join(ch for ch in target.strip(C0_AND_SPACE) if ch >= " " and ch != "\x7f")
    cleaned = cleaned.replace("\\", "/")
    parts = urlsplit(cleaned)
    if not cleaned.startswith("/") or cleaned.startswith("//") or parts.scheme or parts.netloc:
        return fallback
    return cleaned


# -- Backup and restore ----------------------------------------------------------------------

@bp.get("/backup")
def backup():
    return render_template("backup.html", local=is_local())


@bp.get("/backup/download")
def backup_download():
    # The whole store holds every match's PIN hash: it leaves the server only on its own machine.
    if not is_local():
        return render_template("error.html", message=_(
            "The backup, with every match's PIN, can only be downloaded on the machine that runs "
            "the companion.")), 403
    instance = Path(current_app.config["DATABASE"]).parent
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    with tempfile.TemporaryDirectory(dir=instance) as folder:
        target = Path(folder) / f"scopa-{stamp}.sqlite"
        store.backup_to(current_app.config["DATABASE"], str(target))
        data = target.read_bytes()
    response = make_response(data)
    response.headers["Content-Type"] = "application/vnd.sqlite3"
    response.headers["Content-Disposition"] = f'attachment; filename="scopa-{stamp}.sqlite"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/backup/restore")
def backup_restore():
    # Restoring replaces every match: only from the machine that runs the companion.
    if not is_local():
        flash(_("A restore can only be made on the machine that runs the companion."))
        return redirect(url_for("table.backup"), code=303)
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        flash(_("Choose the backup file to restore."))
        return redirect(url_for("table.backup"), code=303)
    if request.form.get("confirm") != "y":
        flash(_("Tick the box to confirm: restoring replaces every match."))
        return redirect(url_for("table.backup"), code=303)
    database = Path(current_app.config["DATABASE"])
    with tempfile.TemporaryDirectory(dir=database.parent) as folder:
        received = Path(folder) / "upload.sqlite"
        upload.save(received)
        try:
            store.close_db()
            keep = store.restore_from(str(database), str(received))
        except store.NotABackup as problem:
            flash(_("Nothing restored: %(problem)s.", problem=explain(problem)))
            return redirect(url_for("table.backup"), code=303)
    flash(_("Restored. The matches there before were saved to %(file)s.", file=keep.name))
    return redirect(url_for("table.index"), code=303)


FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-IP")


def is_local() -> bool:
    """The request comes from the machine running the companion. A request relayed by a proxy
    (it carries forwarding headers) is not, unless the companion was told to trust the proxy
    (``--trust-proxy``), which then gives the phone's own address."""
    if not current_app.config.get("TRUST_PROXY") and any(h in request.headers for h in FORWARDING):
        return False
    address = request.remote_addr or ""
    return address.startswith("127.") or address == "::1"


FELT = "#0f5132"     # the table's green (static/companion.css, --felt)


# -- Exports ---------------------------------------------------------------------------------

def csv_answer(text: str, filename: str):
    response = make_response(text)
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/matches/<int:match_id>/export.csv")
def export_match(match_id: int):
    """The match's hands for a spreadsheet: one row per hand and side."""
    current = load(match_id)
    return csv_answer(exports.to_csv(exports.match_rows(current)), f"scopa-match-{match_id}.csv")


@bp.get("/export.csv")
def export_all():
    """Every match (in play, finished, archived; never a deleted one), one row each, from the
    matches' stored summaries."""
    db = store.get_db()
    rows = store.match_rows(db) + store.match_rows(db, archived=True)
    shown = sorted((listed(row) for row in rows), key=lambda m: m.id)
    return csv_answer(exports.to_csv(exports.matches_rows(shown)), "scopa-matches.csv")


@bp.get("/manifest.webmanifest")
def manifest():
    """What a phone needs to put the companion on its home screen and open it like an app:
    the name in the phone's language, the icons (hashed URLs, kept a year), the felt's green."""
    def icon(name: str, size: int, purpose: str) -> dict[str, str]:
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}",
                "type": "image/png", "purpose": purpose}

    body = {
        "id": "/", "name": _("Scopa companion"), "short_name": "Scopa", "lang": str(get_locale()),
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": FELT, "theme_color": FELT,
        "icons": [icon("icon-192.png", 192, "any"), icon("icon-512.png", 512, "any"),
                  icon("icon-maskable-192.png", 192, "maskable"),
                  icon("icon-maskable-512.png", 512, "maskable")],
    }
    response = current_app.response_class(current_app.json.dumps(body),
                                          mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"     # its name follows the language switch
    return response


@bp.get("/healthz")
def healthz():
    """A trivial route: the ceiling the load benchmark compares the poll against."""
    return "ok", 200, {"Content-Type": "text/plain"}


def first_error(form) -> str:
    for field in form:
        if field.errors:
            message = field.errors[0]
            return message if field.name in ("csrf_token", "layout") else f"{field.label.text}: {message}"
    return _("Something in the form is not right")
