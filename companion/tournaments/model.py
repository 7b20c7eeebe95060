"""A tournament as the organiser and the wall see it, worked out from what is stored: its rounds
and tables, each table's match as it stands, the standings with their tie-breaks, and the next
round's pairings. Nothing here touches Flask or the database (``pairing`` pairs and
ranks; ``store.tournament_state`` reads the rows).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..matches import seating, sides_for
from ..names import NAME_REFUSED, name_fits, names_clash, tidy
from ..rules import rules_from_dict
from ..rules.said import said
from . import pairing

FORMATS = ("round-robin", "swiss", "knockout")


class TournamentError(Exception):
    """A tournament asked of the wrong form, or a round asked for at the wrong time: the
    reason is a Said."""


@dataclass
class Table:
    number: int
    match_id: int
    entrants: tuple[int, int]           # by their number in the tournament's list
    totals: tuple[int, ...]
    over: bool
    winner: int | None                  # the winning entrant, once over (None: a draw)
    hands: int
    seats: list[str] = field(default_factory=list)     # round the table, from the first side's
    dealer: str = ""                                   # who deals the first hand
    odds: list[float] | None = None     # each side's chance to win as the round started

    @property
    def chances(self) -> list[float] | None:
        """Each side's chance to win, only while the table has not begun: a running or
        finished table shows its score, never a chance."""
        return None if self.hands or self.over else self.odds


@dataclass
class Round:
    number: int
    tables: list[Table]
    byes: list[int]
    slots: list[dict[str, int]] = field(default_factory=list)    # tables and byes, bracket order

    def bracket(self) -> list[tuple[tuple[int, int | None], int | None]]:
        """Each slot's entrants and winner, in bracket order (a bye's winner is its entrant)."""
        tables = {t.number: t for t in self.tables}
        return [((slot["bye"], None), slot["bye"]) if "bye" in slot
                else (tables[slot["table"]].entrants, tables[slot["table"]].winner)
                for slot in self.slots]

    @property
    def over(self) -> bool:
        return all(table.over for table in self.tables)


@dataclass
class Tournament:
    id: int
    name: str
    format: str
    rules: Any
    entrants: list[dict[str, Any]]
    planned: int | None                 # a Swiss's rounds
    seeding: str
    pin_hash: str | None
    version: int
    rounds: list[Round] = field(default_factory=list)

    @property
    def has_pin(self) -> bool:
        return bool(self.pin_hash)

    @property
    def names(self) -> list[str]:
        return [entrant["name"] for entrant in self.entrants]

    @property
    def total_rounds(self) -> int:
        n = len(self.entrants)
        if self.format == "round-robin":
            return n - 1 if n % 2 == 0 else n
        if self.format == "swiss":
            return self.planned or 1
        return (n - 1).bit_length()     # a knockout: rounds to the final

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def over(self) -> bool:
        return len(self.rounds) == self.total_rounds and self.rounds[-1].over

    @property
    def may_start(self) -> bool:
        """Whether the next round can start now: the last one is over, and one remains."""
        return len(self.rounds) < self.total_rounds and (not self.rounds or self.rounds[-1].over)

    def games(self) -> list[pairing.Game]:
        return [(t.entrants[0], t.entrants[1], t.totals[0], t.totals[1], t.winner)
                for r in self.rounds for t in r.tables if t.over]

    def byes(self) -> list[tuple[int, int]]:
        return [(entrant, r.number) for r in self.rounds for entrant in r.byes]

    def standings(self) -> list[pairing.Row]:
        return pairing.standings(list(range(len(self.entrants))), self.games(), self.byes(),
                                 swiss=self.format == "swiss")

    @property
    def winner(self) -> int | None:
        """The entrant who won it, once it is over: the knockout's champion, else the first of
        the standings."""
        if not self.over:
            return None
        if self.format == "knockout":
            final = self.rounds[-1].bracket()
            return pairing.knockout_champion([entrants for entrants, _ in final],
                                             [winner for _, winner in final])
        return self.standings()[0].entrant

    def next_round(self, rng: random.Random | None = None) -> list[tuple[int, int | None]]:
        """The next round's tables in order, a bye as ``(entrant, None)``. TournamentError when
        none may start."""
        if self.over or len(self.rounds) >= self.total_rounds:
            raise TournamentError(said("the tournament is over"))
        if self.rounds and not self.rounds[-1].over:
            raise TournamentError(said("round {number} is still being played",
                                       number=self.rounds[-1].number))
        n = len(self.entrants)
        if self.format == "round-robin":
            tables = pairing.berger_rounds(n)[len(self.rounds)]
        elif self.format == "swiss" and not self.rounds:   # the Dutch system's round 1
            pairs, bye = pairing.swiss_first_round(range(n))
            tables = [*pairs, *([(bye, None)] if bye is not None else [])]
        elif self.format == "swiss":
            order = [row.entrant for row in self.standings()]
            points = {row.entrant: row.match_points for row in self.standings()}
            played = {frozenset(t.entrants) for r in self.rounds for t in r.tables}
            had_bye = {entrant for r in self.rounds for entrant in r.byes}
            pairs, bye = pairing.swiss_round(order, played, had_bye, points)
            tables = [*pairs, *([(bye, None)] if bye is not None else [])]
        elif not self.rounds:
            tables = pairing.knockout_first_round(range(n), rng if self.seeding == "draw" else None)
        else:
            last = self.rounds[-1]
            level = [t for t in last.tables if t.winner is None]
            if level:
                raise TournamentError(said("table {number} ended level: a knockout needs a winner "
                                           "(play on, or correct a hand)", number=level[0].number))
            bracket = last.bracket()
            tables = pairing.knockout_next_round([entrants for entrants, _ in bracket],
                                                 [winner for _, winner in bracket])
        return list(tables)

    def seats(self) -> int:
        return 2 * len(self.entrants[0]["players"])


def build(state: dict[str, Any]) -> Tournament:
    """The tournament from ``store.tournament_state``."""
    row = state["tournament"]
    tournament = Tournament(row["id"], row["name"], row["format"], rules_from_dict(row["rules"]),
                            row["entrants"], row["rounds"], row["seeding"] or "order",
                            row["pin_hash"], row["version"] or 0)
    tables: dict[int, list[Table]] = {}
    for t in state["tables"]:
        summary = t["match"]["summary"] or {}
        over = bool(summary.get("over")) and not t["match"]["deleted"]
        side = summary.get("winner")
        entrants = (t["first"], t["second"])
        seats = [player for player, _side in seating(t["match"]["sides"])] if t["match"]["sides"] else []
        tables.setdefault(t["round"], []).append(Table(
            t["number"], t["match_id"], entrants, tuple(summary.get("totals") or (0, 0)), over,
            None if side is None else entrants[side], summary.get("hands", 0), seats,
            seats[t["match"]["first_dealer"] % len(seats)] if seats else "", t.get("chances")))
    tournament.rounds = [Round(r["number"], tables.get(r["number"], []), r["byes"], r["slots"])
                         for r in state["rounds"]]
    return tournament


def entrants_from(given: Any) -> list[dict[str, Any]]:
    """Entrants as the API gives them (names, or pairs ``{"name", "players"}``): each as
    ``{"name", "players"}``. TournamentError in words when they are not of that form."""
    if not isinstance(given, list) or not 2 <= len(given) <= 64:
        raise TournamentError(said("entrants must be a list of 2 to 64 names or pairs"))
    entrants = []
    for entrant in given:
        if isinstance(entrant, str):
            entrants.append({"name": tidy(entrant), "players": [tidy(entrant)]})
        elif (isinstance(entrant, dict) and isinstance(entrant.get("name"), str)
              and isinstance(entrant.get("players"), list) and len(entrant["players"]) == 2
              and all(isinstance(p, str) for p in entrant["players"])):
            entrants.append({"name": tidy(entrant["name"]),
                             "players": [tidy(p) for p in entrant["players"]]})
        else:
            raise TournamentError(said('each entrant is a name, or a pair {form}',
                                       form='{"name": ..., "players": [two names]}'))
    sizes = {len(e["players"]) for e in entrants}
    if len(sizes) != 1:
        raise TournamentError(said("the entrants must be all players or all pairs"))
    names = [e["name"] for e in entrants] + [p for e in entrants for p in e["players"] if len(e["players"]) > 1]
    if not all(name_fits(n) for n in names):
        raise TournamentError(NAME_REFUSED)
    players = [p for e in entrants for p in e["players"]]
    # Pairs: a team is never called like a player ("Anna" the team beside Anna the player
    # would make the standings unclear), as a match's teams are not.
    teams = [e["name"] for e in entrants] if sizes == {2} else []
    clash = names_clash([e["name"] for e in entrants]) or names_clash([*teams, *players])
    if clash:
        raise TournamentError(clash)
    return entrants


def table_sides(tournament: Tournament, first: int, second: int) -> list[dict[str, Any]]:
    """The sides of a table's match, team mates seated apart as in any match."""
    a, b = tournament.entrants[first], tournament.entrants[second]
    if len(a["players"]) == 1:
        return sides_for("2", [a["name"], b["name"]], [])
    return [{"name": a["name"], "players": list(a["players"])},
            {"name": b["name"], "players": list(b["players"])}]
