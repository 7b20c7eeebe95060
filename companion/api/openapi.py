"""The OpenAPI document of the JSON API (3.1), served at ``/api/v1/openapi.json``.

Every request's body is generated from the model that validates it (``openapi_models``); the
answers and the paths are written by hand, next to the endpoints they describe. The test suite
checks the document with openapi-spec-validator, fuzzes the API against it with schemathesis
(no 500, every answer as documented), and checks the API's verdicts against the requests'
schemas (tests/api/test_openapi_requests.py).
"""

from __future__ import annotations

from ..rules.rulesets import PRESETS
from ..stats import EXTREMES, RECORD
from ..web.requests import CARDS_SCHEMA as CARDS, RulesAsked
from .openapi_changes import SCHEMAS as CHANGE_SCHEMAS, change_paths
from .openapi_models import REQUESTS, as_31, components
from .openapi_ratings import HISTORY_PAGE, RATED, RATING, RATING_HISTORY, RATINGS, rated_path, ratings_path
from .openapi_tournaments import ENTRANTS, STANDINGS, tournament_paths

ERROR = {"description": "refused, with the reason in words",
         "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def ok(schema: str, description: str = "the answer") -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def body(schema: str) -> dict:
    return {"required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


# The rules asked for, as every question to the rules engine says them.
RULES_IN = components(RulesAsked)["RulesAsked"]["properties"]
NULLABLE_INT = {"type": "integer", "nullable": True}
OUTCOME = {"type": "object", "required": ["over", "winner", "reason", "double", "text"], "properties": {
    "over": {"type": "boolean"}, "winner": NULLABLE_INT, "reason": {"type": "string"},
    "double": {"type": "boolean"}, "text": {"type": "string"}}}
MATCH_FIELDS = ["id", "created", "version", "sides", "rules", "pin", "totals", "hands", "outcome",
                "next_hand"]
MATCH_PROPERTIES = {
    "id": {"type": "integer"}, "version": {"type": "integer"}, "created": {"type": "string"},
    "sides": {"type": "array", "items": {"type": "object", "required": ["name", "players"], "properties": {
        "name": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}}}}},
    "rules": {"type": "object"}, "pin": {"type": "boolean"}, "rated": RATED,
    "totals": {"type": "array", "items": {"type": "integer"}}, "outcome": OUTCOME,
    "next_hand": {"type": "object", "nullable": True, "required": ["number", "dealer", "plays_first"],
                  "properties": {"number": {"type": "integer"}, "dealer": {"type": "string"},
                                 "plays_first": {"type": "string"}}}}

# A player's record: what each count counts. A team's figures count for each of its players.
# Described here, listed by companion.stats (a figure without its words fails here, at import).
_COUNTED = {
    "id": "", "name": "",
    "matches": "finished matches played", "won": "finished matches their side won",
    "drawn": "finished matches that ended level", "playing": "matches still in play",
    "hands": "hands counted, in every match", "points": "the sum of their side's hand totals",
    "sweeps": "scope made by their side", "carte": "hands in which their side took carte",
    "denari": "hands in which their side took denari",
    "settebello": "hands in which their side took the settebello",
    "primiera": "hands in which their side took the primiera",
    "re_bello": "hands in which their side took the Re Bello",
    "napola": "hands in which their side scored a napola",
    "declarations": "hands in which their side scored declarations",
    "best": "their side's best hand, in points", "worst": "their side's worst hand, in points"}
PLAYER_COUNTS = {name: _COUNTED[name] for name in RECORD}
HAND_AT = {"type": "object", "nullable": True, "required": ["match", "points"],
           "properties": {"match": {"type": "integer"}, "points": {"type": "integer"}}}
PLAYER_SCOPE = [
    {"name": "variant", "in": "query", "required": False, "schema": {"type": "string", "enum": list(PRESETS)},
     "description": "only the matches of this variant"},
    {"name": "since", "in": "query", "required": False, "schema": {"type": "string", "format": "date"},
     "description": "only the matches started on or after this date"}]

