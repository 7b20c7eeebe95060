"""The organiser's tidy-up of the lists: matches ticked on the home page (or a page of
/matches) deleted with one tap, as spam from a guest's phone would need, each kept a day as
one deleted match is (``store.trash``); the notice's Undo brings them all back at once.

Plain forms: the boxes belong to the form by their ``form`` attribute, so the lists stay as
they are and nothing needs a script."""

from __future__ import annotations

from typing import assert_never

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _, ngettext

from ..i18n import say
from ..store import reads as store
from ..web.organiser import organiser_required
from ..web.pages import flash_action, on_this_site
from ..web.posts import Ticked, posted
from . import match_service
from .views import bp

MOST = store.AT_ONCE        # matches at once: a page shows at most 40 (in play and finished)


def ticked() -> list[int] | None:
    """The matches ticked (``match``, each an id), or None when there are more than ``MOST``.
    A value that is not an id is refused (``web.posts``), nothing deleted."""
    ids = list(dict.fromkeys(posted(Ticked).match))
    return ids if len(ids) <= MOST else None


@bp.post("/matches/delete")
@organiser_required(lambda: _("Ask the organiser to delete matches."))
def delete_selected():
    """Delete the matches ticked; the notice offers the Undo that brings them all back."""
    back = on_this_site(request.form.get("next", ""), url_for("table.index"))
    ids = ticked()
    if not ids:
        flash(_("Tick the matches to delete first.") if ids is not None else
              ngettext("At most %(num)d match at once.", "At most %(num)d matches at once.", MOST))
        return redirect(back, code=303)
    match (outcome := match_service.delete_matches(ids)):
        case match_service.MatchesDeleted(()):
            flash(_("Nothing was deleted: those matches are gone already, or tables of a tournament."))
        case match_service.MatchesDeleted(deleted):
            flash_action(ngettext("%(num)d match deleted: for a day the organiser can bring it back.",
                                  "%(num)d matches deleted: for a day the organiser can bring them back.",
                                  len(deleted)),
                         url_for("table.restore_selected"), _("Undo"),
                         [("match", match_id) for match_id in deleted] + [("next", back)])
        case _:
            assert_never(outcome)
    return redirect(back, code=303)


@bp.post("/matches/restore")
@organiser_required(lambda: _("Ask the organiser to bring deleted matches back."))
def restore_selected():
    """The Undo of a delete of several matches: every one of them back, with its hands."""
    back = on_this_site(request.form.get("next", ""), url_for("table.index"))
    ids = ticked()
    if not ids:
        return redirect(back, code=303)
    match (outcome := match_service.restore_matches(ids)):
        case match_service.MatchesRestored(restored, refused):
            if restored:
                flash(ngettext("%(num)d match is back, with its hands.",
                               "%(num)d matches are back, with their hands.", len(restored)))
            for match_id, why in refused:
                flash(_("Match %(number)s was not brought back: %(why)s.", number=match_id, why=say(why)))
        case _:
            assert_never(outcome)
    return redirect(back, code=303)
