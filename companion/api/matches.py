"""Matches and their hands over JSON: the same store, the same validation and the same PIN as the
pages. A phone (or a program) saving a hand sends an Idempotency-Key: sent twice, it records one
hand. An edit or a delete names the version it was made from (If-Match), and never overwrites
another phone's change."""

from __future__ import annotations

from typing import Any, assert_never

from flask import Response, make_response, request, url_for
from flask_babel import get_locale

from ..i18n import api_words, for_api
from ..matches import Match, listed
from ..rules import HandScore
from ..rules.said import said
from ..store import reads as store
from ..table import match_service, service
from ..web.access import needs_pin, new_match_limit, try_pin
from ..web.hand_requests import HandChange, HandIn, MadeFrom
from ..web.match_requests import NewMatch
from ..web.pages import load_match
from ..web.question_requests import Rated
from ..web.record import may_change
from .answer_models import Hand, HandDeleted, HandSaved, Problem
from .answers import (
    breakdown_json,
    change_json,
    created,
    error_answer,
    hand_json_of,
    json_text,
    match_summary,
    match_with_hands,
    sent,
)
from .blueprint import bp, organiser_only
from .openapi_changes import Changes, ChangeUndone
from .parse import BadRequest, Forbidden, NotFoundError, body, listing, no_body
from .queries import ChangesQuery, HandsQuery, MatchesQuery


def load(match_id: int) -> Match:
    return load_match(match_id, missing=NotFoundError)


def _row(match_id: int) -> dict[str, Any]:
    """The match's row (its summary: no hand read); 404 if it was deleted meanwhile."""
    row = store.match_row(store.get_db(), match_id)
    if row is None:
        raise NotFoundError()
    return row


def _version(match_id: int) -> int:
    version = store.match_version(store.get_db(), match_id)
    if version is None:
        raise NotFoundError()
    return version


@bp.get("/matches")
def list_matches():
    """Matches newest first, a page at a time (``limit``, at most 200; ``before``, the ``next``
    link's id), from the matches' stored summaries: the cost does not grow with the store.
    ``state``: playing, finished or all."""
    asked = MatchesQuery.asked()
    state, limit, before = asked.state, asked.limit, asked.before
    over = None if state == "all" else state == "finished"
    # Each match's summary is worded once per version and language, kept as its JSON text: a
    # page of 200 costs a read of their ids and versions (issue 41: 60 ms, 500 under load).
    words = api_words()
    found = store.each_match(store.get_db(), f"api summary {get_locale()}",
                             lambda row: (row["id"], json_text(match_summary(listed(row), words))),
                             among=store.listed_versions(over=over, before=before, limit=limit + 1))
    following = None
    if len(found) > limit:
        following = url_for("api.list_matches", state=state, limit=limit, before=found[limit - 1][0])
    return listing("matches", [text for _id, text in found[:limit]], following)


@bp.post("/matches")
@new_match_limit
def create_match_api():
    made = service.new_match(NewMatch.read(body()))
    return created(match_summary(load(made.match_id)), url_for("api.get_match", match_id=made.match_id))


@bp.get("/matches/<int:match_id>")
def get_match(match_id: int):
    """The match with its hands in the order they were played, a page at a time (``limit``,
    at most and by default 200; ``after``, a hand's number: the hands after it, as the
    ``hands_next`` link gives), each hand's breakdown worded once (``answers.hand_json_of``)."""
    asked = HandsQuery.asked()
    limit, after = asked.limit, asked.after or 0
    version = _version(match_id)
    etag = f"m{match_id}-v{version}"
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
        response.set_etag(etag, weak=True)
        return response
    match = load(match_id)
    # Numbered 1, 2, 3... in the order of play (a deleted hand's followers move up).
    hands = [hand for hand in match.hands if hand.number > after][:limit + 1]
    following = None
    if len(hands) > limit:
        following = url_for("api.get_match", match_id=match_id, limit=limit, after=hands[limit - 1].number)
    words = api_words()
    response = sent(match_with_hands(match, [hand_json_of(h, words) for h in hands[:limit]], following, words))
    response.set_etag(etag, weak=True)     # weak: the same match, however compressed
    return response


