"""The OpenAPI document's ratings (store.ratings): OpenSkill's Plackett-Luce model with its
defaults, over every finished match in the order they finished; the figure shown is
1500 + 24 (mu - 25), rounded (store.ratings.shown), so a new player's is 1500, a win never
lowers it and, in a match of two, a loss never raises it (with three or four sides the second
may gain). The answers' models, and the paths beside them."""

from __future__ import annotations

from typing import Any, Callable

from pydantic import Field

from .answer_models import Closed

RATING_SHOWN = Field(description="the figure shown (the pages' Rating, in Italian too, and Niveau in "
                                 "French): 1500 + 24 (mu - 25), rounded; a new player's is 1500, a win "
                                 "never lowers it, in a match of two a loss never raises it (with three "
                                 "or four sides a side gains on those it finished ahead of); over every "
                                 "finished match, whatever since asks")
MU = Field(description="OpenSkill's mu (PlackettLuce() defaults: 25 for a new player)")
SIGMA = Field(description="OpenSkill's sigma (25/3 for a new player): how unsure the model is, which "
                          "says how far one result moves mu")
PROVISIONAL = Field(description="fewer than 5 finished matches (of the variant, when one is asked for)")


class Rating(Closed):
    """A player's rating: its figures as a record and the leaderboard give them."""

    rating: int = RATING_SHOWN
    mu: float = MU
    sigma: float = SIGMA
    provisional: bool = PROVISIONAL


# A player's rating's keys, in the order the API answers them (api.players).
RATING = tuple(Rating.model_fields)


class RatingPoint(Closed):
    """Their rating after one finished match."""

    match: int
    finished: str = Field(json_schema_extra={"format": "date-time"})
    rating: int = RATING_SHOWN
    mu: float = MU
    sigma: float = SIGMA


RATING_HISTORY = Field(description="their rating after each finished match (of the variant asked for, or "
                                   "all), in the order they finished: the newest limit points (50 by "
                                   "default) before the match before, if given")
class RatedPlayer(Closed):      # a Rating's figures, but in the answer's order
    """A rated player, as the leaderboard lists them."""

    id: int
    name: str
    rating: int = RATING_SHOWN
    mu: float = MU
    sigma: float = SIGMA
    matches: int = Field(description="finished matches rated")
    provisional: bool = PROVISIONAL


class Ratings(Closed):
    ratings: list[RatedPlayer] = Field(description="every rated player in the leaderboard's order: those with 5 "
                                             "finished matches or more first, then the provisional ones, "
                                             "each the highest rating first")


def ratings_path(parameters: list[dict[str, Any]], ok: Callable[..., Any], error: Any) -> dict[str, Any]:
    return {"get": {
        "summary": "Every rated player's rating (OpenSkill, Plackett-Luce), the settled players "
                   "first, then the provisional ones, each the highest rating first: all variants "
                   "together, or one variant's",
        "parameters": parameters, "responses": {"200": ok("Ratings"), "400": error}}}


def rated_path(parameters: list[Any], ok: Callable[..., Any], body: Callable[..., Any],
               errors: dict[str, Any]) -> dict[str, Any]:
    return {"put": {
        "summary": "Leave a match out of the players' ratings (rated: false), or count it again. "
                   "The organiser only (X-Scopa-Organiser).",
        "operationId": "setRated", "parameters": parameters, "requestBody": body("Rated"),
        "responses": {"200": ok("Match", "the match, as it is now"), **errors}}}
