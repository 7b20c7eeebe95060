"""A tournament night's pages: the list, a new tournament, the organiser's page, the board for the
wall (and its live part), printable pairings and standings, the entrants (a late one added, one
withdrawn or brought back). Only the organiser makes a tournament, starts its rounds and changes
its entrants."""

from __future__ import annotations

from typing import Any, assert_never

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext

from ..i18n import explain, how_long, say, variant_title
from ..names import drawn_width
from ..rules import ScopaError
from ..store import reads as store
from ..web import organiser, welcome
from ..web.access import TooManyTries, try_key
from ..web.exports import to_csv
from ..web.forms import shown_at
from ..web.organiser import organiser_required
from ..web.pages import csv_answer, flash_said, join_url, qr_svg
from ..web.posts import RoundAsked, posted
from ..web.requests import Refused as NotOfItsShape
from ..web.tournament_requests import PAIR_FORM, EntrantChange, LateEntrant
from . import board as wall
from .entrants import actions, late_entry_refused
from .forms import FORMAT_WORDS, LateEntrantForm, NewTournamentForm
from .model import Tournament
from .service import (
    AsItWas,
    BroughtBack,
    EntrantOutcome,
    Joined,
    Made,
    NoSuchEntrant,
    NoSuchTournament,
    NotNow,
    Refused,
    Removed,
    RoundMade,
    RoundTaken,
    Withdrawn,
    add_entrant,
    bring_back,
    create,
    load,
    start_next_round,
    withdraw,
)
from .sheets import standings_rows

bp = Blueprint("tournaments", __name__)

PAGE = 20      # tournaments listed at a time


def the(tournament_id: int) -> Tournament:
    tournament = load(tournament_id)
    if tournament is None:
        abort(404)
    return tournament


# What each tie-break is called where the standings show it.
def tie_break_words() -> dict[str, str]:
    return {"points": _("match points"), "buchholz_cut1": _("opponents' points but the lowest"),
            "buchholz": _("opponents' points"), "head_to_head": _("head-to-head"),
            "sonneborn_berger": _("beaten opponents' points"), "difference": _("points difference"),
            "scored": _("points scored"), "entry_order": _("entry order")}


def refusal(reason: Any) -> str:
    """A refusal (a Said, or a ScopaError's) in the page's words: a pair refused as the API
    writes one ({"name": ..., "players": [...]}) is said as the pages' fields take it, "Nord:
    Anna, Bruno"."""
    if isinstance(reason, Exception):
        return refusal(reason.args[0]) if reason.args else str(reason)
    if getattr(reason, "values", {}).get("form") == PAIR_FORM:
        return _("Each entrant is a name (Anna), or a pair: its name, a colon and its two players "
                 "(Nord: Anna, Bruno).")
    return say(reason)


def tie_break_rule(format: str) -> str:
    """How the standings are ranked, in a sentence (standings.ORDERS)."""
    if format == "swiss":
        return _("A win 2 points, a draw 1, a bye counts as a win. Level on points: the opponents' "
                 "points but the lowest, then all of them, then head-to-head (only among entrants "
                 "who have all met), the points difference, the points scored, the entry order.")
    if format == "knockout":
        return _("A win 2 points, a bye counts as a win: the points are the round reached. Level on "
                 "points: the points difference, then the points scored, the entry order.")
    return _("A win 2 points, a draw 1, a bye counts as a win. Level on points: head-to-head (only "
             "among entrants who have all met), then the beaten opponents' points, the points "
             "difference, the points scored, the entry order.")


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
        match (made := create(form.name.data, form.format.data, form.variant.data, {},
                              form.entrant_list(), form.rounds.data, form.seeding.data,
                              form.pin.data or None)):
            case Made(tournament_id):
                return redirect(url_for("tournaments.tournament", tournament_id=tournament_id), code=303)
            case Refused(reason, at):
                error = shown_at(form.field_for(at), refusal(reason))
            case _:
                assert_never(made)
    refused = error or form.errors
    return render_template("tournaments/new_tournament.html", form=form, error=error), 400 if refused else 200


def page_data(tournament: Tournament) -> dict[str, Any]:
    return {"t": tournament, "names": tournament.names, "standings": tournament.standings(),
            "tie_breaks": tie_break_words(), "tie_break_rule": tie_break_rule(tournament.format),
            "formats": format_words(),
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
    if posted(RoundAsked).round != len(t.rounds) + 1:
        flash_said(RoundTaken(len(t.rounds)).said)
        return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)
    match (outcome := start_next_round(t)):
        case NotNow(reason):
            flash_said(reason)
        case RoundTaken() as taken:
            flash_said(taken.said)
        case RoundMade(number):
            flash(_("Round %(number)s started: the tables are below.", number=number))
        case _:
            assert_never(outcome)
    return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)


