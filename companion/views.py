"""The pages players use at the table: matches, recording a hand, the score and its history.

Views read the request, call the store, the match model or the forms, then render or redirect.
Every form works as a plain POST; htmx only makes the preview and the variant switch faster.
"""

from __future__ import annotations

import tempfile
import uuid
from datetime import datetime
from pathlib import Path

from flask import (Blueprint, abort, current_app, flash, make_response, redirect, render_template,
                   request, session, url_for)

import segno

from . import store
from .access import TooManyTries, hash_pin, pin_required, try_pin
from .forms import NewMatchForm, PinForm, RulesPreviewForm, hand_form
from .matches import Hand, Match, build, refuse_if_over
from .referee import Context
from .rules import ScopaError
from .rules.rulesets import PRESETS
from .rules.scoring import ITEMS

bp = Blueprint("table", __name__)


def load(match_id: int) -> Match:
    db = store.get_db()
    row = store.match_row(db, match_id)
    if row is None:
        abort(404)
    return build(row, store.hand_rows(db, match_id))


def load_hand(match_id: int, number: int) -> tuple[Match, Hand]:
    current = load(match_id)
    hand = next((h for h in current.hands if h.number == number), None)
    if hand is None:
        abort(404)
    return current, hand


@bp.get("/")
def index():
    db = store.get_db()
    hands = store.hands_by_match(db)
    matches = [build(row, hands.get(row["id"], [])) for row in store.match_rows(db)]
    playing = [m for m in matches if not m.over]
    finished = [m for m in matches if m.over]
    return render_template("index.html", playing=playing, finished=finished,
                           join_url=join_url(), qr_svg=qr_svg(join_url()))


def join_url() -> str:
    """The address phones should open: the machine's LAN address when the server knows it."""
    lan = current_app.config.get("LAN_URLS") or []
    return lan[0] if lan else request.host_url


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=5, dark="#1d1d1b", light="#fffdf5")


# -- A new match ---------------------------------------------------------------------------

@bp.route("/matches/new", methods=["GET", "POST"])
def new_match():
    if request.method == "GET":
        preset = request.args.get("preset", "classica")
        form = NewMatchForm(data=NewMatchForm.preset_data(preset if preset in PRESETS else "classica"))
        return render_template("new_match.html", form=form)
    form = NewMatchForm()
    if "load_preset" in request.form:     # without JavaScript: the variant's rules, names kept
        form = NewMatchForm(formdata=None, data={
            **{name: field.data for name, field in form._fields.items()},
            **NewMatchForm.preset_data(form.preset.data if form.preset.data in PRESETS else "classica")})
        return render_template("new_match.html", form=form)
    if not form.validate_on_submit():
        return render_template("new_match.html", form=form), 400
    pin = (form.pin.data or "").strip()
    match_id = store.create_match(store.get_db(), form.rules().as_dict(), form.sides(), form.dealer(),
                                  hash_pin(pin) if pin else None)
    if pin:
        session["unlocked"] = sorted({*session.get("unlocked", []), match_id})  # its creator may record
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.get("/matches/new/rules")
def preset_rules():
    """The rule fields as the chosen variant sets them: htmx swaps them in."""
    preset = request.args.get("preset", "classica")
    form = RulesPreviewForm(formdata=None, data=NewMatchForm.preset_data(
        preset if preset in PRESETS else "classica"))
    return render_template("_rules_fields.html", form=form)


# -- The match -----------------------------------------------------------------------------

@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    current = load(match_id)
    return render_template("match.html", match=current, items=ITEMS,
                           ctx=Context(current, current.rules, current.names))


# -- Recording a hand ----------------------------------------------------------------------

@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
@pin_required
def new_hand(match_id: int):
    current = load(match_id)
    if request.method == "GET":
        if current.over:
            flash(f"The match is over: {current.outcome.text}. Edit a hand to change that.")
            return redirect(url_for("table.match", match_id=match_id), code=303)
        form = hand_form(current, data={"mode": request.args.get("mode", "piles"),
                                        "key": uuid.uuid4().hex})
        return render_template("hand.html", match=current, form=form, number=current.next_number)
    form = hand_form(current)
    if "switch" in request.form:          # the other way to enter it, without JavaScript
        form.mode.data = request.form["switch"]
        return render_template("hand.html", match=current, form=form, number=current.next_number)
    try:
        if not form.validate_on_submit():
            raise ScopaError(first_error(form))
        entry = form.entry()
        row = store.match_row(store.get_db(), match_id)
        number, created = store.add_hand(store.get_db(), match_id, entry, check=refuse_if_over(row),
                                         key=form.key.data or None)
    except ScopaError as error:
        return render_template("hand.html", match=current, form=form, number=current.next_number,
                               error=str(error)), 400
    flash(f"Hand {number} saved." if created else
          "That hand was already saved (the form was sent twice): it is counted once.")
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.post("/matches/<int:match_id>/hands/preview")
def preview(match_id: int):
    """The breakdown the entry would give and the totals it would lead to, as a fragment."""
    current = load(match_id)
    number = request.args.get("number", type=int)
    form = hand_form(current)
    try:
        if not form.validate():
            raise ScopaError(first_error(form))
        form.entry()
    except ScopaError as error:
        return render_template("_preview.html", error=str(error), match=current)
    hand = form.score
    # A new hand follows them all; an edited one follows the hands before it.
    earlier = [h for h in current.hands if number is None or h.number < number]
    before = earlier[-1].totals_after if earlier else (0,) * len(current.sides)
    totals = [t + p for t, p in zip(before, hand.totals)]
    return render_template("_preview.html", hand=hand, totals=totals, match=current, items=ITEMS)


