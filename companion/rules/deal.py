"""How the cards are dealt under each variant (RULES §8, seeds 000, 001 and 003).

>>> from companion.rules.rulesets import rules_for
>>> str(deal_plan(rules_for("classica"), 2).describe())
'3 cards each, 4 face up on the table; then 3 each, 6 deals in all'
>>> str(deal_plan(rules_for("scopone"), 4).describe())
'10 cards each, none on the table'
>>> str(deal_plan(rules_for("corse"), 2).describe())
'3 cards each, 4 face up on the table; then 3, 3, 3, 4 each, 5 deals in all'
>>> str(deal_plan(rules_for("hurrikan"), 2).describe())
'3 cards each, 4 face up on the table, then 3 more each; then 6 each, 3 deals in all'

Every plan deals the whole deck: the cards of every player's deals and the first table add up
to the deck in use (tests/rules/test_seats_and_deals.py checks each one a page shows).
"""

from __future__ import annotations

from typing import NamedTuple

from .rulesets import Rules
from .said import Joined, Said, said


class DealPlan(NamedTuple):
    hands: tuple[int, ...]   # cards each player gets at each deal
    table: int               # cards face up on the table at the first deal
    split: int = 0           # the first deal's cards given before the table's, the rest after

    def describe(self) -> Said:
        if self.split:
            first = said("{count} cards each, {table} face up on the table, then {more} more each",
                         count=self.split, table=self.table, more=self.hands[0] - self.split)
        elif self.table:
            first = said("{count} cards each, {table} face up on the table", count=self.hands[0],
                         table=self.table)
        else:
            first = said("{count} cards each, none on the table", count=self.hands[0])
        if len(self.hands) == 1:
            return first
        later = self.hands[1:]
        if len(set(later)) == 1:
            return said("{first}; then {later} each, {deals} deals in all", first=first,
                        later=later[0], deals=len(self.hands))
        return said("{first}; then {later} each, {deals} deals in all", first=first,
                    later=Joined(later, ", "), deals=len(self.hands))


def deal_plan(rules: Rules, players: int) -> DealPlan:
    """The deals of one hand for this many players (2 to 6, as ``rulesets.check_seating``
    allows them)."""
    if rules.preset == "scopone":
        # 001 and 003: Scopone deals the whole deck, 10 cards each, none to the table.
        return DealPlan((rules.deck // players,), 0)
    if rules.deck == 36:
        # 003 Scopa Corse: 3 each and 4 to the table, then with two players 3, 3, 3 and 4 (RULES
        # §10 reads 003's "the last two deals 4 cards each" as one); with four, 3 then 2.
        return DealPlan((3, 3, 3, 3, 4) if players == 2 else (3, 3, 2), 4)
    if rules.preset == "hurrikan":
        # 003 Hurrikan: "a packet of three cards to each player, then four to the table, then
        # another packet of three each", then six each twice; two teams "played like Scopone".
        return DealPlan((6, 6, 6), 4, split=3) if players == 2 else DealPlan((rules.deck // players,), 0)
    rounds = (rules.deck - 4) // (3 * players)
    return DealPlan((3,) * rounds, 4)
