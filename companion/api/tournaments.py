"""Tournaments over JSON: make one, start its next round, add a late entrant, withdraw an entrant
or bring one back (the organiser only: the organiser's code in X-Scopa-Organiser), read it, and
its standings as CSV."""

from __future__ import annotations

from typing import assert_never

from flask import jsonify, url_for

from ..i18n import for_api
from ..rules.said import Said, said
from ..tournaments.service import (
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
    create_from,
    load,
    start_next_round,
    tournament_json,
    withdraw,
)
from ..tournaments.sheets import standings_rows
from ..web.exports import to_csv
from ..web.pages import csv_answer
from ..web.tournament_requests import EntrantChange, LateEntrant
from .blueprint import bp, organiser_only
from .parse import BadRequest, NotFoundError, body, created, no_body


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
    match (made := create_from(body())):
        case Made(tournament_id):
            return created(tournament_json(_tournament(tournament_id)),
                           url_for("api.get_tournament", tournament_id=tournament_id))
        case Refused(reason):
            raise BadRequest(reason)
        case _:
            assert_never(made)


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
    no_body()
    match (outcome := start_next_round(found)):
        case NotNow(reason):
            return _refused(tournament_id, reason)
        case RoundTaken() as taken:
            return _refused(tournament_id, taken.said)
        case RoundMade():
            response = jsonify(tournament_json(_tournament(tournament_id)))
            response.status_code = 201
            return response
        case _:
            assert_never(outcome)


def _refused(tournament_id: int, reason: Said):
    """409: what the tournament does not allow now, with the tournament as it is."""
    response = jsonify({"error": for_api(reason), **tournament_json(_tournament(tournament_id))})
    response.status_code = 409
    return response


@bp.post("/tournaments/<int:tournament_id>/entrants")
def add_entrant_api(tournament_id: int):
    """A late entrant (before a Swiss round, or any format's round 1): 201 with the tournament;
    409 with the reason when the tournament takes none now. The organiser only."""
    _tournament(tournament_id)
    organiser_only(said("only the organiser may add an entrant: send the organiser's code in the "
                        "X-Scopa-Organiser header"))
    asked = LateEntrant.read(body())
    return _answered(tournament_id, add_entrant(tournament_id, asked.given(), asked.points_per_missed_round))


@bp.post("/tournaments/<int:tournament_id>/entrants/<int:number>/withdraw")
def withdraw_api(tournament_id: int, number: int):
    """Entrant ``number`` (from 1; ``{"name"}``, if given, the one read beside it) withdraws:
    paired in no round from the next. The organiser only."""
    _tournament(tournament_id)
    organiser_only(said("only the organiser may withdraw an entrant: send the organiser's code in "
                        "the X-Scopa-Organiser header"))
    return _answered(tournament_id, withdraw(tournament_id, number, EntrantChange.read(body()).name))


@bp.post("/tournaments/<int:tournament_id>/entrants/<int:number>/reinstate")
def reinstate_api(tournament_id: int, number: int):
    """Entrant ``number``, who withdrew, paired again from the next round, until it starts. The
    organiser only."""
    _tournament(tournament_id)
    organiser_only(said("only the organiser may bring an entrant back: send the organiser's code "
                        "in the X-Scopa-Organiser header"))
    return _answered(tournament_id, bring_back(tournament_id, number, EntrantChange.read(body()).name))


def _answered(tournament_id: int, outcome: EntrantOutcome):
    """An entrant's change as JSON: the tournament as it now is (201 for an entrant added), or
    the reason it was refused."""
    match outcome:
        case Joined():
            return created(tournament_json(_tournament(tournament_id)),
                           url_for("api.get_tournament", tournament_id=tournament_id))
        case Withdrawn() | Removed() | BroughtBack() | AsItWas():
            return jsonify(tournament_json(_tournament(tournament_id)))
        case NotNow(reason):
            return _refused(tournament_id, reason)
        case Refused(reason):
            raise BadRequest(reason)
        case NoSuchEntrant():
            raise NotFoundError(said("no such entrant"))
        case NoSuchTournament():
            raise NotFoundError(said("no such tournament"))
        case _:
            assert_never(outcome)


@bp.get("/tournaments/<int:tournament_id>/standings.csv")
def standings_csv_api(tournament_id: int):
    """The standings for a spreadsheet, as the pages give them (UTF-8 with a byte order mark,
    every field quoted), each column named as the JSON's standings name it and each tie-break by
    its code."""
    found = _tournament(tournament_id)
    return csv_answer(to_csv(standings_rows(found, str, {})), f"scopa-tournament-{found.id}-standings.csv")
