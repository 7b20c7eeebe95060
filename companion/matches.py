"""A match as the table sees it, worked out from what is stored: its rules and sides, every hand
scored by the rules engine, the running totals, who deals next, and the outcome.

Nothing here touches Flask or the database: ``build`` takes the stored rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .rules import (ClaimCheck, Declaration, HandResult, HandScore, Outcome, Rules, ScopaError,
                    Tally, check_claim, match_outcome, parse_cards, rules_from_dict, score_piles,
                    score_tallies)
from .rules.deal import DealPlan, deal_plan
from .rules.rulesets import PRESET_TITLES

LAYOUTS = {
    "2": "2 players",
    "3": "3 players",
    "4": "4 players",
    "2x2": "2 teams of 2",
    "2x3": "2 teams of 3",
}


def sides_for(layout: str, players: Sequence[str], teams: Sequence[str]) -> list[dict[str, Any]]:
    """The sides of a match: one per player, or two teams whose players sit alternately."""
    if layout in ("2", "3", "4"):
        return [{"name": name, "players": [name]} for name in players[:int(layout)]]
    size = int(layout[-1])
    return [{"name": teams[0], "players": list(players[0:2 * size:2])},
            {"name": teams[1], "players": list(players[1:2 * size:2])}]


def score_entry(entry: dict[str, Any], rules: Rules, names: Sequence[str]) -> HandScore:
    """Score what the players entered for a hand: piles of cards, or counts."""
    declarations = [Declaration(d["side"], d["deal"], tuple(parse_cards(d["cards"], "a declaration")))
                    for d in entry.get("declarations", [])]
    if entry["mode"] == "piles":
        piles = [parse_cards(pile, f"{names[side]}'s pile") for side, pile in enumerate(entry["piles"])]
        return score_piles(piles, entry["sweeps"], rules, declarations, names)
    tallies = [Tally(**tally) for tally in entry["tallies"]]
    return score_tallies(tallies, rules, declarations, names)


@dataclass
class Hand:
    """A hand played to its end (``score``), or ended by a chiamarsi fuori (``claim``).

    ``id`` names the stored hand for good (edits and deletes address it); ``number`` is its
    place in the order of play ("Mano 3"), which moves up when an earlier hand is deleted."""

    id: int
    number: int
    entry: dict[str, Any]
    score: HandScore | None
    totals_after: tuple[int, ...]
    version: int = 1
    claim: ClaimCheck | None = None
    previous: dict[str, Any] | None = None    # the entry before its last edit, to undo it
    updated: str = ""

    @property
    def points(self) -> tuple[int, ...]:
        # A claim ends the match in the middle of a hand: no points are counted for it.
        return self.score.totals if self.score else (0,) * len(self.totals_after)

    def result(self) -> HandResult:
        if self.claim is not None:
            return HandResult(self.points, claim=self.claim)
        return HandResult(self.score.totals, self.score.outright, self.score.outright_reason)


@dataclass
class Match:
    id: int
    created: str
    rules: Rules
    sides: list[dict[str, Any]]
    first_dealer: int
    hands: list[Hand] = field(default_factory=list)
    outcome: Outcome | None = None
    version: int = 0          # bumped by every change to the hands
    has_pin: bool = False     # recording needs the match's edit PIN

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(side["name"] for side in self.sides)

    @property
    def title(self) -> str:
        return " v ".join(self.names)

    @property
    def variant_title(self) -> str:
        return PRESET_TITLES.get(self.rules.preset, self.rules.preset)

    @property
    def seats(self) -> list[tuple[str, int]]:
        """(player, side) in playing order round the table: team mates sit apart, so the
        turn alternates between the teams."""
        longest = max(len(side["players"]) for side in self.sides)
        return [(side["players"][i], s) for i in range(longest)
                for s, side in enumerate(self.sides) if i < len(side["players"])]

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
        return len(self.hands) + 1


def build(row: dict[str, Any], hand_rows: Sequence[dict[str, Any]]) -> Match:
    """The match from its stored row and its hands' rows (in order)."""
    match = Match(row["id"], row["created"], rules_from_dict(row["rules"]), row["sides"],
                  row["first_dealer"], version=row.get("version") or 0,
                  has_pin=bool(row.get("pin_hash")))
    totals = (0,) * len(match.sides)
    for number, hand_row in enumerate(hand_rows, start=1):
        entry = hand_row["entry"]
        stored = dict(id=hand_row["id"], number=number, entry=entry,
                      version=hand_row.get("version", 1), previous=hand_row.get("previous"),
                      updated=hand_row.get("updated", ""))
        if entry["mode"] == "claim":
            piles = [parse_cards(pile) for pile in entry["piles"]]
            claim = check_claim(entry["claimer"], piles, entry["sweeps"], totals, match.rules,
                                match.names)
            match.hands.append(Hand(score=None, totals_after=totals, claim=claim, **stored))
            continue
        score = score_entry(entry, match.rules, match.names)
        totals = tuple(t + p for t, p in zip(totals, score.totals))
        match.hands.append(Hand(score=score, totals_after=totals, **stored))
    match.outcome = match_outcome([h.result() for h in match.hands], match.rules, match.names)
    return match


class MatchOver(ScopaError):
    """A hand saved to a match that is already won."""


def refuse_if_over(row: dict[str, Any]):
    """A check for ``store.add_hand``: run inside the save's transaction on the hands recorded
    so far, it refuses a hand once the match is won (perhaps a moment ago, on another phone)."""
    def check(hand_rows: Sequence[dict[str, Any]]) -> None:
        current = build(row, hand_rows)
        if current.over:
            raise MatchOver(f"The match is over: {current.outcome.text}. Edit a hand to change that.")
    return check
