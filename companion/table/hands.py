"""A hand's pages: record one (by cards or by counts), see it, edit it, delete it, undo an edit,
the live preview, and what happens when two phones record the same hand."""

from __future__ import annotations

import uuid
from typing import Any, assert_never

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from ..i18n import say
from ..matches import Extreme, Hand, Match, extreme_of, score_entry
from ..rules import ScopaError
from ..rules.said import said
from ..rules.scoring import ITEMS
from ..store import reads as store
from ..web.access import pin_required
from ..web.forms import PrimieraTrip
from ..web.hand_requests import MadeFrom
from ..web.pages import error_at_top, flash_action, flash_said, load_match, under_match
from ..web.phone import played_here
from ..web.posts import AfterEnd, Replacing, Versions, posted
from ..web.record import record_guarded
from . import service
from .conflict import differences, moved_cards, same_hand
from .hand_form import HandForm
from .hand_said import drawn_with_errors, preview_of, refused
from .views import bp


def load_hand(match_id: int, hand_id: int) -> tuple[Match, Hand]:
    """The match and one of its hands, by the hand's id; 404 if the match has no such hand,
    HandGone if it had one that was deleted."""
    current = load_match(match_id)
    hand = current.hand(hand_id)
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


@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
@record_guarded
@pin_required
def new_hand(match_id: int):
    current = load_match(match_id)
    if request.method == "GET":
        if current.over:
            flash(_("The match is over: %(outcome)s. Edit a hand to change that.", outcome=say(current.outcome.text)))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        form = HandForm(current, data={"mode": request.args.get("mode", "piles"),
                                       "key": uuid.uuid4().hex, "number": current.next_number})
        return hand_page(current, form, current.next_number)
    form = HandForm(current)
    # The hand this form records ("Mano 3"): the number it was opened for, not the next one now.
    number = form.number.data if form.number.data and 0 < form.number.data <= 10_000 else None
    return submitted(current, form, number or current.next_number, None,
                     lambda entry: save_new(current, form, entry, number))


def hand_page(current: Match, form, number: int, hand: Hand | None = None, status: int = 200,
              **shown):
    """The hand's form: a new hand (``number``), or ``hand`` being edited."""
    return render_template("table/hand.html", match=current, form=form, number=number,
                           hand=hand, **shown), status


def submitted(current: Match, form, number: int, hand: Hand | None, save):
    """A hand's form sent: the other way to enter it, or the preview (both without
    JavaScript); else the entry, once checked, handed to ``save``. A refusal, or a store that
    cannot save, brings the form back as it was left, saying why."""
    if "switch" in request.form:          # the other way to enter it, without JavaScript
        form.mode.data = request.form["switch"]
        return hand_page(current, form, number, hand)
    if "check" in request.form:           # the preview, without JavaScript
        return hand_page(current, form, number, hand, items=ITEMS,
                         preview=preview_of(current, form, hand.id if hand else None))
    if "work_out" in request.form:        # "Who has it? Work it out": the referee's tool
        return redirect(primiera_tool(current, form, hand), code=303)
    if not form.validate_on_submit():
        return hand_page(current, form, number, hand, 400, error=error_at_top(form, drawn_with_errors(form)))
    try:
        return save(form.entry())
    except ScopaError as refusal:
        return hand_page(current, form, number, hand, 400, error=refused(form, refusal))


def asks_first(form, hand: Hand | None = None) -> Extreme | None:
    """The question to ask before saving the entry, unless the player has answered it: a hand
    that gives one side every card, or every point with every denaro (``matches.extreme_of``);
    most often a Save tapped before anything was entered, or a slip. An edit asks only when it
    makes the hand so: a hand saved so was asked about then."""
    if request.form.get("confirm_extreme") == "1":
        return None
    extreme = extreme_of(form.score)
    if extreme is not None and hand is not None and hand.score is not None and extreme_of(hand.score) == extreme:
        return None
    return extreme


