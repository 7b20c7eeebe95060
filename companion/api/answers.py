"""What the JSON API answers with: a hand's breakdown, a match's summary, a stored hand."""

from __future__ import annotations

import threading
from typing import Any, Sequence

from cachetools import LRUCache

from ..i18n import LOOKED_UP, api_words, for_api
from ..matches import Hand, Match
from ..rules import HandScore
from ..rules.cards import SUITS
from ..rules.primiera import clean_number
from ..rules.scoring import ESCOBA_ITEMS, ITEMS as POINT_ITEMS, point_name
from ..store import reads as store


def side_json(hand: HandScore, side: int) -> dict[str, Any]:
    tally = hand.tallies[side]
    primiera = hand.primiera.sides[side]
    best = [str(primiera.best[suit]) for suit in SUITS if suit in primiera.best]
    points = {point_name(item, hand.rules): value for item, value in hand.points(side).items()}
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


def point_label(item: str, hand: HandScore) -> str:
    """A point's name in the API: Cirulla's declarations are its *accusi*, not a Bazzica;
    Escoba's points their Spanish names."""
    if item == "declarations" and hand.rules.declarations == "cirulla":
        return "Accusi"
    if hand.rules.preset == "escoba" and item in ESCOBA_ITEMS:
        return ESCOBA_ITEMS[item][1]
    return POINT_ITEMS[item][0]


def breakdown_json(hand: HandScore, words: Any = None) -> list[dict[str, Any]]:
    """Each point of the hand: who took it and why, worded with ``words`` (``api_words()``)."""
    return [{"item": point_name(line.item, hand.rules), "label": point_label(line.item, hand),
             "points": list(line.points), "winner": line.winner, "why": for_api(line.why, words)}
            for line in hand.lines]


def hand_json(hand: HandScore) -> dict[str, Any]:
    return {
        "sides": [side_json(hand, side) for side in range(len(hand.tallies))],
        "breakdown": breakdown_json(hand, api_words()),
        "outright": (None if hand.outright is None
                     else {"side": hand.outright, "reason": hand.outright_reason}),
        "rules": hand.rules.as_dict(),
    }


def outcome_json(match: Match, words: Any = LOOKED_UP) -> dict[str, Any]:
    outcome = match.outcome
    return {"over": outcome.over, "winner": outcome.winner, "reason": outcome.reason,
            "double": outcome.double, "text": for_api(outcome.text, words)}


def match_summary(match: Match, words: Any = LOOKED_UP) -> dict[str, Any]:
    """The match as a list shows it; ``words``, ``api_words()``, looked up here unless given."""
    dealer, leader = match.dealer(match.next_number)
    return {
        "id": match.id, "created": match.created, "version": match.version,
        "sides": match.sides, "rules": match.rules.as_dict(), "pin": match.has_pin,
        "totals": list(match.totals), "hands": match.recorded, "outcome": outcome_json(match, words),
        "rated": match.rated,
        "next_hand": None if match.over else {"number": match.next_number, "dealer": dealer,
                                              "plays_first": leader},
    }


# A stored hand's breakdown in a language, kept by everything it is worked out from (its entry
# as stored, the rules, the sides' names: ``Hand.score``) and the language: a match of 200 hands
# asked for again after a change words only the hands that changed (issue 41: it cost 180 ms at
# every request). About a club night's hands in two languages; a few KB each.
_breakdowns: LRUCache[tuple[Any, ...], list[dict[str, Any]]] = LRUCache(4096)
_breakdowns_lock = threading.Lock()


def _breakdown_of(hand: Hand, words: Any) -> list[dict[str, Any]] | None:
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


def hand_json_of(hand: Hand, words: Any = LOOKED_UP) -> dict[str, Any]:
    """A stored hand as the API gives it; ``words``, ``api_words()`` (looked up once for a
    match's hands), looked up here unless given."""
    return {"id": hand.id, "number": hand.number, "version": hand.version, "entry": hand.entry,
            "points": list(hand.points), "totals_after": list(hand.totals_after),
            "breakdown": _breakdown_of(hand, api_words() if words is LOOKED_UP else words)}


def change_json(row: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """One change of a match's log (``store.change_rows``): when, what, which hand, who (the
    phone's number in the match, and its label in words), and the hand before it: null where it
    was not there, else its entry, its points (null for a claim) and whether it was deleted."""
    before = row["before"]
    return {"id": row["id"], "at": row["created"], "kind": row["kind"],
            "hand": {"id": row["hand_id"], "number": row["number"]},
            # bool: a row read alone (store.change_row, an undo's answer) keeps the store's 0 and 1
            "by": {"phone": row["phone"], "organiser": bool(row["organiser"]), "api": bool(row["api"]),
                   "label": for_api(store.who(row))},
            "what": for_api(store.what(row)), "was": for_api(store.was(row, names)),
            "before": None if before is None else {
                "entry": before["entry"], "deleted": before["deleted"],
                "points": before["result"]["points"] if before["result"] else None},
            "undoes": row["undoes"]}
