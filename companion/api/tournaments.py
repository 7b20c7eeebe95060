"""Tournaments over JSON: make one, start its next round, add a late entrant, withdraw an entrant
or bring one back (the organiser only: the organiser's code in X-Scopa-Organiser), read it, and
its standings as CSV."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, TypeVar, assert_never, cast

from flask import url_for

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
    Tournament as TournamentRead,  # the model's, as the service loads it (the room's door to the API)
    Withdrawn,
    add_entrant,
    bring_back,
    create_from,
    load,
    start_next_round,
    withdraw,
)
from ..tournaments.sheets import standings_rows
from ..web.exports import to_csv
from ..web.pages import csv_answer
from ..web.tournament_requests import EntrantChange, LateEntrant
from .answers import created, sent
from .blueprint import bp, organiser_only
from .openapi_tournaments import DecidedBy, Entrant, Round, Standing, Table, Tournament, TournamentRefused
from .parse import BadRequest, NotFoundError, body, no_body

T = TypeVar("T", bound=Tournament)


def _tournament(tournament_id: int) -> TournamentRead:
    """The tournament, or 404 in words."""
    found = load(tournament_id)
    if found is None:
        raise NotFoundError(said("no such tournament"))
    return found


def tournament_answer(tournament: TournamentRead) -> Tournament:
    """The tournament: its entrants, rounds and tables, standings, winner."""
    return _tournament_as(Tournament, tournament)


def _tournament_as(kind: type[T], tournament: TournamentRead, **own: Any) -> T:
    """The tournament as ``kind`` of answer gives it, with what it adds (``own``: a refusal's
    reason, first)."""
    names = tournament.names
    winner = tournament.winner
    seeds = {entrant: seed for seed, entrant in enumerate(tournament.seeds, start=1)}
    return kind(
        **own,
        id=tournament.id, name=tournament.name, format=tournament.format,
        variant=tournament.rules.preset, rules=tournament.rules.as_dict(),
        entrants=[Entrant(number=e + 1, name=entrant["name"], players=entrant["players"], seed=seeds[e],
                          joined=tournament.joined(e), missed_points=tournament.missed_points(e),
                          withdrawn=tournament.withdrawn(e))
                  for e, entrant in enumerate(tournament.entrants)],
        planned_rounds=tournament.total_rounds,
        rounds=[Round(number=r.number, over=r.over,
                      tables=[Table(table=t.number, match=t.match_id, entrants=[names[e] for e in t.entrants],
                                    totals=list(t.totals), over=t.over, chances=t.chances,
                                    winner=None if t.winner is None else names[t.winner],
                                    withdrew=None if t.withdrew is None else names[t.withdrew])
                              for t in r.tables],
                      byes=[names[e] for e in r.byes], rests=[names[e] for e in r.rests])
                for r in tournament.rounds],
        standings=[Standing(entrant=names[row.entrant], played=row.played, won=row.won, drawn=row.drawn,
                            lost=row.lost, byes=row.byes, match_points=row.match_points, scored=row.scored,
                            conceded=row.conceded, difference=row.difference,
                            buchholz_cut1=row.buchholz_cut1, buchholz=row.buchholz,
                            head_to_head=_number(row.head_to_head), sonneborn_berger=row.sonneborn_berger,
                            withdrawn=row.withdrawn,
                            # one of the tie-breaks' names (standings.TIE_BREAKS), checked by the model
                            decided_by=cast(DecidedBy | None, row.decided_by))
                   for row in tournament.standings()],
        over=tournament.over, winner=None if winner is None else names[winner], pin=tournament.has_pin)


def _number(figure: Fraction | None) -> int | float | None:
    """A head-to-head's figure for JSON: whole, or a half where two met twice and split."""
    if figure is None:
        return None
    return int(figure) if figure == int(figure) else float(figure)


@bp.post("/tournaments")
def create_tournament_api():
    """A new tournament, checked whole first (400 in words); 201 with where it lives. The
    organiser only."""
    organiser_only(said("only the organiser may make a tournament: send the organiser's code in "
                        "the X-Scopa-Organiser header"))
    match (made := create_from(body())):
        case Made(tournament_id):
            return created(tournament_answer(_tournament(tournament_id)),
                           url_for("api.get_tournament", tournament_id=tournament_id))
        case Refused(reason):
            raise BadRequest(reason)
        case _:
            assert_never(made)


@bp.get("/tournaments/<int:tournament_id>")
def get_tournament(tournament_id: int):
    """The tournament: its rounds, tables and standings."""
    return sent(tournament_answer(_tournament(tournament_id)))


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
            return sent(tournament_answer(_tournament(tournament_id)), 201)
        case _:
            assert_never(outcome)


def _refused(tournament_id: int, reason: Said):
    """409: what the tournament does not allow now, with the tournament as it is."""
    return sent(_tournament_as(TournamentRefused, _tournament(tournament_id), error=for_api(reason)), 409)


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
            return created(tournament_answer(_tournament(tournament_id)),
                           url_for("api.get_tournament", tournament_id=tournament_id))
        case Withdrawn() | Removed() | BroughtBack() | AsItWas():
            return sent(tournament_answer(_tournament(tournament_id)))
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
