"""What a request may say, described once: the kit every request's model is made with, and the
rules asked for (``RulesAsked``, its ``RuleItems``) here; a new match (the page's form and ``POST
/api/v1/matches``) in ``match_requests``, a hand as the JSON API takes it and a hand to score (``POST
/api/v1/score``) in ``hand_requests``, the rules engine's questions in ``question_requests``, a
tournament's in ``tournament_requests``.

Each is a pydantic model that validates (strict types, bounds, constrained lists, ``Literal``):
its JSON Schema is the OpenAPI document's (``api/openapi_models.py``), and what it refuses is
worded by one translator (``web.refusals``) for the API and the pages alike. What pydantic
cannot say by types, a field's own rule says in the players' words (a name's length once
tidied, two names the same player: ``names.py``), and a model's ``model_validator`` the rules
across its fields (the rules asked for, the seating a variant needs). ``read`` validates a dict
(the API's JSON, the form's data) and raises the first refusal (``Refused``, 400 at the API), in
the order the request is read: the rules, then the sides; ``check`` gives every refusal, each
with the field it names (``Refusal.at``), for a page to show by that field.

"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Mapping, NoReturn, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from ..names import (
    NAME_MAX,
    NAME_REFUSED,
    NAME_TOO_LONG,
    name_fits,
    names_clash,
    tidy,
)
from ..rules import ScopaError, parse_card, rules_for
from ..rules.rulesets import (
    BOUNDS,
    BonusSuit,
    CaptureRule,
    DealScope,
    Deck,
    DeclarationRule,
    MissingSuitRule,
    NapolaRule,
    Pack,
    PrimieraMethod,
    Rules,
    Variant,
    VoidDeal,
)
from ..rules.said import said
from .refusals import Refusal, refusals


class Refused(ScopaError):
    """A request that is not of its shape, said in words (400 at the API); ``at``: the field it
    names, where pydantic's own place for it would not (a rule item, named by a rules check)."""

    def __init__(self, message: Any, at: tuple[str | int, ...] = ()):
        super().__init__(message)
        self.at = at


def refuse(message: Any, at: tuple[str | int, ...] = ()) -> NoReturn:
    raise Refused(message, at)


class Request(BaseModel):
    """A request's model: ``read`` it from a dict. Strict: a number is not a string of digits,
    a list not a string. Closed: a key the request does not know is refused, naming it ("extra
    is not a field of this request"), and the document says so (``additionalProperties:
    false``): a misspelt field ("sweep") is never taken as left out. A page's post carries keys
    of its own (its csrf_token): ``sent_in`` takes the request's fields from it."""

    model_config = ConfigDict(strict=True, extra="forbid")

    # The model's words for its fields' refusals, by the field's path (a list's items ``*``),
    # where the words for pydantic's type of error would not do: a Said, or a function of the
    # request's data giving one (web.refusals).
    said_for: ClassVar[dict[tuple[str, ...], Any]] = {}

    @classmethod
    def check(cls, data: Any, context: Any = None) -> tuple[Self | None, list[Refusal]]:
        """The request and no refusal, or None and every refusal, each by its field
        (``context``: pydantic's validation context, what the request is read for: the match a
        hand is entered in, whose sides and rules its refusals are worded by)."""
        try:
            return cls.model_validate(data, context=context), []
        except ValidationError as failure:
            return None, refusals(cls, failure, data, context)

    @classmethod
    def sent_in(cls, form: Mapping[str, Any]) -> dict[str, Any]:
        """The request's fields among a page's post (the page's own, its csrf_token, left out)."""
        return {name: form[name] for name in cls.model_fields if name in form}

    @classmethod
    def read(cls, data: Any, context: Any = None) -> Self:
        """The request, checked; the first refusal raised (``Refused``)."""
        request, refused = cls.check(data, context)
        if request is None:
            raise Refused(refused[0].said, refused[0].at)
        return request


class NoBody(Request):
    """A request that says nothing more than its address (a tournament's next round, the undo of
    a change): ``{}``, or no body at all; a key is refused by its name, as by every request."""


# -- Names, PINs, cards: the rules of names.py and the rules engine ------------------------

NAME_SCHEMA = {"type": "string", "minLength": 1, "maxLength": NAME_MAX, "pattern": "\\S"}
CARDS_SCHEMA: dict[str, Any] = {"type": "array", "items": {"type": "string"}, "description": "cards such as 7d, 10b"}