def team_players(t: Tournament) -> list[str] | None:
    """Each team's players as the board says them under the teams' names ("Anna & Bruno"), for
    a tournament of pairs whose teams are not all named after their players; else None."""
    players = [" & ".join(entrant["players"]) for entrant in t.entrants]
    if len(t.entrants[0]["players"]) < 2 or all(
            all(player in entrant["name"] for player in entrant["players"]) for entrant in t.entrants):
        return None
    return players


def board_data(t: Tournament) -> dict[str, Any]:
    """What the board's changing part draws: the page data, and its pages (tournaments/board.py)
    showing the page asked for (``?page=``, from 1: what the board's script shows, or a screen
    without JavaScript turns to at each refresh)."""
    data = page_data(t)
    page = min(max(request.args.get("page", 1, type=int), 1), 1000)
    words = data["tie_breaks"]
    notes = [_("tie-break: %(rule)s", rule=words[rule])
             for rule in dict.fromkeys(row.tie_break for row in data["standings"] if row.tie_break)]
    r = t.current
    players = team_players(t)
    tables = r.tables if r else []
    layout = wall.lay_out([[t.names[e] for e in table.entrants] for table in tables],
                          len(r.byes) if r else 0, len(data["standings"]), notes,
                          round_over=bool(r and r.over), page=page,
                          players=[[players[e] for e in table.entrants] if players else None for table in tables])
    # The standings' columns' headings, as tournaments/_standings.html writes them.
    headings = [_("Pts"), _("W-D-L"), _("F:A"), *([_("Opp.")] if t.format == "swiss" else [])]
    kind = layout.type
    return {**data, "layout": layout, "page": page, "players": players,
            "table_room": kind.table_room(), "side_room": kind.table_room(sides=3),
            "bye_room": kind.line - drawn_width(_("Bye: %(name)s", name="")),
            "standings_room": kind.standings_room(data["standings"], headings), "mark_room": wall.TIE_BREAK_MARK}


@bp.get("/tournaments/<int:tournament_id>/board")
def board(tournament_id: int):
    t = the(tournament_id)
    join = join_url().rstrip("/") + url_for("tournaments.tournament", tournament_id=t.id)
    return render_template("tournaments/board.html", **board_data(t), join=join, qr_svg=qr_svg,
                           qr_join=welcome.shown(join, organiser.is_organiser()),
                           refresh=request.args.get("refresh") == "1",
                           version=store.tournament_version(store.get_db(), t.id))


@bp.get("/tournaments/<int:tournament_id>/board/live")
def board_live(tournament_id: int):
    """The board's changing part, polled every few seconds: nothing (and no swap) while nothing
    changed, like a match's poll. The page turns on the screen, not here: a poll asks for the
    page shown, so that what it swaps in is that page."""
    version = store.tournament_version(store.get_db(), tournament_id)
    if version is None:
        abort(404)
    if request.args.get("since") == version:
        response = make_response("")
        response.headers["HX-Reswap"] = "none"
        return response
    t = the(tournament_id)
    return render_template("tournaments/_board_live.html", **board_data(t), version=version)


@bp.get("/tournaments/<int:tournament_id>/pairings")
def pairings(tournament_id: int):
    t = the(tournament_id)
    number = request.args.get("round", type=int) or len(t.rounds)
    shown = next((r for r in t.rounds if r.number == number), None)
    return render_template("tournaments/pairings.html", **page_data(t), shown=shown)


@bp.get("/tournaments/<int:tournament_id>/standings")
def standings(tournament_id: int):
    return render_template("tournaments/standings_print.html", **page_data(the(tournament_id)))


def sheet_words() -> dict[str, str]:
    """What the standings' sheet calls its columns (sheets.standings_rows); a tie-break's figure
    is called as the standings call the tie-break."""
    return {"place": _("Place"), "entrant": _("Entrant"), "players": _("Players"),
            "match_points": _("Match points"), "won": _("Won"), "drawn": _("Drawn"), "lost": _("Lost"),
            "played": _("Played"), "byes": _("Byes"), "scored": _("Points scored"),
            "conceded": _("Points conceded"), "withdrawn": _("Withdrawn"), "tie_break": _("Tie-break")}


@bp.get("/tournaments/<int:tournament_id>/standings.csv")
def standings_csv(tournament_id: int):
    """The standings for a spreadsheet: a row per entrant, in the page's language."""
    t = the(tournament_id)
    words, tie_breaks = sheet_words(), tie_break_words()

    def label(name: str) -> str:
        word = words.get(name) or tie_breaks.get(name, name)
        return word[:1].upper() + word[1:]

    return csv_answer(to_csv(standings_rows(t, label, tie_breaks)), f"scopa-tournament-{t.id}-standings.csv")


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


