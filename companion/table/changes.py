"""A match's changes: who changed which hand, when, and what it was before; the organiser's undo
of any of them, in one tap (``service.undo_change``)."""

from __future__ import annotations

from typing import assert_never

from flask import abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..store import reads as store
from ..web.organiser import organiser_required
from ..web.pages import load_match
from . import changelog, service
from .views import bp

PAGE = 50       # changes a page of them lists


@bp.get("/matches/<int:match_id>/changes")
def changes(match_id: int):
    """The match's changes, newest first, a page at a time (``before``: a change's id): the
    whole page, or to htmx (the match page's list, opened) the list alone."""
    current = load_match(match_id)
    before = request.args.get("before", type=int)
    if request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true":
        response = make_response(render_template("table/_changes_list.html", match=current,
                                                 **changelog.lines(current)))
    else:
        response = make_response(render_template("table/changes.html", match=current,
                                                 **changelog.lines(current, before, PAGE)))
    response.headers["Vary"] = "HX-Request"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/matches/<int:match_id>/changes/<int:change_id>/undo")
@organiser_required(lambda: _("Ask the organiser to undo a change."))
def undo_change(match_id: int, change_id: int):
    """Put the change's hand back as it was before it: the organiser's, in one tap, whatever
    was done to the hand since; the undo is itself a change of the log."""
    load_match(match_id)
    done = service.undo_change(match_id, change_id)
    match done:
        case service.NoSuchChange() | service.NoSuchMatch():
            abort(404)
        case service.Undone(change_id=None):
            flash(_("The hand is already as it was before change %(change)s: nothing was changed.",
                    change=change_id))
        case service.Undone():
            row = store.change_row(store.get_db(), match_id, change_id)
            flash(_("Change %(change)s undone: hand %(number)s is as it was before it; the totals "
                    "are worked out again.", change=change_id, number=row["number"] if row else "?"))
        case _:
            assert_never(done)
    return redirect(url_for("table.match", match_id=match_id), code=303)