@bp.route("/matches/<int:match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@pin_required
def edit_hand(match_id: int, number: int):
    current, hand = load_hand(match_id, number)
    if hand.claim is not None:
        flash("A claim cannot be edited: delete it, and check it again with the referee.")
        return redirect(url_for("table.match", match_id=match_id), code=303)
    if request.method == "GET":
        return render_template("hand.html", match=current, form=edit_form(current, hand),
                               number=number, editing=True)
    form = hand_form(current)
    if "switch" in request.form:
        form.mode.data = request.form["switch"]
        return render_template("hand.html", match=current, form=form, number=number, editing=True)
    try:
        if not form.validate_on_submit():
            raise ScopaError(first_error(form))
        made_from = request.form.get("version", type=int)
        if not store.update_hand(store.get_db(), match_id, number, form.entry(), made_from):
            abort(404)
    except store.Conflict:
        # Another phone changed this hand meanwhile: show it as it is now, never overwrite it.
        current, hand = load_hand(match_id, number)
        return render_template("hand.html", match=current, form=edit_form(current, hand), number=number,
                               editing=True, error=f"Another phone changed hand {number} while you "
                               f"were editing it: here it is now. Make your change again if it "
                               f"is still needed."), 409
    except ScopaError as error:
        return render_template("hand.html", match=current, form=form, number=number,
                               editing=True, error=str(error)), 400
    flash(f"Hand {number} changed; the totals are worked out again.")
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.route("/matches/<int:match_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@pin_required
def delete_hand(match_id: int, number: int):
    current, hand = load_hand(match_id, number)
    if request.method == "GET":
        return render_template("delete_hand.html", match=current, hand=hand, items=ITEMS)
    store.delete_hand(store.get_db(), match_id, number)
    flash(f"Hand {number} deleted; the totals are worked out again.")
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
    """Has the match changed since ``since``? 204 if not (one primary-key read, nothing scored);
    else the new live region, or for the hand page (``part=notice``) a short notice."""
    version = store.match_version(store.get_db(), match_id)
    if version is None:
        abort(404)
    etag = f"m{match_id}-v{version}"
    if request.args.get("since") == str(version) or etag in request.if_none_match:
        response = make_response("", 204 if "since" in request.args else 304)
        response.set_etag(etag)
        return response
    current = load(match_id)
    if request.args.get("part") == "notice":
        response = make_response(render_template("_notice.html", match=current))
    else:
        response = make_response(render_template("_live.html", match=current, items=ITEMS,
                                                 ctx=Context(current, current.rules, current.names)))
    response.set_etag(etag)
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
    target = request.values.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("table.match", match_id=match_id)
    form = PinForm()
    error, status = None, 200
    if form.validate_on_submit():
        try:
            if try_pin(match_id, form.pin.data):
                flash("PIN accepted: this phone can record hands in this match.")
                return redirect(target, code=303)
            error, status = "That PIN is not right.", 403
        except TooManyTries:
            error, status = "Too many wrong PINs: wait a minute, then try again.", 429
    elif request.method == "POST":
        error, status = first_error(form), 400
    return render_template("pin.html", match=current, form=form, next=target, error=error), status


# -- Backup and restore ----------------------------------------------------------------------

@bp.get("/backup")
def backup():
    return render_template("backup.html", local=is_local())


@bp.get("/backup/download")
def backup_download():
    instance = Path(current_app.config["DATABASE"]).parent
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    with tempfile.TemporaryDirectory(dir=instance) as folder:
        target = Path(folder) / f"scopa-{stamp}.sqlite"
        store.backup_to(current_app.config["DATABASE"], str(target))
        data = target.read_bytes()
    response = make_response(data)
    response.headers["Content-Type"] = "application/vnd.sqlite3"
    response.headers["Content-Disposition"] = f'attachment; filename="scopa-{stamp}.sqlite"'
    return response


@bp.post("/backup/restore")
def backup_restore():
    # Restoring replaces every match: only from the machine that runs the companion.
    if not is_local():
        flash("A restore can only be made on the machine that runs the companion.")
        return redirect(url_for("table.backup"), code=303)
    request.max_content_length = 256 * 1024 * 1024
    upload = request.files.get("backup")
    if upload is None or not upload.filename:
        flash("Choose the backup file to restore.")
        return redirect(url_for("table.backup"), code=303)
    if request.form.get("confirm") != "y":
        flash("Tick the box to confirm: restoring replaces every match.")
        return redirect(url_for("table.backup"), code=303)
    database = Path(current_app.config["DATABASE"])
    keep = database.parent / f"before-restore-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
    with tempfile.TemporaryDirectory(dir=database.parent) as folder:
        received = Path(folder) / "upload.sqlite"
        upload.save(received)
        try:
            store.close_db()
            store.restore_from(str(database), str(received), str(keep))
        except store.NotABackup as problem:
            flash(f"Nothing restored: {problem}.")
            return redirect(url_for("table.backup"), code=303)
    flash(f"Restored. The matches there before were saved to {keep.name}.")
    return redirect(url_for("table.index"), code=303)


def is_local() -> bool:
    return (request.remote_addr or "").startswith("127.") or request.remote_addr == "::1"


@bp.get("/healthz")
def healthz():
    """A trivial route: the ceiling the load benchmark compares the poll against."""
    return "ok", 200, {"Content-Type": "text/plain"}


def first_error(form) -> str:
    for field in form:
        if field.errors:
            message = field.errors[0]
            return message if field.name in ("csrf_token", "layout") else f"{field.label.text}: {message}"
    return "Something in the form is not right"
