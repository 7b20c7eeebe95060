"""The referee: settle a dispute at the table in a few taps, and say why. What a card may
capture, who has the primiera, whether a deal is void, the rules in force, and a chiamarsi fuori
checked (and recorded in a match)."""
