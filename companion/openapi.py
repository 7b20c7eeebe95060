"""The OpenAPI document of the JSON API, served at ``/api/v1/openapi.json``.

Written by hand, next to the endpoints it describes; the test suite fuzzes the API against it
with schemathesis (no 500, every answer as documented).
"""

from __future__ import annotations

from .rules.rulesets import ITEMS, PRESETS

ERROR = {"description": "refused, with the reason in words",
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def ok(schema: str, description: str = "the answer") -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def body(schema: str) -> dict:
    return {"required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


CARDS = {"type": "array", "items": {"type": "string"}, "description": "cards such as 7d, 10b"}
RULES_IN = {
    "variant": {"type": "string", "enum": list(PRESETS), "default": "classica"},
    "options": {"type": "object", "description": f"rule items to change: {', '.join(ITEMS)}"},
}
NULLABLE_INT = {"type": "integer", "nullable": True}

SCHEMAS = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
    "Declaration": {"type": "object", "required": ["side", "cards"], "properties": {
        "side": {"type": "integer"}, "deal": {"type": "integer"}, "cards": CARDS}},
    "Tally": {"type": "object", "required": ["cards", "coins"], "properties": {
        "cards": {"type": "integer"}, "coins": {"type": "integer"}, "settebello": {"type": "boolean"},
        "re_bello": {"type": "boolean"}, "sweeps": {"type": "integer"}, "sevens": NULLABLE_INT,
        "sixes": NULLABLE_INT, "aces": NULLABLE_INT, "napola": {"type": "integer"},
        "scaletta_alta": {"type": "integer"}, "piva": {"type": "boolean"},
        "primiera": {"type": "boolean"}}},
    "HandIn": {"type": "object", "properties": {
        "piles": {"type": "array", "items": CARDS}, "sweeps": {"type": "array", "items": {"type": "integer"}},
        "tallies": {"type": "array", "items": {"$ref": "#/components/schemas/Tally"}},
        "declarations": {"type": "array", "items": {"$ref": "#/components/schemas/Declaration"}}}},
    "ScoreRequest": {"type": "object", "properties": {
        **RULES_IN, "names": {"type": "array", "items": {"type": "string"}},
        "piles": {"type": "array", "items": CARDS}, "sweeps": {"type": "array", "items": {"type": "integer"}},
        "tallies": {"type": "array", "items": {"$ref": "#/components/schemas/Tally"}},
        "declarations": {"type": "array", "items": {"$ref": "#/components/schemas/Declaration"}}}},
    "Side": {"type": "object", "required": ["cards", "coins", "settebello", "primiera_value", "points", "total"],
             "properties": {
                 "cards": {"type": "integer"}, "coins": {"type": "integer"},
                 "settebello": {"type": "boolean"}, "primiera_value": {"type": "number", "nullable": True},
                 "primiera_cards": {"type": "array", "items": {"type": "string"}, "nullable": True},
                 "points": {"type": "object", "additionalProperties": {"type": "integer"}},
                 "total": {"type": "integer"}}},
    "Line": {"type": "object", "required": ["item", "points", "why"], "properties": {
        "item": {"type": "string"}, "label": {"type": "string"},
        "points": {"type": "array", "items": {"type": "integer"}},
        "winner": NULLABLE_INT, "why": {"type": "string"}}},
    "Score": {"type": "object", "required": ["sides", "breakdown"], "properties": {
        "sides": {"type": "array", "items": {"$ref": "#/components/schemas/Side"}},
        "breakdown": {"type": "array", "items": {"$ref": "#/components/schemas/Line"}},
        "outright": {"type": "object", "nullable": True},
        "rules": {"type": "object"}}},
    "CapturesRequest": {"type": "object", "required": ["table", "played"], "properties": {
        **RULES_IN, "table": CARDS, "played": {"type": "string"}, "last_play": {"type": "boolean"}}},
    "Captures": {"type": "object", "required": ["captures", "may_place"], "properties": {
        "captures": {"type": "array", "items": {"type": "object", "required": ["cards", "sweep"], "properties": {
            "cards": CARDS, "sweep": {"type": "boolean"}, "reason": {"type": "string"}}}},
        "may_place": {"type": "boolean"}, "reasons": {"type": "array", "items": {"type": "string"}}}},
    "DealRequest": {"type": "object", "required": ["table"], "properties": {**RULES_IN, "table": CARDS}},
    "Deal": {"type": "object", "required": ["void", "reason"], "properties": {
        "void": {"type": "boolean"}, "reason": {"type": "string"}}},
    "ClaimRequest": {"type": "object", "required": ["claimer", "piles"], "properties": {
        **RULES_IN, "claimer": {"type": "integer"}, "piles": {"type": "array", "items": CARDS},
        "sweeps": {"type": "array", "items": {"type": "integer"}},
        "totals": {"type": "array", "items": {"type": "integer"}}}},
    "Claim": {"type": "object", "required": ["holds", "certain", "certain_total", "why"], "properties": {
        "holds": {"type": "boolean"}, "certain": {"type": "object", "additionalProperties": {"type": "integer"}},
        "certain_total": {"type": "integer"}, "why": {"type": "string"}}},
    "Variants": {"type": "object", "required": ["variants", "items"], "properties": {
        "variants": {"type": "object"}, "items": {"type": "array", "items": {"type": "string"}}}},
    "NewMatch": {"type": "object", "properties": {
        **RULES_IN,
        "players": {"type": "array", "items": {"type": "string"}, "description": "2 to 4 players"},
        "teams": {"type": "array", "items": {"type": "object", "required": ["name", "players"], "properties": {
            "name": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}}}}},
        "first_dealer": {"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["random"]}]},
        "pin": {"type": "string", "description": "4 to 8 digits"}}},
    "Match": {"type": "object", "required": ["id", "version", "sides", "rules", "totals", "outcome"],
              "properties": {
                  "id": {"type": "integer"}, "version": {"type": "integer"}, "created": {"type": "string"},
                  "sides": {"type": "array", "items": {"type": "object"}}, "rules": {"type": "object"},
                  "pin": {"type": "boolean"}, "totals": {"type": "array", "items": {"type": "integer"}},
                  "hands": {}, "outcome": {"type": "object", "required": ["over", "text"]},
                  "next_hand": {"type": "object", "nullable": True}}},
    "Matches": {"type": "object", "required": ["matches"], "properties": {
        "matches": {"type": "array", "items": {"$ref": "#/components/schemas/Match"}}}},
    "HandSaved": {"type": "object", "required": ["hand", "match"], "properties": {
        "hand": {"type": "object", "required": ["number", "points", "totals_after"]},
        "match": {"$ref": "#/components/schemas/Match"}}},
}

