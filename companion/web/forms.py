"""The forms' shared kit: choices, the rule items in words, the one-line rules summary, the name
validator (in the pages' words, at ``companion.names``' limits; a new match's names and PIN are
its request's: ``web.requests``), the card grid every room that takes cards draws (a hand, a claim, the
referee's questions), a list of fields keyed by side or by card (``FieldsFor``), and the form of
the round trip of a hand's form through the referee's primiera tool (``PrimieraTrip``).

Each room keeps its own forms beside its views (``table/forms.py``, ``players/forms.py``...);
their fields and validators are declared there, and what they build from is here.
"""

from __future__ import annotations

import re
import threading
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl, urlencode

from cachetools import LRUCache
from flask import current_app
from flask_babel import get_locale, gettext as _, lazy_gettext as _l, ngettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import Field, FieldList, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # wtforms 3.2 has it, its stubs not
from wtforms.utils import unset_value
from wtforms.validators import Length
from wtforms.widgets import CheckboxInput, ListWidget

from ..i18n import VARIANT_TITLES
from ..names import NAME_MAX
from ..rules import deck, rules_for, seating_of
from ..rules.cards import SUITS, Card


def shown_at(field: Field | None, words: str) -> str | None:
    """A refusal shown by the field its request's ``loc`` names (``field``, whose macro draws
    its errors under it): None; or ``words`` back, for the top of the page, where the form has
    no field for it."""
    if field is None:
        return words
    field.errors = [*field.errors, words]
    return None


def whole_or_text(typed: Any) -> Any:
    """A number field's value as typed: its whole number, or, when it is not one ("abc", "2.5"),
    the text itself, for the request that checks it to refuse in its own words, the API's. A
    field left empty is None."""
    if typed is None or isinstance(typed, int):
        return typed
    text = str(typed).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return text


