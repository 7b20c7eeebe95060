"""A tournament as the organiser and the wall see it, worked out from what is stored: its rounds
and tables, each table's match as it stands, the standings with their tie-breaks, and the next
round's pairings. Nothing here touches Flask or the database (``pairing`` pairs,
``standings`` ranks, ``entrants`` says who may join or leave; ``store.tournament_state`` reads
the rows).

The entrants are kept in the order the organiser typed them, each as ``{"name", "players"}``
with, where it applies: ``seed`` (1 the top seed), ``joined`` (a late entrant's first round),
``missed_points`` (the match points they have for each round before it), ``withdrawn`` (the
rounds started when they withdrew: they are paired in none after) and ``left`` (the matches of
the tables they withdrew from before those were over: never played, whatever is entered there
after).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..matches import seating, sides_for
from ..rules import rules_from_dict
from ..rules.said import said
from . import pairing
from .standings import Game, Row, Unplayed, standings


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
    withdrew: int | None = None         # the entrant who withdrew before it was over: it is not
    #                                     played, its winner the other entrant (a forfeit win),
    #                                     unless they withdrew from it too

    @property
    def chances(self) -> list[float] | None:
        """Each side's chance to win, only while the table has not begun: a running or
        finished table shows its score, never a chance."""
        return None if self.hands or self.over or self.withdrew is not None else self.odds

    @property
    def done(self) -> bool:
        """Over, or never to be: an entrant withdrew from it."""
        return self.over or self.withdrew is not None


@dataclass
class Round:
    number: int
    tables: list[Table]
    byes: list[int]
    slots: list[dict[str, int]] = field(default_factory=list)    # tables and byes, bracket order

    @property
    def rests(self) -> list[int]:
        """Who has no game this round because the opponent the schedule gave them withdrew (a
        round robin's): each wins it by forfeit (stored as a "rest" slot)."""
        return [slot["rest"] for slot in self.slots if isinstance(slot.get("rest"), int)]

    def bracket(self) -> list[tuple[tuple[int | None, int | None], int | None]]:
        """Each slot's entrants and winner, in bracket order (a bye's winner is its entrant; a
        slot whose two entrants both withdrew is empty: ``((None, None), None)``)."""
        tables = {t.number: t for t in self.tables}
        return [((slot["bye"], None), slot["bye"]) if "bye" in slot
                else (tables[slot["table"]].entrants, tables[slot["table"]].winner) if "table" in slot
                else ((None, None), None)
                for slot in self.slots if "rest" not in slot]

    @property
    def over(self) -> bool:
        return all(table.done for table in self.tables)


Slot = tuple[str, int | None, int | None]
"""A slot of a round to start: ("table", first, second), ("bye", entrant, None), ("rest",
entrant, None) or ("empty", None, None), a knockout's slot whose two entrants withdrew."""


@dataclass
class Tournament:
    id: int
    name: str
    format: str
    rules: Any
    entrants: list[dict[str, Any]]      # in the order the organiser typed them
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
    def seeds(self) -> list[int]:
        """The entrants best seed first: each entrant's ``seed`` (1 the top), where they make
        an order of them all; else the order typed (a tournament made before seeds were kept
        apart from it: its entrants were stored in seed order)."""
        seeds = [entrant.get("seed") for entrant in self.entrants]
        ranks = [s for s in seeds if type(s) is int]
        if sorted(ranks) == list(range(1, len(seeds) + 1)):     # every seed a rank (ranks is seeds)
            return sorted(range(len(ranks)), key=lambda e: ranks[e])
        return list(range(len(self.entrants)))

    def joined(self, entrant: int) -> int:
        """The first round ``entrant`` is paired in: 1, or a late entrant's."""
        return _round_number(self.entrants[entrant].get("joined")) or 1

    def withdrawn(self, entrant: int) -> int | None:
        """None, or the rounds started when ``entrant`` withdrew: they are paired in none after."""
        return _round_number(self.entrants[entrant].get("withdrawn"))

    def left(self, entrant: int) -> list[int]:
        """The matches of the tables ``entrant`` withdrew from before they were over."""
        kept = self.entrants[entrant].get("left")
        return [m for m in kept if type(m) is int] if isinstance(kept, list) else []

    def missed_points(self, entrant: int) -> int:
        """The match points a late entrant has for each round before joining: 0 unless the
        organiser gave a draw's (1) or a win's (2)."""
        points = self.entrants[entrant].get("missed_points")
        return points if points in (0, 1, 2) and type(points) is int else 0

    def plays_in(self, entrant: int, number: int) -> bool:
        """Whether ``entrant`` is paired in round ``number``."""
        withdrawn = self.withdrawn(entrant)
        return self.joined(entrant) <= number and (withdrawn is None or number <= withdrawn)

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

    def games(self) -> list[Game]:
        return [(t.entrants[0], t.entrants[1], t.totals[0], t.totals[1], t.winner)
                for r in self.rounds for t in r.tables if t.over]

    def byes(self) -> list[tuple[int, int]]:
        return [(entrant, r.number) for r in self.rounds for entrant in r.byes]

    def unplayed(self) -> list[Unplayed]:
        """Every round an entrant did not play: the byes; a game whose opponent withdrew before
        it was played, a forfeit win (a table left unfinished, or a round robin's game with an
        entrant who withdrew before the round: FIDE's Tournament Rules mark the withdrawn
        player's unplayed games "-" and their opponents' "+"), and a loss for whoever left it;
        the rounds before a late entrant joined and those after an entrant withdrew."""
        found = [Unplayed(e, r.number, "bye") for r in self.rounds for e in r.byes]
        for r in self.rounds:
            if r.rests:
                schedule = pairing.berger_rounds(len(self.entrants))[r.number - 1]
                met = {e: o for a, b in schedule if b is not None for e, o in ((a, b), (b, a))}
                found += [Unplayed(e, r.number, "walkover", 2, opponent=met.get(e)) for e in r.rests]
            for t in r.tables:
                if t.withdrew is not None:
                    found += [Unplayed(e, r.number, "walkover", 2, opponent=t.withdrew) if e == t.winner
                              else Unplayed(e, r.number, "left", 0) for e in t.entrants]
        for e in range(len(self.entrants)):
            withdrawn = self.withdrawn(e)
            found += [Unplayed(e, number, "missed", self.missed_points(e))
                      for number in range(1, min(self.joined(e), len(self.rounds) + 1))]
            if withdrawn is not None:
                found += [Unplayed(e, number, "withdrawn", 0)
                          for number in range(withdrawn + 1, len(self.rounds) + 1)]
        return found

    def standings(self) -> list[Row[int]]:
        entrants = range(len(self.entrants))
        return standings(list(entrants), self.games(), self.unplayed(), format=self.format,
                         rounds=len(self.rounds),
                         withdrawn={e for e in entrants if self.withdrawn(e) is not None})

    @property
    def winner(self) -> int | None:
        """The entrant who won it, once it is over: the knockout's champion, else the first of
        the standings."""
        if not self.over:
            return None
        if self.format == "knockout":
            final = self.rounds[-1].bracket()
            if len(final) == 1 and final[0][1] is not None:
                return final[0][1]
        return self.standings()[0].entrant

    def next_round(self, rng: random.Random | None = None) -> list[Slot]:
        """The next round's slots in order. TournamentError when none may start."""
        if self.over or len(self.rounds) >= self.total_rounds:
            raise TournamentError(said("the tournament is over"))
        if self.rounds and not self.rounds[-1].over:
            raise TournamentError(said("round {number} is still being played",
                                       number=self.rounds[-1].number))
        number = len(self.rounds) + 1
        playing = [e for e in self.seeds if self.plays_in(e, number)]
        if self.format == "round-robin":
            return _seated(pairing.berger_rounds(len(self.entrants))[len(self.rounds)], set(playing))
        if len(playing) < 2 and self.format == "swiss":
            raise TournamentError(said("fewer than two entrants are left to pair"))
        if self.format == "swiss":
            if not self.rounds:                 # the Dutch system's round 1
                pairs, bye = pairing.swiss_first_round(playing)
            else:
                points = {row.entrant: row.match_points for row in self.standings()}
                played = {frozenset(t.entrants) for r in self.rounds for t in r.tables if t.over}
                # No pairing's bye for one who had a point without playing already: a bye, or
                # a forfeit win (FIDE's Swiss rules, C.04.1 d).
                had_bye = {a.entrant for a in self.unplayed() if a.kind in ("bye", "walkover")}
                pairs, bye = pairing.swiss_round(playing, played, had_bye, points)
            return [("table", a, b) for a, b in pairs] + ([("bye", bye, None)] if bye is not None else [])
        if not self.rounds:
            tables = pairing.knockout_first_round(playing, rng if self.seeding == "draw" else None)
            return [("table", a, b) if b is not None else ("bye", a, None) for a, b in tables]
        level = [t for t in self.rounds[-1].tables if t.over and t.winner is None]
        if level:
            raise TournamentError(said("table {number} ended level: a knockout needs a winner "
                                       "(play on, or correct a hand)", number=level[0].number))
        through = [winner if winner is not None and self.plays_in(winner, number) else None
                   for _, winner in self.rounds[-1].bracket()]
        return [_knockout_slot(a, b) for a, b in zip(through[::2], through[1::2])]

    def seats(self) -> int:
        return 2 * len(self.entrants[0]["players"])


def _round_number(value: Any) -> int | None:
    """A round's number as kept with an entrant (a whole number from 0), else None: a restored
    file's other values are read as nothing, never a 500."""
    return value if type(value) is int and 0 <= value <= 1000 else None


def _seated(schedule: list[pairing.Table], playing: set[int]) -> list[Slot]:
    """A round robin's round from its Berger table: an entrant whose opponent withdrew has no
    game (a "rest" slot: a forfeit win), the schedule is kept for everyone else."""
    slots: list[Slot] = []
    for a, b in schedule:
        here = [e for e in (a, b) if e is not None and e in playing]
        if b is None and here:
            slots.append(("bye", a, None))
        elif len(here) == 2:
            slots.append(("table", a, b))
        elif here:
            slots.append(("rest", here[0], None))
    return slots


def _knockout_slot(a: int | None, b: int | None) -> Slot:
    """Two neighbouring slots' winners meet; one whose opponent withdrew goes through."""
    if a is not None and b is not None:
        return ("table", a, b)
    if a is None and b is None:
        return ("empty", None, None)
    return ("bye", a if a is not None else b, None)


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
        table = Table(
            t["number"], t["match_id"], entrants, tuple(summary.get("totals") or (0, 0)), over,
            None if side is None else entrants[side], summary.get("hands", 0), seats,
            seats[t["match"]["first_dealer"] % len(seats)] if seats else "", t.get("chances"))
        # A table an entrant left before it was over is never played: hands a scorer enters
        # there after (kept in its match) change nothing in the tournament.
        left = [e for e in entrants if 0 <= e < len(tournament.entrants) and (
            t["match_id"] in tournament.left(e) or not over and tournament.withdrawn(e) is not None)]
        if left:
            # The other entrant wins it by forfeit, unless they left it too.
            table.withdrew, table.over = left[0], False
            table.winner = next((e for e in entrants if e not in left), None)
        tables.setdefault(t["round"], []).append(table)
    tournament.rounds = [Round(r["number"], tables.get(r["number"], []), r["byes"], r["slots"])
                         for r in state["rounds"]]
    return tournament


def table_sides(tournament: Tournament, first: int, second: int) -> list[dict[str, Any]]:
    """The sides of a table's match, team mates seated apart as in any match."""
    a, b = tournament.entrants[first], tournament.entrants[second]
    if len(a["players"]) == 1:
        return sides_for("2", [a["name"], b["name"]], [])
    return [{"name": a["name"], "players": list(a["players"])},
            {"name": b["name"], "players": list(b["players"])}]
