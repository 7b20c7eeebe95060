"""A tournament night: the organiser's page, the board for the wall, printable pairings and
standings; and what the pages and the JSON API share to make a tournament and start a round.
"""

from __future__ import annotations

import random
import re
from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from . import store
from .access import (TooManyTries, hash_pin, new_access_key, tournament_unlocked, try_tournament_pin,
                     unlock_new, unlock_tournament)
from .forms import FORMAT_WORDS, NewTournamentForm
from .i18n import explain, variant_title
from .matches import Ledger
from .rules import RulesError, rules_for
from .rules.rulesets import PRESETS, check_seating
from .rules.said import said
from .tournaments import FORMATS, Tournament, TournamentError, build, entrants_from, table_sides

bp = Blueprint("tournaments", __name__)


# -- Shared with the API -------------------------------------------------------------------------

def load(tournament_id: int) -> Tournament | None:
    state = store.tournament_state(store.get_db(), tournament_id)
    return None if state is None else build(state)


def create(name: Any, format: Any, variant: Any, options: Any, entrants: Any, rounds: Any,
           seeding: Any, pin: Any) -> int:
    """A new tournament, checked whole first: TournamentError (or RulesError) in words."""
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 60:
        raise TournamentError(said("a tournament needs a name of 1 to 60 characters"))
    if not isinstance(format, str) or format not in FORMATS:
        raise TournamentError(said("format must be one of: {names}", names=", ".join(FORMATS)))
    if not isinstance(variant, str) or variant not in PRESETS:
        raise TournamentError(said("variant must be one of: {names}", names=", ".join(PRESETS)))
    rules = rules_for(variant, options if isinstance(options, dict) else {})
    entrants = entrants_from(entrants)
    check_seating(rules, 2, len(entrants[0]["players"]))
    if format == "swiss":
        if rounds is None:
            rounds = max(1, (len(entrants) - 1).bit_length())
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds < len(entrants):
            raise TournamentError(said("a Swiss tournament of {n} entrants has 1 to {most} rounds",
                                       n=len(entrants), most=len(entrants) - 1))
    else:
        rounds = None
    if seeding is not None and (not isinstance(seeding, str) or seeding not in ("order", "draw")):
        raise TournamentError(said('seeding must be "order" or "draw"'))
    if pin is not None and (not isinstance(pin, str) or not re.fullmatch(r"\d{4,8}", pin)):
        raise TournamentError(said("pin must be 4 to 8 digits"))
    pin_hash = hash_pin(pin) if pin else None
    tournament_id = store.create_tournament(store.get_db(), name.strip(), format, rules.as_dict(),
                                            entrants, rounds, seeding or "order", pin_hash)
    if pin_hash:
        unlock_tournament(tournament_id, pin_hash)      # the phone that made it runs it
    return tournament_id


def start_next_round(tournament: Tournament) -> int:
    """Start the next round: its tables' matches made, each with the entrants' names as its
    sides' names in the table's order and a dealer drawn. Returns its number. TournamentError
    when none may start; store.RoundStarted when another phone started it just now."""
    slots = []
    for first, second in tournament.next_round(random.Random()):
        if second is None:
            slots.append((first, None, None, 0))
        else:
            slots.append((first, second, table_sides(tournament, first, second),
                          random.randrange(tournament.seats())))
    number = len(tournament.rounds) + 1
    keys: list[str] = []

    def key() -> str:
        keys.append(new_access_key())
        return keys[-1]

    store.start_round(store.get_db(), tournament.id, number, slots, Ledger, key)
    if tournament.has_pin:
        for made in keys:           # the organiser's phone may record at every table
            unlock_new(made)
    return number


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    names = tournament.names
    winner = tournament.winner
    return {
        "id": tournament.id, "name": tournament.name, "format": tournament.format,
        "variant": tournament.rules.preset, "rules": tournament.rules.as_dict(),
        "entrants": tournament.entrants, "planned_rounds": tournament.total_rounds,
        "rounds": [{"number": r.number, "over": r.over,
                    "tables": [{"table": t.number, "match": t.match_id,
                                "entrants": [names[e] for e in t.entrants],
                                "totals": list(t.totals), "over": t.over,
                                "winner": None if t.winner is None else names[t.winner]}
                               for t in r.tables],
                    "byes": [names[e] for e in r.byes]} for r in tournament.rounds],
        "standings": [{"entrant": names[row.entrant], "played": row.played, "won": row.won,
                       "drawn": row.drawn, "lost": row.lost, "byes": row.byes,
                       "match_points": row.match_points, "scored": row.scored,
                       "conceded": row.conceded, "difference": row.difference,
                       "head_to_head": row.head_to_head, "buchholz": row.buchholz,
                       "decided_by": row.decided_by} for row in tournament.standings()],
        "over": tournament.over, "winner": None if winner is None else names[winner],
        "pin": tournament.has_pin,
    }


