"""The OpenAPI document's tournament entrants and standings (tournaments.model): an entrant as
kept (typed order, seed, late or withdrawn), and a row per entrant, in the order the tie-breaks
put them, each saying what put it below the one above. The answers' models, and the paths beside
them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .answer_models import Closed, Error, Number

DecidedBy = Literal["points", "buchholz_cut1", "buchholz", "head_to_head", "sonneborn_berger", "difference",
                   "scored", "entry_order"]


class Standing(Closed):
    """An entrant's row of the standings."""

    entrant: str
    played: int
    won: int
    drawn: int
    lost: int
    byes: int = Field(description="rounds won without a game: byes, and forfeit wins (the opponent "
                                  "withdrew), each also played and won")
    match_points: int = Field(description="a win 2, a draw 1, a bye or a forfeit win counts as a win")
    scored: int
    conceded: int
    difference: int
    buchholz_cut1: int | None = Field(description="a Swiss's: the opponents' points but the lowest "
                                                  "(Buchholz Cut-1)")
    buchholz: int | None = Field(description="a Swiss's: the opponents' points (Buchholz); a round not "
                                             "played counts the entrant's own points, at most a draw's a "
                                             "round (a forfeit win: at most the points of the one who "
                                             "withdrew)")
    head_to_head: Number | None = Field(description="the points against the others level with them, where "
                                                   "every two of them met (else null)")
    sonneborn_berger: int | None = Field(description="a round robin's: each beaten opponent's points twice, a "
                                                     "drawn one's once; a forfeit win as a win over the one "
                                                     "who withdrew")
    withdrawn: bool
    decided_by: DecidedBy | None = Field(description="what put this row below the one above. Swiss: points, "
                                                     "buchholz_cut1, buchholz, head_to_head, difference, "
                                                     "scored, entry_order; round robin: points, head_to_head, "
                                                     "sonneborn_berger, difference, scored, entry_order; "
                                                     "knockout: points, difference, scored, entry_order")


class Entrant(Closed):
    number: int = Field(description="from 1, as typed: the number in .../entrants/<number>/withdraw")
    name: str
    players: list[str]
    seed: int = Field(description="1 the top seed")
    joined: int = Field(description="the first round they are paired in")
    missed_points: int = Field(description="a late entrant's match points for each round before joining")
    withdrawn: int | None = Field(description="the rounds started when they withdrew: paired in none "
                                              "after; null while in")


class Table(Closed):
    table: int
    match: int
    entrants: list[str] = Field(description="the match's sides, in order")
    totals: list[int]
    over: bool
    chances: list[Number] | None = Field(description="each entrant's chance to win, from the ratings as the "
                                                    "round started; null once the table has begun")
    winner: str | None
    withdrew: str | None = Field(description="the entrant who withdrew before it was over: it is not "
                                             "played, whatever is entered there after; its winner is the "
                                             "other entrant, by forfeit (null if both left)")


class Round(Closed):
    number: int
    over: bool
    tables: list[Table]
    byes: list[str]
    rests: list[str] = Field(description="a round robin's entrants whose opponent withdrew before the "
                                         "round: each wins that game by forfeit")


class Tournament(Closed):
    """A tournament: its entrants, rounds and tables (each an ordinary match), standings, winner
    (``api.tournaments.tournament_answer``)."""

    id: int
    name: str
    format: str
    variant: str
    rules: dict[str, Any]
    entrants: list[Entrant] = Field(description="in the order the organiser typed them")
    planned_rounds: int
    rounds: list[Round]
    standings: list[Standing] = Field(description="a row per entrant, in the order the tie-breaks put "
                                                  "them, each saying what put it below the one above")
    over: bool
    winner: str | None
    pin: bool


class TournamentRefused(Tournament, Error):     # Error's field first, as the answer gives it
    """refused: the reason, and the tournament as it is"""


TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "integer"}}
ENTRANT_NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"},
                  "description": "the entrant's number, from 1 in the order typed"}


