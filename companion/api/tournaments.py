"""Tournaments over JSON: make one, read it, start its next round (with its PIN in X-Scopa-PIN)."""

from __future__ import annotations

from flask import jsonify, request, url_for

from .. import store
from ..i18n import for_api
from ..rules.said import said
from ..tournaments.model import TournamentError
from ..tournaments.service import create, load, start_next_round, tournament_json
from ..web.access import try_tournament_pin
from .blueprint import bp
from .parse import BadRequest, Forbidden, NotFoundError, body, created


def _tournament(tournament_id: int):
    """The tournament, or 404 in words."""
    found = load(tournament_id)
    if found is None:
        raise NotFoundError(said("no such tournament"))
    return found


@bp.post("/tournaments")
def create_tournament_api():
    """A new tournament, checked whole first (400 in words); 201 with where it lives."""
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
    the tournament is over. With a PIN, X-Scopa-PIN."""
    found = _tournament(tournament_id)
    if found.pin_hash and not try_tournament_pin(tournament_id, found.pin_hash,
                                                 request.headers.get("X-Scopa-PIN")):
        raise Forbidden(said("this tournament has a PIN: send it in the X-Scopa-PIN header"))
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
