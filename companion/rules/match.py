"""Winning the match (RULES §6): the target and its tie rule, a fixed number of hands, outright
wins, cappotto, the double game, and the chiamarsi fuori claim.

>>> from companion.rules.rulesets import rules_for
>>> outcome = match_outcome([HandResult((6, 5)), HandResult((6, 4))], rules_for("classica"),
...                         ("Anna", "Bruno"))
>>> str(outcome.text)
'Anna wins 12 to 9'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import Card, HandError, deck
from .declarations import Declaration
from .primiera import strict_leader
from .rulesets import Rules
from .said import Item, Joined, Said, said
from .scoring import point_name, score_piles
from .tally import check_sides


@dataclass(frozen=True)
class HandResult:
    """What a hand gives the match: each side's points, and a side that won outright."""

    totals: tuple[int, ...]
    outright: int | None = None
    outright_reason: str | None = None   # "Napoleone" or "Scala"
    claim: "ClaimCheck | None" = None    # a hand ended by chiamarsi fuori


@dataclass(frozen=True)
class Outcome:
    totals: tuple[int, ...]
    hands_played: int
    over: bool
    winner: int | None
    reason: str        # "playing", "tie", "target", "hands", "Napoleone", "Scala", "cappotto", "claim"
    double: bool
    text: Said


def _score_of(names: Sequence[str], totals: Sequence[int], sides: Sequence[int]) -> Joined:
    """"Anna 5, Bruno 4": each side's name and total."""
    return Joined(tuple(said("{name} {total}", name=names[s], total=totals[s]) for s in sides), ", ")


def _scoreline(totals: Sequence[int], names: Sequence[str], winner: int) -> Said:
    others = [side for side in range(len(totals)) if side != winner]
    if len(others) == 1:
        return said("{name} wins {total} to {other}", name=names[winner], total=totals[winner],
                    other=totals[others[0]])
    return said("{name} wins with {total} ({rest})", name=names[winner], total=totals[winner],
                rest=_score_of(names, totals, others))


def match_outcome(hands: Sequence[HandResult], rules: Rules, names: Sequence[str]) -> Outcome:
    """Apply the match rules hand by hand: the match ends at the first hand that decides it."""
    n = len(names)
    check_sides(n)
    totals = [0] * n
    for played, hand in enumerate(hands, start=1):
        totals = _add(totals, hand, n)
        decided = _decide(hand, totals, played, rules, names)
        if decided is not None:
            return _ended(decided, totals, played, rules)
    return _going_on(totals, len(hands), rules, names)


def next_outcome(before: Outcome, hand: HandResult, rules: Rules, names: Sequence[str]) -> Outcome:
    """The outcome once one more hand is played in a match not yet over: what a saved hand
    changes, worked out without the hands before it.

    >>> from companion.rules.rulesets import rules_for
    >>> level = match_outcome([HandResult((6, 5)), HandResult((5, 6))], rules_for("classica"), "AB")
    >>> str(level.text), str(next_outcome(level, HandResult((1, 0)), rules_for("classica"), "AB").text)
    ('11 all: play another hand', 'A wins 12 to 11')
    """
    totals = _add(before.totals, hand, len(names))
    played = before.hands_played + 1
    decided = _decide(hand, totals, played, rules, names)
    if decided is None:
        return _going_on(totals, played, rules, names)
    return _ended(decided, totals, played, rules)


def _add(totals: Sequence[int], hand: HandResult, n: int) -> list[int]:
    if len(hand.totals) != n:
        raise HandError(said("a hand scores {count} sides, but the match has {n}",
                             count=len(hand.totals), n=n))
    return [t + p for t, p in zip(totals, hand.totals)]


def _ended(decided: tuple[int | None, str, Said], totals: list[int], played: int,
           rules: Rules) -> Outcome:
    winner, reason, text = decided
    if winner is None:
        return Outcome(tuple(totals), played, True, None, reason, False, text)
    double = (rules.double_under is not None
              and all(t < rules.double_under for s, t in enumerate(totals) if s != winner))
    if double:
        text = said("{outcome}: double game ({under} not reached)", outcome=text,
                    under=rules.double_under)
    return Outcome(tuple(totals), played, True, winner, reason, double, text)


