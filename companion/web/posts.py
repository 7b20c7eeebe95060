"""What a page's buttons post beside a form (a version, a switch, the ids ticked), read as the
API's requests are read: by small models that validate (``requests.Request``: strict, closed),
so that a value no page sends is refused in words, with nothing changed (``posted``: 400), never
read as something else ("archived=yes" as false, "version=x" as no version) nor a 500.

A page posts text: a switch "1" or "0" (``Switch``), a number "3" (``hand_requests.Version``).

>>> Archived.model_validate({"archived": "1"}).archived, Archived.model_validate({"archived": "0"}).archived
(True, False)
>>> Archived.read({"archived": "yes"})
Traceback (most recent call last):
...
companion.web.requests.Refused: archived must be true or false
>>> AfterEnd.read({"hand": ["12:3"]}).hand
[(12, 3)]
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from flask import request
from pydantic import BeforeValidator, Field

from ..rules.said import said
from ..store import reads as store
from .hand_requests import Version, _digits
from .question_requests import Rated
from .requests import Refused, Request

R = TypeVar("R", bound=Request)


def _switch(value: Any) -> Any:
    """A switch as a page posts it ("1" on, "0" off), as the API's JSON says it (anything else
    as sent: refused)."""
    return {"1": True, "0": False}.get(value, value) if isinstance(value, str) else value


Switch = Annotated[bool, BeforeValidator(_switch)]


class RatedPost(Rated):
    """The organiser's "not rated" switch on the match page (``Rated``, posted as "1" or "0")."""

    rated: Switch


class Archived(Request):
    """A match put out of the lists ("1") or back ("0")."""

    archived: Switch


# A match's version, from 0 (a new match's), as a page writes it ("3").
MatchVersion = Annotated[int, Field(ge=0, le=store.MAX_ID), BeforeValidator(_digits)]
MATCH_VERSION_SAID = said("{field} must be a whole number from {least}", field="version", least=0)


class MatchAt(Request):
    """The version of the match a page was showing (a whole match deleted from it)."""

    said_for = {("version",): MATCH_VERSION_SAID}

    version: MatchVersion | None = None


class Versions(MatchAt):
    """Hands brought back (``hand``, each an id) if the match is still at ``version``, the one
    their delete left."""

    hand: list[Version] = []


class Replacing(Request):
    """The conflict screen's choice: the hand another phone recorded, replaced from the
    version shown."""

    replace_id: Version | None = None
    replace_version: Version | None = None


def _at(value: Any) -> Any:
    """A hand as the list of those played after the end posts it: "id:version"."""
    if isinstance(value, str) and value.count(":") == 1:
        return tuple(value.split(":"))
    return value


class AfterEnd(Request):
    """The hands played after the end, each as the page showed it (``"id:version"``)."""

    hand: list[Annotated[tuple[Version, Version], BeforeValidator(_at)]] = []


class Ticked(Request):
    """The matches ticked in a list (``match``, each an id)."""

    match: list[Version] = []


class Into(Request):
    """The player another is merged into (``into``, an id)."""

    into: Version | None = None


class RoundAsked(Request):
    """The round a tournament's Start button was for (``round``: the next one, as shown)."""

    round: Version | None = None


class Confirmed(Request):
    """A restore's box, ticked ("y")."""

    confirm: Literal["y"] | None = None


class BadPost(Exception):
    """A post with a value no page sends: said (a ``Said``) on a page of its own, 400; nothing
    was changed (``web.errors``)."""


def posted(model: type[R], source: Any = None) -> R:
    """A page's post (or ``source``: its query) read by ``model``, a list field with every value
    sent; a value no page sends: ``BadPost``, in the model's words."""
    sent = request.form if source is None else source
    lists = {name for name, info in model.model_fields.items()
             if getattr(info.annotation, "__origin__", None) is list}
    data = {name: sent.getlist(name) if name in lists else sent[name]
            for name in model.model_fields if name in sent}
    try:
        return model.read(data)
    except Refused as refusal:
        raise BadPost(refusal.args[0]) from None
