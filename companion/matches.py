"""A match as the table sees it, worked out from what is stored: its rules and sides, every
hand's points, the running totals, who deals next, and the outcome.

A hand is scored by the rules engine once, when it is saved: its points are stored beside what the
players entered (``result``), and the match's outcome beside the match (``summary``). Building a
match adds up stored points; a hand's full breakdown is worked out only when a page shows it.

Nothing here touches Flask or the database: ``build`` takes the stored rows, and ``Ledger`` works
out, inside a save's transaction, what the save does to the match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Collection, NamedTuple, Sequence

from .rules import (
    ClaimCheck,
    Declaration,
    HandResult,
    HandScore,
    Outcome,
    Rules,
    ScopaError,
    Tally,
    check_claim,
    match_outcome,
    next_outcome,
    parse_cards,
    rules_from_dict,
    score_piles,
    score_so_far,
    score_tallies,
)
from .rules.cards import suit_values
from .rules.deal import DealPlan, deal_plan
from .rules.said import said
from .rules.said_json import from_json, to_json
from .stats import EXTREMES, SUMS, TAKEN


def sides_for(layout: str, players: Sequence[str], teams: Sequence[str]) -> list[dict[str, Any]]:
    """The sides of a match: one per player, or two teams whose players sit alternately."""
    if layout in ("2", "3", "4"):
        return [{"name": name, "players": [name]} for name in players[:int(layout)]]
    size = int(layout[-1])
    return [{"name": teams[0], "players": list(players[0:2 * size:2])},
            {"name": teams[1], "players": list(players[1:2 * size:2])}]


def seating(sides: Sequence[dict[str, Any]]) -> list[tuple[str, int]]:
    """(player, side) in playing order round the table: team mates sit apart, so the turn
    alternates between the teams."""
    longest = max(len(side["players"]) for side in sides)
    return [(side["players"][i], s) for i in range(longest)
            for s, side in enumerate(sides) if i < len(side["players"])]


def score_entry(entry: dict[str, Any], rules: Rules, names: Sequence[str],
                waiting: Collection[str] | None = None, per_side: int | None = None) -> HandScore:
    """Score what the players entered for a hand: piles of cards, or counts. ``waiting``: a
    hand by counts still being entered, whose items named there are not entered yet
    (``rules.score_so_far``). ``per_side``: the players of each side of a hand being entered."""
    declarations = [Declaration(d["side"], d["deal"], tuple(parse_cards(d["cards"], said("a declaration"))))
                    for d in entry.get("declarations", [])]
    if entry["mode"] == "piles":
        piles = [parse_cards(pile, said("{name}'s pile", name=names[side])) for side, pile in enumerate(entry["piles"])]
        return score_piles(piles, entry["sweeps"], rules, declarations, names, per_side)
    tallies = [Tally(**tally) for tally in entry["tallies"]]
    if waiting is not None:
        return score_so_far(tallies, rules, waiting, declarations, names, per_side)
    return score_tallies(tallies, rules, declarations, names, per_side)


def takes_every_card(score: HandScore) -> int | None:
    """The side that took every card of the deck in this hand (all 40 in one pile, or all the
    cards by counts), else None. Such a hand is most often a Save tapped before anything was
    entered, so the hand's form asks before recording it."""
    every = [side for side, tally in enumerate(score.tallies) if tally.cards == score.rules.deck]
    return every[0] if every else None


def takes_every_point(score: HandScore) -> int | None:
    """The side that took every point of the hand and every card of the bonus suit (all ten
    denari), the others scoring nothing at all, else None.

    "Every point" alone would be any 4-0 hand: carte, denari, settebello and primiera to one
    side and no scopa to the other is an everyday hand, which must be saved without a question.
    With every denaro besides, and the others without even a scopa, it is a rare hand, and one
    a slip easily makes: the whole suit tapped into the wrong pile, or 10 typed in the wrong
    side's column. So that is asked about, as every card is: a hand really played so is saved
    with one more tap."""
    coins = len(suit_values(score.rules.deck))
    for side, tally in enumerate(score.tallies):
        others = [s for s in range(len(score.tallies)) if s != side]
        if tally.coins == coins and all(line.points[s] == 0 for line in score.lines for s in others):
            return side
    return None