# -- Pages ---------------------------------------------------------------------------------------

def the(tournament_id: int) -> Tournament:
    tournament = load(tournament_id)
    if tournament is None:
        abort(404)
    return tournament


# What each tie-break is called where the standings show it.
def tie_break_words() -> dict[str, str]:
    return {"points": _("match points"), "head_to_head": _("head-to-head"),
            "difference": _("points difference"), "scored": _("points scored"),
            "buchholz": _("Buchholz"), "seed": _("entry order")}


def format_words() -> dict[str, str]:
    return {code: str(words) for code, words in FORMAT_WORDS.items()}


@bp.get("/tournaments")
def tournament_list():
    rows = store.tournament_rows(store.get_db())
    return render_template("tournaments.html", rows=rows, formats=format_words(),
                           variant_title=variant_title)


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new_tournament():
    form = NewTournamentForm()
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
    return render_template("new_tournament.html", form=form, error=error), 400 if refused else 200


def page_data(tournament: Tournament) -> dict[str, Any]:
    return {"t": tournament, "names": tournament.names, "standings": tournament.standings(),
            "tie_breaks": tie_break_words(), "formats": format_words(),
            "variant": variant_title(tournament.rules.preset)}


@bp.get("/tournaments/<int:tournament_id>")
def tournament(tournament_id: int):
    t = the(tournament_id)
    return render_template("tournament.html", **page_data(t),
                           unlocked=tournament_unlocked(t.id, t.pin_hash))


@bp.post("/tournaments/<int:tournament_id>/rounds")
def start_round(tournament_id: int):
    t = the(tournament_id)
    try:
        if not tournament_unlocked(t.id, t.pin_hash) and not try_tournament_pin(t.id, t.pin_hash, request.form.get("pin")):
            flash(_("That is not the tournament's PIN: no round was started."))
            return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)
    except TooManyTries:
        flash(_("Too many tries: wait a minute, then try again."))
        return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)
    if request.form.get("round", type=int) != len(t.rounds) + 1:
        flash(_("Round %(number)s was already started (perhaps on another phone).", number=len(t.rounds)))
        return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)
    try:
        number = start_next_round(t)
    except TournamentError as problem:
        flash(explain(problem))
    except store.RoundStarted:
        flash(_("Round %(number)s was already started (perhaps on another phone).", number=len(t.rounds) + 1))
    else:
        flash(_("Round %(number)s started: the tables are below.", number=number))
    return redirect(url_for("tournaments.tournament", tournament_id=t.id), code=303)


@bp.get("/tournaments/<int:tournament_id>/board")
def board(tournament_id: int):
    t = the(tournament_id)
    from .views import join_url, qr_svg
    join = join_url().rstrip("/") + url_for("tournaments.tournament", tournament_id=t.id)
    return render_template("board.html", **page_data(t), join=join, qr_svg=qr_svg,
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
    return render_template("_board_live.html", **page_data(t), version=version)


@bp.get("/tournaments/<int:tournament_id>/pairings")
def pairings(tournament_id: int):
    t = the(tournament_id)
    number = request.args.get("round", type=int) or len(t.rounds)
    shown = next((r for r in t.rounds if r.number == number), None)
    return render_template("pairings.html", **page_data(t), shown=shown)


@bp.get("/tournaments/<int:tournament_id>/standings")
def standings(tournament_id: int):
    return render_template("standings_print.html", **page_data(the(tournament_id)))
