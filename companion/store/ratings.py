"""Players' ratings, kept in the store: OpenSkill's Plackett-Luce model (``PlackettLuce()`` with
the library's defaults, mu 25 and sigma 25/3), so anyone can work a rating out again with the
library alone, over the finished matches in the order they finished.

- Each finished match gives its sides places: the winner first, then the other sides by their
  final totals, equal totals sharing a place (a draw is a draw). A team's place counts for each
  of its players (OpenSkill rates teams as they are).
- Ratings are kept for all variants together (``ALL``) and for each variant a player has
  played; a player is *provisional* in a scope until ``SETTLED`` finished matches there (a
  variant's rating is shown as the player's own once they have that many).
- The figure shown follows mu, the model's estimate of the player's level, on a friendly scale
  (``shown``: 1500 + 24 (mu - 25)), so a win never lowers it and a loss never raises it. How
  sure the model is (sigma) decides how far one result moves it: a newcomer's (sigma 8.3) moves
  far, a regular's little. The conservative mu - 3 sigma (``ordinal``, kept in ``ratings``)
  orders nothing the players see any more; the leaderboard, and a tournament seeded by rating,
  list the settled players first, by the figure, then the provisional ones (``BY_RATING``), so
  a lucky newcomer is not on top.

Tables (migration 13): ``rated_matches`` (each finished match's moment and places: the order
the ratings follow), ``rating_changes`` (each rated player's mu and sigma before and after each
match, in each scope: a player's history, a match's changes) and ``ratings`` (each player's
rating now, in each scope: the leaderboard's order). Every write that finishes, changes or
removes a finished match, or moves its seats, or marks it "not rated", calls ``settle`` or
``rerate_matches``: the matches from the earliest one changed on are rated again (a match
finishing now is the last: one match rated, inside its save; an older one is only asked for
inside the write, and worked out after it, outside the write lock: ``store.rerating``).
``rerate`` with no start rates every match again from scratch. A match marked "not rated"
(``set_rated``) keeps its place in the order but rates nobody.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from .db import MAX_ID, Store, now, writing
from .known import known_player
from .rerating import ALL, MODEL, rerate_from

SETTLED = 5         # finished matches before a rating is no longer provisional
# The figure shown: 1,500 for a new player (mu 25, the model's start), each unit of mu worth 24
# (an advantage of 2 beta, 8.3 units, wins about 3 times in 4: some 200 points, as in chess).
BASE, SCALE = 1500, 24

# The leaderboard by rating (store.players.records): the settled players first, then the
# provisional ones (fewer than SETTLED matches, or none rated: a new player's mu), each group by
# mu, the highest first; the variant's rating, or all variants' (""). One key for both: a
# settled player's mu lifted by 10^6, far above any mu the model reaches.
BY_RATING = (f" ORDER BY COALESCE((SELECT r.mu + (r.matches >= {SETTLED}) * 1000000.0 FROM ratings r"
             f" WHERE r.player_id = p.id AND r.variant = ?), 25.0) DESC,")


def shown(mu: float) -> int:
    """The figure a player sees: 1500 + 24 (mu - 25), rounded. It follows mu alone, so it rises
    with a win and falls with a loss; how sure the model is (sigma) only says how far.

    >>> shown(25)
    1500
    >>> shown(30)
    1620
    >>> shown(22.36)
    1437
    """
    return round(BASE + SCALE * (mu - MODEL.mu))


def places(summary: dict[str, Any]) -> list[int] | None:
    """The sides' places in a finished match (1 the best), or None while it is played: the
    winner first, then the others by their totals, equal totals sharing a place.

    >>> places({"over": True, "winner": 1, "totals": [9, 11, 9]})
    [2, 1, 2]
    >>> places({"over": True, "winner": None, "totals": [11, 11]})
    [1, 1]
    >>> places({"over": True, "winner": 0, "totals": [11, 12, 3]})
    [1, 2, 3]
    """
    if not summary.get("over"):
        return None
    totals, winner = summary["totals"], summary.get("winner")
    first = 1 if winner is None else 2
    # A place: after the winner, 1 + the number of other sides with more points.
    return [1 if side == winner else
            first + sum(1 for s, t in enumerate(totals) if s != winner and t > total)
            for side, total in enumerate(totals)]


# -- Kept up to date by the writes -----------------------------------------------------------------

def settle(db: Store, match_id: int, summary: dict[str, Any]) -> None:
    """After a save kept the match's summary: if whether it is over, or its places, changed,
    the ratings from this match on are worked out again. A match finishing now takes its place
    after every other; one corrected keeps the place it finished in."""
    row = db.execute("SELECT finished, places FROM rated_matches WHERE match_id = ?",
                     [match_id]).fetchone()
    new = places(summary)
    old = json.loads(row[1]) if row and row[1] else None
    if new == old:
        return
    if new is None:                 # no longer finished: out of the order until it ends again
        db.execute("UPDATE rated_matches SET places = NULL WHERE match_id = ?", [match_id])
        rerate_from(db, (row[0], match_id))
        return
    finished = row[0] if old is not None else now()
    db.execute("INSERT INTO rated_matches (match_id, finished, places) VALUES (?, ?, ?) "
               "ON CONFLICT (match_id) DO UPDATE SET finished = excluded.finished, "
               "places = excluded.places", [match_id, finished, json.dumps(new)])
    rerate_from(db, (finished, match_id) if old is None else (row[0], match_id))


def rerate_matches(db: Store, match_ids: Iterable[int]) -> None:
    """The seats of these matches moved (a merge, its undo, a match deleted or brought back):
    the ratings from the earliest of them on are worked out again."""
    ids = sorted(set(match_ids))
    if not ids:
        return
    first = None
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        found = db.execute(f"SELECT finished, match_id FROM rated_matches WHERE match_id IN "
                           f"({', '.join('?' * len(chunk))}) ORDER BY finished, match_id LIMIT 1",
                           chunk).fetchone()
        if found and (first is None or tuple(found) < first):
            first = tuple(found)
    if first is not None:
        rerate_from(db, first)


def set_rated(db: Store, match_id: int, rated: bool) -> bool:
    """The organiser leaves a match out of the ratings (``rated`` False), or counts it again; its
    players' ratings from it on are worked out again. False if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return False
    with writing(db):
        changed = db.execute("UPDATE matches SET unrated = ?, version = version + 1 WHERE id = ? "
                             "AND deleted IS NULL AND unrated != ?", [int(not rated), match_id,
                                                                      int(not rated)]).rowcount
        if changed:
            rerate_matches(db, [match_id])
        elif db.execute("SELECT 1 FROM matches WHERE id = ? AND deleted IS NULL", [match_id]).fetchone() is None:
            return False
    return True


