"""The referee's questions as forms, each declared once, as the hand's form is: a field per side
or per card is a ``FieldsFor`` (``web.forms``), whose form's meta says how many (``sides``,
``deck``). A form is made for the question's rules and sides: they set what each field offers
and how it is labelled, in the page's language (set then, as plain text, so that the page is
written as it always was). All are read from the query string (asking changes nothing), but the
claim recorded in a match, which is posted."""

from __future__ import annotations

from typing import Any, Iterator

from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, Form, FormField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # wtforms 3.2 has it, its stubs not
from wtforms.validators import NumberRange, Optional

from ..i18n import (
    VARIANT_TITLES,
    card_in_words as card_name,
    short_words as short_label,
    suit_words as suit_label,
)
from ..rules import deck, parse_card
from ..rules.cards import SUITS
from ..rules.rulesets import Rules
from ..web.forms import CardGrid, FieldsFor, WholeNumberField, each_card, each_side, options


def card_choices(size: int, pack: str, blank: str | None = None) -> list[SelectChoice]:
    """The cards of the deck as choices, grouped by suit (``blank`` first, if given)."""
    choices = [SelectChoice("", blank)] if blank is not None else []
    for card in deck(size):
        choices.append(SelectChoice(str(card), card_name(card, pack), optgroup=suit_label(card.suit, pack)))
    return choices


class QueryForm(FlaskForm):
    """A question put to the referee: read from the query string, no CSRF (it changes nothing)."""

    class Meta:
        csrf = False
        sides = 2           # set per form, from the question: how many sides, which deck
        deck = 40

    variant = SelectField(_l("Variant"), choices=options(VARIANT_TITLES.items()), default="classica")


class CaptureForm(QueryForm):
    """What the card played may capture: the table's cards tapped, the card played, whether it
    is the hand's last."""

    table = CardGrid()
    played = SelectField(default="")
    last_play = BooleanField()

    def __init__(self, rules: Rules, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.table.choices = card_choices(rules.deck, rules.pack)
        self.played.choices = card_choices(rules.deck, rules.pack, "—")
        self.table.label.text = _("Cards on the table")
        self.played.label.text = _("Card played")
        self.last_play.label.text = _("The last card of the hand")


class DealForm(QueryForm):
    """Whether a deal is void: the first cards on the table, and (outside a match) the players."""

    table = CardGrid()
    players = IntegerField(validators=[Optional(), NumberRange(2, 6)], default=2)

    def __init__(self, rules: Rules, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.table.choices = card_choices(rules.deck, rules.pack)
        self.table.label.text = _("The first cards on the table")
        self.players.label.text = _("Players")


class BestCards(Form):
    """One side's best card of each suit (``best_0_d``...), its value: "7", "1"..."""

    d = SelectField(default="")
    c = SelectField(default="")
    s = SelectField(default="")
    b = SelectField(default="")


class PrimieraForm(QueryForm):
    """Who has the primiera: for each side, its best card of each suit (``best_1_c``), or every
    card it took (``cards_1``)."""

    best = FieldsFor(FormField(BestCards, separator="_"), each_side)
    cards = FieldsFor(StringField(validators=[Optional()]), each_side)

    def __init__(self, rules: Rules, sides: int, *args: Any, **kwargs: Any):
        super().__init__(*args, meta={"sides": sides}, **kwargs)
        values = [SelectChoice("", "—")] + [SelectChoice(str(v), short_label(parse_card(f"{v}d"), rules.pack))
                                            for v in (7, 6, 1, 5, 4, 3, 2, 10, 9, 8)]
        for side in self.best:
            for suit in SUITS:
                side[suit].choices, side[suit].label.text = values, suit_label(suit, rules.pack)
        for typed in self.cards:
            typed.label.text = _("or every card")


class ClaimForm(QueryForm):
    """A chiamarsi fuori as tapped: who calls out, whose pile each card is in so far (``c_7d``),
    each side's scope so far (``sweeps_0``) and, outside a match, its total before the hand
    (``total_0``)."""

    claimer = SelectField(default="0")
    c = FieldsFor(SelectField(default=""), each_card)      # a tile: the side, "" if not tapped
    # A number as typed; refused by the rules engine, in the API's words ("the sweeps of Anna
    # must be a whole number, 0 or more"); min/max only bring up the phone's number keyboard.
    sweeps = FieldsFor(WholeNumberField(validators=[Optional()], default=0, render_kw={"min": 0, "max": 20}),
                       each_side)
    total = FieldsFor(WholeNumberField(validators=[Optional()], default=0), each_side)

    def __init__(self, rules: Rules, names: tuple[str, ...], in_match: bool, *args: Any, **kwargs: Any):
        super().__init__(*args, meta={"sides": len(names), "deck": rules.deck}, **kwargs)
        sides = [(str(i), name) for i, name in enumerate(names)]
        self.claimer.choices, self.claimer.label.text = options(sides), _("Who calls out")
        to_tap = options([("", "—"), *sides])
        for tile in self.c:
            tile.choices, tile.label.text = to_tap, str(tile.index)
        for i, name in enumerate(names):
            # Escoba's sweeps are its escobas (RULES §12), as its hand form asks them
            self.sweeps[i].label.text = (_("Escobas of %(name)s so far", name=name) if rules.preset == "escoba"
                                         else _("Scope of %(name)s so far", name=name))
            self.total[i].label.text = _("Total of %(name)s before this hand", name=name)
        if in_match:            # the match's own totals
            del self["total"]

    def __iter__(self) -> Iterator[Field]:
        """Every field one by one, each side's and each card's too, in the order the first
        refusal is looked for (``web.pages.first_error``): who calls out, the cards, then side
        by side its scope and its total."""
        yield from (self.variant, self.claimer, *self.c)
        for i in range(self.meta.sides):
            yield self.sweeps[i]
            if self.total is not None:
                yield self.total[i]

    def asked(self, valid: bool, totals: list[int] | None) -> tuple[int, list[list[str]], list[int], list[int]]:
        """The claimer, the piles, the sweeps and the totals before the hand (``totals``, a
        match's own). Whatever the query or form says, only what validates is used: a claimer
        "abc" or a card given to pile "1.5" is said plainly, never taken as an index."""
        n = self.meta.sides
        piles: list[list[str]] = [[] for _ in range(n)]
        sweeps, claimer = [0] * n, 0
        if valid:
            for tile in self.c:
                if tile.data not in (None, ""):
                    piles[int(tile.data)].append(str(tile.index))
            sweeps = [field.data or 0 for field in self.sweeps]
            claimer = int(self.claimer.data or 0)
        if totals is None:
            totals = [(field.data if valid else 0) or 0 for field in self.total]
        return claimer, piles, sweeps, totals
