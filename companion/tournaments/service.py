"""What the tournament's pages and the JSON API both do: load a tournament, make one (checked
whole first), start its next round, add a late entrant, withdraw an entrant or bring one back
(each answered with a typed outcome, which the pages and the API only word). The tournament as
JSON is the API's (``api.tournaments.tournament_answer``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, assert_never

from .. import store
from ..names import name_key, tidy
from ..rules.rulesets import RulesError, check_seating
from ..rules.said import Said, said
from ..table.match_service import PairedStale, RoundMade, RoundTaken, round_tables
from ..web import tournament_requests
from ..web.access import hash_pin
from ..web.requests import Refused as NotOfItsShape
from ..web.tournament_requests import NewTournament
from .entrants import (
    brought_back,
    entrant_from,
    entrants_from,
    late_entry_refused,
    with_late_entrant,
    without,
)
from .model import Tournament, TournamentError, build, table_sides


def load(tournament_id: int) -> Tournament | None:
    state = store.tournament_state(store.get_db(), tournament_id)
    return None if state is None else build(state)


def create(name: Any, format: Any, variant: Any, options: Any, entrants: Any, rounds: Any,
           seeding: Any, pin: Any) -> Made | Refused:
    """A new tournament as the organiser's page asks for it: ``create_from``."""
    return create_from({"name": name, "format": format, "variant": variant, "options": options,
                        "entrants": entrants, "rounds": rounds, "seeding": seeding, "pin": pin})


def create_from(sent: Any) -> Made | Refused:
    """A new tournament as a request says it (the API's JSON object), checked whole first
    (``web.tournament_requests.NewTournament``, then its rules and the seating they ask): Made,
    or Refused in words (nothing made)."""
    try:
        asked = NewTournament.read(sent)
        rules = asked.rules
        checked = entrants_from(asked.given())
        check_seating(rules, 2, len(checked[0]["players"]))
    except NotOfItsShape as refusal:
        return Refused(refusal.args[0], refusal.at)
    except TournamentError as refusal:          # the entrants together: a name twice...
        return Refused(refusal.args[0], ("entrants",))
    except RulesError as refusal:               # the rules and the seating together
        return Refused(refusal.args[0])
    checked, chosen = seeded(checked, asked.seeding)
    pin_hash = hash_pin(asked.pin) if asked.pin else None
    return Made(store.create_tournament(store.get_db(), tidy(asked.name), asked.format, rules.as_dict(),
                                        checked, asked.rounds, chosen, pin_hash))


SEEDINGS = tournament_requests.SEEDINGS


def seeded(entrants: list[dict[str, Any]], seeding: str | None) -> tuple[list[dict[str, Any]], str]:
    """The entrants in the order typed, each with its ``seed`` (1 the top), and the seeding: by
    rating, as the leaderboard lists them (the settled first, then the provisional ones, each
    the highest figure first; an entrant without a rating after those with one, in the order
    written), which is also what no seeding asked for means when every entrant has a rating;
    else as written. The order typed stays: it is the standings' last tie-break."""
    ratings = store.entrant_ratings(store.get_db(), entrants)
    if seeding is None:
        seeding = "rating" if None not in ratings else "order"
    order = list(range(len(entrants)))
    if seeding == "rating":
        order.sort(key=lambda i: (ratings[i] is None, (ratings[i] or {}).get("provisional", True),
                                  -(ratings[i] or {"mu": 0})["mu"], i))
    seeds = {entrant: place for place, entrant in enumerate(order, start=1)}
    return [{**entrant, "seed": seeds[i]} for i, entrant in enumerate(entrants)], seeding


def start_next_round(tournament: Tournament) -> RoundMade | RoundTaken | NotNow:
    """Start the next round: its tables' matches made by the table's door
    (``table.match_service.round_tables``), each with the entrants' names as its sides' names in
    the table's order and a dealer drawn. NotNow when none may start, or when an entrant joined
    or left since the tournament was read (its pairing would be stale); RoundTaken when another
    phone started it just now."""
    slots: list[tuple[Any, ...]] = []
    try:
        pairing = tournament.next_round(random.Random())
    except TournamentError as problem:
        return NotNow(problem.args[0])
    for kind, first, second in pairing:
        if kind == "table":
            assert first is not None and second is not None
            slots.append((kind, first, second, table_sides(tournament, first, second),
                          random.randrange(tournament.seats())))
        else:
            slots.append((kind, first) if first is not None else (kind,))
    match (made := round_tables(tournament.id, len(tournament.rounds) + 1, slots, tournament.version)):
        case PairedStale():
            return NotNow(said("the tournament changed meanwhile: try again"))
        case RoundMade() | RoundTaken():
            return made
        case _:
            assert_never(made)


@dataclass(frozen=True)
class Made:
    """A new tournament, its entrants seeded: its id."""
    tournament_id: int


# Who is in: what became of a late entrant, a withdrawal, a return ----------------------------

@dataclass(frozen=True)
class Joined:
    name: str
    round: int          # the first round they are paired in
    points: int         # the match points given for the rounds before it