def finished_at(db: Store, match_id: int) -> str | None:
    """When the match finished (ISO, UTC: the moment it became over, kept in the order of
    ratings), or None while it is being played, or if there is no such match."""
    if not 0 < match_id <= MAX_ID:
        return None
    row = db.execute("SELECT r.finished FROM rated_matches r JOIN matches m ON m.id = r.match_id "
                     "WHERE r.match_id = ? AND r.places IS NOT NULL AND m.over = 1 AND m.deleted IS NULL",
                     [match_id]).fetchone()
    return row[0] if row else None


# -- Read -----------------------------------------------------------------------------------------

def _answer(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "rating": shown(row["mu"]), "provisional": row["matches"] < SETTLED}


def new_rating() -> dict[str, Any]:
    """A player with no finished match: the model's start, provisional."""
    return {"mu": MODEL.mu, "sigma": MODEL.sigma, "matches": 0, "rating": shown(MODEL.mu),
            "provisional": True}


def ratings_of(db: Store, player_ids: Sequence[int],
               variant: str | None = None) -> dict[int, dict[str, Any]]:
    """These players' ratings (all variants together, or one variant's), by id; a player with
    none is left out."""
    found: dict[int, dict[str, Any]] = {}
    ids = list(player_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        for row in db.query(f"SELECT player_id, mu, sigma, matches FROM ratings WHERE variant = ? "
                            f"AND player_id IN ({', '.join('?' * len(chunk))})", [variant or ALL, *chunk]):
            found[row["player_id"]] = _answer({key: row[key] for key in ("mu", "sigma", "matches")})
    return found


def rating_list(db: Store, variant: str | None = None) -> list[dict[str, Any]]:
    """Every rated player (all variants together, or one variant's), in the leaderboard's
    order: the settled players first, then the provisional ones, each the highest mu first."""
    return [_answer(dict(row)) for row in db.query(
        "SELECT p.id, p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON p.id = r.player_id "
        f"WHERE r.variant = ? AND p.merged_into IS NULL ORDER BY r.matches >= {SETTLED} DESC, r.mu DESC, "
        "p.name COLLATE NOCASE, p.id", [variant or ALL])]


def rating_history(db: Store, player_id: int,
                   variant: str | None = None) -> list[dict[str, Any]]:
    """The player's rating after each finished match, in the order they finished: one point a
    match (``match``, ``finished``, ``mu``, ``sigma``, ``rating``)."""
    return [{**row, "rating": shown(row["mu"])} for row in db.query(
        "SELECT c.match_id AS match, r.finished, c.mu, c.sigma FROM rating_changes c "
        "JOIN rated_matches r ON r.match_id = c.match_id WHERE c.player_id = ? AND c.variant = ? "
        "ORDER BY r.finished, r.match_id", [player_id, variant or ALL])]


def rating_history_page(db: Store, player_id: int, variant: str | None,
                        before: int | None, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """The newest ``limit`` points of the player's rating history that come before the match
    ``before`` (all, without it), in the order they finished; and whether earlier ones are left.
    A page costs its own points whatever the player's history (2,643 points were 315 KB)."""
    after = ("AND (r.finished, r.match_id) < (SELECT finished, match_id FROM rated_matches "
             "WHERE match_id = ?) " if before is not None else "")
    rows = [{**row, "rating": shown(row["mu"])} for row in db.query(
        "SELECT c.match_id AS match, r.finished, c.mu, c.sigma FROM rating_changes c "
        "JOIN rated_matches r ON r.match_id = c.match_id WHERE c.player_id = ? AND c.variant = ? "
        + after + "ORDER BY r.finished DESC, r.match_id DESC LIMIT ?",
        [player_id, variant or ALL, *([before] if before is not None else []), limit + 1])]
    return rows[:limit][::-1], len(rows) > limit


def match_rating_changes(db: Store, match_id: int) -> list[dict[str, Any]]:
    """What a finished match did to each of its players' rating (all variants together), in
    their seating order: ``id``, ``name``, ``before``, ``after`` and ``change`` in the figure
    shown. Empty while the match is not rated."""
    changes = []
    for player, name, mu0, mu in db.execute(
            "SELECT c.player_id, p.name, c.mu_before, c.mu FROM rating_changes c "
            "JOIN players p ON p.id = c.player_id JOIN seats s ON s.match_id = c.match_id "
            "AND s.player_id = c.player_id WHERE c.match_id = ? AND c.variant = ? ORDER BY s.side, s.seat",
            [match_id, ALL]):
        before, after = shown(mu0), shown(mu)
        changes.append({"id": player, "name": name, "before": before, "after": after, "change": after - before})
    return changes


def chances(db: Store, sides: Sequence[Sequence[int]]) -> list[float]:
    """Each side's chance to win, from its players' ratings now (a player with none is new):
    OpenSkill's ``predict_win``; they add up to 1."""
    kept = ratings_of(db, [player for side in sides for player in side])
    teams = [[MODEL.rating(mu=kept[p]["mu"], sigma=kept[p]["sigma"]) if p in kept else MODEL.rating()
              for p in side] for side in sides]
    return list(MODEL.predict_win(teams))


def _ids_by_name(db: Store, names: Iterable[str]) -> dict[str, int]:
    """The known players of these names, as a match would seat them (a name merged into another
    player finds that one: seats.known_player)."""
    found = {name: known_player(db, name) for name in set(names)}
    return {name: player[0] for name, player in found.items() if player}


def entrant_ratings(db: Store, entrants: Sequence[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Each entrant's rating (a player's; a pair's, the mean of its two players' mu and sigma),
    by their names; None for an entrant with a player never rated."""
    ids = _ids_by_name(db, [name for entrant in entrants for name in entrant["players"]])
    kept = ratings_of(db, list(ids.values()))
    answers: list[dict[str, Any] | None] = []
    for entrant in entrants:
        found = [kept.get(ids.get(name, 0)) for name in entrant["players"]]
        rows = [row for row in found if row is not None]
        if len(rows) < len(found):
            answers.append(None)
            continue
        mu = sum(row["mu"] for row in rows) / len(rows)
        sigma = sum(row["sigma"] for row in rows) / len(rows)
        answers.append({"mu": mu, "sigma": sigma, "rating": shown(mu), "ordinal": mu - 3 * sigma,
                        "provisional": any(row["provisional"] for row in rows)})
    return answers


def chances_by_name(db: Store, sides: Sequence[Sequence[str]]) -> list[float]:
    """Each side's chance to win, its players given by name (a name never seen is a new player)."""
    ids = _ids_by_name(db, [name for side in sides for name in side])
    return chances(db, [[ids.get(name, 0) for name in side] for side in sides])
