"""The OpenAPI document's ratings (store.ratings): OpenSkill's Plackett-Luce model with its
defaults, over every finished match in the order they finished; the figure shown is
1500 + 24 (mu - 25), rounded (store.ratings.shown), so a new player's is 1500, a win never
lowers it and, in a match of two, a loss never raises it (with three or four sides the second
may gain)."""

from __future__ import annotations

from typing import Any, Callable

RATING_FIGURES = {
    "rating": {"type": "integer", "description": "the figure shown (the pages' Rating, in Italian "
                                                 "too, and Niveau in French): 1500 + 24 (mu - 25), "
                                                 "rounded; a new player's is 1500, a win never lowers "
                                                 "it, in a match of two a loss never raises it (with "
                                                 "three or four sides a side gains on those it "
                                                 "finished ahead of); over every finished match, "
                                                 "whatever since asks"},
    "mu": {"type": "number", "description": "OpenSkill's mu (PlackettLuce() defaults: 25 for a new player)"},
    "sigma": {"type": "number", "description": "OpenSkill's sigma (25/3 for a new player): how "
                                                "unsure the model is, which says how far one result "
                                                "moves mu"}}
RATING = {**RATING_FIGURES, "provisional": {
    "type": "boolean", "description": "fewer than 5 finished matches (of the variant, when one is asked for)"}}
RATING_HISTORY = {
    "type": "array", "description": "their rating after each finished match (of the variant asked for, or "
                                    "all), in the order they finished: the newest limit points (50 by "
                                    "default) before the match before, if given",
    "items": {"type": "object", "required": ["match", "finished", "rating", "mu", "sigma"],
              "properties": {"match": {"type": "integer"}, "finished": {"type": "string", "format": "date-time"},
                             **RATING_FIGURES}}}
# A page of a player's rating history (api.players._rating_history).
HISTORY_PAGE = [
    {"name": "limit", "in": "query", "required": False,
     "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
     "description": "how many points of rating_history: the newest"},
    {"name": "before", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1},
     "description": "a match's id: only the points of matches that finished before it "
                    "(rating_history_next gives it)"}]
RATINGS = {"type": "object", "required": ["ratings"], "properties": {"ratings": {
    "type": "array", "description": "every rated player in the leaderboard's order: those with 5 "
                                    "finished matches or more first, then the provisional ones, "
                                    "each the highest rating first",
    "items": {"type": "object", "required": ["id", "name", "rating", "mu", "sigma", "matches", "provisional"],
              "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, **RATING,
                             "matches": {"type": "integer", "description": "finished matches rated"}}}}}}


def ratings_path(variant: dict[str, Any], ok: Callable[..., Any], error: Any) -> dict[str, Any]:
    return {"get": {
        "summary": "Every rated player's rating (OpenSkill, Plackett-Luce), the settled players "
                   "first, then the provisional ones, each the highest rating first: all variants "
                   "together, or one variant's",
        "parameters": [variant], "responses": {"200": ok("Ratings"), "400": error}}}


RATED = {"type": "boolean", "description": "false: the organiser left the match out of the ratings (and "
                                           "so of the chances to win); it still counts in the records"}


def rated_path(parameters: list[Any], ok: Callable[..., Any], body: Callable[..., Any],
               errors: dict[str, Any]) -> dict[str, Any]:
    return {"put": {
        "summary": "Leave a match out of the players' ratings (rated: false), or count it again. "
                   "The organiser only (X-Scopa-Organiser).",
        "operationId": "setRated", "parameters": parameters, "requestBody": body("Rated"),
        "responses": {"200": ok("Match", "the match, as it is now"), **errors}}}
