"""/organiser: a phone becomes the organiser's by opening the link ``scopa-companion`` prints
(``/organiser?code=K7P-2QX``) or by typing the code, and stays so until it logs out or for 12
hours after its last use. Opening the link checks nothing: its page POSTs the code (with the
CSRF token) at once by a script, or at a tap without one; only that POST, or the typed code,
tries it and counts a wrong one. The
organiser's page also lists the matches deleted in the last day, to bring one back, those ticked
or all of them at once (the table's ``/matches/restore``, the Undo of its delete of several)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from typing import assert_never

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from ..i18n import say
from ..matches import listed
from ..store import reads as store
from ..table import match_service
from ..web import limits, organiser, welcome
from ..web.pages import first_error, join_url, on_this_site, qr_svg
from .forms import CodeForm

bp = Blueprint("organiser", __name__)


def show(form: CodeForm, error: str | None = None, status: int = 200):
    db = store.get_db()
    deleted, held = [], []
    if organiser.is_organiser():
        match_service.purge_deleted()
        deleted = [(listed(row), row["deleted"]) for row in store.deleted_matches(db)]
        held = limits.held()
    return render_template(
        "organiser/organiser.html", form=form, error=error,
        this_phone=organiser.is_this_phone(), has_code=bool(organiser.current_code()),
        phones=store.organiser_phone_count(db), deleted=deleted, at_once=store.AT_ONCE,
        held=held), status


@bp.route("/organiser", methods=["GET", "POST"])
def page():
    """The organiser's page: who is the organiser here, and the code to become it."""
    form = CodeForm()
    target = on_this_site(request.values.get("next", ""), url_for("organiser.page"))
    form.next.data = target
    if organiser.is_this_phone() and request.values.get("code") is not None:
        return redirect(target, code=303)       # the link opened again: nothing to do
    if request.method == "GET":
        if request.args.get("code") is None:
            return show(form)
        # The link: a GET never checks a code (an <img> of it in another site's page, which a
        # browser sends over plain http with no Sec-Fetch-Site nor Origin, counted wrong codes
        # against the club's address). Its page POSTs the code with the CSRF token, at once.
        return render_template("link_opened.html", title=_("Organiser"), action=url_for("organiser.page"),
                               fields={"code": request.args["code"], "next": target},
                               button=_("This phone is the organiser's"))
    if not form.validate_on_submit():
        return show(form, first_error(form), 400)
    code = form.code.data
    try:
        right = organiser.right_code(code)
    except limits.FromAnotherSite:          # an <img> of a page elsewhere: not tried, not counted
        return show(form, _("This code came from another site's page, so it was not tried: "
                            "type it here to become the organiser."), 403)
    except organiser.TooManyCodes as limit:
        minutes = max(1, math.ceil(limit.wait / 60))
        return show(form, ngettext("Too many wrong codes from this phone: wait %(num)d minute, "
                                   "then try again.", "Too many wrong codes from this phone: "
                                   "wait %(num)d minutes, then try again.", minutes), 429)
    if not right:
        return show(form, _("That is not the organiser's code.") if organiser.current_code() else
                    _("No organiser's code is set: start the companion with the scopa-companion "
                      "command, which prints one."), 403)
    organiser.log_in()
    current_app.logger.info("a phone at %s became the organiser's", request.remote_addr)
    flash(_("This phone is the organiser's until it logs out, or until it is left unused for "
            "12 hours."))
    return redirect(target, code=303)


@bp.post("/organiser/logout")
def log_out():
    """This phone is no longer the organiser's."""
    organiser.log_out()
    flash(_("This phone is no longer the organiser's."))
    return redirect(url_for("organiser.page"), code=303)


@bp.post("/organiser/logout-everyone")
@organiser.organiser_required(lambda: _("Ask the organiser to log the phones out."))
def log_out_everyone():
    """Every phone logged out, this one too (a lost phone, another organiser next week)."""
    count = organiser.log_out_everyone()
    flash(ngettext("%(num)d phone logged out, this one too: a phone becomes the organiser's "
                   "again with the code.",
                   "%(num)d phones logged out, this one too: a phone becomes the organiser's "
                   "again with the code.", count))
    return redirect(url_for("organiser.page"), code=303)


@bp.post("/organiser/deleted/<int:match_id>/restore")
@organiser.organiser_required(lambda: _("Ask the organiser to bring a deleted match back."))
def restore_match(match_id: int):
    """A match deleted in the last day, back as it was (its hands, its players' records)."""
    match (outcome := match_service.restore_match(match_id)):
        case match_service.GoneForGood():
            flash(_("That match cannot come back any more: it was deleted more than a day ago."))
            return redirect(url_for("organiser.page"), code=303)
        case match_service.NotRestored(why):
            flash(_("Not brought back: %(why)s.", why=say(why)))
            return redirect(url_for("organiser.page"), code=303)
        case match_service.MatchRestored():
            flash(_("Match %(number)s is back, with its hands.", number=match_id))
            return redirect(url_for("table.match", match_id=match_id), code=303)
        case _:
            assert_never(outcome)


@bp.post("/organiser/held/lift")
@organiser.organiser_required(lambda: _("Ask the organiser to let a phone try again."))
def lift_held():
    """A phone or an address held by a limit (the list on the organiser's page) may try again
    at once: one of the club's, held by another's tries, or a table's fumbled PIN."""
    lifted = limits.lift(request.form.get("kind", ""), request.form.get("scope", ""), request.form.get("key", ""))
    flash(_("It may try again now.") if lifted else _("It was no longer held."))
    return redirect(url_for("organiser.page", _anchor="held"), code=303)


@bp.get("/organiser/qr")
@organiser.organiser_required(lambda: _("Ask the organiser for the QR of the night."))
def night_qr():
    """The QR of the night, for the club's phones: the join address with a token drawn now
    (``web.welcome``), as large as the screen, printable."""
    url = join_url()
    until = (datetime.now(timezone.utc) + timedelta(seconds=welcome.NIGHT)).isoformat(timespec="seconds")
    return render_template("organiser/qr.html", url=url, until=until,
                           qr_svg=qr_svg(welcome.shown(url, True), scalable=True))


@bp.post("/organiser/qr/renew")
@organiser.organiser_required(lambda: _("Ask the organiser for the QR of the night."))
def renew_qr():
    """A new QR of the night: the old one lets no more phones in (those in stay in)."""
    if welcome.renew():
        flash(_("A new QR: the old one lets no more phones in."))
    else:
        flash(_("The QR could not be renewed: the data folder cannot be written."))
    return redirect(url_for("organiser.night_qr"), code=303)
