"""Who is in a tournament (plain Python): the entrants as the organiser types them, a late
entrant added before a Swiss round, an entrant withdrawn between rounds, and brought back.

What an arbiter does, and refuses:

* a late entrant joins a Swiss before any round but the last has started, paired from the next
  round, with the match points the organiser gives for each round missed (none unless said: a
  draw's 1, or a win's 2). A round robin's schedule and a knockout's bracket are made for their
  entrants when round 1 starts: a late entrant joins them only before it.
* a withdrawn entrant is paired in no round after; their results stay, and so do their
  opponents' points. A table they leave before it is over is never played, whatever a scorer
  enters there after: the other entrant wins it by forfeit. In a round robin, whoever the
  schedule pairs with them later has no game and wins it by forfeit too (FIDE's Tournament
  Rules: "-" for the withdrawn player, "+" for the opponent); in a knockout, their opponent goes
  through. Before round 1, withdrawing takes the entrant off the list. Until the next round
  starts the organiser may bring them back.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from ..names import NAME_REFUSED, name_fits, name_key, names_clash, tidy
from ..rules.said import said
from ..tournament_facts import ENTRANTS_MOST
from .model import Tournament, TournamentError

MISSED_POINTS = (0, 1, 2)       # for each round a late entrant missed: nothing, a draw's, a win's


def entrant_from(name: str, players: Sequence[str]) -> dict[str, Any]:
    """One entrant, its shape checked by the request (``web.tournament_requests``: a player's
    name and itself, or a pair's name and its two players), as ``{"name", "players"}``, tidied."""
    return {"name": tidy(name), "players": [tidy(p) for p in players]}


def entrants_from(given: Sequence[tuple[str, Sequence[str]]]) -> list[dict[str, Any]]:
    """Entrants as the request gave them (``entrant_from``), their names checked together
    (``check_names``): TournamentError in words."""
    entrants = [entrant_from(name, players) for name, players in given]
    check_names(entrants)
    return entrants


def drawn_alike(name: str) -> str:
    """What a name reads as from across the room: its letters and digits without accents,
    case or marks between them, look-alikes of other scripts read as the letter they look like
    (Unicode's confusables: ``names.name_key``).

    >>> [drawn_alike(n) for n in ("Ánna", "ANNA.", "\u0410nna", "Anna\u0301", "Anna Maria")]
    ['anna', 'anna', 'anna', 'anna', 'annarnaria']
    """
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return name_key("".join(c for c in bare if c.isalnum()))


def _look_alike(names: list[str]) -> tuple[str, str] | None:
    """Two of ``names`` that read the same from across the room, if any."""
    seen: dict[str, str] = {}
    for name in names:
        key = drawn_alike(name)
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None


def check_names(entrants: list[dict[str, Any]]) -> None:
    """All players or all pairs, every name within its limit, no two alike: TournamentError."""
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
    # Told apart only by an accent, a case, a full stop or a letter of another alphabet, two
    # entrants are one name on the board and the standings' sheet.
    alike = _look_alike([e["name"] for e in entrants]) or _look_alike([*teams, *players])
    if alike:
        raise TournamentError(said("two names look the same ({first} and {second}): the standings "
                                   "would be unclear", first=alike[0], second=alike[1]))


def late_entry_refused(t: Tournament) -> Any:
    """Why no entrant may join now (a Said), or None when one may."""
    if t.over:
        return said("the tournament is over")
    if t.rounds and t.format == "round-robin":
        return said("a round robin's schedule is made for its entrants when round 1 starts: a "
                    "late entrant can join only before it")
    if t.rounds and t.format == "knockout":
        return said("a knockout's bracket is drawn when round 1 starts: a late entrant can join "
                    "only before it")
    if len(t.rounds) >= t.total_rounds:
        return said("every round has started: no round is left for a late entrant")
    if len(t.entrants) >= ENTRANTS_MOST:
        return said("a tournament has at most {most} entrants", most=ENTRANTS_MOST)
    return None


def with_late_entrant(t: Tournament, entrant: dict[str, Any], points: int) -> list[dict[str, Any]]:
    """The entrants with ``entrant`` (``{"name", "players"}``) added, paired from the next
    round with ``points`` for each round before it, seeded after everyone. TournamentError in
    words when it may not join now, or is not of the others' form."""
    refused = late_entry_refused(t)
    if refused is not None:
        raise TournamentError(refused)
    if points not in MISSED_POINTS or type(points) is not int:
        raise TournamentError(said("points for each missed round are 0, 1 (a draw's) or 2 (a win's)"))
    entrants = [*t.entrants, {"name": entrant["name"], "players": list(entrant["players"])}]
    check_names(entrants)
    joined = len(t.rounds) + 1
    entrants[-1]["seed"] = len(entrants)
    if joined > 1:
        entrants[-1].update(joined=joined, missed_points=points)
    return entrants


def still_in(t: Tournament) -> set[int]:
    """A knockout's entrants not yet out: those of its last round who have not lost there (a
    table ended level keeps both), and have not withdrawn."""
    if not t.rounds:
        return {e for e in range(len(t.entrants)) if t.withdrawn(e) is None}
    found: set[int | None] = set()
    current = t.rounds[-1]
    for (a, b), winner in current.bracket():
        table = next((x for x in current.tables if x.entrants == (a, b)), None)
        found |= {winner} if table is not None and table.done and winner is not None else {a, b}
    return {e for e in found if e is not None and t.withdrawn(e) is None}


def without(t: Tournament, entrant: int) -> tuple[list[dict[str, Any]], bool]:
    """The entrants once ``entrant`` withdrew, and whether they were taken off the list (before
    round 1). TournamentError in words when the tournament cannot go on without them."""
    name = t.names[entrant]
    if t.over:
        raise TournamentError(said("the tournament is over"))
    if not t.rounds:
        if len(t.entrants) <= 2:
            raise TournamentError(said("a tournament needs at least two entrants"))
        return [x for e, x in enumerate(t.entrants) if e != entrant], True
    if t.format == "knockout":
        left = still_in(t)
        if entrant not in left:
            raise TournamentError(said("{name} is already out of the knockout", name=name))
        if len(left) < 2:
            raise TournamentError(said("{name} is the last one in the knockout", name=name))
    elif sum(t.withdrawn(e) is None for e in range(len(t.entrants)) if e != entrant) < 2:
        raise TournamentError(said("at least two entrants must stay in the tournament"))
    entrants = [dict(x) for x in t.entrants]
    entrants[entrant]["withdrawn"] = len(t.rounds)
    tables = [table.match_id for table in t.rounds[-1].tables if entrant in table.entrants and not table.done]
    if tables:
        entrants[entrant]["left"] = tables
    return entrants, False


def brought_back(t: Tournament, entrant: int) -> list[dict[str, Any]]:
    """The entrants with ``entrant``, who withdrew, in again. TournamentError in words once a
    round has started since (they missed it)."""
    if t.over:
        raise TournamentError(said("the tournament is over"))
    if t.withdrawn(entrant) != len(t.rounds):
        raise TournamentError(said("a round has started since {name} withdrew: they cannot come "
                                   "back into this tournament", name=t.names[entrant]))
    entrants = [dict(x) for x in t.entrants]
    del entrants[entrant]["withdrawn"]
    entrants[entrant].pop("left", None)
    return entrants


def actions(t: Tournament) -> list[str | None]:
    """What the organiser may do to each entrant now: "remove" (before round 1), "withdraw",
    "reinstate" (withdrawn since the last round started), or None."""
    left = still_in(t) if t.format == "knockout" else None
    found: list[str | None] = []
    for e in range(len(t.entrants)):
        withdrawn = t.withdrawn(e)
        if t.over:
            found.append(None)
        elif withdrawn is not None:
            found.append("reinstate" if withdrawn == len(t.rounds) else None)
        elif not t.rounds:
            found.append("remove")
        else:
            found.append("withdraw" if left is None or e in left else None)
    return found
