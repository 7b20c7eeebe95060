"""How the cards are dealt under each variant (RULES §8, seeds 000, 001 and 003).

>>> from companion.rules.rulesets import rules_for
>>> deal_plan(rules_for("classica"), 2).describe()
'3 cards each, 4 face up on the table; then 3 each, 6 deals in all'
>>> deal_plan(rules_for("scopone"), 4).describe()
'10 cards each, none on the table'
>>> deal_plan(rules_for("corse"), 2).describe()
'3 cards each, 4 face up on the table; then 3, 3, 4, 4 each, 5 deals in all'
"""

from __future__ import annotations

from typing import NamedTuple

from .rulesets import Rules


class DealPlan(NamedTuple):
    hands: tuple[int, ...]   # cards each player gets at each deal
    table: int               # cards face up on the table at the first deal

    def describe(self) -> str:
        first = f"{self.hands[0]} cards each, " + (
            f"{self.table} face up on the table" if self.table else "none on the table")
        if len(self.hands) == 1:
            return first
        later = self.hands[1:]
        if len(set(later)) == 1:
            return f"{first}; then {later[0]} each, {len(self.hands)} deals in all"
        return f"{first}; then {', '.join(map(str, later))} each, {len(self.hands)} deals in all"


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
