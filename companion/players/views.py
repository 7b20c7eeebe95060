"""Players remembered across matches: the leaderboard, a player's record, renaming and merging (by
the organiser only, each kept in the player's log and undone from it).

A name typed in a new match finds its player (``store.seats.seat_players``), and every save keeps each
side's figures in its players' seats, and the store adds them to each player's kept totals:
these pages read those (a period adds up its matches' seats), whatever the number of matches,
and never read a hand.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, assert_never

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l

from ..i18n import say, variant_title
from ..matches import listed
from ..rules.rulesets import PRESETS, rules_for
from ..store import reads as store
from ..web.organiser import organiser_required
from ..web.pages import query_kept
from ..web.posts import Into, posted
from . import service
from .forms import MergeForm, RenameForm
from .rating_chart import rating_chart
from .records import empty_record, rated

bp = Blueprint("players", __name__)

PAGE = 50       # players on a page of the leaderboard


# The periods a record can be limited to, in days back from now.
PERIODS = {"all": (None, _l("all time")), "7": (7, _l("the last 7 days")),
           "30": (30, _l("the last 30 days")), "365": (365, _l("the last 12 months"))}


def chosen_filters() -> dict[str, Any]:
    """The variant and the period asked for (anything unknown is ignored), and the first
    moment the period takes in, in the stored matches' form (ISO, UTC)."""
    variants = store.variants_played(store.get_db())
    variant = request.args.get("variant") or None
    variant = variant if variant in variants else None
    period = request.args.get("period", "all")
    period = period if period in PERIODS else "all"
    days = PERIODS[period][0]
    since = None if days is None else (datetime.now(timezone.utc) - timedelta(days=days)).isoformat(
        timespec="seconds")
    return {"variant": variant, "period": period, "since": since,
            # a variant's record names its points as the variant does (Escoba's cartas, oros...)
            "rules": rules_for(variant) if variant in PRESETS else None,
            "variants": [(code, variant_title(code)) for code in variants],
            "periods": [(code, str(label)) for code, (_days, label) in PERIODS.items()]}


# The leaderboard's orders: most matches won first (as it always was), or the highest rating.
ORDERS = {"won": _l("most matches won"), "rating": _l("rating")}


@bp.get("/players")
def leaderboard():
    """The leaderboard, PAGE players at a time (``page``, from 1), ranked by the store: by
    matches won, or (``order=rating``) by rating, with each player's rating."""
    db = store.get_db()
    filters = chosen_filters()
    order = request.args.get("order")
    filters["order"] = order if order in ORDERS else "won"
    filters["orders"] = [(code, str(label)) for code, label in ORDERS.items()]
    number = request.args.get("page", 1, type=int)
    number = number if 0 < number <= 100_000 else 1
    rows = store.records(db, variant=filters["variant"], since=filters["since"],
                         page=((number - 1) * PAGE, PAGE + 1), by_rating=filters["order"] == "rating")
    ratings = store.ratings_of(db, [row["id"] for row in rows[:PAGE]], filters["variant"])
    shown = [rated(row) for row in rows[:PAGE]]
    return render_template("players/players.html", rows=shown, groups=_grouped(shown, ratings, filters["order"]),
                           ratings=ratings, new_rating=store.new_rating(),
                           filters=filters, number=number, more=len(rows) > PAGE,
                           first_rank=(number - 1) * PAGE + 1)


def _grouped(rows: list[dict[str, Any]], ratings: dict[int, dict[str, Any]],
             order: str) -> list[tuple[bool, list[dict[str, Any]]]]:
    """The leaderboard's rows in groups, (provisional, rows): by rating, the settled players'
    group, then the provisional ones' (the store's order already); by matches won, one group."""
    if order != "rating":
        return [(False, rows)]
    provisional = {row["id"] for row in rows if row["id"] not in ratings or ratings[row["id"]]["provisional"]}
    return [(False, [row for row in rows if row["id"] not in provisional]),
            (True, [row for row in rows if row["id"] in provisional])]


@bp.get("/players/rating")
def rating_explained():
    """How the rating works, on a page of its own: a finished match's figures link here."""
    return render_template("players/rating_explained.html")


def the_player(player_id: int) -> dict[str, Any]:
    player = store.player_row(store.get_db(), player_id)
    if player is None:
        abort(404)
    return player


@bp.get("/players/<int:player_id>")
def player(player_id: int):
    found = the_player(player_id)
    if found["id"] != player_id:        # merged into another: that one's page, with its filters
        # (not a query's own player_id, nor url_for's _external and the like: found in review,
        # /players/3?player_id=1 was a 500)
        kept: dict[str, Any] = {key: value for key, value in query_kept("player_id").items()
                                if not key.startswith("_")}
        return redirect(url_for("players.player", player_id=found["id"], **kept), code=301)
    return show_player(found)