def save_new(current: Match, form, entry: dict, number: int | None):
    """Record a new hand (or, as the player chose, replace the one another phone recorded),
    once asked about if it is extreme (``asks_first``)."""
    extreme = asks_first(form)
    if extreme is not None:
        return hand_page(current, form, number or current.next_number, None, extreme=extreme)
    if request.form.get("resolve") == "replace":
        return replace_hand(current, form, entry)
    match (outcome := service.add_hand(current.id, entry, form.score, key=form.key.data or None, number=number)):
        case service.Taken(row):
            return hand_taken(current.id, form, row)
        case service.NoSuchMatch():
            abort(404)                            # the match was deleted meanwhile
        case service.Over(refusal):
            return hand_page(current, form, number or current.next_number, None, 400, error=say(refusal))
        case service.Duplicate(row):
            error = saved_message(load_match(current.id), row["id"],
                                  _("This form was already used to save hand %(number)s: open that "
                                    "hand from the match page to change it."),
                                  _("This form was already used to save a hand since deleted."))
            return hand_page(current, form, number or current.next_number, None, 409, error=error)
        case service.Added(number=saved):
            flash(_("Hand %(number)s saved.", number=saved))
            played_here(current.id)
        case service.Repeated():
            flash(_("That hand was already saved (the form was sent twice): it is counted once."))
            played_here(current.id)
        case service.NotSaved(why):             # the form stays as it was left, to send again
            return hand_page(current, form, number or current.next_number, None, 503, error=say(why))
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=current.id), code=303)


def saved_message(current: Match, hand_id: int, there: str, deleted: str) -> str:
    """A message naming a hand by its place in the match now (``there``, with %(number)s
    for its number, already translated), or ``deleted`` if it is gone."""
    hand = current.hand(hand_id)
    return there.replace("%(number)s", str(hand.number)) if hand else deleted


def hand_taken(match_id: int, form, recorded: dict[str, Any] | None):
    """Another phone recorded the hand this form was for: the very same hand is counted once,
    without asking; else both are shown, what differs named, and the table chooses (keep the
    one recorded, replace it with this one, or add this one as the next hand)."""
    current = load_match(match_id)
    theirs, entry = current.hand(recorded["id"]) if recorded else None, form.entry()
    if theirs is None:          # deleted meanwhile (no row: gone when refused): nothing was saved
        raise HandGone(match_id)
    if theirs.score is not None and same_hand(theirs.score, form.score, theirs.entry, entry):
        played_here(match_id)                # this phone scored it too: its last match
        flash(_("Hand %(number)s was already recorded by the other phone, the same as yours: "
                "it is counted once.", number=theirs.number))
        return redirect(url_for("table.match", match_id=match_id), code=303)
    form.number.data, form.number.raw_data = current.next_number, None  # "add it as the next hand"
    return hand_page(current, form, theirs.number, None, 409, taken=theirs, mine=form.score,
                     differ=differences(theirs.score, form.score) if theirs.score else [],
                     moved=moved_cards(theirs.entry, entry))


def replace_hand(current: Match, form, entry: dict):
    """The player chose to replace the hand another phone recorded with this entry."""
    asked = posted(Replacing)
    hand_id, version = asked.replace_id, asked.replace_version
    if hand_id is None or version is None:
        raise ScopaError(said("say which hand to replace"))
    match (outcome := service.change_hand(current.id, hand_id, entry, form.score, version, replacing=True)):
        case service.Stale(row):         # a version was given: the row of the hand as it is now
            return hand_taken(current.id, form, row)
        case service.NoSuchHand():
            flash(_("The hand you chose to replace was deleted meanwhile: nothing was changed. "
                    "Record yours again if it is still needed."))
        case service.Changed():
            played_here(current.id)
            flash(saved_message(load_match(current.id), hand_id,
                                _("Hand %(number)s replaced with yours; the totals are worked out again."),
                                _("The hand was replaced with yours; the totals are worked out again.")))
        case service.ClaimKept(why):
            flash_said(why)
        case service.NotSaved(why):
            return hand_page(current, form, form.number.data or current.next_number, None, 503, error=say(why))
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=current.id), code=303)


@bp.get("/matches/<int:match_id>/hands/<int:hand_id>")
def show_hand(match_id: int, hand_id: int):
    """One hand: its points one by one, and the way to edit or delete it."""
    current, hand = load_hand(match_id, hand_id)
    return render_template("table/hand_detail.html", match=current, hand=hand, items=ITEMS)


