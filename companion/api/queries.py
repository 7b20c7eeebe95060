"""What a listing's query string may say, described once: one model per listing, read from
``request.args`` (``Query.asked``), whose schema is the OpenAPI document's parameters
(``parameters``), so a bound is written once. Its refusals are the words the API gave before
the models (``web.refusals`` words them): "limit is at most 200", "state must be playing,
finished or all".

>>> MatchesQuery.read({"limit": "20"}).limit, MatchesQuery.read({}).state
(20, 'all')
>>> MatchesQuery.read({"limit": "201"})
Traceback (most recent call last):
...
companion.web.requests.Refused: limit is at most 200
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Any, Literal, Self

from flask import request
from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, WithJsonSchema

from ..rules.rulesets import PRESETS, Variant
from ..rules.said import said
from ..store import reads as store
from ..web.requests import Request, refuse


def _digits(value: Any) -> Any:
    """A number as a query writes it ("20"); past the store's largest id, that id (no id is left
    out); anything else as it is, refused as not a number."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return min(store.number_from(value), store.MAX_ID)
    return value


def _nothing(value: Any) -> Any:
    """A key sent empty (``?variant=``) as a key not sent."""
    return None if value == "" else value


def _since(since: str) -> str:
    """A date (YYYY-MM-DD), or a moment in ISO 8601, as the matches' dates are stored (UTC)."""
    try:
        moment = datetime.fromisoformat(since)
    except ValueError:
        refuse(said("since must be a date, such as 2026-11-01"))
    return in_utc(moment).isoformat(timespec="seconds")


def in_utc(moment: datetime) -> datetime:
    """A moment (a date without a zone is in the server's own, the table's) in UTC, as the
    matches' dates are stored. A moment that UTC would put beyond the calendar (0001-01-01 east
    of Greenwich, 9999-12-31 west of it) is its first or last moment: every date the OpenAPI
    document allows is taken."""
    try:
        if moment.tzinfo is None:
            moment = moment.astimezone()
        return moment.astimezone(timezone.utc)
    except (ValueError, OverflowError, OSError):
        edge = datetime.min if moment.year < 5000 else datetime.max
        return edge.replace(tzinfo=timezone.utc)


# A whole number from 1, as a query writes it; a limit also at most its listing's most.
# (The digits read before the bounds are checked, after them in the Annotated: the schema's
# minimum and maximum are then pydantic's own.)
Whole = Annotated[int, Field(ge=1), BeforeValidator(_digits)]
FROM_1 = {kind: said("{field} must be a whole number from 1", field=kind) for kind in ("limit", "before", "after",
                                                                                       "page")}


def at_most(field: str, most: int) -> Any:
    """A number's words: past its most (the listing's), or not a whole number from 1."""
    def words(data: Any, path: tuple[str | int, ...], kind: str, *_: Any) -> Any:
        if kind != "less_than_equal":
            return FROM_1[field]
        if field == "page":
            return said("page is at most {most}", most=most)
        return said("limit is at most {most}", most=most)
    return words