def show_player(found: dict[str, Any], rename: RenameForm | None = None, status: int = 200):
    db = store.get_db()
    filters = chosen_filters()
    scope = {"variant": filters["variant"], "since": filters["since"]}
    rows = store.records(db, found["id"], **scope)
    record = rated(rows[0]) if rows else empty_record(found)
    last = [listed(row) for row in store.player_match_rows(db, found["id"], **scope)]
    history = store.rating_history(db, found["id"], filters["variant"])
    # A look-alike the store flagged (migration 18): the player whose name it reads as.
    looks_like = store.player_row(db, found["looks_like"]) if found.get("looks_like") else None
    return render_template(
        "players/player.html", player=found, record=record, filters=filters, last=last,
        rating=store.ratings_of(db, [found["id"]], filters["variant"]).get(found["id"]) or store.new_rating(),
        rating_chart=rating_chart(history),
        head_to_head=store.head_to_head(db, found["id"], **scope),
        best=store.extreme_hand(db, found["id"], True, **scope),
        worst=store.extreme_hand(db, found["id"], False, **scope),
        rename=rename or RenameForm(name=found["name"]), merge=MergeForm(),
        changes=store.player_changes(db, found["id"]),
        looks_like=looks_like if looks_like and looks_like["id"] != found["id"] else None), status


@bp.post("/players/<int:player_id>/rename")
@organiser_required(lambda: _("Ask the organiser to rename a player."))
def rename(player_id: int):
    found = the_player(player_id)
    form = RenameForm()
    if not form.validate():
        return show_player(found, form, 400)
    match (outcome := service.rename(found["id"], form.name.data or "")):       # required
        case service.NameTaken(name):
            # a list once validated (WTForms' stubs say Sequence)
            form.name.errors.append(_("There is already a player called %(name)s: if they are the same "  # type: ignore[attr-defined]
                                      "person, merge them below.", name=name))
            return show_player(found, form, 409)
        case service.NoSuchPlayer():
            abort(404)
        case service.Renamed(_player, name):
            flash(_("%(old)s is now %(new)s, in every match.", old=found["name"], new=name))
            return redirect(url_for("players.player", player_id=found["id"]), code=303)
        case _:
            assert_never(outcome)


@bp.route("/players/<int:player_id>/merge", methods=["GET", "POST"])
@organiser_required(lambda: _("Ask the organiser to merge two players."))
def merge(player_id: int):
    """Two players who are one person: asked on a page of its own, then done."""
    found = the_player(player_id)
    if request.method == "GET" and "into" not in request.args:     # whom? found by name
        form = MergeForm(request.args)
        typed = (form.find.data or "").strip() if form.validate() else ""
        return render_template("players/merge_pick.html", player=found, form=form, typed=typed,
                               found=store.find_players(store.get_db(), typed, found["id"]) if typed else [])
    into = store.player_row(store.get_db(), posted(Into, request.values).into or 0)
    if into is None or into["id"] == found["id"]:
        flash(_("Choose the player %(name)s is the same person as.", name=found["name"]))
        return redirect(url_for("players.player", player_id=found["id"]), code=303)
    if request.method == "GET":
        rows = store.records(store.get_db(), found["id"])
        return render_template("players/merge_player.html", player=found, into=into,
                               matches=(rows[0]["matches"] + rows[0]["playing"]) if rows else 0)
    match (outcome := service.merge(found["id"], into["id"])):
        case service.PlayedTogether(match_id):
            flash(_("%(one)s and %(other)s sat at the same match (match %(number)s): they are two "
                    "people, and were not merged.", one=found["name"], other=into["name"],
                    number=match_id))
            return redirect(url_for("players.player", player_id=found["id"]), code=303)
        case service.NoSuchPlayer():
            abort(404)
        case service.Merged():
            flash(_("%(one)s's matches are now %(other)s's.", one=found["name"], other=into["name"]))
            return redirect(url_for("players.player", player_id=into["id"]), code=303)
        case _:
            assert_never(outcome)


@bp.post("/players/<int:player_id>/changes/<int:change_id>/undo")
@organiser_required(lambda: _("Ask the organiser to undo a rename or a merge."))
def undo_change(player_id: int, change_id: int):
    """A rename or a merge undone from the player's log, while nothing depends on it."""
    match (outcome := service.undo(change_id)):
        case service.NoSuchChange():
            abort(404)
        case service.CannotUndo(why):
            flash(_("Not undone: %(why)s.", why=say(why)))
            return redirect(url_for("players.player", player_id=player_id), code=303)
        case service.RenameUndone(undone, name, was):
            flash(_("%(new)s is %(old)s again, in every match.", new=was, old=name))
        case service.MergeUndone(undone, name, other):
            flash(_("%(one)s has their matches back from %(other)s.", one=name, other=other))
        case _:
            assert_never(outcome)
    return redirect(url_for("players.player", player_id=undone), code=303)
