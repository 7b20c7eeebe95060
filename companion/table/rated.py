"""Not rated (issue 32): the organiser leaves a match out of the players' ratings (a practice
match, a handicap, an invented result), or counts it again, from the match page. The match stays
in the lists and in its players' records; its result no longer moves a rating nor a chance to
win (match_service.set_rated, as the API's PUT)."""

from __future__ import annotations

from typing import assert_never

from flask import abort, flash, redirect, url_for
from flask_babel import gettext as _

from ..web.organiser import organiser_required
from ..web.pages import load_match
from ..web.posts import RatedPost, posted
from . import match_service
from .views import bp


@bp.post("/matches/<int:match_id>/rated")
@organiser_required(lambda: _("Ask the organiser to leave a match out of the ratings."))
def set_rated(match_id: int):
    current = load_match(match_id)
    match (outcome := match_service.set_rated(match_id, posted(RatedPost).rated)):
        case match_service.NoSuchMatch():
            abort(404)
        case match_service.Rated(True):
            flash(_("%(match)s counts in the ratings again.", match=current.title))
        case match_service.Rated():
            flash(_("%(match)s is not rated: its result moves nobody's rating.", match=current.title))
        case _:
            assert_never(outcome)
    return redirect(url_for("table.match", match_id=match_id), code=303)