class Extreme(NamedTuple):
    """A hand the form asks about before saving it: ``side`` took every card (``every`` is
    "cards") or every point with every denaro ("points")."""

    side: int
    every: str


def extreme_of(score: HandScore) -> Extreme | None:
    """The question a hand's form asks before saving this hand, if any (the JSON API never
    asks): every card to one side, else every point with every denaro (``takes_every_point``)."""
    side = takes_every_card(score)
    if side is not None:
        return Extreme(side, "cards")
    side = takes_every_point(score)
    return None if side is None else Extreme(side, "points")


def result_of(score: HandScore) -> dict[str, Any]:
    """What a scored hand gives the match, as stored beside its entry: each side's points, and
    each side's points item by item (those not 0), which the players' records add up."""
    return {"points": list(score.totals), "outright": score.outright, "reason": score.outright_reason,
            "items": [{item: points for item, points in score.points(side).items() if points}
                      for side in range(len(score.tallies))]}


def no_stats(sides: int) -> list[dict[str, Any]]:
    """Each side's figures before its first hand (what they are: ``companion.stats``)."""
    return [{**{name: 0 for name in SUMS}, **{name: None for name in EXTREMES}} for _ in range(sides)]


def add_stats(stats: list[dict[str, Any]], result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Each side's figures once a counted hand with this result is added: hands, points, sweeps
    (the scope points), the hands in which it took each item, its best and worst hand. A claim
    (no result) adds nothing."""
    if not result:
        return stats
    items = result.get("items") or [{} for _ in stats]
    after = []
    for side, before in enumerate(stats):
        points, taken = result["points"][side], items[side]
        row = {**before, "hands": before["hands"] + 1, "points": before["points"] + points,
               "sweeps": before["sweeps"] + taken.get("scope", 0),
               "best": points if before["best"] is None else max(before["best"], points),
               "worst": points if before["worst"] is None else min(before["worst"], points)}
        for item in TAKEN:
            row[item] += taken.get(item, 0) > 0
        after.append(row)
    return after


@dataclass(eq=False)
class Hand:
    """A hand played to its end, or ended by a chiamarsi fuori (``claim``).

    ``id`` names the stored hand for good (edits and deletes address it); ``number`` is its
    place in the order of play ("Mano 3"), which moves up when an earlier hand is deleted.
    ``stored`` is what the players entered, as stored (JSON text, read only when needed)."""

    id: int
    number: int
    stored: str | dict[str, Any]
    result: dict[str, Any] | None
    totals_after: tuple[int, ...]
    rules: Rules
    names: tuple[str, ...]
    version: int = 1
    claim: ClaimCheck | None = None
    stored_previous: str | dict[str, Any] | None = None   # the entry before its last edit
    updated: str = ""

    @cached_property
    def entry(self) -> dict[str, Any]:
        return _json(self.stored)

    @cached_property
    def previous(self) -> dict[str, Any] | None:
        return None if self.stored_previous is None else _json(self.stored_previous)

    @cached_property
    def score(self) -> HandScore | None:
        """The hand's full breakdown, worked out when a page shows it; None for a claim."""
        return None if self.claim else score_entry(self.entry, self.rules, self.names)

    @property
    def points(self) -> tuple[int, ...]:
        # A claim ends the match in the middle of a hand: no points are counted for it.
        return tuple(self.result["points"]) if self.result else (0,) * len(self.totals_after)

    def outcome_input(self) -> HandResult:
        if self.claim is not None:
            return HandResult(self.points, claim=self.claim)
        assert self.result is not None, "a hand of cards or counts is built with its points (build)"
        return HandResult(self.points, self.result["outright"], self.result["reason"])


def _json(value: str | dict[str, Any]) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else value


@dataclass
class Match:
    id: int
    created: str
    rules: Rules
    sides: list[dict[str, Any]]
    first_dealer: int
    outcome: Outcome        # from the hands (build), or from the row's summary (listed)
    hands: list[Hand] = field(default_factory=list)
    version: int = 0          # bumped by every change to the hands
    has_pin: bool = False     # recording needs the match's edit PIN
    recorded: int = 0         # hands recorded (counted or not); ``hands`` may be left unread
    follows: int | None = None        # the match this one is the "Rivincita" of
    followed_by: int | None = None    # its own Rivincita, once started
    archived: bool = False
    rated: bool = True      # False: the organiser left it out of the ratings

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(side["name"] for side in self.sides)

    @property
    def title(self) -> str:
        return " – ".join(self.names)    # "Anna – Bruno", as a fixture is written in every language

    @property
    def seats(self) -> list[tuple[str, int]]:
        return seating(self.sides)

    def dealer(self, number: int) -> tuple[str, str]:
        """Who deals hand ``number`` (from 1) and who plays first: the deal passes to the next
        player each hand, and the player after the dealer leads."""
        seats = self.seats
        seat = (self.first_dealer + number - 1) % len(seats)
        return seats[seat][0], seats[(seat + 1) % len(seats)][0]

    @property
    def deal_plan(self) -> DealPlan:
        return deal_plan(self.rules, len(self.seats))

    @property
    def totals(self) -> tuple[int, ...]:
        """The score: at the hand that ended the match, when it is over."""
        return self.outcome.totals

    @property
    def counted(self) -> list[Hand]:
        """The hands that make the result: all of them, or those up to the one that ended it."""
        return self.hands[:self.outcome.hands_played]

    @property
    def after_end(self) -> list[Hand]:
        """Hands recorded after the hand that ended the match (an edit can end it earlier):
        kept, shown, but not counted."""
        return self.hands[self.outcome.hands_played:]

    @property
    def last_edit(self) -> Hand | None:
        """The hand most recently edited, whose edit can be undone."""
        edited = [h for h in self.hands if h.previous is not None]
        return max(edited, key=lambda h: h.updated) if edited else None

    @property
    def over(self) -> bool:
        return bool(self.outcome and self.outcome.over)

    @property
    def next_number(self) -> int:
        return self.recorded + 1

    @property
    def next_first_dealer(self) -> int:
        """The seat that deals first in a Rivincita: the deal passes on from this match's last
        counted hand."""
        return (self.first_dealer + self.outcome.hands_played) % len(self.seats)

    def hand(self, hand_id: int) -> Hand | None:
        return next((h for h in self.hands if h.id == hand_id), None)


def build(row: dict[str, Any], hand_rows: Sequence[dict[str, Any]], kept: list[Hand] | None = None) -> Match:
    """The match from its stored row and its hands' rows (in order), from the points stored
    with each hand; a hand stored without them (by an older version) is scored here. ``kept``:
    the first hands, unchanged since an earlier version (store.built_match), before the rows;
    the outcome is then the one kept in the row's summary."""
    rules = rules_from_dict(row["rules"])
    names = tuple(side["name"] for side in row["sides"])
    hands = list(kept or [])
    totals = hands[-1].totals_after if hands else (0,) * len(row["sides"])
    for number, hand_row in enumerate(hand_rows, start=len(hands) + 1):
        stored = hand_row["entry"]
        result = _json(hand_row["result"]) if hand_row.get("result") else None
        hand = Hand(hand_row["id"], number, stored, result, totals, rules, names,
                    hand_row.get("version", 1), None, hand_row.get("previous"),
                    hand_row.get("updated", ""))
        # A claim is stored without points (they depend on the totals before it); so was every
        # hand by versions before points were stored: only these entries are read here.
        if result is None and hand.entry["mode"] == "claim":
            hand.claim = claim_of(hand.entry, totals, rules, names)
        else:
            if result is None and (score := hand.score) is not None:     # not a claim: scored
                hand.result = result_of(score)
            totals = tuple(t + p for t, p in zip(totals, hand.points))
            hand.totals_after = totals
        hands.append(hand)
    outcome = (outcome_of(row["summary"]) if kept is not None else
               match_outcome([h.outcome_input() for h in hands], rules, names))
    return Match(row["id"], row["created"], rules, row["sides"], row["first_dealer"], outcome, hands,
                 row.get("version") or 0, bool(row.get("pin_hash")), len(hands), **links(row))


def listed(row: dict[str, Any]) -> Match:
    """The match as a list shows it, from its row and summary alone: no hand is read."""
    summary = row["summary"] or Ledger(row).start()
    return Match(row["id"], row["created"], rules_from_dict(row["rules"]), row["sides"],
                 row["first_dealer"], outcome=outcome_of(summary), version=row.get("version") or 0,
                 has_pin=bool(row.get("pin_hash")), recorded=summary["hands"], **links(row))


def links(row: dict[str, Any]) -> dict[str, Any]:
    """What a match's row says of the matches around it, whether it is archived, and rated."""
    return {"follows": row.get("follows"), "followed_by": row.get("followed_by"),
            "archived": bool(row.get("archived")), "rated": not row.get("unrated")}


def claim_of(entry: dict[str, Any], totals: Sequence[int], rules: Rules,
             names: Sequence[str]) -> ClaimCheck:
    piles = [parse_cards(pile) for pile in entry["piles"]]
    return check_claim(entry["claimer"], piles, entry["sweeps"], totals, rules, names)


class MatchOver(ScopaError):
    """A hand saved to a match that is already won."""


def summary_of(outcome: Outcome, hands: int, stats: list[dict[str, Any]]) -> dict[str, Any]:
    """The match's state as kept in its row: what the list of matches shows, and what a save
    builds on without reading the hands; ``stats``, each side's figures over the counted hands
    (``add_stats``), which the players' records add up."""
    return {"totals": list(outcome.totals), "hands_played": outcome.hands_played, "hands": hands,
            "over": outcome.over, "winner": outcome.winner, "reason": outcome.reason,
            "double": outcome.double, "text": to_json(outcome.text), "stats": stats}


def stats_of(match: Match) -> list[dict[str, Any]]:
    """Each side's figures over the hands that make the result."""
    stats = no_stats(len(match.sides))
    for hand in match.counted:
        stats = add_stats(stats, hand.result if hand.claim is None else None)
    return stats


def outcome_of(summary: dict[str, Any]) -> Outcome:
    return Outcome(tuple(summary["totals"]), summary["hands_played"], summary["over"],
                   summary["winner"], summary["reason"], summary["double"], from_json(summary["text"]))


class Ledger:
    """What a save does to the match, worked out inside the save's transaction: a new hand from
    the stored summary alone (the time the write lock is held does not grow with the match), a
    change to earlier hands from every hand's stored points."""

    def __init__(self, row: dict[str, Any]):
        self.row = row
        self.rules = rules_from_dict(row["rules"])
        self.names = tuple(side["name"] for side in row["sides"])

    def start(self) -> dict[str, Any]:
        return summary_of(match_outcome([], self.rules, self.names), 0, no_stats(len(self.names)))

    def after_add(self, summary: dict[str, Any], entry: dict[str, Any],
                  result: dict[str, Any] | None) -> dict[str, Any]:
        """The summary once this hand is added; MatchOver if the match was already won."""
        before = outcome_of(summary)
        if before.over:
            raise MatchOver(said("The match is over: {outcome}. Edit a hand to change that.",
                                 outcome=before.text))
        if entry["mode"] == "claim":
            hand = HandResult((0,) * len(self.names),
                              claim=claim_of(entry, before.totals, self.rules, self.names))
        else:
            assert result is not None, "a hand of cards or counts is saved with its points"
            hand = HandResult(tuple(result["points"]), result["outright"], result["reason"])
        stats = add_stats(summary.get("stats") or no_stats(len(self.names)),
                          None if entry["mode"] == "claim" else result)
        return summary_of(next_outcome(before, hand, self.rules, self.names), summary["hands"] + 1,
                          stats)

    def rescored(self, hand_rows: Sequence[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        """Each hand's points scored afresh from its entry, by the hand's id (a claim has none):
        what a migration that adds to a stored result writes back."""
        current = build(self.row, hand_rows)
        return [(hand.id, result_of(score)) for hand in current.hands if (score := hand.score) is not None]

    def after_change(self, hand_rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The summary worked out again from every hand's stored points."""
        current = build(self.row, hand_rows)
        return summary_of(current.outcome, len(hand_rows), stats_of(current))
