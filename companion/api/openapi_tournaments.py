"""The OpenAPI document's tournament entrants and standings (tournaments.model): an entrant as
kept (typed order, seed, late or withdrawn), and a row per entrant, in the order the tie-breaks
put them, each saying what put it below the one above."""

from __future__ import annotations

NULLABLE_INT = {"type": "integer", "nullable": True}

STANDINGS = {"type": "array", "items": {"type": "object", "required": [
    "entrant", "played", "won", "lost", "match_points", "scored", "conceded"], "properties": {
    "entrant": {"type": "string"}, "played": {"type": "integer"}, "won": {"type": "integer"},
    "drawn": {"type": "integer"}, "lost": {"type": "integer"},
    "byes": {"type": "integer", "description": "rounds won without a game: byes, and forfeit wins "
                                               "(the opponent withdrew), each also played and won"},
    "match_points": {"type": "integer", "description": "a win 2, a draw 1, a bye or a forfeit "
                                                       "win counts as a win"},
    "scored": {"type": "integer"}, "conceded": {"type": "integer"}, "difference": {"type": "integer"},
    "buchholz_cut1": {**NULLABLE_INT, "description": "a Swiss's: the opponents' points but the "
                                                     "lowest (Buchholz Cut-1)"},
    "buchholz": {**NULLABLE_INT, "description": "a Swiss's: the opponents' points (Buchholz); a "
                                                "round not played counts the entrant's own points, "
                                                "at most a draw's a round (a forfeit win: at most "
                                                "the points of the one who withdrew)"},
    "head_to_head": {"type": "number", "nullable": True,
                     "description": "the points against the others level with them, where every "
                                    "two of them met (else null)"},
    "sonneborn_berger": {**NULLABLE_INT, "description": "a round robin's: each beaten opponent's "
                                                        "points twice, a drawn one's once; a "
                                                        "forfeit win as a win over the one who "
                                                        "withdrew"},
    "withdrawn": {"type": "boolean"},
    "decided_by": {"type": "string", "nullable": True, "enum": [
        "points", "buchholz_cut1", "buchholz", "head_to_head", "sonneborn_berger", "difference",
        "scored", "entry_order", None],
                   "description": "what put this row below the one above. Swiss: points, "
                                  "buchholz_cut1, buchholz, head_to_head, difference, scored, "
                                  "entry_order; round robin: points, head_to_head, "
                                  "sonneborn_berger, difference, scored, entry_order; knockout: "
                                  "points, difference, scored, entry_order"}}}}

ENTRANTS = {"type": "array", "description": "in the order the organiser typed them", "items": {
    "type": "object", "required": ["number", "name", "players", "seed", "joined", "withdrawn"],
    "properties": {
        "number": {"type": "integer", "description": "from 1, as typed: the number in "
                                                     ".../entrants/<number>/withdraw"},
        "name": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
        "seed": {"type": "integer", "description": "1 the top seed"},
        "joined": {"type": "integer", "description": "the first round they are paired in"},
        "missed_points": {"type": "integer", "description": "a late entrant's match points for "
                                                            "each round before joining"},
        "withdrawn": {**NULLABLE_INT, "description": "the rounds started when they withdrew: "
                                                     "paired in none after; null while in"}}}}