# The answers' schemas, written in 3.0's words (nullable) and read in 3.1's (as_31, below).
SCHEMAS = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
    "Side": {"type": "object", "required": ["cards", "coins", "settebello", "primiera_value", "points", "total"],
             "properties": {
                 "cards": {"type": "integer"}, "coins": {"type": "integer"},
                 "settebello": {"type": "boolean"}, "primiera_value": {"type": "number", "nullable": True},
                 "primiera_cards": {"type": "array", "items": {"type": "string"}, "nullable": True},
                 "points": {"type": "object", "additionalProperties": {"type": "integer"},
                            "description": "one entry per item in force (carte, denari, settebello, "
                                           "primiera, scope...); Escoba names its own: cartas, oros, "
                                           "velo, setenta, escobas"},
                 "total": {"type": "integer"}}},
    "Line": {"type": "object", "required": ["item", "points", "why"], "properties": {
        "item": {"type": "string", "description": "as a side's points name it"}, "label": {"type": "string"},
        "points": {"type": "array", "items": {"type": "integer"}},
        "winner": NULLABLE_INT, "why": {"type": "string"}}},
    "Score": {"type": "object", "required": ["sides", "breakdown"], "properties": {
        "sides": {"type": "array", "items": {"$ref": "#/components/schemas/Side"}},
        "breakdown": {"type": "array", "items": {"$ref": "#/components/schemas/Line"}},
        "outright": {"type": "object", "nullable": True},
        "rules": {"type": "object"}}},
    # One page of the captures (``limit`` of them, from page ``page``): ``count`` counts them all,
    # ``after`` those after this page.
    "Captures": {"type": "object", "required": ["captures", "count", "after", "may_place"], "properties": {
        "captures": {"type": "array", "items": {"type": "object", "required": ["cards", "sweep"], "properties": {
            "cards": CARDS, "sweep": {"type": "boolean"}, "reason": {"type": "string"}}}},
        "count": {"type": "integer", "minimum": 0}, "after": {"type": "integer", "minimum": 0},
        "may_place": {"type": "boolean"}, "reasons": {"type": "array", "items": {"type": "string"}}}},
    "Deal": {"type": "object", "required": ["void", "reason", "scope"], "properties": {
        "void": {"type": "boolean"}, "reason": {"type": "string"},
        # Cirulla's deal_scope: a first table adding up to 15 gives the dealer 1 scopa, 30 two, and
        # under 15-30-low 9 or less three.
        "scope": {"type": "integer", "description": "the scope the first table gives the dealer "
                                                    "(under Escoba, its escobas)"}}},
    "Claim": {"type": "object", "required": ["holds", "certain", "certain_total", "why"], "properties": {
        "holds": {"type": "boolean"}, "certain": {"type": "object", "additionalProperties": {"type": "integer"}},
        "certain_total": {"type": "integer"}, "why": {"type": "string"}}},
    "Variants": {"type": "object", "required": ["variants", "items"], "properties": {
        "variants": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["title", "description", "rules"], "properties": {
                "title": {"type": "string"},
                "description": {"type": "string", "description": "who plays it, the deck, the goal and "
                                "what sets it apart, in the language of Accept-Language (en, it, fr, es)"},
                "rules": {"type": "object"}}}},
        "items": {"type": "array", "items": {"type": "string"}}}},
    "Match": {"type": "object", "required": MATCH_FIELDS, "properties": {
        **MATCH_PROPERTIES, "hands": {"type": "integer", "description": "hands recorded"}}},
    "MatchWithHands": {"type": "object", "required": [*MATCH_FIELDS, "hands_next"], "properties": {
        **MATCH_PROPERTIES, "hands": {"type": "array", "items": {"$ref": "#/components/schemas/Hand"},
                                      "description": "in the order they were played, a page at a time"},
        "hands_next": {"type": "string", "nullable": True,
                       "description": "the page of the hands after these (the same limit), or null "
                                      "when these are the last"}}},
    "Matches": {"type": "object", "required": ["matches", "next"], "properties": {
        "matches": {"type": "array", "items": {"$ref": "#/components/schemas/Match"}},
        "next": {"type": "string", "nullable": True, "description": "the next page, if any"}}},
    "Hand": {"type": "object", "required": ["id", "number", "version", "entry", "points", "totals_after",
                                            "breakdown"], "properties": {
        "id": {"type": "integer", "description": "the hand's id, for good"},
        "number": {"type": "integer", "description": "its place in the order of play"},
        "version": {"type": "integer"}, "entry": {"type": "object", "required": ["mode"]},
        "points": {"type": "array", "items": {"type": "integer"}},
        "totals_after": {"type": "array", "items": {"type": "integer"}},
        "breakdown": {"type": "array", "nullable": True, "items": {"$ref": "#/components/schemas/Line"}}}},
    "HandSaved": {"type": "object", "required": ["hand", "match"], "properties": {
        "hand": {"$ref": "#/components/schemas/Hand"},
        "match": {"$ref": "#/components/schemas/Match"}}},
    "Problem": {"type": "object", "required": ["error"], "properties": {
        "error": {"type": "string"}, "hand": {"$ref": "#/components/schemas/Hand"},
        "match": {"$ref": "#/components/schemas/Match"}},
        "description": "refused: the reason, and the hand in the way as it is now where there is one"},
    "Player": {"type": "object", "required": [*PLAYER_COUNTS, *RATING], "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, **RATING,
        **{name: {"type": "integer", "description": what} for name, what in PLAYER_COUNTS.items()
           if name not in ("id", "name", *EXTREMES)},
        "best": {**NULLABLE_INT, "description": PLAYER_COUNTS["best"]},
        "worst": {**NULLABLE_INT, "description": PLAYER_COUNTS["worst"]}}},
    "Players": {"type": "object", "required": ["players", "next"], "properties": {
        "players": {"type": "array", "items": {"$ref": "#/components/schemas/Player"}},
        "next": {"type": "string", "nullable": True, "description": "the next page, if any"}}},
    "PlayerRecord": {"allOf": [{"$ref": "#/components/schemas/Player"}, {
        "type": "object", "required": ["head_to_head", "best_hand", "worst_hand", "last_matches", "rating_history",
                                     "rating_history_next"],
        "properties": {
            "head_to_head": {"type": "array", "items": {
                "type": "object", "required": ["id", "name", "matches", "won", "lost", "drawn"],
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                               "matches": {"type": "integer", "description": "finished matches against them"},
                               "won": {"type": "integer", "description": "of those, won by the player's side"},
                               "lost": {"type": "integer", "description": "won by the opponent's side"},
                               "drawn": {"type": "integer"}}}},
            "best_hand": HAND_AT, "worst_hand": HAND_AT,
            "last_matches": {"type": "array", "items": {"type": "integer"},
                             "description": "the ids of their last 10 matches, newest first"},
            "rating_history": RATING_HISTORY,
            "rating_history_next": {"type": "string", "nullable": True,
                                    "description": "the page of the points before these (the same "
                                                   "limit), or null when these are the first"}}}]},
    "Ratings": RATINGS,
    "Tournament": {"type": "object", "required": ["id", "name", "format", "rounds", "standings", "over", "winner"],
                   "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, "format": {"type": "string"},
        "variant": {"type": "string"}, "rules": {"type": "object"}, "entrants": ENTRANTS,
        "planned_rounds": {"type": "integer"}, "pin": {"type": "boolean"},
        "rounds": {"type": "array", "items": {"type": "object", "required": ["number", "tables", "byes", "over"],
                                              "properties": {
            "number": {"type": "integer"}, "over": {"type": "boolean"},
            "byes": {"type": "array", "items": {"type": "string"}},
            "rests": {"type": "array", "items": {"type": "string"},
                      "description": "a round robin's entrants whose opponent withdrew before the round: "
                                     "each wins that game by forfeit"},
            "tables": {"type": "array", "items": {"type": "object", "required": ["table", "match", "entrants"],
                                                  "properties": {
                "table": {"type": "integer"}, "match": {"type": "integer"},
                "entrants": {"type": "array", "items": {"type": "string"}, "description": "the match's sides, in order"},
                "totals": {"type": "array", "items": {"type": "integer"}}, "over": {"type": "boolean"},
                "chances": {"type": "array", "items": {"type": "number"}, "nullable": True,
                            "description": "each entrant's chance to win, from the ratings as the round "
                                           "started; null once the table has begun"},
                "winner": {"type": "string", "nullable": True},
                "withdrew": {"type": "string", "nullable": True,
                             "description": "the entrant who withdrew before it was over: it is not "
                                            "played, whatever is entered there after; its winner "
                                            "is the other entrant, by forfeit (null if both left)"}}}}}}},
        "standings": STANDINGS,
        "over": {"type": "boolean"}, "winner": {"type": "string", "nullable": True}}},
    "TournamentRefused": {"allOf": [{"$ref": "#/components/schemas/Tournament"}, {
        "type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}]},
    "HandDeleted": {"type": "object", "required": ["deleted", "match"], "properties": {
        "deleted": {"type": "integer"}, "match": {"$ref": "#/components/schemas/Match"}}},
    **CHANGE_SCHEMAS,
}


def question(summary: str, request: str, answer: str) -> dict:
    """A POST that asks the rules engine something and stores nothing."""
    return {"post": {"summary": summary, "requestBody": body(request),
                     "responses": {"200": ok(answer), "400": ERROR, "413": ERROR}}}


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}
HAND_ID = {"name": "hand_id", "in": "path", "required": True, "schema": {"type": "integer"}}
PIN = {"name": "X-Scopa-PIN", "in": "header", "required": False, "schema": {"type": "string"}}
ORGANISER = {"name": "X-Scopa-Organiser", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "the organiser's code as scopa-companion prints it (K7P-2QX), or the club's "
                            "own: what only the organiser may do needs it (403 without it, 429 after too many "
                            "wrong codes from one address); with it no match asks for its PIN. No address is "
                            "the organiser: the machine that runs the companion sends it too."}
IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
            "description": 'the hand\'s ETag ("<version>"): the version the change was made from'}