@bp.post("/matches/<int:match_id>/hands/preview")
def preview(match_id: int):
    """The breakdown the entry would give and the totals it would lead to, as a fragment. The
    count being typed (``typing``, which companion.js sends while its keyboard is up) is judged
    once it is left: a refusal that the form without it would not make waits till then. Under
    the conflict screen (``replacing``: the hand another phone recorded) the totals are those
    this entry would give in that hand's place."""
    current = load_match(match_id)
    replaced = current.hand(request.args.get("replacing", 0, type=int))
    editing = replaced.id if replaced else request.args.get("hand", type=int)
    form = HandForm(current)
    shown = preview_of(current, form, editing)
    typing = request.form.get("typing", "")
    if "error" in shown and form.counted(typing) and typing in request.form:
        formdata = request.form.copy()
        formdata.pop(typing)
        shown = preview_of(current, HandForm(current, formdata=formdata), editing)
    return render_template("table/_preview.html", match=current, items=ITEMS, replaced=replaced, **shown)


def primiera_tool(current: Match, form: HandForm, hand: Hand | None) -> str:
    """The referee's primiera tool for this hand: under the match's rules, with the sides'
    names, carrying what the hand's form holds (``PrimieraTrip``) so that its answer comes
    back into the form with everything typed still there (without JavaScript too)."""
    return url_for("referee.primiera", **under_match(current),
                   **PrimieraTrip.carrying(hand.id if hand else None, form.carried(request.form)))


@bp.route("/matches/<int:match_id>/hands/<int:hand_id>/edit", methods=["GET", "POST"])
@record_guarded
@pin_required
def edit_hand(match_id: int, hand_id: int):
    current, hand = load_hand(match_id, hand_id)
    if hand.claim is not None:          # what the service would answer, before the form is shown
        flash_said(service.ClaimKept().said)
        return redirect(url_for("table.match", match_id=match_id), code=303)
    if request.method == "GET":
        return hand_page(current, edit_form(current, hand), hand.number, hand)
    form = HandForm(current)
    return submitted(current, form, hand.number, hand,
                     lambda entry: save_edit(current, hand, form, entry))


def save_edit(current: Match, hand: Hand, form, entry: dict):
    """Change a hand, only from the version the edit was made from; an edit that makes it
    extreme is asked about first (``asks_first``)."""
    extreme = asks_first(form, hand)
    if extreme is not None:
        return hand_page(current, form, hand.number, hand, extreme=extreme)
    made_from = posted(MadeFrom).version
    match (outcome := service.change_hand(current.id, hand.id, entry, form.score, made_from)):
        case service.NoSuchHand():
            raise HandGone(current.id)
        case service.Stale():
            # Another phone changed this hand meanwhile: show it as it is now, never overwrite it.
            current, hand = load_hand(current.id, hand.id)
            return hand_page(current, edit_form(current, hand), hand.number, hand, 409,
                             error=_("Another phone changed hand %(number)s while you were "
                                     "editing it: here it is now. Make your change again if it "
                                     "is still needed.", number=hand.number))
        case service.Changed():
            played_here(current.id)
            flash(_("Hand %(number)s changed; the totals are worked out again.", number=hand.number))
        case service.ClaimKept(why):
            flash_said(why)
        case service.NotSaved(why):
            return hand_page(current, form, hand.number, hand, 503, error=say(why))
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=current.id), code=303)


@bp.route("/matches/<int:match_id>/hands/<int:hand_id>/delete", methods=["GET", "POST"])
@record_guarded
@pin_required
def delete_hand(match_id: int, hand_id: int):
    current, hand = load_hand(match_id, hand_id)
    if request.method == "GET":
        return render_template("table/delete_hand.html", match=current, hand=hand, items=ITEMS)
    match (outcome := service.delete_hands(match_id, {hand_id: posted(MadeFrom).version})):
        case service.Stale():
            return render_template("table/delete_hand.html", match=current, hand=hand, items=ITEMS,
                                   error=_("Another phone changed hand %(number)s since you "
                                           "opened it: here it is now. Delete it only if it is "
                                           "still wrong.", number=hand.number)), 409
        case service.NoSuchHand():
            raise HandGone(match_id)
        case service.Deleted(version=left):
            offer_undo(match_id, [hand_id], left,
                       _("Hand %(number)s deleted; the totals are worked out again.", number=hand.number))
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=match_id), code=303)


