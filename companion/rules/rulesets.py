"""Rule sets: the presets of RULES §8 and every rule item, checked.

A match keeps the ``Rules`` it was created with; ``rules_for`` builds one from a preset name and
the items a table changed.

>>> r = rules_for("napola", {"target": 31})
>>> (r.napola, r.target, r.deck)
('to-six', 31, 40)
>>> rules_for("classica", {"primiera": "best"})
Traceback (most recent call last):
...
companion.rules.rulesets.RulesError: primiera must be one of standard, half, hurrikan, no-figures, sevens-sixes, count-down, sevens
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Literal, Mapping, get_args

from .cards import ScopaError
from .said import said

# Each choice item's values, said once as a type (the request's model, web.requests.RuleItems,
# takes them as they are) and as the tuple the checks and the pages read (``get_args``).
PrimieraMethod = Literal["standard", "half", "hurrikan", "no-figures", "sevens-sixes", "count-down",
                         "sevens"]
MissingSuitRule = Literal["loses", "void", "zero"]
NapolaRule = Literal["off", "to-six", "to-horse"]
DeclarationRule = Literal["off", "bazzica", "sbarazzina", "cirulla"]
CaptureRule = Literal[
    "standard", "fewest", "fewest-any", "quindici-1", "quindici-2", "quindici-3",
    "asso-pigliatutto", "scopa-d-assi", "corse", "cirulla", "escoba",
]
# What voids a first table (RULES §7): three or four Kings (standard), three or more cards of
# one value (Chkobba), any Ace as well as the Kings (Scopa d'Assi option), two or more Aces
# (Cirulla), or nothing.
VoidDeal = Literal["kings", "equal", "aces", "two-aces", "off"]
Pack = Literal["italian", "french", "chkobba", "spanish"]
# The dealer's scope from the first table (RULES §11): none; 15 one, 30 two; and a table adding
# up to 9 or less three (the Cirulla default). ``true``, as stored before, is read as 15-30.
DealScope = Literal["off", "15-30", "15-30-low"]
Deck = Literal[40, 36]
BonusSuit = Literal["d", "c", "s", "b"]
Variant = Literal["classica", "sco-papa", "sco-papa-primiera", "scopone", "re-bello", "napola",
                  "scalette", "scopa-d-assi", "asso-pigliatutto", "quindici", "bazzica",
                  "sbarazzina", "piva", "corse", "chkobba", "hurrikan", "cirulla", "escoba"]

PRIMIERA_METHODS: tuple[str, ...] = get_args(PrimieraMethod)
MISSING_SUIT_RULES: tuple[str, ...] = get_args(MissingSuitRule)
NAPOLA: tuple[str, ...] = get_args(NapolaRule)
DECLARATIONS: tuple[str, ...] = get_args(DeclarationRule)
CAPTURE_RULES: tuple[str, ...] = get_args(CaptureRule)
VOID_DEALS: tuple[str, ...] = get_args(VoidDeal)
PACKS: tuple[str, ...] = get_args(Pack)
DEAL_SCOPES: tuple[str, ...] = get_args(DealScope)


class RulesError(ScopaError):
    """A rule set that cannot be: the message names the item and the values it takes."""


@dataclass(frozen=True)
class Rules:
    """Every rule item of RULES §8, plus three the referee and the display need:
    ``void_deal`` and ``ace_takes_itself`` (the Scopa d'Assi options of §7) and ``pack``, and
    Cirulla's three: ``grande_piccola`` (the grande and the piccola of the bonus suit),
    ``matta`` (the 7 of cups, hearts in a French pack, wild in a declaration and on the first
    table) and ``deal_scope`` (a first table adding up to 15 or 30 gives the dealer 1 or 2
    scope; ``15-30-low`` also 3 for a table of 9 or less)."""

    preset: str = "classica"
    deck: int = 40
    bonus_suit: str = "d"
    primiera: str = "standard"
    missing_suit: str = "loses"
    re_bello: bool = False
    napola: str = "off"
    scalette: bool = False
    piva: bool = False
    declarations: str = "off"
    target: int = 11
    hands: int | None = None
    cappotto: bool = False
    double_under: int | None = None
    claims: bool = False
    capture: str = "standard"
    void_deal: str = "kings"
    ace_takes_itself: bool = False
    pack: str = "italian"
    grande_piccola: bool = False
    matta: bool = False
    deal_scope: str = "off"

    def as_dict(self) -> dict[str, Any]:
        # Every item is a str, an int, a bool or None: read as they are, not deep-copied by
        # dataclasses.asdict, which cost a list of 200 matches in the API a third of its time.
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(Rules))
ITEMS = _FIELDS[1:]     # every item but the preset

# Every variant (``Variant``), in the order the pages list them.
PRESETS: dict[Variant, dict[str, Any]] = {
    "classica": {},
    "sco-papa": {"primiera": "sevens-sixes", "capture": "fewest"},
    "sco-papa-primiera": {"missing_suit": "zero", "capture": "fewest"},
    "scopone": {},
    "re-bello": {"re_bello": True},
    "napola": {"napola": "to-six", "target": 21},
    "scalette": {"scalette": True, "target": 21},
    "scopa-d-assi": {"napola": "to-six", "target": 21, "capture": "scopa-d-assi"},
    "asso-pigliatutto": {"capture": "asso-pigliatutto"},
    "quindici": {"target": 31, "capture": "quindici-3"},
    "bazzica": {"declarations": "bazzica", "target": 21},
    "sbarazzina": {"re_bello": True, "declarations": "sbarazzina", "target": 41,
                   "capture": "scopa-d-assi"},
    "piva": {"re_bello": True, "declarations": "sbarazzina", "piva": True, "target": 21,
             "capture": "scopa-d-assi"},
    "corse": {"deck": 36, "target": 21, "capture": "corse"},
    "chkobba": {"primiera": "sevens-sixes", "target": 21, "void_deal": "equal", "pack": "chkobba"},
    "hurrikan": {"primiera": "hurrikan", "bonus_suit": "c", "double_under": 8, "target": 16,
                 "void_deal": "off"},
    "cirulla": {"target": 51, "capture": "cirulla", "declarations": "cirulla",
                "grande_piccola": True, "matta": True, "deal_scope": "15-30-low",
                "void_deal": "two-aces", "pack": "french"},
    # RULES §12: the Spanish pack, captures making 15 (never compulsory), the first table's
    # escobas to the dealer, the setenta by the most sevens, 21 points, no void deal.
    "escoba": {"primiera": "sevens", "target": 21, "capture": "escoba", "deal_scope": "15-30",
               "void_deal": "off", "pack": "spanish"},
}

PRESET_TITLES = {
    "classica": "Scopa classica",
    "sco-papa": "Sco-papa (most sevens, then sixes)",
    "sco-papa-primiera": "Sco-papa with primiera",
    "scopone": "Scopone",
    "re-bello": "Scopa con Re Bello",
    "napola": "Scopa con Napola",
    "scalette": "Scopa con le Scalette",
    "scopa-d-assi": "Scopa d'Assi",
    "asso-pigliatutto": "Asso pigliatutto",
    "quindici": "Scopa di Quindici",
    "bazzica": "Scopa Bazzica",
    "sbarazzina": "Sbarazzina",
    "piva": "Piva",
    "corse": "Scopa Corse",
    "chkobba": "Chkobba",
    "hurrikan": "Hurrikan",
    "cirulla": "Cirulla",
    "escoba": "Escoba",
}

# The values each item takes: a choice's (``CHOICES``), true or false (``BOOLEANS``), a whole
# number within its bounds (``BOUNDS``: hands and double_under may also be None, not counted).
# The request's model (web.requests.RuleItems) and its schema are made from them.
CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": get_args(Deck),
    "bonus_suit": get_args(BonusSuit),
    "primiera": PRIMIERA_METHODS,
    "missing_suit": MISSING_SUIT_RULES,
    "napola": NAPOLA,
    "declarations": DECLARATIONS,
    "capture": CAPTURE_RULES,
    "void_deal": VOID_DEALS,
    "pack": PACKS,
    "deal_scope": DEAL_SCOPES,
}
BOOLEANS = ("re_bello", "scalette", "piva", "cappotto", "claims", "ace_takes_itself",
             "grande_piccola", "matta")
BOUNDS = {"target": (1, 1000), "hands": (1, 100), "double_under": (1, 1000)}
# Cirulla's seats (pagat.com, regoledelgioco.com): 2 or 3 players, or two teams of two.
CIRULLA_SEATS = ((2, 1), (3, 1), (2, 2))


# A number item refused, in words (the numbers are BOUNDS').
_NUMBER_REFUSED = {
    # Said alike on the new match's page and by the API (issue 44): the target in words.
    "target": said("the target must be a whole number from 1 to 1000"),
    "hands": said("the number of hands must be a whole number from 1 to 100, or none to play to "
                  "the target"),
    "double_under": said("the score under which a loss is a double game must be a whole number "
                         "from 1 to 1000, or none"),
}


def _check_item(name: str, value: Any) -> Any:
    if name == "deal_scope" and isinstance(value, bool):
        return "15-30" if value else "off"      # as stored before there was a low table
    if name in CHOICES:
        choices = CHOICES[name]
        # JSON has no int/str distinction problems here, but a bool is an int in Python.
        if isinstance(value, bool) or value not in choices:
            raise RulesError(said("{name} must be one of {choices}", name=name,
                                  choices=", ".join(str(c) for c in choices)))
        return value
    if name in BOOLEANS:
        if not isinstance(value, bool):
            raise RulesError(said("{name} must be true or false", name=name))
        return value
    if name in BOUNDS:
        least, most = BOUNDS[name]
        if (value is None and name != "target") or (
                not isinstance(value, bool) and isinstance(value, int) and least <= value <= most):
            return value
        raise RulesError(_NUMBER_REFUSED[name])
    raise RulesError(said("{name} is not a rule item; the items are {items}", name=name,
                          items=", ".join(ITEMS)))


def rules_for(preset: object = "classica", options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of a preset with some items changed; every item and value is checked, the
    preset's name too, whatever a request sent for it (``None``, a number: not a variant).

    >>> rules_for("cirulla", {"deck": 36})
    Traceback (most recent call last):
    ...
    companion.rules.rulesets.RulesError: Cirulla is played with all 40 cards: without the twos there is no piccola
    """
    rules = _rules(preset, options)
    if rules.deck == 36 and (rules.preset == "cirulla" or rules.grande_piccola):
        # RULES §11: no source plays Cirulla without its twos, and the piccola needs them.
        raise RulesError(said("Cirulla is played with all 40 cards: without the twos there is no "
                              "piccola"))
    return rules


def _rules(preset: object, options: Mapping[str, Any] | None) -> Rules:
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(said("{preset} is not a variant; the variants are {presets}",
                              preset=repr(preset), presets=", ".join(PRESETS)))
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RulesError(said("options must be an object of rule items"))
    values = dict(PRESETS[preset])
    for name, value in options.items():
        values[name] = _check_item(name, value)
    rules = Rules(preset=preset, **values)
    if rules.napola != "off" and rules.scalette:
        raise RulesError(said("napola and scalette cannot both be on: the Scalette replace the "
                              "Napola"))
    if rules.preset == "escoba" and rules.deck != 40:
        # RULES §12: the Spanish pack of 40 cards; no source plays Escoba without its twos.
        raise RulesError(said("Escoba is played with the whole Spanish pack of 40 cards"))
    return rules


# 003: Scopa Corse, Chkobba and Hurrikan are games for two players or two teams of two (RULES §10).
TWO_OR_TWO_TEAMS = ("corse", "chkobba", "hurrikan")


def check_seating(rules: Rules, sides: int, per_side: int) -> None:
    """The seating a variant needs: Scopone is four players in two teams of two (§8); Scopa
    Corse, Chkobba and Hurrikan two players or two teams of two, and a 36-card deck never 3 or
    6 players (§10); the declarations of Bazzica, Sbarazzina and Piva are made by two players,
    one against the other (§5). ``sides`` sides of ``per_side`` players each.

    >>> check_seating(rules_for("scopone"), 2, 1)
    Traceback (most recent call last):
    ...
    companion.rules.rulesets.RulesError: Scopone is played by four players in two teams of two
    >>> check_seating(rules_for("corse"), 3, 1)
    Traceback (most recent call last):
    ...
    companion.rules.rulesets.RulesError: Scopa Corse is played by two players, or two teams of two
    """
    if rules.preset == "scopone" and (sides, per_side) != (2, 2):
        raise RulesError(said("Scopone is played by four players in two teams of two"))
    if "cirulla" in (rules.preset, rules.declarations) and (sides, per_side) not in CIRULLA_SEATS:
        raise RulesError(said("Cirulla is played by two or three players, or by two teams "
                              "of two"))
    if (rules.deal_scope != "off" or rules.declarations == "cirulla") and (
            rules.preset == "scopone" or (rules.preset == "hurrikan" and per_side == 2)):
        # Scopone, and Hurrikan's teams, are dealt 10 cards each and no table (RULES §10).
        raise RulesError(said("the dealer's scopa from the first table and Cirulla's declarations "
                              "need a deal with cards on the table: {variant} deals none",
                              variant=PRESET_TITLES[rules.preset]))
    if rules.preset in TWO_OR_TWO_TEAMS and (sides, per_side) not in ((2, 1), (2, 2)):
        raise RulesError(said("{variant} is played by two players, or two teams of two",
                              variant=PRESET_TITLES[rules.preset]))
    if rules.deck == 36 and sides * per_side in (3, 6):
        raise RulesError(said("a 36-card deck is dealt to 2 or 4 players (or two teams of two), "
                              "never to 3 or 6"))
    if rules.declarations not in ("off", "cirulla") and (sides, per_side) != (2, 1):
        raise RulesError(said("declarations (bazzica, bazzicotto) are a game for two players, "
                              "one against the other"))


# The seatings of a match, as the new match form names them: (sides, players a side).
LAYOUTS = {"2": (2, 1), "3": (3, 1), "4": (4, 1), "2x2": (2, 2), "2x3": (2, 3)}


def _seats(rules: Rules, sides: int, per_side: int) -> RulesError | None:
    try:
        check_seating(rules, sides, per_side)
    except RulesError as error:
        return error
    return None


def check_players(rules: Rules, players: int) -> None:
    """That a table of this many players can play these rules, each for themselves or (4 and 6)
    in two teams; else the RulesError of the first seating tried, in words.

    >>> check_players(rules_for("hurrikan"), 4)
    >>> check_players(rules_for("classica", {"deck": 36}), 6)
    Traceback (most recent call last):
    ...
    companion.rules.rulesets.RulesError: a 36-card deck is dealt to 2 or 4 players (or two teams of two), never to 3 or 6
    """
    layouts = [_seats(rules, sides, per_side) for sides, per_side in LAYOUTS.values()
               if sides * per_side == players]
    refusals = [refusal for refusal in layouts if refusal is not None]
    if len(refusals) < len(layouts):       # a layout of that many players is allowed
        return
    raise refusals[0] if refusals else RulesError(
        said("a match has 2, 3 or 4 players, or two teams of 2 or 3"))


def seating_of(rules: Rules) -> str | None:
    """The seating a variant is usually played with, when it does not take any, as the new
    match form names it ("2x2", "2"): the form chooses it with the variant."""
    allowed = seatings_of(rules)
    return allowed[0] if allowed and "3" not in allowed and "4" not in allowed else None


def seatings_of(rules: Rules) -> tuple[str, ...] | None:
    """Every seating these rules allow (``check_seating``), as the new match form names them,
    or None when any will do (2, 3 or 4 players, or two teams of 2 or 3).

    >>> seatings_of(rules_for("corse")), seatings_of(rules_for("classica", {"deck": 36}))
    (('2', '2x2'), ('2', '4', '2x2'))
    """
    allowed = tuple(name for name, (sides, per_side) in LAYOUTS.items()
                    if _seats(rules, sides, per_side) is None)
    return None if len(allowed) == len(LAYOUTS) else allowed


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    """Rebuild stored rules: the preset, then every item as it was stored (a Cirulla made with
    36 cards before they were refused stays as it was made). A club's matches share a few rule
    sets: each is checked once (``_stored``), not once per match of a list."""
    # Each value's type is in the key: True == 1 in Python, but not as a rule item.
    items = tuple((name, type(value), value) for name, value in data.items())
    try:
        return _stored(items)
    except TypeError:           # a value that cannot be a key (a list): checked, and refused
        return _stored.__wrapped__(items)


@lru_cache(maxsize=256)
def _stored(items: tuple[tuple[str, type, Any], ...]) -> Rules:
    data = {name: value for name, _type, value in items}
    preset = data.pop("preset", "classica")
    return _rules(preset, data)
