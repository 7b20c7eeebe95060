"""Tournaments over JSON: make one and start its next round (the organiser only: the organiser's
code in X-Scopa-Organiser), read it, and its standings as CSV."""

from __future__ import annotations

from flask import jsonify, url_for

from .. import store
from ..i18n import for_api
from ..rules.said import said
from ..tournaments.model import TournamentError
from ..tournaments.service import create, load, start_next_round, tournament_json
from ..tournaments.sheets import standings_rows
from ..web.exports import to_csv
from ..web.pages import csv_answer
from .blueprint import bp, organiser_only
from .parse import BadRequest, NotFoundError, body, created


def _tournament(tournament_id: int):
    """The tournament, or 404 in words."""
    found = load(tournament_id)
    if found is None:
        raise NotFoundError(said("no such tournament"))
    return found


@bp.post("/tournaments")
def create_tournament_api():
    """A new tournament, checked whole first (400 in words); 201 with where it lives. The
    organiser only."""
    organiser_only(said("only the organiser may make a tournament: send the organiser's code in "
                        "the X-Scopa-Organiser header"))
    data = body()
    try:
        tournament_id = create(
            data.get("name"), data.get("format"), data.get("variant", "classica"),
            data.get("options") or {}, data.get("entrants"), data.get("rounds"),
            data.get("seeding"), data.get("pin"))
    except TournamentError as problem:
        raise BadRequest(problem.args[0]) from None
    return created(tournament_json(_tournament(tournament_id)),
                    url_for("api.get_tournament", tournament_id=tournament_id))


@bp.get("/tournaments/<int:tournament_id>")
def get_tournament(tournament_id: int):
    """The tournament: its rounds, tables and standings."""
    return jsonify(tournament_json(_tournament(tournament_id)))


@bp.post("/tournaments/<int:tournament_id>/rounds")
def start_round_api(tournament_id: int):
    """Start the next round (the first included): 409 while a round is being played, or once
    the tournament is over. The organiser only."""
    found = _tournament(tournament_id)
    organiser_only(said("only the organiser may start a round: send the organiser's code in the "
                        "X-Scopa-Organiser header"))
    try:
        start_next_round(found)
    except (TournamentError, store.RoundStarted) as problem:
        message = problem.args[0] if isinstance(problem, TournamentError) else said(
            "that round was started meanwhile")
        response = jsonify({"error": for_api(message), **tournament_json(_tournament(tournament_id))})
        response.status_code = 409
        return response
    response = jsonify(tournament_json(_tournament(tournament_id)))
    response.status_code = 201
    return response


@bp.get("/tournaments/<int:tournament_id>/standings.csv")
def standings_csv_api(tournament_id: int):
    """The standings for a spreadsheet, as the pages give them (UTF-8 with a byte order mark,
    every field quoted), each column named as the JSON's standings name it and each tie-break by
    its code."""
    found = _tournament(tournament_id)
    return csv_answer(to_csv(standings_rows(found, str, {})), f"scopa-tournament-{found.id}-standings.csv")