def _may_write(match_id: int) -> None:
    _version(match_id)
    if not may_change(match_id):        # the club's record (web.record): the organiser's alone
        organiser_only(said("this match finished more than three hours ago, or before the companion "
                            "was last started: it is the club's record, and only the organiser may "
                            "change it: send the organiser's code in the X-Scopa-Organiser header"))
    pin = request.headers.get("X-Scopa-PIN")
    if needs_pin(match_id) and not (pin and try_pin(match_id, pin)):
        raise Forbidden(said("this match has an edit PIN: send it in the X-Scopa-PIN header"))


@bp.post("/matches/<int:match_id>/hands")
def add_hand_api(match_id: int):
    _may_write(match_id)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= 100:
        raise BadRequest(said("Idempotency-Key must be 1 to 100 characters"))
    match = listed(_row(match_id))
    hand = HandIn.read(body(), {"match": match})     # refused in the words of its sides
    entry, score = hand.scored(match)
    match (outcome := service.add_hand(match_id, entry, score, key=key, number=hand.number)):
        case service.Taken(row):
            return _hand_answer(match_id, row["id"], 409, said(
                "hand {number} was recorded meanwhile (shown here): replace it with PUT, or send "
                "this one as the next hand", number=hand.number))
        case service.Duplicate(row):
            return _hand_answer(match_id, row["id"], 422, said(
                "this Idempotency-Key was already used for a different hand (shown here): use a "
                "new key for a new hand"))
        case service.NoSuchMatch():
            raise NotFoundError()           # the match was deleted meanwhile
        case service.Over(refusal):
            return error_answer(refusal, 409)
        case service.Repeated(hand_id):
            return _hand_answer(match_id, hand_id, 200)
        case service.Added(hand_id, number, summary):
            return _added(match_id, hand_id, number, summary, entry, score)
        case service.NotSaved(why):
            return error_answer(why, 503)
        case _: assert_never(outcome)


def _added(match_id: int, hand_id: int, number: int, summary: dict[str, Any],
           entry: dict[str, Any], score: HandScore):
    """A new hand is the last, and counted (the match was not over): its answer is worked out
    from the match's summary right after it and its score, without reading the other hands."""
    match = listed({**_row(match_id), "summary": summary})
    hand = Hand(id=hand_id, number=number, version=1, entry=entry, points=list(score.totals),
                totals_after=list(match.totals), breakdown=breakdown_json(score, api_words()))
    return _answer(HandSaved(hand=hand, match=match_summary(match)), 201, match_id, hand_id, 1)


def _tagged() -> int | None:
    """The version an If-Match header names (``"<version>"``), if it names one."""
    # A compressed answer's ETag carries the encoding: "2:gzip" names version 2 too.
    # The tag is taken weak or strong (a compressed answer's is weak); an empty tag is no tag.
    tags = [tag.split(":")[0] for tag in request.if_match.as_set(include_weak=True) if tag]
    if len(tags) == 1 and tags[0].isascii() and tags[0].isdigit():
        return store.number_from(tags[0])
    return None


def _made_from(sent: int | None = None) -> int:
    """The version an edit or delete was made from: If-Match's, else the body's (``sent``, as
    its model read it), else the query's (``?version=3``)."""
    made_from = _tagged()
    if made_from is None:
        made_from = sent
    if made_from is None:
        made_from = MadeFrom.read({"version": request.args.get("version")}).version
    if made_from is None:
        raise BadRequest(said('say which version of the hand this was made from: "version" or an '
                                'If-Match header with the hand\'s ETag'))
    return made_from


