"""pydantic's refusals in the companion's words: one translator for the JSON API and the pages.

A request's model (``web.requests``) validates with pydantic: its types, bounds and lists say
what a request may be, and its own rules (a name's length once tidied, two names the same
player, the seating a variant needs) raise a ``ScopaError`` in words. ``refusals`` turns a
``ValidationError`` into ``Refusal`` values, each the place it names (its ``loc``: ``("players",
1)``, ``("options", "target")``) and what is said (a ``Said``, which the API words with
``for_api`` and a page with ``explain``, in the request's language):

- a rule's refusal, as the rule said it (``ctx["error"]``); one that names a rule item carries
  it (``ScopaError.at``), so a page shows it by that item's field;
- else the model's own words for the field (``said_for``: by the field's path, a list's items
  ``*``; a Said, or a function of the request, the path, the type of error and the context the
  request is read in, such as the match a hand is for): "players must be a list of 2 to 4 names";
- else the words for pydantic's type of error (``WORDS``), naming the field as a request names it.

>>> from pydantic import BaseModel, ConfigDict, Field, ValidationError
>>> class Ask(BaseModel):
...     model_config = ConfigDict(strict=True, extra="forbid")
...     limit: int = Field(1, ge=1, le=100)
...     last_play: bool = False
>>> try:
...     Ask.model_validate({"limit": 0, "last_play": "no", "x": 1})
... except ValidationError as failure:
...     [(r.at, str(r.said)) for r in refusals(Ask, failure)]
[(('limit',), 'limit must be a whole number from 1 to 100'), (('last_play',), 'last_play must be true or false'), (('x',), 'x is not a field of this request')]
"""

from __future__ import annotations

from functools import cache
from typing import Any, Callable, NamedTuple

from pydantic import BaseModel, ValidationError

from ..rules import ScopaError
from ..rules.said import said


class Refusal(NamedTuple):
    at: tuple[str | int, ...]      # the field refused, as pydantic's loc names it (no union tags)
    said: Any                      # a Said (or plain text), worded by the caller's language


def field_name(at: tuple[str | int, ...]) -> str:
    """A field as the request names it: ``players.1``, ``teams.0.name``."""
    return ".".join(map(str, at))


def _bounds(ctx: dict[str, Any]) -> tuple[Any, Any]:
    least = ctx.get("ge", ctx.get("gt", 0) + 1 if "gt" in ctx else None)
    most = ctx.get("le", ctx.get("lt", 0) - 1 if "lt" in ctx else None)
    return least, most


def _whole(field: str, ctx: dict[str, Any], bounds: tuple[Any, Any] | None) -> Any:
    least, most = bounds or _bounds(ctx)
    least = 0 if least is None else least
    if most is not None:
        return said("{name} must be a whole number from {least} to {most}", name=field, least=least,
                    most=most)
    if least == 1:
        return said("{field} must be a whole number from 1", field=field)
    return said("{field} must be a whole number from {least}", field=field, least=least)


# pydantic's types of error (``error["type"]``), in words: field, the error's ctx, and the
# field's bounds where the error does not carry them (a string given for a bounded number).
WORDS: dict[str, Callable[[str, dict[str, Any], Any], Any]] = {
    "missing": lambda field, ctx, bounds: said("{field} is missing", field=field),
    "extra_forbidden": lambda field, ctx, bounds: said("{field} is not a field of this request", field=field),
    "bool_type": lambda field, ctx, bounds: said("{name} must be true or false", name=field),
    "list_type": lambda field, ctx, bounds: said("{key} must be a list", key=field),
    "dict_type": lambda field, ctx, bounds: said("{field} must be an object", field=field),
    "model_type": lambda field, ctx, bounds: said("{field} must be an object", field=field),
    "string_type": lambda field, ctx, bounds: said("{field} must be text", field=field),
    "literal_error": lambda field, ctx, bounds: said("{field} must be one of: {names}", field=field,
                                                     names=ctx.get("expected", "")),
    "enum": lambda field, ctx, bounds: said("{field} must be one of: {names}", field=field,
                                            names=ctx.get("expected", "")),
    "too_short": lambda field, ctx, bounds: said("{field} has too few items (at least {least})",
                                                 field=field, least=ctx.get("min_length")),
    "too_long": lambda field, ctx, bounds: said("{field} has too many items (at most {most})",
                                                field=field, most=ctx.get("max_length")),
    **{kind: (lambda field, ctx, bounds: _whole(field, ctx, bounds)) for kind in (
        "int_type", "int_from_float", "int_parsing", "greater_than", "greater_than_equal",
        "less_than", "less_than_equal")},
}


