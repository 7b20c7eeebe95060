"""A tournament night's pages: the list, a new tournament, the organiser's page, the board for the
wall (and its live part), printable pairings and standings. Only the organiser makes a tournament
and starts its rounds."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import store
from ..i18n import explain, how_long, sentence, variant_title
from ..rules import RulesError
from ..web.access import TooManyTries, try_key
from ..web.organiser import organiser_required
from ..web.pages import join_url, qr_svg
from .forms import FORMAT_WORDS, NewTournamentForm
from .model import Tournament, TournamentError
from .service import create, load, start_next_round

bp = Blueprint("tournaments", __name__)

PAGE = 20      # tournaments listed at a time


def the(tournament_id: int) -> Tournament:
    tournament = load(tournament_id)
    if tournament is None:
        abort(404)
    return tournament


# What each tie-break is called where the standings show it.
def tie_break_words() -> dict[str, str]:
    return {"points": _("match points"), "head_to_head": _("head-to-head"),
            "difference": _("points difference"), "scored": _("points scored"),
            "buchholz": _("opponents' points"), "seed": _("entry order")}


def format_words() -> dict[str, str]:
    return {code: str(words) for code, words in FORMAT_WORDS.items()}


@bp.get("/tournaments")
def tournament_list():
    """The tournaments, newest first, PAGE at a time (``before``: an id)."""
    before = request.args.get("before", type=int)
    if before is not None and not 0 < before <= store.MAX_ID:
        before = None
    rows = store.tournament_rows(store.get_db(), before, limit=PAGE + 1)
    more = rows[PAGE - 1]["id"] if len(rows) > PAGE else None
    return render_template("tournaments/tournaments.html", rows=rows[:PAGE], more=more,
                           formats=format_words())


@bp.route("/tournaments/new", methods=["GET", "POST"])
@organiser_required(lambda: _("Ask the organiser to make a tournament."))
def new_tournament():
    form = NewTournamentForm(seeding="rating" if store.rating_list(store.get_db()) else "order")
    error = None
    if form.validate_on_submit():
        try:
            tournament_id = create(form.name.data, form.format.data, form.variant.data, {},
                                   form.entrant_list(), form.rounds.data, form.seeding.data,
                                   form.pin.data or None)

        except (TournamentError, RulesError) as problem:
            error = explain(problem)
        else:
            return redirect(url_for("tournaments.tournament", tournament_id=tournament_id), code=303)
    refused = error or form.errors
    return render_template("tournaments/new_tournament.html", form=form, error=error), 400 if refused else 200


def page_data(tournament: Tournament) -> dict[str, Any]:
    return {"t": tournament, "names": tournament.names, "standings": tournament.standings(),
            "tie_breaks": tie_break_words(), "formats": format_words(),
            "variant": variant_title(tournament.rules.preset)}


def rated(tournament: Tournament) -> dict[str, Any]:
    """Each entrant's rating, which the standings show. A table's chances to win are its own,
    kept as its round started (``Table.chances``), shown only until it begins."""
    return {"ratings": store.entrant_ratings(store.get_db(), tournament.entrants)}


@bp.get("/tournaments/<int:tournament_id>")
def tournament(tournament_id: int):
    t = the(tournament_id)
    return render_template("tournaments/tournament.html", **page_data(t), **rated(t))


@bp.post("/tournaments/<int:tournament_id>/rounds")
@organiser_required(lambda: _("Ask the organiser to start the next round."))
def start_round(tournament_id: int):
    """The next round's tables, made by the organiser (the tournament's PIN is the scorers':
    it guards its tables' matches)."""
    t = the(tournament_id)
    if request.form.get("round", type=int) != len(t.rounds) + 1:
        flash(_("Round %(number)s was already started (perhaps on another phone).", number=len(t.rounds)))
        return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)
    try:
        number = start_next_round(t)
    except TournamentError as problem:
        flash(sentence(explain(problem)))
    except store.RoundStarted:
        flash(_("Round %(number)s was already started (perhaps on another phone).", number=len(t.rounds) + 1))
    else:
        flash(_("Round %(number)s started: the tables are below.", number=number))
    return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)


@bp.get("/tournaments/<int:tournament_id>/board")
def board(tournament_id: int):
    t = the(tournament_id)
    join = join_url().rstrip("/") + url_for("tournaments.tournament", tournament_id=t.id)
    return render_template("tournaments/board.html", **page_data(t), join=join, qr_svg=qr_svg,
                           refresh=request.args.get("refresh") == "1",
                           version=store.tournament_version(store.get_db(), t.id))


@bp.get("/tournaments/<int:tournament_id>/board/live")
def board_live(tournament_id: int):
    """The board's changing part, polled every few seconds: nothing (and no swap) while nothing
    changed, like a match's poll."""
    version = store.tournament_version(store.get_db(), tournament_id)
    if version is None:
        abort(404)
    if request.args.get("since") == version:
        response = make_response("")
        response.headers["HX-Reswap"] = "none"
        return response
    t = the(tournament_id)
    return render_template("tournaments/_board_live.html", **page_data(t), version=version)


@bp.get("/tournaments/<int:tournament_id>/pairings")
def pairings(tournament_id: int):
    t = the(tournament_id)
    number = request.args.get("round", type=int) or len(t.rounds)
    shown = next((r for r in t.rounds if r.number == number), None)
    return render_template("tournaments/pairings.html", **page_data(t), shown=shown)


@bp.get("/tournaments/<int:tournament_id>/standings")
def standings(tournament_id: int):
    return render_template("tournaments/standings_print.html", **page_data(the(tournament_id)))


@bp.get("/tournaments/<int:tournament_id>/scorers")
@organiser_required(lambda: _("Ask the organiser for your table's link."))
def scorers(tournament_id: int):
    """The round's tables, each with the link, and its QR code, that lets a scorer's phone record
    at that table without typing the tournament's PIN: the organiser shows it table by table."""
    t = the(tournament_id)
    db, base = store.get_db(), join_url().rstrip("/")
    links = []
    for table in t.current.tables if t.current else []:
        key = (store.pin_and_key(db, table.match_id) or (None, None))[1]
        url = base + url_for("tournaments.scorer", tournament_id=t.id, match_id=table.match_id, key=key)
        links.append((table, url, qr_svg(url)))
    return render_template("tournaments/scorers.html", t=t, names=t.names, links=links)


@bp.get("/tournaments/<int:tournament_id>/scorer/<int:match_id>")
def scorer(tournament_id: int, match_id: int):
    """A table's scorer's link opened: this phone records at that table from now on."""
    t = the(tournament_id)
    if match_id not in {table.match_id for r in t.rounds for table in r.tables}:
        abort(404)
    try:
        if try_key(match_id, request.args.get("key", "")):
            flash(_("This phone can record hands at this table."))
            return redirect(url_for("table.match", match_id=match_id), code=303)
    except TooManyTries as limit:
        message = _("Too many wrong PINs: try again in %(wait)s.", wait=how_long(limit.wait))
        return render_template("error.html", message=message), 429
    message = _("This link is not this table's: ask the organiser for your table's link again.")
    return render_template("error.html", message=message), 403
