"""Not rated (issue 32): the organiser leaves a match out of the players' ratings (a practice
match, a handicap, an invented result), or counts it again, from the match page. The match stays
in the lists and in its players' records; its result no longer moves a rating nor a chance to
win (store.set_rated)."""

from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask_babel import gettext as _

from .. import store
from ..web.organiser import organiser_required
from ..web.pages import load_match
from .views import bp


@bp.post("/matches/<int:match_id>/rated")
@organiser_required(lambda: _("Ask the organiser to leave a match out of the ratings."))
def set_rated(match_id: int):
    current = load_match(match_id)
    rated = request.form.get("rated") == "1"
    if not store.set_rated(store.get_db(), match_id, rated):
        abort(404)
    flash(_("%(match)s counts in the ratings again.", match=current.title) if rated else
          _("%(match)s is not rated: its result moves nobody's rating.", match=current.title))
    return redirect(url_for("table.match", match_id=match_id), code=303)
