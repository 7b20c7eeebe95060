"""The OpenAPI document's tournament standings (tournaments.model): a row per entrant, in the
order the tie-breaks put them, each saying what put it below the one above."""

from __future__ import annotations

NULLABLE_INT = {"type": "integer", "nullable": True}

STANDINGS = {"type": "array", "items": {"type": "object", "required": [
    "entrant", "played", "won", "lost", "match_points", "scored", "conceded"], "properties": {
    "entrant": {"type": "string"}, "played": {"type": "integer"}, "won": {"type": "integer"},
    "drawn": {"type": "integer"}, "lost": {"type": "integer"}, "byes": {"type": "integer"},
    "match_points": {"type": "integer", "description": "a win 2, a draw 1, a bye counts as a win"},
    "scored": {"type": "integer"}, "conceded": {"type": "integer"}, "difference": {"type": "integer"},
    "head_to_head": {"type": "integer"}, "buchholz": NULLABLE_INT,
    "decided_by": {"type": "string", "nullable": True,
                   "description": "what put this row below the one above: points, head_to_head, "
                                  "difference, scored, buchholz (Swiss) or seed"}}}}
