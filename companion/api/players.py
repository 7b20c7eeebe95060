"""Players over JSON: every player's record in the leaderboard's order, and one player's with
the head-to-head."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import Response, jsonify, request, url_for

from ..players.records import empty_record
from ..rules.rulesets import PRESETS
from ..rules.said import said
from ..stats import RECORD
from ..store import reads as store
from ..web.pages import query_kept
from .blueprint import bp
from .parse import BadRequest, NotFoundError, query_number


def _player_scope() -> dict[str, Any]:
    """``variant`` (a variant's code) and ``since`` (a date, YYYY-MM-DD, or a moment in ISO 8601)."""
    variant = request.args.get("variant") or None
    if variant is not None and variant not in PRESETS:
        raise BadRequest(said("variant must be one of: {names}", names=", ".join(PRESETS)))
    since = request.args.get("since") or None
    if since is not None:
        try:
            moment = datetime.fromisoformat(since)
        except ValueError:
            raise BadRequest(said("since must be a date, such as 2026-11-01")) from None
        since = _in_utc(moment).isoformat(timespec="seconds")
    return {"variant": variant, "since": since}


def _in_utc(moment: datetime) -> datetime:
    """A moment (a date without a zone is in the server's own, the table's) in UTC, as the
    matches' dates are stored. A moment that UTC would put beyond the calendar (0001-01-01 east
    of Greenwich, 9999-12-31 west of it) is its first or last moment: every date the OpenAPI
    document allows is taken."""
    try:
        if moment.tzinfo is None:
            moment = moment.astimezone()
        return moment.astimezone(timezone.utc)
    except (ValueError, OverflowError, OSError):
        edge = datetime.min if moment.year < 5000 else datetime.max
        return edge.replace(tzinfo=timezone.utc)


RATING = ("rating", "mu", "sigma", "provisional")


def _player_json(row: dict[str, Any], rating: dict[str, Any] | None) -> dict[str, Any]:
    """The record, and the player's rating (all variants', or the variant's asked for): a
    player with none has a new player's."""
    rating = rating or store.new_rating()
    return {**{name: row[name] for name in RECORD}, **{name: rating[name] for name in RATING}}


def _order() -> bool:
    """``order``: ``won`` (the leaderboard's order, by default) or ``rating``."""
    order = request.args.get("order", "won")
    if order not in ("won", "rating"):
        raise BadRequest(said('order must be "won" or "rating"'))
    return order == "rating"


@bp.get("/players")
def list_players() -> Response:
    """The players' records in the leaderboard's order (most matches won first), a page at a
    time: ``limit`` (at most 500) from ``page`` (from 1); ``next`` is the following page."""
    scope = _player_scope()
    limit = query_number("limit", 200)
    if limit > 500:
        raise BadRequest(said("limit is at most {most}", most=500))
    page = query_number("page", 1)
    if page > 1_000_000:
        raise BadRequest(said("page is at most {most}", most=1_000_000))
    db = store.get_db()
    rows = store.records(db, **scope, page=((page - 1) * limit, limit + 1), by_rating=_order())
    ratings = store.ratings_of(db, [row["id"] for row in rows[:limit]], scope["variant"])
    following = None
    if len(rows) > limit:
        following = url_for("api.list_players", **query_kept("page", "limit"), limit=limit, page=page + 1)
    return jsonify({"players": [_player_json(row, ratings.get(row["id"])) for row in rows[:limit]],
                    "next": following})


HISTORY_PAGE = 50      # rating points a page, by default (``limit``, at most 500)


def _rating_history(player_id: int, variant: str | None) -> dict[str, Any]:
    """A page of the player's rating history: the newest ``limit`` points before the match
    ``before`` (the ``rating_history_next`` link of the page after it), in the order they
    finished. One point a finished match: a regular's whole history was 315 KB."""
    limit = query_number("limit", HISTORY_PAGE)
    if limit > 500:
        raise BadRequest(said("limit is at most {most}", most=500))
    points, earlier = store.rating_history_page(store.get_db(), player_id, variant,
                                                query_number("before", None), limit)
    following = None
    if earlier:
        following = url_for("api.get_player", player_id=player_id, **query_kept("limit", "before"),
                            limit=limit, before=points[0]["match"])
    return {"rating_history": [{name: point[name] for name in ("match", "finished", "rating", "mu", "sigma")}
                               for point in points],
            "rating_history_next": following}


@bp.get("/players/<int:player_id>")
def get_player(player_id: int) -> Response:
    """One player's record, with the head-to-head against each opponent and a page of their
    rating history; a player merged into another answers as that one."""
    db = store.get_db()
    found = store.player_row(db, player_id)
    if found is None:
        raise NotFoundError(said("no such player"))
    scope = _player_scope()
    rows = store.records(db, found["id"], **scope)
    record = rows[0] if rows else empty_record(found)
    best, worst = (store.extreme_hand(db, found["id"], which, **scope) for which in (True, False))
    return jsonify({
        **_player_json(record, store.ratings_of(db, [found["id"]], scope["variant"]).get(found["id"])),
        **_rating_history(found["id"], scope["variant"]),
        "head_to_head": [{"id": row["id"], "name": row["name"], "matches": row["matches"],
                          "won": row["won"], "lost": row["lost"], "drawn": row["drawn"]}
                         for row in store.head_to_head(db, found["id"], **scope)],
        "best_hand": best and {"match": best["match_id"], "points": best["points"]},
        "worst_hand": worst and {"match": worst["match_id"], "points": worst["points"]},
        "last_matches": [row["id"] for row in store.player_match_rows(db, found["id"], **scope)]})


@bp.get("/ratings")
def list_ratings() -> Response:
    """Every rated player in the leaderboard's order (the settled players first, then the
    provisional ones, each the highest rating first): all variants together, or one
    ``variant``'s."""
    variant = request.args.get("variant") or None
    if variant is not None and variant not in PRESETS:
        raise BadRequest(said("variant must be one of: {names}", names=", ".join(PRESETS)))
    return jsonify({"ratings": [
        {name: row[name] for name in ("id", "name", "rating", "mu", "sigma", "matches", "provisional")}
        for row in store.rating_list(store.get_db(), variant)]})
