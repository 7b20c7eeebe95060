"""What the JSON API answers with, each answer built as its model (``answer_models`` and its
kin) and sent as the model dumps it (``sent``): a hand's breakdown, a match's summary, a stored
hand, a change of a match's log."""

from __future__ import annotations

import threading
from typing import Any, Sequence, TypeVar

from cachetools import LRUCache
from flask import Response, current_app
from pydantic import BaseModel

from ..i18n import LOOKED_UP, api_words, for_api
from ..matches import Hand as StoredHand, Match as MatchRead
from ..rules import HandScore
from ..rules.cards import SUITS
from ..rules.primiera import clean_number
from ..rules.scoring import ESCOBA_ITEMS, ITEMS as POINT_ITEMS, point_name
from ..store import reads as store
from .answer_models import (
    Error,
    Hand,
    Line,
    Match,
    MatchFields,
    MatchWithHands,
    NextHand,
    Outcome,
    Outright,
    Score,
    Side,
    SideNamed,
)
from .openapi_changes import Change, ChangedBy, ChangedHand, HandBefore

M = TypeVar("M", bound=MatchFields)


def json_text(answer: BaseModel) -> str:
    """The answer as JSON text, written by pydantic's own serialiser in jsonify's form: compact,
    ASCII only, its model's fields in the model's order (the bytes the API sent when it built the
    dicts itself; dumped to dicts first and written by ``jsonify``, a match of 200 hands took
    half again the time)."""
    return answer.model_dump_json(ensure_ascii=True)


def sent(answer: BaseModel, status: int = 200) -> Response:
    """The answer (``json_text``), one line ending with a newline, as jsonify sends it."""
    return current_app.response_class(json_text(answer) + "\n", status=status, mimetype="application/json")


def created(answer: BaseModel, location: str) -> Response:
    """201 Created: what was made, and where it lives."""
    response = sent(answer, 201)
    response.headers["Location"] = location
    return response


def error_answer(reason: Any, status: int) -> Response:
    """A refusal (``Error``): the reason in the request's words, with its status."""
    return sent(Error(error=for_api(reason)), status)


def side_json(hand: HandScore, side: int) -> Side:
    tally = hand.tallies[side]
    primiera = hand.primiera.sides[side]
    best = [str(primiera.best[suit]) for suit in SUITS if suit in primiera.best]
    points = {point_name(item, hand.rules): value for item, value in hand.points(side).items()}
    return Side(
        cards=tally.cards, coins=tally.coins, settebello=tally.settebello, re_bello=tally.re_bello,
        sevens=tally.sevens, sixes=tally.sixes, aces=tally.aces, napola=tally.napola,
        scaletta_alta=tally.scaletta_alta, piva=tally.piva, sweeps=tally.sweeps,
        primiera_value=None if primiera.value is None else clean_number(primiera.value),
        primiera_cards=best or None, points=points, total=sum(points.values()))


def point_label(item: str, hand: HandScore) -> str:
    """A point's name in the API: Cirulla's declarations are its *accusi*, not a Bazzica;
    Escoba's points their Spanish names."""
    if item == "declarations" and hand.rules.declarations == "cirulla":
        return "Accusi"
    if hand.rules.preset == "escoba" and item in ESCOBA_ITEMS:
        return ESCOBA_ITEMS[item][1]
    return POINT_ITEMS[item][0]


def breakdown_json(hand: HandScore, words: Any = None) -> list[Line]:
    """Each point of the hand: who took it and why, worded with ``words`` (``api_words()``)."""
    return [Line(item=point_name(line.item, hand.rules), label=point_label(line.item, hand),
                 points=list(line.points), winner=line.winner, why=for_api(line.why, words))
            for line in hand.lines]


def hand_json(hand: HandScore) -> Score:
    return Score(
        sides=[side_json(hand, side) for side in range(len(hand.tallies))],
        breakdown=breakdown_json(hand, api_words()),
        outright=_outright(hand), rules=hand.rules.as_dict())


