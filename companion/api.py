"""The JSON API: ``/api/v1/...``. It stores nothing; each call answers from the rules engine.

Bad input answers 400 with ``{"error": "<what is wrong>"}`` in the player's words.
"""

from __future__ import annotations

from typing import Any

import random
import re
from datetime import datetime, timezone

from flask import Blueprint, jsonify, make_response, request, url_for
from werkzeug.exceptions import HTTPException

from . import store
from .access import TooManyTries, hash_pin, needs_pin, new_access_key, try_pin
from .matches import Hand, Ledger, Match, MatchOver, build, listed, result_of, score_entry
from .players import empty_record, ranked
from .tournaments import TournamentError
from .tournament_pages import create as create_tournament, load as load_tournament
from .tournament_pages import start_next_round, tournament_json
from .access import try_tournament_pin

from .i18n import for_api
from .rules.said import said
from .rules import (Declaration, HandScore, ScopaError, Tally, check_claim, check_deal,
                    legal_captures, parse_card, parse_cards, rules_for, score_piles,
                    score_tallies)
from .rules.cards import SUITS
from .rules.primiera import clean_number
from .rules.rulesets import ITEMS, PRESET_TITLES, PRESETS, Rules, check_seating
from .rules.scoring import ITEMS as POINT_ITEMS

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class BadRequest(ScopaError):
    """A request that is not of the API's form."""


DEPTH = 8     # the deepest a real request nests: a hand's piles in a list in an object
_TOO_DEEP = said("the JSON is nested too deeply (at most {most} levels)", most=DEPTH)