# The tags pydantic adds to a loc inside a union: a type's name ("int", "literal['random']",
# "function-after[...]") or a model's ("Pair").
_TYPE_TAGS = frozenset({"int", "str", "bool", "float", "list", "dict", "none", "tuple", "set", "bytes"})


def _path(loc: tuple[str | int, ...], model: type[BaseModel]) -> tuple[str | int, ...]:
    """pydantic's loc without the tags it adds inside a union: the fields and the items only
    (an unknown key, refused in a closed model, included)."""
    tags = _tags(model)
    return tuple(part for part in loc
                 if isinstance(part, int) or (part.isidentifier() and part not in tags))


# A model's tags and its words are its class's, the same for every request: worked out once a
# model, not for every refusal (a walk of every annotation its fields hold, some 2 ms a refused
# request on a busy machine, where the answer took 10).
@cache
def _tags(model: type[BaseModel]) -> frozenset[str]:
    return _TYPE_TAGS | {held.__name__ for held in _models_held(model)}


def _models_held(model: type[BaseModel]) -> list[type[BaseModel]]:
    """The model and every model its fields hold."""
    found: list[type[BaseModel]] = []
    todo = [model]
    while todo:
        current = todo.pop()
        if current not in found:
            found.append(current)
            for info in current.model_fields.values():
                todo.extend(_models_in(info.annotation))
    return found


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found = []
    for argument in getattr(annotation, "__args__", ()) or ():
        found.extend(_models_in(argument))
    return found


def _pattern_of(path: tuple[str | int, ...]) -> tuple[str, ...]:
    return tuple("*" if isinstance(part, int) else part for part in path)


def _own_words(model: type[BaseModel], path: tuple[str | int, ...], data: Any, kind: str,
               context: Any) -> Any:
    """The model's words for the field at ``path`` (the longest of its paths that starts it): a
    Said, or a function of the request's data, the path, pydantic's type of error and the
    validation's context giving one (or None: the words for the type of error)."""
    said_for = _words_of(model)
    pattern = _pattern_of(path)
    for end in range(len(pattern), 0, -1):
        words = said_for.get(pattern[:end])
        if callable(words):
            return words(data, path, kind, context)
        if words is not None:
            # A field's words say what it must be; a key no field has is named (WORDS).
            return None if kind == "extra_forbidden" else words
    return None


@cache
def _words_of(model: type[BaseModel]) -> dict[tuple[str, ...], Any]:
    """The model's words by path: its own over its bases' (read, never changed)."""
    said_for: dict[tuple[str, ...], Any] = {}
    for klass in reversed(model.__mro__):       # a model's words, then its subclass's
        said_for.update(vars(klass).get("said_for", {}))
    return said_for


def _bounds_of(model: type[BaseModel], path: tuple[str | int, ...]) -> tuple[Any, Any] | None:
    """A top field's ge/le as declared, for a wrong type given for a bounded number."""
    info = model.model_fields.get(path[0]) if path and isinstance(path[0], str) else None
    if info is None:
        return None
    least = most = None
    for rule in info.metadata:
        least = getattr(rule, "ge", least)
        most = getattr(rule, "le", most)
    return (least, most) if least is not None or most is not None else None


def refusals(model: type[BaseModel], failure: ValidationError, data: Any = None,
             context: Any = None) -> list[Refusal]:
    """Each of a validation's refusals, in the order pydantic found them, in words (``context``:
    the validation's, for the model's words)."""
    found = []
    for error in failure.errors():
        loc = tuple(error["loc"])
        # A key a closed model does not know is named as sent, whatever it is ("my-key").
        path = (_path(loc[:-1], model) + loc[-1:] if error["type"] == "extra_forbidden"
                else _path(loc, model))
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, ScopaError):
            found.append(Refusal(path + tuple(getattr(cause, "at", ())), cause.args[0]))
            continue
        words = _own_words(model, path, data, error["type"], context)
        if words is None:
            kind = WORDS.get(error["type"])
            name = field_name(path) or "body"
            words = (kind(name, error.get("ctx") or {}, _bounds_of(model, path)) if kind is not None
                     else said("{field} is not of this request's form", field=name))
        found.append(Refusal(path, words))
    # A union's members each refuse (a seat, or "random"): said once.
    return [refusal for n, refusal in enumerate(found) if refusal not in found[:n]]