class WholeNumberField(IntegerField):
    """A whole number as typed, or the text sent when it is not one (``whole_or_text``), never
    refused by the form itself: WTForms' IntegerField says "Not a valid integer value." in words
    of its own (its Italian catalogue's "Non è una valore intero valido" is not even Italian),
    where the request that checks the number says it as the API does ("the target must be a whole
    number from 1 to 1000"), in the player's language."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = whole_or_text(valuelist[0])


def options(pairs) -> list[SelectChoice]:
    """(value, label) pairs as WTForms choices."""
    return [SelectChoice(str(value), label) for value, label in pairs]


RULE_CHOICES: dict[str, list[tuple[Any, str]]] = {
    "deck": [(40, _l("40 cards")), (36, _l("36 cards, without the twos (Scopa Corse)"))],
    "bonus_suit": [("d", _l("coins")), ("c", _l("cups (as in Hurrikan)")),
                   ("s", _l("swords")), ("b", _l("clubs"))],
    "primiera": [("standard", _l("7 = 21, 6 = 18, Ace = 16, 5 = 15 ... figures 10")),
                 ("half", _l("face value, Ace 5½, figures ½")),
                 ("hurrikan", _l("Hurrikan: King 10, Horse 9, Jack 8")),
                 ("no-figures", _l("figures count 0")),
                 ("sevens-sixes", _l("most sevens, then most sixes")),
                 ("count-down", _l("most sevens, then sixes, aces, fives ... figures")),
                 ("sevens", _l("most sevens, the setenta"))],
    "missing_suit": [("loses", _l("loses to any side with all four suits")),
                     ("void", _l("cannot win the primiera")),
                     ("zero", _l("counts 0, totals compared as they are"))],
    "napola": [("off", _l("no Napola")), ("to-six", _l("A-2-3 and up, at most A-6 (6 points)")),
               ("to-horse", _l("up to Ace-Horse (9); the whole suit, Napoleone, wins"))],
    "declarations": [("off", _l("none")), ("bazzica", _l("Bazzica: bazzica 3, bazzicotto 10")),
                     ("sbarazzina", _l("Sbarazzina: bazzica 2 or 3, three of a kind 7")),
                     ("cirulla", _l("Cirulla: cirulla 3, decino 10"))],
    "capture": [("standard", _l("a single card before a sum; capturing compulsory")),
                ("fewest", _l("at most two cards, the fewest possible (Sco-papa)")),
                ("fewest-any", _l("the fewest cards possible, any number")),
                ("quindici-1", _l("only cards making 15 with the card played")),
                ("quindici-2", _l("equal value, or making 15: free choice")),
                ("quindici-3", _l("as above, and an Ace takes all")),
                ("asso-pigliatutto", _l("an Ace takes the whole table, a scopa")),
                ("scopa-d-assi", _l("an Ace takes the whole table, no scopa")),
                ("corse", _l("capturing never compulsory (Corse)")),
                ("cirulla", _l("Cirulla: equal value, a sum or 15; an Ace takes all")),
                ("escoba", _l("only cards making 15, never compulsory (Escoba)"))],
    "void_deal": [("kings", _l("three or four Kings on the first table")),
                  ("equal", _l("three cards of one value on the first table")),
                  ("aces", _l("three Kings, or any Ace on the first table")),
                  ("two-aces", _l("two or more Aces on the first table")),
                  ("off", _l("never"))],
    "pack": [("italian", _l("Italian suits")), ("french", _l("French suits")),
             ("chkobba", _l("French suits, Chkobba labels (9 Jack, 8 Queen)")),
             ("spanish", _l("Spanish suits: oros, copas, espadas, bastos"))],
    "deal_scope": [("off", _l("none")), ("15-30", _l("15: one scopa, 30: two")),
                   ("15-30-low", _l("15: one scopa, 30: two, 9 or less: three"))],
}


RULE_LABELS = {
    "deck": _l("Deck"), "bonus_suit": _l("Bonus suit"), "primiera": _l("Primiera"),
    "missing_suit": _l("A side missing a suit"), "re_bello": _l("Re Bello: 1 for the King of the bonus suit"),
    "napola": _l("Napola"), "scalette": _l("Scalette: sequences from the Ace and from the King"),
    "piva": _l("Piva: the Two of clubs costs 5"), "declarations": _l("Declarations"),
    "target": _l("Target"), "hands": _l("Or a number of hands"),
    "cappotto": _l("Cappotto: 7 to 0 wins at once"), "double_under": _l("Double game when the loser is under"),
    "claims": _l("Chiamarsi fuori allowed"), "capture": _l("Captures"), "void_deal": _l("Deal again when"),
    "ace_takes_itself": _l("An Ace on the empty table takes itself"), "pack": _l("Suits of the pack"),
    "grande_piccola": _l("Grande (King, Queen, Jack: 5) and piccola (Ace, 2, 3: 3 and up)"),
    "matta": _l("Matta: the 7 of cups (hearts) is wild"),
    "deal_scope": _l("The dealer's scope from the first table"),
}


def rule_in_words(item: str, value: Any) -> tuple[str, str]:
    """A rule item and its value as the page names them: ("Primiera", "most sevens, then...")."""
    chosen = dict((str(v), label) for v, label in RULE_CHOICES.get(item, ()))
    return str(RULE_LABELS.get(item, item)), str(chosen.get(str(value), value))


# The seating each variant needs, for the form to choose it when the variant is chosen.
PRESETS_SEATING = {name: seating for name in VARIANT_TITLES
                   if (seating := seating_of(rules_for(name)))}


PRIMIERA_SHORT = {"standard": _l("primiera 21/18/16…"), "half": _l("primiera at face value"),
                  "hurrikan": _l("Hurrikan primiera"), "no-figures": _l("primiera, figures 0"),
                  "sevens-sixes": _l("most sevens, then sixes"),
                  "count-down": _l("most sevens, then sixes, aces…"),
                  "sevens": _l("setenta: most sevens")}


CAPTURE_SHORT = {"standard": _l("standard captures"), "fewest": _l("fewest cards, at most two"),
                 "fewest-any": _l("fewest cards"), "quindici-1": _l("captures making 15"),
                 "quindici-2": _l("equal or 15"), "quindici-3": _l("equal or 15, Ace takes all"),
                 "asso-pigliatutto": _l("Ace takes all"), "scopa-d-assi": _l("Ace takes all, no scopa"),
                 "corse": _l("capturing not compulsory"), "cirulla": _l("Cirulla's captures"),
                 "escoba": _l("captures making 15, not compulsory")}


def rules_summary(rules) -> str:
    """The rules in one line, the way players would say them: "first to 11 · standard
    captures · primiera 21/18/16…"."""
    parts = [ngettext("%(num)s hand", "%(num)s hands", rules.hands) if rules.hands
             else _("first to %(target)s", target=rules.target),
             str(CAPTURE_SHORT[rules.capture]), str(PRIMIERA_SHORT[rules.primiera])]
    if rules.deck == 36:
        parts.append(_("36 cards"))
    extras = [(rules.re_bello, "Re Bello"), (rules.napola != "off", "Napola"),
              (rules.scalette, "Scalette"), (rules.piva, "Piva"),
              (rules.grande_piccola, _("grande and piccola")), (rules.matta, _("matta")),
              (rules.declarations != "off", _("accusi") if rules.declarations == "cirulla"
               else rules.declarations.capitalize()),
              (rules.cappotto, "Cappotto"), (rules.claims, _("chiamarsi fuori")),
              (rules.double_under, _("double game under %(points)s", points=rules.double_under))]
    parts += [str(name) for on, name in extras if on]
    return " · ".join(parts)