@bp.route("/tournaments/<int:tournament_id>/scorer/<int:match_id>", methods=["GET", "POST"])
def scorer(tournament_id: int, match_id: int):
    """A table's scorer's link opened: its page POSTs the key at once (a GET never checks one:
    an <img> of the link in another site's page counted wrong keys against the club's address),
    and that POST makes this phone record at that table from now on."""
    t = the(tournament_id)
    number = next((table.number for r in t.rounds for table in r.tables if table.match_id == match_id), None)
    if number is None:
        abort(404)
    if request.method == "GET":
        return render_template("link_opened.html", title=_("Table %(number)s", number=number),
                               action=url_for("tournaments.scorer", tournament_id=t.id, match_id=match_id),
                               fields={"key": request.args.get("key", "")},
                               button=_("Record at this table"))
    try:
        if try_key(match_id, request.form.get("key", "")):
            flash(_("This phone can record hands at this table."))
            return redirect(url_for("table.match", match_id=match_id), code=303)
    except TooManyTries as limit:
        message = _("Too many wrong PINs: try again in %(wait)s.", wait=how_long(limit.wait))
        return render_template("error.html", message=message), 429
    message = _("This link is not this table's: ask the organiser for your table's link again.")
    return render_template("error.html", message=message), 403


# The entrants: a late one added, one withdrawn or brought back ------------------------------

def outcome_words(outcome: EntrantOutcome) -> str:
    """What became of an entrant's change, in the page's words."""
    match outcome:
        case Joined(name, 1, _):
            return _("%(name)s is entered.", name=name)
        case Joined(name, number, 0):
            return _("%(name)s joins from round %(number)s, with no points for the rounds missed.",
                     name=name, number=number)
        case Joined(name, number, points):
            return ngettext("%(name)s joins from round %(number)s, with %(num)d point for the rounds missed.",
                            "%(name)s joins from round %(number)s, with %(num)d points for the rounds missed.",
                            points, name=name, number=number)
        case Withdrawn(name, after):
            return _("%(name)s withdrew: not paired from round %(number)s on; every result stays.",
                     name=name, number=after + 1)
        case Removed(name):
            return _("%(name)s is no longer an entrant.", name=name)
        case BroughtBack(name):
            return _("%(name)s is back: paired from the next round.", name=name)
        case AsItWas(name, withdrawn):
            return (_("%(name)s had withdrawn already.", name=name) if withdrawn else
                    _("%(name)s has not withdrawn.", name=name))
        case NotNow(reason) | Refused(reason):
            return say(reason)
        case NoSuchEntrant() | NoSuchTournament():
            abort(404)
        case _:
            assert_never(outcome)


@bp.route("/tournaments/<int:tournament_id>/entrants", methods=["GET", "POST"])
@organiser_required(lambda: _("Ask the organiser to add or withdraw an entrant."))
def entrants(tournament_id: int):
    """The entrants, each with what the organiser may do to them, and a late entrant added."""
    t = the(tournament_id)
    form, error = LateEntrantForm(), None
    if form.validate_on_submit():
        # Each refusal by the field it names (the points only where the page asks for them).
        try:
            asked = LateEntrant.read(form.asked())
        except NotOfItsShape as problem:
            error = shown_at(form.field_for(problem.at, bool(t.rounds)), refusal(problem))
        else:
            outcome = add_entrant(t.id, asked.given(), asked.points_per_missed_round)
            if isinstance(outcome, Joined):
                flash(outcome_words(outcome))
                return redirect(url_for("tournaments.entrants", tournament_id=t.id), code=303)
            at = outcome.at if isinstance(outcome, Refused) else ()
            error = shown_at(form.field_for(at, bool(t.rounds)), outcome_words(outcome))
    refused = late_entry_refused(t)
    return render_template("tournaments/entrants.html", t=t, names=t.names, form=form, error=error,
                           actions=actions(t), refused=None if refused is None else say(refused),
                           formats=format_words()), 400 if error or form.errors else 200


@bp.post("/tournaments/<int:tournament_id>/entrants/<int:number>/<any(withdraw, reinstate):change>")
@organiser_required(lambda: _("Ask the organiser to add or withdraw an entrant."))
def change_entrant(tournament_id: int, number: int, change: str):
    """Entrant ``number`` (from 1; the form says the name it showed beside it) withdraws
    (before round 1: off the list), or comes back."""
    the(tournament_id)
    try:
        name = EntrantChange.read(EntrantChange.sent_in(request.form)).name
    except ScopaError as problem:
        flash(explain(problem))
    else:
        flash(outcome_words((withdraw if change == "withdraw" else bring_back)(tournament_id, number, name)))
    return redirect(url_for("tournaments.entrants", tournament_id=tournament_id), code=303)