def _decide(hand: HandResult, totals: list[int], played: int, rules: Rules,
            names: Sequence[str]) -> tuple[int | None, str, Said] | None:
    if hand.claim is not None:
        claim = hand.claim
        if claim.holds:
            return claim.claimer, "claim", said("{name} called out and wins: {why}",
                                                name=names[claim.claimer], why=claim.text)
        winner = claim.winner_if_lost(totals)
        if winner is None:
            return None, "claim", said("{name} called out and loses; the others are level at "
                                       "the top", name=names[claim.claimer])
        return winner, "claim", said("{name} called out and loses: {winner} wins",
                                     name=names[claim.claimer], winner=names[winner])
    if hand.outright is not None:
        return (hand.outright, hand.outright_reason or "outright",
                said("{how}: {name} wins the match", how=hand.outright_reason,
                     name=names[hand.outright]))
    if rules.cappotto:
        for side, total in enumerate(totals):
            # A side at or below 0 (Piva can make it negative) has nothing: that is cappotto.
            if total >= 7 and all(t <= 0 for s, t in enumerate(totals) if s != side):
                return side, "cappotto", said("Cappotto: {outcome}",
                                              outcome=_scoreline(totals, names, side))
    leader = strict_leader(totals)
    if rules.hands is not None:
        if played >= rules.hands and leader is not None:
            return leader, "hands", _scoreline(totals, names, leader)
    elif max(totals) >= rules.target and leader is not None:
        return leader, "target", _scoreline(totals, names, leader)
    return None


def _going_on(totals: list[int], played: int, rules: Rules, names: Sequence[str]) -> Outcome:
    top = max(totals)
    tied = [names[s] for s, t in enumerate(totals) if t == top]
    at_end = (played >= rules.hands) if rules.hands is not None else top >= rules.target
    if at_end and len(tied) > 1:
        if len(tied) == len(totals):
            text = said("{top} all: play another hand", top=top)
        else:
            text = said("{names} level at {top}: play another hand",
                        names=said("{first} and {second}", first=Joined(tuple(tied[:-1]), ", "),
                                   second=tied[-1]), top=top)
        return Outcome(tuple(totals), played, False, None, "tie", False, text)
    score = _score_of(names, totals, range(len(totals)))
    if rules.hands is not None:
        text = said("{score}: hand {number} of {hands}", score=score, number=played + 1,
                    hands=rules.hands)
    else:
        text = said("{score}: first to {target}", score=score, target=rules.target)
    return Outcome(tuple(totals), played, False, None, "playing", False, text)


@dataclass(frozen=True)
class ClaimCheck:
    """A chiamarsi fuori checked against the worst case."""

    claimer: int
    holds: bool
    certain: dict[str, int]          # the points the claimer keeps in every worst case
    total_before: int
    target: int
    text: Said
    others: tuple[int, ...] = ()

    @property
    def certain_total(self) -> int:
        return sum(self.certain.values())

    def winner_if_lost(self, totals: Sequence[int]) -> int | None:
        """When the claim fails the claimer loses: the leader of the other sides wins."""
        return strict_leader([t if s in self.others else None for s, t in enumerate(totals)])


def check_claim(claimer: int, piles: Sequence[Sequence[Card]], sweeps: Sequence[int],
                totals_before: Sequence[int], rules: Rules, names: Sequence[str],
                declarations: Sequence[Declaration] = ()) -> ClaimCheck:
    """Check a side's claim to have reached the target in the middle of a hand.

    Every card not yet captured goes to one opponent (each opponent in turn); the points the
    claimer scores in every such worst case are certain, and are added to its total."""
    n = len(piles)
    check_sides(n)
    if not rules.claims:
        raise HandError(said("these rules do not allow chiamarsi fuori"))
    if rules.hands is not None:
        raise HandError(said("chiamarsi fuori needs a target; this match plays a fixed number "
                             "of hands"))
    if not 0 <= claimer < n:
        raise HandError(said("the claimer must be one of the {n} sides", n=n))
    if len(totals_before) != n:
        raise HandError(said("give the totals of all {n} sides", n=n))
    taken = {card for pile in piles for card in pile}
    remaining = [card for card in deck(rules.deck) if card not in taken]
    certain: dict[str, int] | None = None
    outright_always = True
    for opponent in (s for s in range(n) if s != claimer):
        worst = [list(pile) + (remaining if side == opponent else []) for side, pile in enumerate(piles)]
        hand = score_piles(worst, sweeps, rules, declarations, names)
        points = hand.points(claimer)
        certain = points if certain is None else {k: min(v, points[k]) for k, v in certain.items()}
        outright_always &= hand.outright == claimer
    assert certain is not None
    before = totals_before[claimer]
    reached = before + sum(certain.values())
    holds = outright_always or reached >= rules.target
    named = Item("", rules.bonus_suit, rules.pack, rules.declarations, rules.preset)
    items = Joined(tuple(said("{item} {points}", item=named._replace(key=item, name=point_name(item, rules)),
                              points=points)
                         for item, points in certain.items() if points), ", ")
    text = said("{before} + {certain} certain ({items}) = {reached}, target {target}",
                before=before, certain=sum(certain.values()),
                items=items if items.parts else said("nothing"), reached=reached,
                target=rules.target)
    return ClaimCheck(claimer, holds, certain, before, rules.target, text,
                      tuple(s for s in range(n) if s != claimer))