class Query(Request):
    """A listing's query: its keys text as a query sends them (a number its digits), those it
    does not list passed over (a cache-buster, another program's)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    @classmethod
    def asked(cls) -> Self:
        """The query of the request being answered, checked: the first refusal raised (400)."""
        # Each key asked for by name (a key sent twice: its first value), as the sweep of long
        # numbers notes them (tests/app/test_long_numbers.py).
        return cls.read({name: request.args[name] for name in cls.model_fields if name in request.args})


VARIANT_SAID = said("variant must be one of: {names}", names=", ".join(PRESETS))
AVariant = Annotated[Variant | None, BeforeValidator(_nothing),
                     Field(description="only the matches of this variant")]
Since = Annotated[Annotated[str, AfterValidator(_since), WithJsonSchema({"type": "string", "format": "date"})] | None,
                  BeforeValidator(_nothing), Field(description="only the matches started on or after this date")]

MATCHES_MOST = 200      # matches, a match's hands, its changes in one answer
PLAYERS_MOST = 500      # players, or points of a rating history, in one answer
PAGES_MOST = 1_000_000
MatchesLimit = Annotated[int, Field(ge=1, le=MATCHES_MOST), BeforeValidator(_digits)]
PlayersLimit = Annotated[int, Field(ge=1, le=PLAYERS_MOST), BeforeValidator(_digits)]


class MatchesQuery(Query):
    """``GET /api/v1/matches``."""

    said_for = {("state",): said("state must be playing, finished or all"),
                ("limit",): at_most("limit", MATCHES_MOST), ("before",): at_most("before", MATCHES_MOST)}

    state: Literal["all", "playing", "finished"] = "all"
    limit: MatchesLimit = 50
    before: Whole | None = Field(None, description="the next link's match: only the matches before it")


class HandsQuery(Query):
    """``GET /api/v1/matches/{id}``: a page of its hands."""

    said_for = {("limit",): at_most("limit", MATCHES_MOST), ("after",): at_most("after", MATCHES_MOST)}

    limit: MatchesLimit = Field(
        MATCHES_MOST, description="how many hands: the first after `after`")
    after: Whole | None = Field(None, description="a hand's number: only the hands after it (hands_next gives it)")


class ChangesQuery(Query):
    """``GET /api/v1/matches/{id}/changes``."""

    said_for = {("limit",): at_most("limit", MATCHES_MOST), ("before",): at_most("before", MATCHES_MOST)}

    limit: MatchesLimit = 50
    before: Whole | None = Field(None, description="the next link's change: only the changes before it")


class RatingsQuery(Query):
    """``GET /api/v1/ratings``: all variants' together, or one's."""

    said_for = {("variant",): VARIANT_SAID}

    variant: AVariant = None


class Scoped(Query):
    """A player's or the players' records: the matches counted (a variant's, since a date)."""

    said_for = {("variant",): VARIANT_SAID, ("since",): said("since must be a date, such as 2026-11-01")}

    variant: AVariant = None
    since: Since = None

    def scope(self) -> dict[str, Any]:
        return {"variant": self.variant, "since": self.since}


class PlayerQuery(Scoped):
    """``GET /api/v1/players/{id}``: the matches counted, and a page of the rating history."""

    said_for = {("limit",): at_most("limit", PLAYERS_MOST), ("before",): at_most("before", PLAYERS_MOST)}

    limit: PlayersLimit = Field(
        50, description="how many points of rating_history: the newest")
    before: Whole | None = Field(None, description="a match's id: only the points of matches that finished "
                                                   "before it (rating_history_next gives it)")


class PlayersQuery(Scoped):
    """``GET /api/v1/players``: the leaderboard, a page at a time."""

    said_for = {("limit",): at_most("limit", PLAYERS_MOST), ("page",): at_most("page", PAGES_MOST),
                ("order",): said('order must be "won" or "rating"')}

    limit: PlayersLimit = 200
    page: Annotated[int, Field(ge=1, le=PAGES_MOST), BeforeValidator(_digits)] = 1
    order: Literal["won", "rating"] = Field(
        "won", description="won: most matches won first; rating: the highest rating first")


def parameters(model: type[Query]) -> list[dict[str, Any]]:
    """The query's parameters as the OpenAPI document lists them, from the model's schema (a
    key sent empty or left out is one: the document shows its type without null)."""
    found = []
    for name, schema in model.model_json_schema()["properties"].items():
        schema = {key: value for key, value in schema.items() if key != "title"}
        description = schema.pop("description", None)
        shown = [kind for kind in schema.pop("anyOf", []) if kind.get("type") != "null"]
        if shown:
            schema = {**shown[0], **schema}
        if schema.get("default", 0) is None:
            del schema["default"]
        found.append({"name": name, "in": "query", "required": False, "schema": schema,
                      **({"description": description} if description else {})})
    return found