def offer_undo(match_id: int, hand_ids: list[int], version: int, text: str) -> None:
    """The notice after a delete, with its Undo: it brings the hands back as long as the match
    is still at ``version`` (the one the delete left). The match page's poll takes the button
    away when the match changes (``table/live.py`` sends ``table/_live_undo_gone.html``)."""
    flash_action(text, url_for("table.restore_hands", match_id=match_id), _("Undo"),
                 [("version", version), *(("hand", hand_id) for hand_id in hand_ids)],
                 notice_id=f"undo-match-{match_id}")


@bp.post("/matches/<int:match_id>/hands/restore")
@record_guarded
@pin_required
def restore_hands(match_id: int):
    """Undo a delete: the hands come back with their ids and entries, in their places, if
    nothing else has changed the match since (``version``, the one the delete left)."""
    asked = posted(Versions)
    hand_ids, version = asked.hand, asked.version
    if not hand_ids or version is None:
        abort(400)
    match (outcome := service.restore_hands(match_id, hand_ids, version)):
        case service.Stale():
            flash(_("The match changed meanwhile, perhaps on another phone: nothing was undone. "
                    "Look at the hands again, and record the deleted hand anew if it is still needed."))
        case service.NoSuchHand():
            abort(404)
        case service.Restored():
            back = [hand for hand in load_match(match_id).hands if hand.id in hand_ids]
            flash(_("Hand %(number)s is back; the totals are worked out again.", number=back[0].number)
                  if len(back) == 1 else
                  ngettext("%(num)d hand is back; the totals are worked out again.",
                           "%(num)d hands are back; the totals are worked out again.", len(back)))
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.post("/matches/<int:match_id>/hands/after-end/delete")
@record_guarded
@pin_required
def delete_after_end(match_id: int):
    """Remove the hands played after the end, as they were when the page showed them."""
    chosen = dict(posted(AfterEnd).hand)        # hand id -> version, as the page showed them
    current = load_match(match_id)
    if not chosen or not set(chosen) <= {h.id for h in current.after_end}:
        flash(_("Those hands are counted now (the match changed meanwhile): nothing was deleted."))
        return redirect(url_for("table.match", match_id=match_id), code=303)
    match (outcome := service.delete_hands(match_id, chosen)):
        case service.Stale() | service.NoSuchHand():
            flash(_("Another phone changed those hands meanwhile: nothing was deleted. Look again."))
        case service.Deleted(version=left):
            offer_undo(match_id, list(chosen), left,
                       ngettext("%(num)d hand played after the end deleted.",
                                "%(num)d hands played after the end deleted.", len(chosen)))
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=match_id), code=303)


@bp.post("/matches/<int:match_id>/hands/<int:hand_id>/undo")
@record_guarded
@pin_required
def undo_edit(match_id: int, hand_id: int):
    """Put back the entry a hand had before its last edit."""
    current, hand = load_hand(match_id, hand_id)
    made_from = posted(MadeFrom).version
    if hand.previous is None or made_from is None:
        abort(400)
    previous = score_entry(hand.previous, current.rules, current.names)
    match (outcome := service.change_hand(match_id, hand_id, hand.previous, previous, made_from)):
        case service.Stale():
            flash(_("Another phone changed hand %(number)s meanwhile: nothing was undone. Look again.",
                    number=hand.number))
        case service.NoSuchHand():
            raise HandGone(match_id)
        case service.Changed():
            flash(_("The edit of hand %(number)s is undone; the totals are worked out again.", number=hand.number))
        case service.ClaimKept(why) | service.NotSaved(why):
            flash_said(why)
        case _: assert_never(outcome)
    return redirect(url_for("table.match", match_id=match_id), code=303)


def edit_form(current: Match, hand: Hand):
    """The hand form filled from a stored hand, carrying the version it is made from."""
    mode = request.args.get("mode", hand.entry["mode"])
    form = HandForm(current, formdata=None, data={"mode": mode, "version": hand.version})
    if mode == hand.entry["mode"]:
        form.fill(hand.entry)
    return form