WRITE_ERRORS = {"400": ERROR, "403": ERROR, "404": ERROR, "413": ERROR, "429": ERROR,
                "503": {**ERROR, "description": "the store cannot save (its disk is full...)"}}
# For schemathesis's stateful tests, and for readers: what an answer leads to.
HAND_LINKS = {name: {"operationId": operation, "parameters": {
    "match_id": "$request.path.match_id", "hand_id": "$response.body#/hand/id"}}
    for name, operation in (("GetHand", "getHand"), ("EditHand", "editHand"), ("DeleteHand", "deleteHand"))}

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Scopa companion", "version": "1",
             "description": "Scores Scopa hands from the cards, referees captures, keeps matches. "
                            "Cards are written <value><suit>: 1 (Asso) to 10 (Re); d, c, s, b."},
    "paths": {
        "/api/v1/score": question("Score one finished hand (stores nothing)", "ScoreRequest", "Score"),
        "/api/v1/captures": question("What a played card may capture", "CapturesAsked", "Captures"),
        "/api/v1/deal": question("Whether the first table cards void the deal", "DealAsked", "Deal"),
        "/api/v1/claim": question("Check a chiamarsi fuori against the worst case", "ClaimAsked", "Claim"),
        "/api/v1/variants": {"get": {
            "summary": "Every variant, its rule items and a short description of it",
            "responses": {"200": ok("Variants")}}},
        "/api/v1/matches": {
            "get": {"summary": "Matches, newest first, a page at a time",
                    "parameters": [
                        {"name": "state", "in": "query", "required": False,
                         "schema": {"type": "string", "enum": ["all", "playing", "finished"]}},
                        {"name": "limit", "in": "query", "required": False,
                         "schema": {"type": "integer", "minimum": 1, "maximum": 200}},
                        {"name": "before", "in": "query", "required": False,
                         "schema": {"type": "integer", "minimum": 1}}],
                    "responses": {"200": ok("Matches"), "400": ERROR}},
            "post": {"summary": "Start a match", "operationId": "createMatch", "requestBody": body("NewMatch"),
                     "responses": {"201": {**ok("Match", "the match"), "links": {
                         "GetMatch": {"operationId": "getMatch",
                                      "parameters": {"match_id": "$response.body#/id"}},
                         "AddHand": {"operationId": "addHand",
                                     "parameters": {"match_id": "$response.body#/id"}}}},
                         "400": ERROR, "413": ERROR, "503": WRITE_ERRORS["503"]}}},
        "/api/v1/matches/{match_id}": {"get": {
            "summary": "A match with its hands, a page at a time (ETag: If-None-Match answers 304 "
                       "when unchanged)",
            "operationId": "getMatch", "parameters": [
                MATCH_ID,
                {"name": "limit", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 200},
                 "description": "how many hands: the first after `after`"},
                {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1},
                 "description": "a hand's number: only the hands after it (hands_next gives it)"}],
            "responses": {"200": ok("MatchWithHands"), "304": {"description": "unchanged"}, "400": ERROR,
                          "404": ERROR}}},
        "/api/v1/matches/{match_id}/hands": {"post": {
            "summary": "Record a hand. With an Idempotency-Key, a request sent twice records one hand "
                       "(the second answer is 200 with the hand already saved; the same key with "
                       "another hand answers 422).",
            "operationId": "addHand",
            "parameters": [MATCH_ID, PIN, ORGANISER,
                           {"name": "Idempotency-Key", "in": "header", "required": False,
                            "schema": {"type": "string"}}],
            "requestBody": body("HandIn"),
            "responses": {"201": {**ok("HandSaved", "recorded"), "links": HAND_LINKS},
                          "200": ok("HandSaved", "already recorded"),
                          "409": ok("Problem", "the match is over, or the hand numbered was "
                                               "recorded meanwhile (shown)"),
                          "422": ok("Problem", "the key recorded another hand (shown)"),
                          **WRITE_ERRORS}}},
        "/api/v1/matches/{match_id}/hands/{hand_id}": {
            "get": {"summary": "One hand (ETag: its version)", "operationId": "getHand",
                    "parameters": [MATCH_ID, HAND_ID],
                    "responses": {"200": ok("HandSaved"), "404": ERROR}},
            "put": {"summary": "Replace a hand's entry, from the version it was made from",
                    "operationId": "editHand", "parameters": [MATCH_ID, HAND_ID, PIN, ORGANISER, IF_MATCH],
                    "requestBody": body("HandChange"),
                    "responses": {"200": ok("HandSaved", "changed"),
                                  "409": ok("Problem", "changed meanwhile: the hand as it is now"),
                                  **WRITE_ERRORS}},
            "delete": {"summary": "Delete a hand, from the version it was made from",
                       "operationId": "deleteHand",
                       "parameters": [MATCH_ID, HAND_ID, PIN, ORGANISER, IF_MATCH,
                                      {"name": "version", "in": "query", "required": False,
                                       "schema": {"type": "integer", "minimum": 1}}],
                       "responses": {"200": ok("HandDeleted", "deleted"),
                                     "409": ok("Problem", "changed meanwhile: the hand as it is now"),
                                     **WRITE_ERRORS}}},
        **tournament_paths(ok, body, ERROR, WRITE_ERRORS, ORGANISER),
        "/api/v1/players": {"get": {
            "summary": "The players' records, most matches won first, a page at a time (names "
                       "typed in matches are matched as they read: trimmed, in any case, look-alike letters "
                       "as the letters they look like)",
            "parameters": [*PLAYER_SCOPE,
                           {"name": "order", "in": "query", "required": False,
                            "schema": {"type": "string", "enum": ["won", "rating"], "default": "won"},
                            "description": "won: most matches won first; rating: the highest rating first"},
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 200}},
                           {"name": "page", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 1000000, "default": 1}}],
            "responses": {"200": ok("Players"), "400": ERROR}}},
        "/api/v1/players/{player_id}": {"get": {
            "summary": "A player's record, with the head-to-head against each opponent",
            "parameters": [{"name": "player_id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}, *PLAYER_SCOPE, *HISTORY_PAGE],
            "responses": {"200": ok("PlayerRecord"), "400": ERROR, "404": ERROR}}},
        "/api/v1/ratings": ratings_path(PLAYER_SCOPE[0], ok, ERROR),
        "/api/v1/matches/{match_id}/rated": rated_path([MATCH_ID, ORGANISER], ok, body, WRITE_ERRORS),
        **change_paths(MATCH_ID, ORGANISER, ok, ERROR, WRITE_ERRORS),
    },
    "components": {"schemas": {**REQUESTS, **as_31(SCHEMAS)}},
}
# The paths' parameters and bodies written by hand, in 3.1's words too.
SPEC["paths"] = as_31(SPEC["paths"])
# Every write may be refused as sent by another site's page (403), a POST or PUT as not JSON
# (415): api.blueprint.asks_for_json.
for _operations in SPEC["paths"].values():
    for _method, _operation in _operations.items():
        if _method != "get":
            _operation["responses"].setdefault("403", ERROR)
        if _method in ("post", "put"):
            _operation["responses"]["415"] = {**ERROR, "description": "not sent as application/json"}
