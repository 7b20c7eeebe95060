"""How the cards are dealt under each variant (RULES §8, seeds 000, 001 and 003).

>>> from companion.rules.rulesets import rules_for
>>> str(deal_plan(rules_for("classica"), 2).describe())
'3 cards each, 4 face up on the table; then 3 each, 6 deals in all'
>>> str(deal_plan(rules_for("scopone"), 4).describe())
'10 cards each, none on the table'
>>> str(deal_plan(rules_for("corse"), 2).describe())
'3 cards each, 4 face up on the table; then 3, 3, 4, 4 each, 5 deals in all'
"""

from __future__ import annotations

from typing import NamedTuple

from .rulesets import Rules
from .said import Joined, Said, said


class DealPlan(NamedTuple):
    hands: tuple[int, ...]   # cards each player gets at each deal
    table: int               # cards face up on the table at the first deal

    def describe(self) -> Said:
        first = (said("{count} cards each, {table} face up on the table", count=self.hands[0],
                      table=self.table) if self.table
                 else said("{count} cards each, none on the table", count=self.hands[0]))
        if len(self.hands) == 1:
            return first
        later = self.hands[1:]
        if len(set(later)) == 1:
            return said("{first}; then {later} each, {deals} deals in all", first=first,
                        later=later[0], deals=len(self.hands))
        return said("{first}; then {later} each, {deals} deals in all", first=first,
                    later=Joined(later, ", "), deals=len(self.hands))


def deal_plan(rules: Rules, players: int) -> DealPlan:
    """The deals of one hand for this many players (2 to 6)."""
    if rules.preset == "scopone":
        # 001 and 003: Scopone deals the whole deck, 10 cards each, none to the table.
        return DealPlan((rules.deck // players,), 0)
    if rules.preset == "corse":
        # 003 Scopa Corse: two players 3, 3, 3, 4, 4; four players 3, 3, 2.
        return DealPlan((3, 3, 3, 4, 4) if players == 2 else (3, 3, 2), 4)
    if rules.preset == "hurrikan" and players == 2:
        # 003 Hurrikan: three cards, four to the table, three more; then six each.
        return DealPlan((6, 6, 6), 4)
    rounds = (rules.deck - 4) // (3 * players)
    return DealPlan((3,) * rounds, 4)
