"""Players over JSON: every player's record in the leaderboard's order, and one player's with
the head-to-head."""

from __future__ import annotations

from typing import Any

from flask import Response, url_for

from ..players.records import empty_record
from ..rules.said import said
from ..stats import RECORD
from ..store import reads as store
from ..web.pages import query_kept
from .answer_players import HandAt, HeadToHead, Player, PlayerRecord, Players
from .answers import sent
from .blueprint import bp
from .openapi_ratings import RatedPlayer, RatingPoint, Ratings
from .parse import NotFoundError
from .queries import PlayerQuery, PlayersQuery, RatingsQuery

RATING = ("rating", "mu", "sigma", "provisional")


def _player_json(row: dict[str, Any], rating: dict[str, Any] | None) -> dict[str, Any]:
    """The record, and the player's rating (all variants', or the variant's asked for): a
    player with none has a new player's. (A dict, for ``Player`` and ``PlayerRecord``, whose
    fields are companion.stats' figures: a model made from that list, which the type checker
    cannot see.)"""
    rating = rating or store.new_rating()
    return {**{name: row[name] for name in RECORD}, **{name: rating[name] for name in RATING}}


@bp.get("/players")
def list_players() -> Response:
    """The players' records in the leaderboard's order (most matches won first), a page at a
    time: ``limit`` (at most 500) from ``page`` (from 1); ``next`` is the following page."""
    asked = PlayersQuery.asked()
    scope, limit, page = asked.scope(), asked.limit, asked.page
    db = store.get_db()
    rows = store.records(db, **scope, page=((page - 1) * limit, limit + 1), by_rating=asked.order == "rating")
    ratings = store.ratings_of(db, [row["id"] for row in rows[:limit]], scope["variant"])
    following = None
    if len(rows) > limit:
        following = url_for("api.list_players", **query_kept("page", "limit"), limit=limit, page=page + 1)
    return sent(Players(players=[Player(**_player_json(row, ratings.get(row["id"]))) for row in rows[:limit]],
                        next=following))


def _rating_history(player_id: int, asked: PlayerQuery) -> tuple[list[RatingPoint], str | None]:
    """A page of the player's rating history: the newest ``limit`` points before the match
    ``before`` (the ``rating_history_next`` link of the page after it), in the order they
    finished. One point a finished match: a regular's whole history was 315 KB."""
    limit = asked.limit
    points, earlier = store.rating_history_page(store.get_db(), player_id, asked.variant, asked.before, limit)
    following = None
    if earlier:
        following = url_for("api.get_player", player_id=player_id, **query_kept("limit", "before"),
                            limit=limit, before=points[0]["match"])
    return ([RatingPoint(match=point["match"], finished=point["finished"], rating=point["rating"],
                         mu=point["mu"], sigma=point["sigma"]) for point in points],
            following)


@bp.get("/players/<int:player_id>")
def get_player(player_id: int) -> Response:
    """One player's record, with the head-to-head against each opponent and a page of their
    rating history; a player merged into another answers as that one."""
    db = store.get_db()
    found = store.player_row(db, player_id)
    if found is None:
        raise NotFoundError(said("no such player"))
    asked = PlayerQuery.asked()
    scope = asked.scope()
    rows = store.records(db, found["id"], **scope)
    record = rows[0] if rows else empty_record(found)
    best, worst = (store.extreme_hand(db, found["id"], which, **scope) for which in (True, False))
    history, earlier = _rating_history(found["id"], asked)
    return sent(PlayerRecord(
        **_player_json(record, store.ratings_of(db, [found["id"]], scope["variant"]).get(found["id"])),
        rating_history=history, rating_history_next=earlier,
        head_to_head=[HeadToHead(id=row["id"], name=row["name"], matches=row["matches"], won=row["won"],
                                 lost=row["lost"], drawn=row["drawn"])
                      for row in store.head_to_head(db, found["id"], **scope)],
        best_hand=None if best is None else HandAt(match=best["match_id"], points=best["points"]),
        worst_hand=None if worst is None else HandAt(match=worst["match_id"], points=worst["points"]),
        last_matches=[row["id"] for row in store.player_match_rows(db, found["id"], **scope)]))


@bp.get("/ratings")
def list_ratings() -> Response:
    """Every rated player in the leaderboard's order (the settled players first, then the
    provisional ones, each the highest rating first): all variants together, or one
    ``variant``'s."""
    variant = RatingsQuery.asked().variant
    return sent(Ratings(ratings=[
        RatedPlayer(id=row["id"], name=row["name"], rating=row["rating"], mu=row["mu"], sigma=row["sigma"],
                    matches=row["matches"], provisional=row["provisional"])
        for row in store.rating_list(store.get_db(), variant)]))