def fits(name: str) -> str:
    if not name_fits(name):
        refuse(NAME_REFUSED)
    return name


def short_enough(name: str) -> str:
    """A name at a table: at most NAME_MAX characters once tidied (left empty: the table's
    rule says it, counting its players)."""
    if len(tidy(name)) > NAME_MAX:
        refuse(NAME_TOO_LONG)
    return name


def team_named(name: str) -> str:
    """A team's name as typed: 1 to NAME_MAX characters once tidied."""
    return fits(short_enough(name))


def _text(value: Any, handler: ValidatorFunctionWrapHandler) -> str:
    """A name that is not text is refused in a name's words, wherever a request takes one."""
    try:
        return handler(value)
    except ValidationError:
        refuse(NAME_REFUSED)


# A name of 1 to NAME_MAX characters once tidied (names.name_fits); kept as sent.
Name = Annotated[str, WrapValidator(_text), AfterValidator(fits), WithJsonSchema(NAME_SCHEMA)]
# A player's name at a table: too long refused here, none given by the table's rule.
Seat = Annotated[str, WrapValidator(_text), AfterValidator(short_enough), WithJsonSchema(NAME_SCHEMA)]
TeamName = Annotated[str, AfterValidator(team_named), WithJsonSchema(NAME_SCHEMA)]
Cards = Annotated[list[str], WithJsonSchema(CARDS_SCHEMA)]


class LeftOut:
    """A field a request may leave out (``Annotated[X | None, LeftOut()]``: None, as a default
    is not validated), never send as null: null is refused as the field's type is (a list's
    ``list_type``, worded by the field's ``said_for``), and the document shows the field's type
    alone, without null."""

    def __init__(self, kind: str = "list_type", message: str = "Input should be a valid list"):
        self.kind, self.message = kind, message

    def _sent(self, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if value is None:
            raise PydanticCustomError(self.kind, self.message)
        return handler(value)

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_wrap_validator_function(self._sent, handler(source))

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        shown = [kind for kind in handler(schema)["anyOf"] if kind.get("type") != "null"]
        return shown[0] if len(shown) == 1 else {"anyOf": shown}


def _at(data: Any, path: tuple[str | int, ...]) -> Any:
    """The value a request's data holds at ``path`` (None where it holds none)."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def card_words(data: Any, path: tuple[str | int, ...], *_: Any) -> Any:
    """The rules engine's words for a card that is not one, as sent (a ``said_for``'s)."""
    try:
        parse_card(_at(data, path))
    except ScopaError as refusal:
        return refusal.args[0]
    return None


def named_all(names: list[str], count: int) -> None:
    """Every seat named, and no two names one player (the same, or one that reads as the
    other: whom it looks like), as the page asks."""
    if not all(tidy(name) for name in names):
        refuse(said("Give a name to each of the {count} players", count=count))
    clash = names_clash(names)
    if clash:
        refuse(clash)


def _all_named(names: list[str]) -> list[str]:
    named_all(names, len(names))
    return names


# -- The rules asked for -------------------------------------------------------------------


def rules_readable(data: dict[str, Any]) -> bool:
    try:
        rules_for(data.get("variant", "classica"), data.get("options") or {})
    except ScopaError:
        return False
    return True


def _variant_refused(data: Any, *_: Any) -> Any:
    """The rules engine's words for a variant it does not know."""
    try:
        rules_for(data.get("variant") if isinstance(data, dict) else None)     # what was sent
    except ScopaError as refusal:
        return refusal.args[0]
    return None


def _item_words(data: Any, path: tuple[str | int, ...], *_: Any) -> Any:
    """The rules engine's words for a rule item refused, as sent ("primiera must be one of
    standard, ...", "the target must be a whole number from 1 to 1000", "colour is not a rule
    item; the items are ..."), or for the items not sent as an object."""
    if len(path) < 2:
        return said("options must be an object of rule items")
    try:
        rules_for("classica", {str(path[1]): _at(data, path)})
    except ScopaError as refusal:
        return refusal.args[0]
    return None