@bp.route("/matches/<int:match_id>/hands/<int:hand_id>", methods=["GET", "PUT", "DELETE"])
def one_hand(match_id: int, hand_id: int):
    """One hand by its id. PUT replaces its entry and DELETE removes it, each only from the
    version it was made from (409 with the hand as it is now otherwise)."""
    if request.method == "GET":
        _version(match_id)
        return _hand_answer(match_id, hand_id, 200)
    _may_write(match_id)
    done: service.Changed | service.Deleted | service.Stale | service.NoSuchHand | service.ClaimKept | service.NotSaved
    if request.method == "PUT":
        match = load(match_id)
        change = HandChange.read(body(), {"match": match})
        made_from = _made_from(change.version)
        entry, score = change.scored(match)
        done = service.change_hand(match_id, hand_id, entry, score, made_from)
    else:
        done = service.delete_hands(match_id, {hand_id: _made_from()})
    match done:
        case service.Stale(row) if row is not None:
            return _hand_answer(match_id, hand_id, 409, said(
                "the hand is at version {version}, not the one this was made from: here it is now",
                version=row["version"]))
        case service.Stale() | service.NoSuchHand():     # (a Stale without its row: deleted meanwhile)
            raise NotFoundError(_NO_HAND)
        case service.Deleted():
            return sent(HandDeleted(deleted=hand_id, match=match_summary(load(match_id))))
        case service.Changed():
            return _hand_answer(match_id, hand_id, 200)
        case service.ClaimKept(why):
            raise BadRequest(why)
        case service.NotSaved(why):
            return error_answer(why, 503)
        case _: assert_never(done)


_NO_HAND = said("no such hand (it may have been deleted)")


def _hand_answer(match_id: int, hand_id: int, status: int, error: Any = None):
    match = load(match_id)
    hand = match.hand(hand_id)
    if hand is None:
        raise NotFoundError(_NO_HAND)
    shown, summary = hand_json_of(hand), match_summary(match)
    answer = (Problem(error=for_api(error), hand=shown, match=summary) if error
              else HandSaved(hand=shown, match=summary))
    return _answer(answer, status, match_id, hand_id, hand.version)


def _answer(answer: HandSaved | Problem, status: int, match_id: int, hand_id: int, version: int) -> Response:
    response = sent(answer, status)
    response.set_etag(str(version))
    response.headers["Location"] = url_for("api.one_hand", match_id=match_id, hand_id=hand_id)
    return response


@bp.put("/matches/<int:match_id>/rated")
def set_rated_api(match_id: int):
    """Leave a match out of the players' ratings (``{"rated": false}``), or count it again: the
    organiser's alone."""
    _version(match_id)
    organiser_only(said("only the organiser may leave a match out of the ratings: send the "
                        "organiser's code in the X-Scopa-Organiser header"))
    rated = Rated.read(body()).rated
    match (outcome := match_service.set_rated(match_id, rated)):
        case match_service.NoSuchMatch():
            raise NotFoundError()
        case match_service.Rated():
            return sent(match_summary(load(match_id)))
        case _:
            assert_never(outcome)


@bp.get("/matches/<int:match_id>/changes")
def match_changes(match_id: int):
    """The match's changes, newest first, a page at a time (``limit``, at most 200; ``before``,
    the ``next`` link's change): who changed which hand, when, and what it was before."""
    _version(match_id)
    asked = ChangesQuery.asked()
    limit = asked.limit
    rows = store.change_rows(store.get_db(), match_id, asked.before, limit + 1)
    names = listed(_row(match_id)).names
    following = None
    if len(rows) > limit:
        following = url_for("api.match_changes", match_id=match_id, limit=limit, before=rows[limit - 1]["id"])
    return sent(Changes(changes=[change_json(row, names) for row in rows[:limit]], next=following))


@bp.post("/matches/<int:match_id>/changes/<int:change_id>/undo")
def undo_change_api(match_id: int, change_id: int):
    """The organiser's undo of one change: its hand as it was before it (the undo is a change
    of the log itself, answered as ``change``; null when the hand was already so)."""
    _version(match_id)
    organiser_only(said("only the organiser may undo a change: send the organiser's code in the "
                        "X-Scopa-Organiser header"))
    no_body()
    done = service.undo_change(match_id, change_id)
    match done:
        case service.NoSuchChange():
            raise NotFoundError(said("no such change"))
        case service.NoSuchMatch():
            raise NotFoundError()
        case service.Undone(change_id=logged):
            db = store.get_db()
            match = load(match_id)
            row = store.change_row(db, match_id, logged) if logged else None
            return sent(ChangeUndone(undone=change_id, change=change_json(row, match.names) if row else None,
                                     match=match_summary(match)))
        case _:
            assert_never(done)
