"""Players remembered across matches: the leaderboard, a player's record, renaming and merging.

A name typed in a new match finds its player (``store.seats.seat_players``), and every save keeps each
side's figures in its players' seats: these pages are a few grouped queries over the seats,
whatever the number of matches, and never read a hand.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l

from .. import store
from ..i18n import variant_title
from ..matches import Ledger, listed
from .forms import MergeForm, RenameForm
from .records import empty_record, ranked, rated

bp = Blueprint("players", __name__)


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
            "variants": [(code, variant_title(code)) for code in variants],
            "periods": [(code, str(label)) for code, (_days, label) in PERIODS.items()]}


@bp.get("/players")
def leaderboard():
    filters = chosen_filters()
    rows = ranked(store.records(store.get_db(), variant=filters["variant"], since=filters["since"]))
    return render_template("players/players.html", rows=rows, filters=filters)


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
        kept = {key: value for key, value in request.args.items()
                if key != "player_id" and not key.startswith("_")}
        return redirect(url_for("players.player", player_id=found["id"], **kept), code=301)
    return show_player(found)


def show_player(found: dict[str, Any], rename: RenameForm | None = None, status: int = 200):
    db = store.get_db()
    filters = chosen_filters()
    scope = {"variant": filters["variant"], "since": filters["since"]}
    rows = store.records(db, found["id"], **scope)
    record = rated(rows[0]) if rows else empty_record(found)
    last = [listed(row) for row in store.player_match_rows(db, found["id"], **scope)]
    merge = MergeForm()
    merge.into.choices = [(row["id"], row["name"]) for row in store.player_list(db)
                          if row["id"] != found["id"]]
    return render_template(
        "players/player.html", player=found, record=record, filters=filters, last=last,
        head_to_head=store.head_to_head(db, found["id"], **scope),
        best=store.extreme_hand(db, found["id"], True, **scope),
        worst=store.extreme_hand(db, found["id"], False, **scope),
        rename=rename or RenameForm(name=found["name"]), merge=merge), status


@bp.post("/players/<int:player_id>/rename")
def rename(player_id: int):
    found = the_player(player_id)
    form = RenameForm()
    if not form.validate():
        return show_player(found, form, 400)
    try:
        store.rename_player(store.get_db(), found["id"], form.name.data, Ledger)
    except store.NameTaken as taken:
        form.name.errors.append(_("There is already a player called %(name)s: if they are the same "
                                  "person, merge them below.", name=taken.row["name"]))
        return show_player(found, form, 409)
    except store.Gone:
        abort(404)
    flash(_("%(old)s is now %(new)s, in every match.", old=found["name"], new=form.name.data.strip()))
    return redirect(url_for("players.player", player_id=found["id"]), code=303)


@bp.route("/players/<int:player_id>/merge", methods=["GET", "POST"])
def merge(player_id: int):
    """Two players who are one person: asked on a page of its own, then done."""
    found = the_player(player_id)
    into = store.player_row(store.get_db(), request.values.get("into", type=int) or 0)
    if into is None or into["id"] == found["id"]:
        flash(_("Choose the player %(name)s is the same person as.", name=found["name"]))
        return redirect(url_for("players.player", player_id=found["id"]), code=303)
    if request.method == "GET":
        rows = store.records(store.get_db(), found["id"])
        return render_template("players/merge_player.html", player=found, into=into,
                               matches=(rows[0]["matches"] + rows[0]["playing"]) if rows else 0)
    try:
        store.merge_players(store.get_db(), found["id"], into["id"], Ledger)
    except store.PlayedTogether as together:
        flash(_("%(one)s and %(other)s sat at the same match (match %(number)s): they are two "
                "people, and were not merged.", one=found["name"], other=into["name"],
                number=together.match_id))
        return redirect(url_for("players.player", player_id=found["id"]), code=303)
    except store.Gone:
        abort(404)
    flash(_("%(one)s's matches are now %(other)s's.", one=found["name"], other=into["name"]))
    return redirect(url_for("players.player", player_id=into["id"]), code=303)