# Each item may be left out (the variant's own, then), never sent as null: but the number of
# hands and the score of a double game, whose null says "none".
_NOT_NULL = LeftOut("not_null", "Input should not be null")
_TARGET, _HANDS, _DOUBLE_UNDER = (Field(ge=BOUNDS[item][0], le=BOUNDS[item][1])
                                  for item in ("target", "hands", "double_under"))


class RuleItems(Request):
    """The rule items a request changes, each one of the values the rules engine takes
    (``rules.rulesets``: its CHOICES, BOOLEANS and BOUNDS, said there once), each left out
    unless changed. What no item says alone (napola with scalette, Cirulla without its twos)
    the rules engine says, with the variant (``RulesAsked``)."""

    deck: Annotated[Deck | None, _NOT_NULL] = None
    bonus_suit: Annotated[BonusSuit | None, _NOT_NULL] = None
    primiera: Annotated[PrimieraMethod | None, _NOT_NULL] = None
    missing_suit: Annotated[MissingSuitRule | None, _NOT_NULL] = None
    re_bello: Annotated[bool | None, _NOT_NULL] = None
    napola: Annotated[NapolaRule | None, _NOT_NULL] = None
    scalette: Annotated[bool | None, _NOT_NULL] = None
    piva: Annotated[bool | None, _NOT_NULL] = None
    declarations: Annotated[DeclarationRule | None, _NOT_NULL] = None
    target: Annotated[Annotated[int, _TARGET] | None, _NOT_NULL] = None
    hands: Annotated[int, _HANDS] | None = Field(None, description="null: played to the target")
    cappotto: Annotated[bool | None, _NOT_NULL] = None
    double_under: Annotated[int, _DOUBLE_UNDER] | None = Field(None, description="null: no double game")
    claims: Annotated[bool | None, _NOT_NULL] = None
    capture: Annotated[CaptureRule | None, _NOT_NULL] = None
    void_deal: Annotated[VoidDeal | None, _NOT_NULL] = None
    ace_takes_itself: Annotated[bool | None, _NOT_NULL] = None
    pack: Annotated[Pack | None, _NOT_NULL] = None
    grande_piccola: Annotated[bool | None, _NOT_NULL] = None
    matta: Annotated[bool | None, _NOT_NULL] = None
    deal_scope: Annotated[DealScope | bool | None, _NOT_NULL] = Field(
        None, description="true is read as 15-30, false as off (as stored before 15-30-low)")

    def changed(self) -> dict[str, Any]:
        """The items sent, as the rules engine takes them.

        >>> RuleItems.read({"target": 21, "hands": None}).changed()
        {'target': 21, 'hands': None}
        """
        return self.model_dump(exclude_unset=True)


def _rules_read(options: RuleItems | None, info: ValidationInfo) -> RuleItems | None:
    """The rule items changed, read with the variant by the rules engine (a rule across the
    two fields): refused in its words, at the item refused, else at the options together."""
    if "variant" in info.data:          # else the variant is refused already
        changed = options.changed() if options is not None else {}
        try:
            rules_for(info.data["variant"], changed)
        except ScopaError as refusal:
            refuse(refusal.args[0], _item_refused(info.data["variant"], changed))
    return options


def _item_refused(variant: str, options: dict[str, Any]) -> tuple[str, ...]:
    for item, value in options.items():
        try:
            rules_for(variant, {item: value})
        except ScopaError:
            return (item,)
    return ()


# The rule items asked for: none, or an object of them (the words for each refused: the rules
# engine's), read with the variant.
Options = Annotated[RuleItems | None, AfterValidator(_rules_read)]
OPTIONS = Field(None, validate_default=True, description="rule items to change")
OPTIONS_SAID: dict[tuple[str, ...], Any] = {("options",): _item_words}


def rules_asked(variant: Variant, options: RuleItems | None) -> Rules:
    """The rules of a variant with the items a request changed (already read by ``Options``)."""
    return rules_for(variant, options.changed() if options is not None else {})


class RulesAsked(Request):
    """A variant (Scopa classica unless said) and the rule items it changes, read together by
    the rules engine (``rules``). They come first: a refusal of them is said before any other."""

    said_for = {("variant",): _variant_refused, **OPTIONS_SAID}

    variant: Variant = "classica"
    options: Options = OPTIONS

    @property
    def rules(self) -> Rules:
        return rules_asked(self.variant, self.options)