def tournament_paths(ok, body, error: dict, write_errors: dict, organiser: dict) -> dict:
    """The tournaments' paths, given the document's own makers of answers and bodies and its
    shared parameters (``api/openapi.py``)."""
    ERROR, WRITE_ERRORS, ORGANISER = error, write_errors, organiser
    return {
        "/api/v1/tournaments": {"post": {
            "summary": "Make a tournament (round-robin, swiss or knockout); its rounds start with "
                       "POST .../rounds. The organiser only (X-Scopa-Organiser).",
            "operationId": "createTournament", "parameters": [ORGANISER],
            "requestBody": body("NewTournament"),
            "responses": {"201": {**ok("Tournament", "the tournament"), "links": {
                "StartRound": {"operationId": "startRound",
                               "parameters": {"tournament_id": "$response.body#/id"}}}},
                "400": ERROR, "403": {**ERROR, "description": "not the organiser"}, "413": ERROR,
                "429": ERROR, "503": WRITE_ERRORS["503"]}}},
        "/api/v1/tournaments/{tournament_id}": {"get": {
            "summary": "A tournament: its rounds and tables (each an ordinary match), standings, winner",
            "parameters": [TOURNAMENT_ID], "responses": {"200": ok("Tournament"), "404": ERROR}}},
        "/api/v1/tournaments/{tournament_id}/rounds": {"post": {
            "summary": "Start the next round, the first included: one match per table (each with the "
                       "tournament's PIN, if it has one). The organiser only (X-Scopa-Organiser).",
            "operationId": "startRound", "parameters": [TOURNAMENT_ID, ORGANISER],
            "requestBody": {"required": False, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NoBody"}}},
                "description": "{} or nothing (no key is taken: the JSON's Content-Type is what a form cannot send)"},
            "responses": {"201": ok("Tournament", "started"),
                          "409": ok("TournamentRefused", "a round is being played, or the tournament is over"),
                          "400": ERROR, "403": {**ERROR, "description": "not the organiser"}, "404": ERROR,
                          "429": ERROR, "503": WRITE_ERRORS["503"]}}},
        "/api/v1/tournaments/{tournament_id}/entrants": {"post": {
            "summary": "Add a late entrant: before round 1 of any format, or before any round but "
                       "the last of a Swiss (paired from the next round, with the points given for "
                       "each round missed). The organiser only (X-Scopa-Organiser).",
            "operationId": "addEntrant", "parameters": [TOURNAMENT_ID, ORGANISER],
            "requestBody": body("LateEntrant"),
            "responses": {"201": ok("Tournament", "added"),
                          "409": ok("TournamentRefused", "the tournament takes no entrant now (a "
                                                         "round robin or knockout under way, over)"),
                          **WRITE_ERRORS}}},
        **{f"/api/v1/tournaments/{{tournament_id}}/entrants/{{number}}/{change}": {"post": {
            "summary": summary, "operationId": operation,
            "parameters": [TOURNAMENT_ID, ENTRANT_NUMBER, ORGANISER],
            "requestBody": {**body("EntrantChange"),
                            "description": "{}, or the entrant's name as read beside the number"},
            "responses": {"200": ok("Tournament", "done, or as it was already"),
                          "409": ok("TournamentRefused", refused), **WRITE_ERRORS}}}
           for change, operation, summary, refused in (
               ("withdraw", "withdrawEntrant",
                "Withdraw an entrant: paired in no round from the next; their results stay, and "
                "their opponents' points. Before round 1, taken off the list. A table of theirs "
                "not over, and in a round robin every later game the schedule gives them, is won "
                "by forfeit by the other entrant (in a knockout, who goes through). The organiser "
                "only (X-Scopa-Organiser).",
                "the tournament is over, the entrant is out of the knockout, or too few would stay"),
               ("reinstate", "reinstateEntrant",
                "Bring back an entrant who withdrew, until the next round starts. The organiser "
                "only (X-Scopa-Organiser).",
                "a round has started since they withdrew, or the tournament is over"))},
        "/api/v1/tournaments/{tournament_id}/standings.csv": {"get": {
            "summary": "The standings as CSV: a header row (place, entrant, players for pairs, "
                       "match_points, each tie-break's figure, won, drawn, lost, played, byes, scored, "
                       "conceded, tie_break), then a row per entrant in the standings' order",
            "parameters": [TOURNAMENT_ID],
            "responses": {"200": {"description": "UTF-8 with a byte order mark, every field quoted",
                                  "content": {"text/csv": {"schema": {"type": "string"}}}},
                          "404": ERROR}}}
    }