def question(summary: str, request: str, answer: str) -> dict:
    """A POST that asks the rules engine something and stores nothing."""
    return {"post": {"summary": summary, "requestBody": body(request),
                     "responses": {"200": ok(answer), "400": ERROR, "413": ERROR}}}


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Scopa companion", "version": "1",
             "description": "Scores Scopa hands from the cards, referees captures, keeps matches. "
                            "Cards are written <value><suit>: 1 (Asso) to 10 (Re); d, c, s, b."},
    "paths": {
        "/api/v1/score": question("Score one finished hand (stores nothing)", "ScoreRequest", "Score"),
        "/api/v1/captures": question("What a played card may capture", "CapturesRequest", "Captures"),
        "/api/v1/deal": question("Whether the first table cards void the deal", "DealRequest", "Deal"),
        "/api/v1/claim": question("Check a chiamarsi fuori against the worst case", "ClaimRequest", "Claim"),
        "/api/v1/variants": {"get": {
            "summary": "Every variant and its rule items", "responses": {"200": ok("Variants")}}},
        "/api/v1/matches": {
            "get": {"summary": "Every match", "responses": {"200": ok("Matches")}},
            "post": {"summary": "Start a match", "requestBody": body("NewMatch"),
                     "responses": {"201": ok("Match", "the match"), "400": ERROR, "413": ERROR}}},
        "/api/v1/matches/{match_id}": {"get": {
            "summary": "A match with every hand (ETag: If-None-Match answers 304 when unchanged)",
            "parameters": [MATCH_ID],
            "responses": {"200": ok("Match"), "304": {"description": "unchanged"}, "404": ERROR}}},
        "/api/v1/matches/{match_id}/hands": {"post": {
            "summary": "Record a hand. With an Idempotency-Key, a request sent twice records one hand "
                       "(the second answer is 200 with the hand already saved).",
            "parameters": [MATCH_ID,
                           {"name": "Idempotency-Key", "in": "header", "required": False,
                            "schema": {"type": "string"}},
                           {"name": "X-Scopa-PIN", "in": "header", "required": False,
                            "schema": {"type": "string"}}],
            "requestBody": body("HandIn"),
            "responses": {"201": ok("HandSaved", "recorded"), "200": ok("HandSaved", "already recorded"),
                          "400": ERROR, "403": ERROR, "404": ERROR, "409": ERROR, "413": ERROR,
                          "429": ERROR}}},
    },
    "components": {"schemas": SCHEMAS},
}