# Said when a name is too long, rather than cut by the browser without a word (no maxlength).
# The limits are the ones the API and the tournaments keep (companion.names); the words, the pages'.
NAME_LENGTH = Length(max=NAME_MAX, message=_l("A name has at most %(max)d characters: shorten this one"))


class CardGrid(SelectMultipleField):
    """Cards to tap on a grid of tiles: each a checkbox, so it works without JavaScript."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def card_rows(tiles: Iterable[Any]) -> list[tuple[str, list[Field]]]:
    """A form's card tiles (a ``FieldsFor`` of the deck: each entry's ``index`` its card) suit
    by suit, as the grid shows them."""
    tiles = list(tiles)
    return [(suit, [tile for tile in tiles if tile.index.suit == suit]) for suit in SUITS]


# The grids of tiles last drawn (``pile_tiles``): a few languages, packs and tables of names,
# mostly empty; about 20 KB each.
_tiles: LRUCache[tuple[Any, ...], Markup] = LRUCache(128)
_tiles_lock = threading.Lock()


def pile_tiles(rows: list[tuple[str, list[SelectField]]], pack: str) -> Markup:
    """The tiles of the deck, each with the select saying whose pile its card is in
    (``_pile_tiles.html``), for ``rows`` (``card_rows``, ``HandForm.card_fields``), drawn once
    for everything they are drawn from: the page's language, the pack, and each tile's name,
    label, choices (the sides' names) and what it holds. WTForms and markupsafe drew the 40
    selects at every request, about 17 ms of a hand's form (issue 41, bench_guest); a new hand's
    form, whose tiles are all empty, is now the same grid for every phone of a table, and the
    same edit form asked again is drawn once too."""
    key = (str(get_locale()), pack, tuple(
        (suit, tuple((field.id, field.name, field.label.text, field.data, tuple(
            (str(value), str(label), selected) for value, label, selected, *_render in field.iter_choices()))
            for field in fields)) for suit, fields in rows))
    with _tiles_lock:
        found = _tiles.get(key)
    if found is None:
        found = Markup(current_app.jinja_env.get_template("_pile_tiles.html").render(rows=rows, pack=pack))
        with _tiles_lock:
            _tiles[key] = found
    return found


def each_side(meta) -> range:
    """A ``FieldsFor``'s keys: a field for each of the form's sides (``Meta.sides``)."""
    return range(meta.sides)


def each_card(meta) -> list[Card]:
    """A ``FieldsFor``'s keys: a field for each card of the form's deck (``Meta.deck``)."""
    return deck(meta.deck)


class FieldsFor(FieldList):
    """One field for each of a form's sides (0, 1, 2...) or cards (1d, 7c...), named after the
    list and the key, as the pages and the scripts post them: ``t_cards_0``, ``c_7d``. Each
    entry's ``index`` is its key (a side's number, a Card).

    ``keys`` says which, from the form's meta (``Meta.sides``, ``Meta.deck``: set per form,
    ``meta={"sides": 3}``), so that one class serves every match. Unlike FieldList's, the
    entries are always exactly those keys, each read from the post by its own name: FieldList
    makes its entries from the indices a post holds (a post of ``t_cards_1`` alone would be
    renumbered into the first side's field, one of ``t_cards_9`` would make a tenth side)."""

    def __init__(self, unbound_field, keys: Callable[[Any], Iterable[Any]], label=None,
                 validators=None, **kwargs):
        super().__init__(unbound_field, label, validators, separator="_", **kwargs)
        self.keys = keys

    def process(self, formdata, data=unset_value, extra_filters=None):
        if extra_filters:
            raise TypeError("FieldsFor takes no filters: give them to the field it lists")
        self.entries, self.last_index, self.object_data = [], -1, data
        for key in self.keys(self.meta):
            self._add_entry(formdata, index=key)  # type: ignore[attr-defined]  # FieldList's own, not in its stubs


# -- The primiera tool's round trip ---------------------------------------------------------

# What a hand's form carries through the tool: at most so many characters, so many fields, and
# names the hand's form could hold; the CSRF token and the button are given afresh.
KEEP_MAX, KEPT_MAX = 6000, 400
FIELD_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
GIVEN_AFRESH = {"csrf_token", "switch"}


class PrimieraTrip(FlaskForm):
    """A hand's form by counts through the referee's primiera tool and back ("Who has it? Work
    it out", under a scale of values: ``rules.primiera.SCALES``), its fields as the tool is
    asked with them: ``/referee/primiera?match=ID&hand=ID&keep=...``.

    - ``hand``: the hand being edited; none for a new hand.
    - ``keep``: what the hand's form held, its own fields as they were posted (say
      ``mode=tallies&t_cards_0=22&sweeps_1=1``), urlencoded. The tool carries it through its
      own questions and posts it back to the hand's form with the answer, and the hand's
      form reads the fields it knows.

    The answer sets two fields of the hand's form (``ANSWER``): ``primiera``, the side that
    has it ("none": nobody), and ``primiera_best``, each side's best cards ("7d 6c 1s/7c 6d",
    which the hand's form checks: ``HandForm.worked_out``). The page gives the CSRF token and
    the ``switch`` to the counts afresh. Made by the table (``carrying``), read by the referee
    (``kept``): neither room imports the other."""

    class Meta:
        csrf = False            # a question to the tool: a GET that changes nothing

    ANSWER = ("primiera", "primiera_best")

    hand = IntegerField()
    keep = StringField()

    @staticmethod
    def carrying(hand: int | None, fields: Iterable[tuple[str, str]]) -> dict[str, Any]:
        """The query that opens the tool for a hand's form (``hand``, or None for a new one)
        whose fields are ``fields``: (name, value) pairs as posted."""
        return {"hand": hand, "keep": urlencode(list(fields))}

    def kept(self) -> list[tuple[str, str]] | None:
        """The hand form's fields the tool carries back, as (name, value) pairs; None when the
        tool was not opened from a hand's form, or with more than it carries."""
        keep = self.keep.data
        if keep is None or len(keep) > KEEP_MAX:
            return None
        return [(name, value) for name, value in parse_qsl(keep)[:KEPT_MAX]
                if FIELD_NAME.fullmatch(name) and name not in GIVEN_AFRESH]

    def answered(self) -> list[tuple[str, str]]:
        """The fields carried back with an answer: all but the two the answer sets."""
        return [(name, value) for name, value in self.kept() or () if name not in self.ANSWER]