@dataclass(frozen=True)
class Withdrawn:
    name: str
    after: int          # the rounds started: they are paired in none after


@dataclass(frozen=True)
class Removed:
    """Withdrawn before round 1: off the list."""
    name: str


@dataclass(frozen=True)
class BroughtBack:
    name: str


@dataclass(frozen=True)
class AsItWas:
    """Withdrawn already (asked to withdraw), or not withdrawn (asked to come back)."""
    name: str
    withdrawn: bool


@dataclass(frozen=True)
class NotNow:
    """What the tournament does not allow now (409 at the API)."""
    reason: Said


@dataclass(frozen=True)
class Refused:
    """A tournament, or an entrant, not of the tournament's form, or an entrant named like
    another (400 at the API): nothing was made or changed. ``at``: the field of the request it
    names, as its model's ``loc`` does (``("rounds",)``; none: the request as a whole), where a
    page shows it."""
    reason: Said
    at: tuple[str | int, ...] = ()


@dataclass(frozen=True)
class NoSuchEntrant:
    number: int


@dataclass(frozen=True)
class NoSuchTournament:
    pass


EntrantOutcome = (Joined | Withdrawn | Removed | BroughtBack | AsItWas | NotNow | Refused
                  | NoSuchEntrant | NoSuchTournament)
Change = Callable[[Tournament], tuple[list[dict[str, Any]] | None, EntrantOutcome]]


def _changed(tournament_id: int, change: Change) -> EntrantOutcome:
    """``change`` made to the tournament as it is now: the entrants it gives written, if the
    tournament did not change meanwhile (else read again and made again)."""
    for _ in range(3):
        tournament = load(tournament_id)
        if tournament is None:
            return NoSuchTournament()
        try:
            entrants, outcome = change(tournament)
        except TournamentError as problem:
            return NotNow(problem.args[0])
        if entrants is None:
            return outcome
        try:
            store.set_entrants(store.get_db(), tournament.id, tournament.version, entrants)
        except store.TournamentChanged:
            continue
        except store.Gone:
            return NoSuchTournament()
        return outcome
    return NotNow(said("the tournament changed meanwhile: try again"))


def add_entrant(tournament_id: int, given: tournament_requests.Given, points: int) -> EntrantOutcome:
    """A late entrant (its name and players, as ``LateEntrant.given`` gives them: a player's
    name and itself, or a pair's), paired from the next round with ``points`` for each round
    before it; before round 1 simply one more entrant, seeded as the tournament seeds."""
    entrant = entrant_from(*given)

    def change(t: Tournament) -> tuple[list[dict[str, Any]] | None, EntrantOutcome]:
        try:
            entrants = with_late_entrant(t, entrant, points)
        except TournamentError as problem:
            refused = late_entry_refused(t)
            return None, NotNow(refused) if refused is not None else Refused(problem.args[0], ("entrant",))
        if not t.rounds:
            entrants, _ = seeded(entrants, t.seeding)
        joined = len(t.rounds) + 1
        return entrants, Joined(entrant["name"], joined, points * (joined - 1))

    return _changed(tournament_id, change)


def _moved(t: Tournament, number: int, name: str | None) -> NotNow | None:
    """Why entrant ``number`` is not to be changed: not the ``name`` the asker read beside it
    (one taken off the list before round 1 moved those after up a number), else None."""
    if name is None or name_key(name) == name_key(t.names[number - 1]):
        return None
    return NotNow(said("the entrants changed meanwhile: number {number} is no longer {name}, and "
                       "nothing was changed: look at the list again", number=number, name=tidy(name)))


def withdraw(tournament_id: int, number: int, name: str | None = None) -> EntrantOutcome:
    """Entrant ``number`` (from 1, as listed; ``name``, if given, the one read beside it)
    withdraws: paired in no round from the next."""
    def change(t: Tournament) -> tuple[list[dict[str, Any]] | None, EntrantOutcome]:
        if not 1 <= number <= len(t.entrants):
            return None, NoSuchEntrant(number)
        if moved := _moved(t, number, name):
            return None, moved
        entrant, name_now = number - 1, t.names[number - 1]
        if t.withdrawn(entrant) is not None:
            return None, AsItWas(name_now, True)
        entrants, removed = without(t, entrant)
        if removed:
            entrants, _ = seeded(entrants, t.seeding)
            return entrants, Removed(name_now)
        return entrants, Withdrawn(name_now, len(t.rounds))

    return _changed(tournament_id, change)


def bring_back(tournament_id: int, number: int, name: str | None = None) -> EntrantOutcome:
    """Entrant ``number`` (``name``, if given, the one read beside it), who withdrew, paired
    again from the next round (only until it starts)."""
    def change(t: Tournament) -> tuple[list[dict[str, Any]] | None, EntrantOutcome]:
        if not 1 <= number <= len(t.entrants):
            return None, NoSuchEntrant(number)
        if moved := _moved(t, number, name):
            return None, moved
        name_now = t.names[number - 1]
        if t.withdrawn(number - 1) is None:
            return None, AsItWas(name_now, False)
        return brought_back(t, number - 1), BroughtBack(name_now)

    return _changed(tournament_id, change)