def _body() -> dict[str, Any]:
    try:
        data = request.get_json(silent=True)
    except RecursionError:          # nested past what Python's json reader can follow
        raise BadRequest(_TOO_DEEP) from None
    if _depth(data) > DEPTH:
        raise BadRequest(_TOO_DEEP)
    if data is None:
        raise BadRequest(said("send a JSON object, with Content-Type: application/json"))
    if not isinstance(data, dict):
        raise BadRequest(said("the request body must be a JSON object"))
    return data


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (walked without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level > DEPTH:
                break
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _rules(data: dict[str, Any]) -> Rules:
    return rules_for(data.get("variant", "classica"), data.get("options") or {})


def _list(data: dict[str, Any], key: str, required: bool = True) -> list:
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise BadRequest(said("{key} must be a list", key=key))
    return value


def _names(data: dict[str, Any], n: int) -> tuple[str, ...] | None:
    names = data.get("names")
    if names is None:
        return None
    if (not isinstance(names, list) or len(names) != n
            or not all(isinstance(x, str) and 0 < len(x) <= 40 for x in names)):
        raise BadRequest(said("names must be a list of {n} names of 1 to 40 characters", n=n))
    return tuple(names)


def _declarations(data: dict[str, Any]) -> list[Declaration]:
    declared = []
    for entry in _list(data, "declarations", required=False):
        if not isinstance(entry, dict) or not isinstance(entry.get("side"), int):
            raise BadRequest(said('each declaration is {form}',
                                    form='{"side": 0, "deal": 1, "cards": [three cards]}'))
        declared.append(Declaration(entry["side"], entry.get("deal", 1),
                                    tuple(parse_cards(entry.get("cards"), said("a declaration")))))
    return declared


def _piles_and_sweeps(data: dict[str, Any]) -> tuple[list[list], list]:
    piles = [parse_cards(pile, said("pile {number}", number=side + 1)) for side, pile in enumerate(_list(data, "piles"))]
    sweeps = data.get("sweeps", [0] * len(piles))
    if not isinstance(sweeps, list):
        raise BadRequest(said("sweeps must be a list with one count per side"))
    return piles, sweeps


_TALLY_FIELDS = Tally._fields


def _tally(entry: Any, side: int) -> Tally:
    if not isinstance(entry, dict):
        raise BadRequest(said("tally {number} must be an object of counts", number=side + 1))
    unknown = set(entry) - set(_TALLY_FIELDS)
    if unknown:
        raise BadRequest(said("{field} is not a count; the counts are {fields}",
                              field=sorted(unknown)[0], fields=", ".join(_TALLY_FIELDS)))
    for field in ("cards", "coins"):
        if field not in entry:
            raise BadRequest(said("tally {number} needs {field}", number=side + 1, field=field))
    for field in ("settebello", "re_bello", "piva", "primiera"):
        if field in entry and not isinstance(entry[field], bool):
            raise BadRequest(said("{name} must be true or false", name=field))
    return Tally(**entry)


def _side_json(hand: HandScore, side: int) -> dict[str, Any]:
    tally = hand.tallies[side]
    primiera = hand.primiera.sides[side]
    best = [str(primiera.best[suit]) for suit in SUITS if suit in primiera.best]
    points = hand.points(side)
    return {
        "cards": tally.cards,
        "coins": tally.coins,
        "settebello": tally.settebello,
        "re_bello": tally.re_bello,
        "sevens": tally.sevens,
        "sixes": tally.sixes,
        "aces": tally.aces,
        "napola": tally.napola,
        "scaletta_alta": tally.scaletta_alta,
        "piva": tally.piva,
        "sweeps": tally.sweeps,
        "primiera_value": None if primiera.value is None else clean_number(primiera.value),
        "primiera_cards": best or None,
        "points": points,
        "total": sum(points.values()),
    }


def hand_json(hand: HandScore) -> dict[str, Any]:
    return {
        "sides": [_side_json(hand, side) for side in range(len(hand.tallies))],
        "breakdown": [
            {"item": line.item, "label": POINT_ITEMS[line.item][0], "points": list(line.points),
             "winner": line.winner, "why": for_api(line.why)}
            for line in hand.lines
        ],
        "outright": (None if hand.outright is None
                     else {"side": hand.outright, "reason": hand.outright_reason}),
        "rules": hand.rules.as_dict(),
    }


@bp.post("/score")
def score():
    data = _body()
    rules = _rules(data)
    declarations = _declarations(data)
    if "tallies" in data:
        entries = _list(data, "tallies")
        tallies = [_tally(entry, side) for side, entry in enumerate(entries)]
        hand = score_tallies(tallies, rules, declarations, _names(data, len(tallies)))
    else:
        piles, sweeps = _piles_and_sweeps(data)
        hand = score_piles(piles, sweeps, rules, declarations, _names(data, len(piles)))
    return jsonify(hand_json(hand))


@bp.post("/captures")
def captures():
    data = _body()
    rules = _rules(data)
    table = parse_cards(_list(data, "table"), said("the table"))
    if "played" not in data:
        raise BadRequest(said("say which card is played (played)"))
    played = parse_card(data["played"])
    last_play = data.get("last_play", False)
    if not isinstance(last_play, bool):
        raise BadRequest(said("{name} must be true or false", name="last_play"))
    ruling = legal_captures(table, played, rules, last_play)
    return jsonify({
        "captures": [{"cards": [str(c) for c in capture.cards], "sweep": capture.sweep,
                      "reason": for_api(capture.reason)} for capture in ruling.captures],
        "may_place": ruling.may_place,
        "reasons": [for_api(reason) for reason in ruling.reasons],
    })


@bp.post("/deal")
def deal():
    data = _body()
    rules = _rules(data)
    table = parse_cards(_list(data, "table"), said("the table"))
    check = check_deal(table, rules)
    return jsonify({"void": check.void, "reason": for_api(check.reason)})


@bp.post("/claim")
def claim():
    data = _body()
    rules = _rules(data)
    piles, sweeps = _piles_and_sweeps(data)
    totals = data.get("totals", [0] * len(piles))
    claimer = data.get("claimer")
    if not isinstance(claimer, int) or isinstance(claimer, bool):
        raise BadRequest(said("claimer must be the number of the claiming side, from 0"))
    if not isinstance(totals, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                               for t in totals):
        raise BadRequest(said("totals must be a list of whole numbers, one per side"))
    checked = check_claim(claimer, piles, sweeps, totals, rules,
                          _names(data, len(piles)) or tuple(said("side {number}", number=i + 1) for i in range(len(piles))),
                          _declarations(data))
    return jsonify({"holds": checked.holds, "certain": checked.certain,
                    "certain_total": checked.certain_total, "why": for_api(checked.text)})


@bp.get("/variants")
def variants():
    return jsonify({
        "variants": {name: {"title": PRESET_TITLES[name], "rules": rules_for(name).as_dict()}
                     for name in PRESETS},
        "items": list(ITEMS),
    })


@bp.errorhandler(ScopaError)
def refused(error: ScopaError):
    return jsonify({"error": for_api(error)}), 400


def api_http_error(error: HTTPException):
    """Every HTTP error under /api/ answers JSON, never an HTML page."""
    messages = {413: said("the request is too large"), 404: said("no such API endpoint"),
                405: said("that method is not allowed here")}
    response = jsonify({"error": for_api(messages.get(error.code, error.description))})
    response.status_code = error.code
    for name, value in error.get_headers():     # Allow on a 405, as HTTP asks
        if name.lower() == "allow":
            response.headers["Allow"] = value
    return response


# -- Matches -------------------------------------------------------------------------------
# The same store, the same validation and the same PIN as the pages. A phone (or a program)
# saving a hand sends an Idempotency-Key: sent twice, it records one hand.

class Forbidden(ScopaError):
    pass


def _outcome_json(match: Match) -> dict[str, Any]:
    outcome = match.outcome
    return {"over": outcome.over, "winner": outcome.winner, "reason": outcome.reason,
            "double": outcome.double, "text": for_api(outcome.text)}


def match_summary(match: Match) -> dict[str, Any]:
    dealer, leader = match.dealer(match.next_number)
    return {
        "id": match.id, "created": match.created, "version": match.version,
        "sides": match.sides, "rules": match.rules.as_dict(), "pin": match.has_pin,
        "totals": list(match.totals), "hands": match.recorded, "outcome": _outcome_json(match),
        "next_hand": None if match.over else {"number": match.next_number, "dealer": dealer,
                                              "plays_first": leader},
    }


def hand_json_of(hand: Hand) -> dict[str, Any]:
    return {"id": hand.id, "number": hand.number, "version": hand.version, "entry": hand.entry,
            "points": list(hand.points), "totals_after": list(hand.totals_after),
            "breakdown": None if hand.score is None else hand_json(hand.score)["breakdown"]}


def _load(match_id: int) -> Match:
    current = store.built_match(store.get_db(), match_id, build)
    if current is None:
        raise NotFoundError()
    return current


class NotFoundError(Exception):
    def __init__(self, message: Any = said("no such match")):
        super().__init__(message)


def _version(match_id: int) -> int:
    version = store.match_version(store.get_db(), match_id)
    if version is None:
        raise NotFoundError()
    return version


@bp.errorhandler(NotFoundError)
def not_found(error):
    return jsonify({"error": for_api(error)}), 404


@bp.errorhandler(store.StorageError)
def storage_failed(error):
    return jsonify({"error": for_api(error.message)}), 503


@bp.errorhandler(Forbidden)
def forbidden(error):
    return jsonify({"error": for_api(error)}), 403


@bp.errorhandler(MatchOver)
def refused_now(error):
    return jsonify({"error": for_api(error)}), 409


@bp.errorhandler(TooManyTries)
def too_many(_error):
    return jsonify({"error": for_api(said("too many wrong PINs: wait a minute, then try again"))}), 429


@bp.get("/matches")
def list_matches():
    """Matches newest first, a page at a time (``limit``, at most 200; ``before``, the ``next``
    link's id), from the matches' stored summaries: the cost does not grow with the store.
    ``state``: playing, finished or all."""
    state = request.args.get("state", "all")
    if state not in ("all", "playing", "finished"):
        raise BadRequest(said("state must be playing, finished or all"))
    limit = _query_number("limit", 50)
    if limit > 200:
        raise BadRequest(said("limit is at most {most}", most=200))
    before = _query_number("before", None)
    over = None if state == "all" else state == "finished"
    rows = store.match_rows(store.get_db(), over=over, before=before, limit=limit + 1)
    following = None
    if len(rows) > limit:
        following = url_for("api.list_matches", state=state, limit=limit, before=rows[limit - 1]["id"])
    return jsonify({"matches": [match_summary(listed(row)) for row in rows[:limit]],
                    "next": following})


def _query_number(name: str, default: int | None) -> int | None:
    value = request.args.get(name)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise BadRequest(said("{field} must be a whole number from 1", field=name))
    return min(int(value), store.MAX_ID)     # beyond the biggest id: no id is left out


def _sides(data: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    players, teams = data.get("players"), data.get("teams")
    if (players is None) == (teams is None):
        raise BadRequest(said('give "players" (2 to 4 names) or "teams" (two teams of 2 or 3)'))
    if players is not None:
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise BadRequest(said("players must be a list of 2 to 4 names"))
        names = players
        sides = [{"name": name, "players": [name]} for name in players]
    else:
        if (not isinstance(teams, list) or len(teams) != 2
                or not all(isinstance(t, dict) for t in teams)):
            raise BadRequest(said('teams must be two objects {form}',
                                      form='{"name": ..., "players": [2 or 3 names]}'))
        sizes = [len(t.get("players") or []) if isinstance(t.get("players"), list) else 0 for t in teams]
        if sizes[0] != sizes[1] or sizes[0] not in (2, 3):
            raise BadRequest(said("the two teams must have 2 or 3 players each"))
        if not all(isinstance(t.get("name"), str) for t in teams):
            raise BadRequest(said('every team needs a name: {form}', form='{"name": ..., "players": [...]}'))
        names = [t["name"] for t in teams] + [p for t in teams for p in t["players"]]
        sides = [{"name": t["name"], "players": list(t["players"])} for t in teams]
    if not all(isinstance(n, str) and 0 < len(n.strip()) <= 24 for n in names):
        raise BadRequest(said("every name must be 1 to 24 characters"))
    if len({n.strip().casefold() for n in names}) != len(names):
        raise BadRequest(said("two names are the same: the score would be unclear"))
    seats = sum(len(side["players"]) for side in sides)
    return [{"name": s["name"].strip(), "players": [p.strip() for p in s["players"]]} for s in sides], seats


@bp.post("/matches")
def create_match_api():
    data = _body()
    rules = _rules(data)
    sides, seats = _sides(data)
    check_seating(rules, len(sides), len(sides[0]["players"]))
    dealer = data.get("first_dealer", "random")
    if dealer == "random":
        dealer = random.randrange(seats)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
        raise BadRequest(said('first_dealer must be a seat from 0 to {last}, or "random"', last=seats - 1))
    pin = data.get("pin")
    if pin is not None and (not isinstance(pin, str) or not re.fullmatch(r"\d{4,8}", pin)):
        raise BadRequest(said("pin must be 4 to 8 digits"))
    match_id = store.create_match(store.get_db(), rules.as_dict(), sides, dealer,
                                  hash_pin(pin) if pin else None, Ledger, new_access_key())
    return _created(match_summary(_load(match_id)), url_for("api.get_match", match_id=match_id))


def _created(body: dict[str, Any], location: str):
    """201 Created: what was made, and where it lives."""
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response


@bp.get("/matches/<int:match_id>")
def get_match(match_id: int):
    version = _version(match_id)
    etag = f"m{match_id}-v{version}"
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
        response.set_etag(etag, weak=True)
        return response
    match = _load(match_id)
    response = jsonify({**match_summary(match), "hands": [hand_json_of(h) for h in match.hands]})
    response.set_etag(etag, weak=True)     # weak: the same match, however compressed
    return response


def _entry(data: dict[str, Any], match: Match) -> tuple[dict[str, Any], HandScore]:
    """A hand sent as JSON, checked and written as the pages store it, and its points."""
    n = len(match.sides)
    entry: dict[str, Any] = {}
    declared = _declarations(data)
    if declared:
        entry["declarations"] = [{"side": d.side, "deal": d.deal, "cards": [str(c) for c in d.cards]}
                                 for d in declared]
    if "tallies" in data:
        tallies = [_tally(t, i) for i, t in enumerate(_list(data, "tallies"))]
        entry.update(mode="tallies", tallies=[{k: v for k, v in t._asdict().items()} for t in tallies])
    else:
        piles, sweeps = _piles_and_sweeps(data)
        entry.update(mode="piles", piles=[[str(c) for c in pile] for pile in piles], sweeps=sweeps)
    count = len(entry["tallies"] if "tallies" in entry else entry["piles"])
    if count != n:
        raise BadRequest(said("this match has {n} sides, not {count}", n=n, count=count))
    return entry, score_entry(entry, match.rules, match.names)    # refuses what cannot be


def _may_write(match_id: int) -> None:
    _version(match_id)
    pin = request.headers.get("X-Scopa-PIN")
    if needs_pin(match_id) and not (pin and try_pin(match_id, pin)):
        raise Forbidden(said("this match has an edit PIN: send it in the X-Scopa-PIN header"))


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= store.MAX_ID:
        raise BadRequest(said("{field} must be a whole number from 1", field=what))
    return value


@bp.post("/matches/<int:match_id>/hands")
def add_hand_api(match_id: int):
    _may_write(match_id)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= 100:
        raise BadRequest(said("Idempotency-Key must be 1 to 100 characters"))
    db = store.get_db()
    data = _body()
    number = None if data.get("number") is None else _whole(data["number"], "number")
    entry, score = _entry(data, listed(store.match_row(db, match_id)))
    try:
        saved = store.add_hand(db, match_id, entry, result_of(score), Ledger, key=key,
                               number=number)
    except store.Taken as taken:
        return _hand_answer(match_id, taken.row["id"], 409, said(
            "hand {number} was recorded meanwhile (shown here): replace it with PUT, or send "
            "this one as the next hand", number=number))
    except store.KeyReused as reused:
        return _hand_answer(match_id, reused.row["id"], 422, said(
            "this Idempotency-Key was already used for a different hand (shown here): use a new "
            "key for a new hand"))
    except store.Gone:
        raise NotFoundError() from None      # the match was deleted meanwhile
    if not saved.created:
        return _hand_answer(match_id, saved.id, 200)
    # A new hand is the last, and counted (the match was not over): its answer is worked out
    # from the match's summary right after it and its score, without reading the other hands.
    match = listed({**store.match_row(db, match_id), "summary": saved.summary})
    hand = {"id": saved.id, "number": saved.number, "version": 1, "entry": entry,
            "points": list(score.totals), "totals_after": list(match.totals),
            "breakdown": hand_json(score)["breakdown"]}
    return _answer({"hand": hand, "match": match_summary(match)}, 201, match_id, saved.id, 1)


def _made_from(data: dict[str, Any] | None = None) -> int:
    """The version an edit or delete was made from: ``If-Match: "<version>"`` or ``version``."""
    # A compressed answer's ETag carries the encoding: "2:gzip" names version 2 too.
    # The tag is taken weak or strong (a compressed answer's is weak); an empty tag is no tag.
    tags = [tag.split(":")[0] for tag in request.if_match.as_set(include_weak=True) if tag]
    if len(tags) == 1 and tags[0].isdigit():
        return int(tags[0])
    value = (data or {}).get("version", request.args.get("version"))
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if value is None:
        raise BadRequest(said('say which version of the hand this was made from: "version" or an '
                                'If-Match header with the hand\'s ETag'))
    return _whole(value, "version")


@bp.route("/matches/<int:match_id>/hands/<int:hand_id>", methods=["GET", "PUT", "DELETE"])
def one_hand(match_id: int, hand_id: int):
    """One hand by its id. PUT replaces its entry and DELETE removes it, each only from the
    version it was made from (409 with the hand as it is now otherwise)."""
    if request.method == "GET":
        _version(match_id)
        return _hand_answer(match_id, hand_id, 200)
    _may_write(match_id)
    db = store.get_db()
    try:
        if request.method == "PUT":
            data = _body()
            made_from = _made_from(data)
            match = _load(match_id)
            entry, score = _entry(data, match)
            if any(h.id == hand_id and h.claim for h in match.hands):
                raise BadRequest(said("a claim cannot be edited: delete it and record it again"))
            store.update_hand(db, match_id, hand_id, entry, result_of(score), made_from, Ledger)
        else:
            store.delete_hands(db, match_id, {hand_id: _made_from()}, Ledger)
    except store.Conflict as conflict:
        return _hand_answer(match_id, hand_id, 409, said(
            "the hand is at version {version}, not the one this was made from: here it is now",
            version=conflict.row["version"]))
    except store.Gone:
        raise NotFoundError(_NO_HAND) from None
    if request.method == "DELETE":
        return jsonify({"deleted": hand_id, "match": match_summary(_load(match_id))})
    return _hand_answer(match_id, hand_id, 200)


_NO_HAND = said("no such hand (it may have been deleted)")


def _hand_answer(match_id: int, hand_id: int, status: int, error: Any = None):
    match = _load(match_id)
    hand = next((h for h in match.hands if h.id == hand_id), None)
    if hand is None:
        raise NotFoundError(_NO_HAND)
    body = {"hand": hand_json_of(hand), "match": match_summary(match)}
    if error:
        body = {"error": for_api(error), **body}
    return _answer(body, status, match_id, hand_id, hand.version)


def _answer(body: dict[str, Any], status: int, match_id: int, hand_id: int, version: int):
    response = jsonify(body)
    response.status_code = status
    response.set_etag(str(version))
    response.headers["Location"] = url_for("api.one_hand", match_id=match_id, hand_id=hand_id)
    return response


# -- Players ------------------------------------------------------------------------------------

PLAYER_FIELDS = ("id", "name", "matches", "won", "drawn", "playing", "hands", "points", "sweeps",
                 "carte", "denari", "settebello", "primiera", "re_bello", "napola", "declarations",
                 "best", "worst")


def _player_scope() -> dict[str, Any]:
    """``variant`` (a variant's code) and ``since`` (a date, YYYY-MM-DD, or a moment in ISO 8601)."""
    variant = request.args.get("variant") or None
    if variant is not None and variant not in PRESETS:
        raise BadRequest(said("variant must be one of: {names}", names=", ".join(PRESETS)))
    since = request.args.get("since") or None
    if since is not None:
        try:
            moment = datetime.fromisoformat(since)
            if moment.tzinfo is None:
                moment = moment.astimezone()       # the server's own time zone: the table's
            since = moment.astimezone(timezone.utc).isoformat(timespec="seconds")
        except (ValueError, OverflowError, OSError):    # not a date, or beyond the calendar
            raise BadRequest(said("since must be a date, such as 2026-11-01")) from None
    return {"variant": variant, "since": since}


def _player_json(row: dict[str, Any]) -> dict[str, Any]:
    return {name: row[name] for name in PLAYER_FIELDS}


@bp.get("/players")
def list_players():
    """Every player's record, the leaderboard's order (most matches won first)."""
    rows = ranked(store.records(store.get_db(), **_player_scope()))
    return jsonify({"players": [_player_json(row) for row in rows]})


@bp.get("/players/<int:player_id>")
def get_player(player_id: int):
    """One player's record, with the head-to-head against each opponent; a player merged into
    another answers as that one."""
    db = store.get_db()
    found = store.player_row(db, player_id)
    if found is None:
        raise NotFoundError(said("no such player"))
    scope = _player_scope()
    rows = store.records(db, found["id"], **scope)
    record = rows[0] if rows else empty_record(found)
    best, worst = (store.extreme_hand(db, found["id"], which, **scope) for which in (True, False))
    return jsonify({
        **_player_json(record),
        "head_to_head": [{"id": row["id"], "name": row["name"], "matches": row["matches"],
                          "won": row["won"], "lost": row["lost"], "drawn": row["drawn"]}
                         for row in store.head_to_head(db, found["id"], **scope)],
        "best_hand": best and {"match": best["match_id"], "points": best["points"]},
        "worst_hand": worst and {"match": worst["match_id"], "points": worst["points"]},
        "last_matches": [row["id"] for row in store.player_match_rows(db, found["id"], **scope)]})


# -- Tournaments --------------------------------------------------------------------------------

def _tournament(tournament_id: int):
    found = load_tournament(tournament_id)
    if found is None:
        raise NotFoundError(said("no such tournament"))
    return found


@bp.post("/tournaments")
def create_tournament_api():
    data = _body()
    try:
        tournament_id = create_tournament(
            data.get("name"), data.get("format"), data.get("variant", "classica"),
            data.get("options") or {}, data.get("entrants"), data.get("rounds"),
            data.get("seeding"), data.get("pin"))
    except TournamentError as problem:
        raise BadRequest(problem.args[0]) from None
    return _created(tournament_json(_tournament(tournament_id)),
                    url_for("api.get_tournament", tournament_id=tournament_id))


@bp.get("/tournaments/<int:tournament_id>")
def get_tournament(tournament_id: int):
    return jsonify(tournament_json(_tournament(tournament_id)))


@bp.post("/tournaments/<int:tournament_id>/rounds")
def start_round_api(tournament_id: int):
    """Start the next round (the first included): 409 while a round is being played, or once
    the tournament is over. With a PIN, X-Scopa-PIN."""
    found = _tournament(tournament_id)
    if found.pin_hash and not try_tournament_pin(tournament_id, found.pin_hash,
                                                 request.headers.get("X-Scopa-PIN")):
        raise Forbidden(said("this tournament has a PIN: send it in the X-Scopa-PIN header"))
    try:
        start_next_round(found)
    except (TournamentError, store.RoundStarted) as problem:
        message = problem.args[0] if isinstance(problem, TournamentError) else said(
            "that round was started meanwhile")
        response = jsonify({"error": for_api(message), **tournament_json(_tournament(tournament_id))})
        response.status_code = 409
        return response
    response = jsonify(tournament_json(_tournament(tournament_id)))
    response.status_code = 201
    return response


@bp.get("/openapi.json")
def openapi():
    from .openapi import SPEC
    return jsonify(SPEC)