def _outright(hand: HandScore) -> Outright | None:
    if hand.outright is None:
        return None
    assert hand.outright_reason is not None     # the rules set both (rules.scoring)
    return Outright(side=hand.outright, reason=hand.outright_reason)


def outcome_json(match: MatchRead, words: Any = LOOKED_UP) -> Outcome:
    outcome = match.outcome
    return Outcome(over=outcome.over, winner=outcome.winner, reason=outcome.reason, double=outcome.double,
                   text=for_api(outcome.text, words))


def match_summary(match: MatchRead, words: Any = LOOKED_UP) -> Match:
    """The match as a list shows it; ``words``, ``api_words()``, looked up here unless given."""
    return _match_as(Match, match, words, hands=match.recorded)


def match_with_hands(match: MatchRead, hands: list[Hand], following: str | None, words: Any) -> MatchWithHands:
    """The match alone: a page of its hands (``hand_json_of``) and the link to the next."""
    return _match_as(MatchWithHands, match, words, hands=hands, hands_next=following)


def _match_as(kind: type[M], match: MatchRead, words: Any, **own: Any) -> M:
    """What a match says of itself, and what ``kind`` of answer adds (``own``)."""
    dealer, leader = match.dealer(match.next_number)
    return kind(
        id=match.id, created=match.created, version=match.version,
        sides=[SideNamed(name=side["name"], players=side["players"]) for side in match.sides],
        rules=match.rules.as_dict(), pin=match.has_pin, totals=list(match.totals),
        outcome=outcome_json(match, words), rated=match.rated,
        next_hand=None if match.over else NextHand(number=match.next_number, dealer=dealer,
                                                     plays_first=leader),
        **own)


# A stored hand's breakdown in a language, kept by everything it is worked out from (its entry
# as stored, the rules, the sides' names: ``Hand.score``) and the language: a match of 200 hands
# asked for again after a change words only the hands that changed (issue 41: it cost 180 ms at
# every request). About a club night's hands in two languages; a few KB each.
_breakdowns: LRUCache[tuple[Any, ...], list[Line]] = LRUCache(4096)
_breakdowns_lock = threading.Lock()


def _breakdown_of(hand: StoredHand, words: Any) -> list[Line] | None:
    score = hand.score
    if score is None:           # a claim
        return None
    if not isinstance(hand.stored, str):        # a hand built from a dict, not a row: not kept
        return breakdown_json(score, words)
    key = (words.language if words is not None else "en", hand.stored, hand.rules, hand.names)
    with _breakdowns_lock:
        found = _breakdowns.get(key)
    if found is None:
        found = breakdown_json(score, words)
        with _breakdowns_lock:
            _breakdowns[key] = found
    return found


def hand_json_of(hand: StoredHand, words: Any = LOOKED_UP) -> Hand:
    """A stored hand as the API gives it; ``words``, ``api_words()`` (looked up once for a
    match's hands), looked up here unless given."""
    return Hand(id=hand.id, number=hand.number, version=hand.version, entry=hand.entry,
                points=list(hand.points), totals_after=list(hand.totals_after),
                breakdown=_breakdown_of(hand, api_words() if words is LOOKED_UP else words))


def change_json(row: dict[str, Any], names: Sequence[str]) -> Change:
    """One change of a match's log (``store.change_rows``): when, what, which hand, who (the
    phone's number in the match, and its label in words), and the hand before it: null where it
    was not there, else its entry, its points (null for a claim) and whether it was deleted."""
    before = row["before"]
    return Change(
        id=row["id"], at=row["created"], kind=row["kind"],
        hand=ChangedHand(id=row["hand_id"], number=row["number"]),
        # bool: a row read alone (store.change_row, an undo's answer) keeps the store's 0 and 1
        by=ChangedBy(phone=row["phone"], organiser=bool(row["organiser"]), api=bool(row["api"]),
                     label=for_api(store.who(row))),
        what=for_api(store.what(row)), was=for_api(store.was(row, names)),
        before=None if before is None else HandBefore(
            entry=before["entry"], deleted=before["deleted"],
            points=before["result"]["points"] if before["result"] else None),
        undoes=row["undoes"])
