"""A hand's form: the cards of each pile tapped on a grid, or the counts; what was entered turned
into the entry the store keeps, and a stored entry put back into the fields to edit it.

Its fields are declared once, on ``HandForm``, under the names the pages and the scripts post:
whose pile each card is in (``c_7d``), the side the cards not tapped go to (``rest``), each
side's scope and counts (``sweeps_0``, ``t_cards_1``: a list of one field per side), the side
that holds the settebello, the Re Bello, the Piva and the primiera (``settebello``: "1"), and
four declarations (``decl_0_side``, ``decl_0_deal``, ``decl_0_cards``). A form is made for a
match: its sides say how many fields each list holds and what every field naming a side
offers, and its rules drop the fields they have no use for.
"""

from __future__ import annotations

from typing import Any, Iterator

from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import Field, FormField, HiddenField, IntegerField, RadioField, SelectField
from wtforms.validators import Optional
from wtforms.widgets import HiddenInput

from ..i18n import card_in_words, item_label, say, suit_words
from ..matches import Match, score_entry
from ..rules import HandScore, ScopaError, deck
from ..rules.cards import Card, parse_cards
from ..rules.primiera import PrimieraResult
from ..rules.said import said, said_n
from ..web.forms import FieldsFor, WholeNumberField, card_rows, each_card, each_side, options
from ..web.hand_requests import HandEntry, per_side
from . import hand_counts
from .hand_counts import COUNT_WORDS, counts_entered, deck_totals, rest_of_deck, unused_fields, worked_out
from .hand_declarations import ACCUSI, DECLARATIONS, Declaration

# The runs of the bonus suit a hand by counts asks for (Napola, Scalette): the row, its key in
# a stored tally.
RUNS = {"napola": "napola", "alta": "scaletta_alta"}
# The cards and the point one side holds: the side's number ("1"), as a hand by counts says it.
HOLDERS = ("settebello", "re_bello", "piva", "primiera")


def count_field(most: int):
    """A count as typed; its bounds are the hand's request's and the rules engine's, in their
    words (a whole number from 0; no more than the deck holds): ``min``/``max`` only bring up
    the phone's number keyboard."""
    return WholeNumberField(validators=[Optional()], render_kw={"min": 0, "max": most})


class HandForm(FlaskForm):
    """A hand as a phone sends it (fields: the module's docstring); ``HandForm(match, ...)``
    takes FlaskForm's arguments after the match."""

    class Meta:
        sides = 2           # set per form, from its match: how many sides, which deck, how many
        deck = 40           # declarations it has room for
        declarations = DECLARATIONS

    mode = HiddenField(default="piles")
    key = HiddenField()   # one per form shown: a form sent twice records one hand
    version = HiddenField()   # the version of the hand an edit was made from
    number = IntegerField(widget=HiddenInput(), validators=[Optional()])  # the hand it records
    c = FieldsFor(SelectField(default=""), each_card)       # a tile: the side, "" if not tapped
    rest = RadioField(_l("The cards not tapped go to"))
    # A number as typed; its bounds are the hand's, in the API's words: a whole number from 0
    # (web.hand_requests), no more than the cards taken allow (the rules engine).
    sweeps = FieldsFor(WholeNumberField(validators=[Optional()], default=0), each_side)
    t_cards = FieldsFor(count_field(40), each_side)
    t_coins = FieldsFor(count_field(40), each_side)
    t_sevens = FieldsFor(count_field(40), each_side)
    t_sixes = FieldsFor(count_field(40), each_side)
    t_aces = FieldsFor(count_field(40), each_side)
    t_napola = FieldsFor(count_field(10), each_side)
    t_alta = FieldsFor(count_field(10), each_side)
    settebello = RadioField(_l("Settebello"), validators=[Optional()])
    re_bello = RadioField(_l("Re Bello"), validators=[Optional()])
    piva = RadioField(validators=[Optional()])        # labelled with the card in the pack's words
    primiera = RadioField(validators=[Optional()])    # labelled as the rules decide it
    # Each side's best cards, where the referee's tool worked the primiera out (worked_out).
    primiera_best = HiddenField()
    decl = FieldsFor(FormField(Declaration, separator="_"), lambda meta: range(meta.declarations))

    def __init__(self, match: Match, *args, **kwargs):
        self.match = match
        sides = len(match.sides)
        room = ACCUSI if match.rules.declarations == "cirulla" else DECLARATIONS
        super().__init__(*args, meta={"sides": sides, "deck": match.rules.deck, "declarations": room},
                         rest=str(sides - 1), **kwargs)
        for name in unused_fields(match.rules):
            del self[name]
        self._name_sides()

    def _name_sides(self) -> None:
        """Offer the match's sides in every field that names one, and label each side's
        fields with its name ("Cards of Bruno", also the start of its error: "Cards of Bruno:
        Number must be..."; without a colon of its own)."""
        rules, names = self.match.rules, self.match.names
        sides = [(str(i), name) for i, name in enumerate(names)]
        to_tap = options([("", "—"), *sides])
        for field in (self.rest, *self.holders().values()):
            field.choices = options(sides)
        escoba = rules.preset == "escoba"
        if self.primiera is not None:
            self.primiera.choices = options([*sides, ("none", _("nobody"))])
            if escoba:      # RULES §12: the setenta, Escoba's primiera
                self.primiera.label.text = (_("Setenta, if sevens, sixes and aces tie")
                                            if rules.primiera == "count-down" else _("Setenta"))
            else:
                self.primiera.label.text = (_("Primiera, if sevens, sixes and aces tie")
                                            if rules.primiera == "count-down" else _("Primiera"))
        if self.piva is not None:
            self.piva.label.text = _("Piva (the %(card)s)", card=card_in_words(Card(2, "b"), rules.pack))
        for tile in self.c:
            tile.choices, tile.label.text = to_tap, str(tile.index)
        shown = options((str(card), str(card)) for card in deck(rules.deck))
        deals = options((str(d), str(d)) for d in range(1, len(self.match.deal_plan.hands) + 1))
        for row in self.decl or ():     # after one of the hand's deals (RULES §11: 6, 4 or 3)
            row.side.choices, row.cards.choices, row.deal.choices = to_tap, shown, deals
        suit = suit_words(rules.bonus_suit, rules.pack).capitalize()
        if escoba and self.settebello is not None:
            self.settebello.label.text = _("Velo (the %(card)s)", card=card_in_words(Card(7, rules.bonus_suit), rules.pack))
        elif self.settebello is not None:     # Chkobba's players call it sabaa el haya
            self.settebello.label.text = item_label("settebello", rules)
        # Each count's row as the grid names it ("Cards"; Chkobba's "Karta (carte)"), and as the
        # preview says it is awaited.
        self.row_words = {"cards": item_label("carte", rules) if rules.preset == "chkobba" else _("Cards"),
                          "coins": item_label("denari", rules) if rules.preset == "chkobba" else suit,
                          "sevens": _("Sevens"), "sixes": _("Sixes"),
                          "aces": _("Aces"), "napola": _("%(suit)s in a row from the Ace", suit=suit),
                          "alta": _("%(suit)s in a row from the King down", suit=suit)}
        for i, name in enumerate(names):
            self.sweeps[i].label.text = (_("Escobas of %(name)s", name=name) if escoba
                                         else _("Scope of %(name)s", name=name))
            labels = {"napola": _("%(suit)s in a row from the Ace (%(name)s)", suit=suit, name=name),
                      "alta": _("%(suit)s in a row from the King down (%(name)s)", suit=suit, name=name)}
            for row, counts in self.count_rows().items():
                counts[i].label.text = labels.get(row) or _("%(what)s of %(name)s", what=self.row_words[row], name=name)

    def __iter__(self) -> Iterator[Field]:
        """Every field one by one (each side's and each card's too), in the order the first
        refusal is looked for (``web.pages.first_error``): the cards, the side given the rest,
        then side by side its scope and counts, the holders, the declarations."""
        per_side = [self.sweeps, *self.count_rows().values()]
        for field in self._fields.values():
            if field is self.sweeps:
                yield from (row[i] for i in range(len(self.match.sides)) for row in per_side)
            elif any(field is row for row in per_side):
                continue
            elif field is self.decl:
                yield from (part for row in field for part in row)
            elif isinstance(field, FieldsFor):
                yield from field
            else:
                yield field

    # The fields each mode shows, for the templates.
    def card_fields(self) -> list[tuple[str, list[Field]]]:
        """The cards' tiles suit by suit, as the grid shows them."""
        return card_rows(self.c)

    def count_rows(self) -> dict[str, FieldsFor]:
        """The counts these rules ask for, each a row of the grid (``row_words``) with a field
        for each side."""
        rows = {"cards": self.t_cards, "coins": self.t_coins, "sevens": self.t_sevens,
                "sixes": self.t_sixes, "aces": self.t_aces, "napola": self.t_napola, "alta": self.t_alta}
        return {row: field for row, field in rows.items() if field is not None}

    def holders(self) -> dict[str, RadioField]:
        """Who holds the cards and the point these rules ask about (``HOLDERS``)."""
        return {name: self[name] for name in HOLDERS if name in self}

    def carried(self, posted: MultiDict) -> list[tuple[str, str]]:
        """What of a post is this form's own fields (but the CSRF token), in the post's order,
        as it was typed: what the referee's primiera tool carries (``web.forms.PrimieraTrip``)."""
        names = {field.name for field in self if field.name != "csrf_token"}
        return [(name, value) for name, value in posted.items(multi=True) if value != "" and name in names]

    def counted(self, name: str) -> bool:
        """Whether ``name`` is one of the fields a count is typed in (a scopa, a count)."""
        return any(field.name == name for row in (self.sweeps, *self.count_rows().values()) for field in row)

    def is_blank(self) -> bool:
        """Nothing entered yet in the way chosen: no card tapped, or no count typed."""
        if self.mode.data == "tallies":
            return all(field.data is None for row in self.count_rows().values() for field in row) \
                and not any(holder.data not in (None, "", "none") for holder in self.holders().values())
        return not any(tile.data for tile in self.c)

    def pile_counts(self) -> list[tuple[int, ...]]:
        """Each side's cards and bonus-suit cards as tapped so far, the rest counted for the
        side that gets it: what the pile picker shows beside each name."""
        n = len(self.match.sides)
        named = {str(side): side for side in range(n)}     # a crafted value names no side
        rest = named.get(str(self.rest.data), n - 1)
        counts = [[0, 0] for _ in range(n)]
        for tile in self.c:
            side = named.get(str(tile.data), rest)
            counts[side][0] += 1
            counts[side][1] += tile.index.suit == self.match.rules.bonus_suit
        return [tuple(count) for count in counts]

    # What no field says alone ------------------------------------------------------------

    def validate(self, extra_validators=None) -> bool:
        """Each field, then what no field says alone: each declaration made by a side, with
        cards that are cards; by cards, whose the cards in no pile are. Those refusals are the
        form's (``form_errors``: a rules' ``Said``, worded by the page)."""
        self.form_errors = []
        valid = super().validate(extra_validators)
        texts = hand_counts.typed_as_text({"sweeps": self.sweeps, **{RUNS.get(row, row): fields for row, fields
                                                                     in self.count_rows().items()}},
                                          self.match.names, self.match.rules)
        for field, words in texts:
            field.errors = [*field.errors, say(words)]
        if not valid or texts:
            return False
        try:
            self._declarations()
            if self.mode.data != "tallies":
                self._check_untapped()
        except ScopaError as refusal:
            self.form_errors.append(refusal.args[0])
        return not self.form_errors

    def _check_untapped(self) -> None:
        """Cards picked one by one for the side that also gets the rest: the rest would go
        there silently (without JavaScript nothing stops it). Ask where they go instead."""
        chosen = [tile.data for tile in self.c]
        untapped = sum(side in (None, "") for side in chosen)
        if untapped and str(self.rest.data) in chosen:
            raise ScopaError(said_n(
                "{count} card is in no pile: choose whose it is, or tap only the cards of "
                "the side that does not get the rest ({name} gets it)",
                "{count} cards are in no pile: choose whose they are, or tap only the cards "
                "of the side that does not get the rest ({name} gets it)",
                untapped, count=untapped, name=self.match.names[int(self.rest.data)]))

    # From the fields to a stored entry (once validated) -----------------------------------

    def entry(self) -> dict[str, Any]:
        """What was entered, as stored; ScopaError when it cannot be a real hand."""
        entry: dict[str, Any] = {"mode": self.mode.data if self.mode.data == "tallies" else "piles"}
        declarations = self._declarations()
        if declarations:
            entry["declarations"] = declarations
        sweeps = self._sweeps()
        if entry["mode"] == "piles":
            rest = int(self.rest.data)
            piles: list[list[str]] = [[] for _ in self.match.sides]
            for tile in self.c:
                piles[int(tile.data) if tile.data not in (None, "") else rest].append(str(tile.index))
            entry.update(piles=piles, sweeps=sweeps)
        else:
            entry["tallies"] = self._tallies(sweeps)
        # The hand as the API's JSON would send it (its mode is said by what it sends), read by
        # the same request model (one shape for a hand at both doors) and scored by the rules,
        # which refuse what cannot be; the score is kept for the preview.
        sent = {key: value for key, value in entry.items() if key != "mode"}
        entry, self.score = HandEntry.read(sent, {"match": self.match}).scored(self.match)
        return entry

    def _declarations(self) -> list[dict[str, Any]]:
        declared = []
        for row in self.decl or ():
            typed = row.shown()
            if row.side.data in (None, "") and not typed:
                continue
            if row.side.data in (None, ""):
                raise ScopaError(said("say which side made each declaration"))
            shown = parse_cards(typed, "a declaration")
            declared.append({"side": int(row.side.data), "deal": int(row.deal.data),
                             "cards": [str(c) for c in shown]})
        return declared

    def so_far(self) -> tuple[HandScore, list[str]]:
        """The hand as entered so far, for the live preview: its score, and in words what it
        still waits for ("Cards of Bruno", "Settebello"; nothing once it is all in). A refusal
        (ScopaError) here is a real contradiction: a count not entered yet is awaited."""
        awaited = self._awaited() if self.mode.data == "tallies" else []
        if not awaited:
            self.entry()
            return self.score, []
        entry = {"mode": "tallies", "tallies": self._tallies(self._sweeps(), partial=True)}
        declarations = self._declarations()
        if declarations:
            entry["declarations"] = declarations
        score = score_entry(entry, self.match.rules, self.match.names, waiting={item for item, _ in awaited},
                            per_side=per_side(self.match))
        return score, [words for _, words in awaited]

    def _sweeps(self) -> list[int]:
        return [field.data or 0 for field in self.sweeps]

    def _awaited(self) -> list[tuple[str, str]]:
        """What a hand by counts still waits for: (the item it decides, in words). A count row
        waits while more than one side is blank (one may be: it gets the rest), naming every
        blank side but the last; a card's holder while nobody is chosen; the primiera while it
        is neither chosen nor worked out by counts."""
        names, n = self.match.names, len(self.match.sides)
        decides = {"cards": "carte", "coins": "denari", "sevens": "primiera", "sixes": "primiera",
                   "aces": "primiera"}
        awaited = []
        for count, values in self.typed().items():
            blank = [i for i in range(n) if values[i] is None]
            if len(blank) == n:
                awaited.append((decides[count], self.row_words[count]))
            elif len(blank) > 1:
                awaited += [(decides[count], _("%(what)s of %(name)s", what=self.row_words[count], name=names[i]))
                            for i in blank[:-1]]
        for name, holder in self.holders().items():
            if name == "primiera" and self.match.rules.primiera == "count-down":
                continue            # the counts decide it; the mark only breaks a tie
            if holder.data in (None, ""):
                awaited.append((name, str(holder.label.text)))
        return awaited

    def _tallies(self, sweeps: list[int], partial: bool = False) -> list[dict[str, Any]]:
        """Each side's counts as entered, one blank side a row given the rest (``partial``: a
        hand still being entered, whose counts not entered yet stay None: ``so_far``)."""
        rows = self.count_rows()
        counts = counts_entered(self.typed(), self.match.rules, partial)
        held = {name: None if holder.data in (None, "", "none") else int(holder.data)
                for name, holder in self.holders().items()}
        worked = self.worked_out()
        tallies = []
        for i in range(len(self.match.sides)):
            tally: dict[str, Any] = {name: values[i] for name, values in counts.items()}
            tally.update({name: held.get(name) == i for name in HOLDERS}, sweeps=sweeps[i])
            for row, key in RUNS.items():
                if row in rows:
                    tally[key] = rows[row][i].data or 0
            if worked is not None:
                tally["primiera_cards"] = worked[0][i]
            tallies.append(tally)
        return tallies

    def typed(self) -> dict[str, list[int | None]]:
        """The counts the deck decides, as typed, by row. Of two sides the second's is the rest
        of the deck (``rest_of_deck``), shown beside the first's, not typed: one figure is
        enough to correct a hand (issue 42). A post of both (a page of before) reads the first."""
        rows = {name: [field.data for field in row] for name, row in self.count_rows().items()
                if name in COUNT_WORDS}
        if len(self.match.sides) == 2:
            rows = {name: [first, None] if first is not None else [first, second]
                    for name, (first, second) in rows.items()}
        return rows

    def the_rest(self) -> dict[str, tuple[int, int | None]]:
        """Of two sides, each count the deck decides: what the deck holds, and the second
        side's figure as the page shows it (the first's as typed may not be a number yet)."""
        if len(self.match.sides) != 2:
            return {}
        first = {name: values[0] if isinstance(values[0], int) else None for name, values in self.typed().items()}
        return {name: (deck_totals(self.match.rules)[name], rest) for name, rest in
                rest_of_deck(first, self.match.rules).items()}

    def worked_out(self) -> tuple[list[list[str]], PrimieraResult] | None:
        """The primiera as the referee's tool worked it out, while the one chosen is the one
        it gives (``hand_counts.worked_out``)."""
        if self.primiera_best is None:
            return None
        return worked_out(self.primiera_best.data, self.primiera.data, self.match.rules, self.match.names)

    def fill(self, entry: dict[str, Any]) -> None:
        """Set the fields from a stored entry, to edit it: cards as the player tapped them (the
        rest given to the biggest pile, every other pile's cards tapped), or the counts."""
        self.mode.data = entry["mode"]
        for field, count in zip(self.sweeps, entry.get("sweeps") or [t["sweeps"] for t in entry["tallies"]]):
            field.data = count
        if entry["mode"] == "piles":
            rest = rest_of(entry["piles"])
            self.rest.data = str(rest)
            tiles = {str(tile.index): tile for tile in self.c}
            for side, pile in enumerate(entry["piles"]):
                for card in pile if side != rest else ():
                    tiles[card].data = str(side)
        else:
            rows = self.count_rows()
            for i, tally in enumerate(entry["tallies"]):
                for row, field in rows.items():
                    field[i].data = tally.get(RUNS[row], 0) if row in RUNS else tally.get(row)
                for name, holder in self.holders().items():
                    if tally.get(name):
                        holder.data = str(i)
            best = [tally.get("primiera_cards") for tally in entry["tallies"]]
            if self.primiera_best is not None and None not in best:     # worked out by the referee
                self.primiera_best.data = "/".join(" ".join(cards) for cards in best)
        for row, declaration in zip(self.decl or (), entry.get("declarations", [])):
            row.side.data = str(declaration["side"])
            row.deal.data = str(declaration["deal"])
            row.cards.data = list(declaration["cards"])


def rest_of(piles: list[list[str]]) -> int:
    """The side whose pile a hand by cards gives the cards not tapped: the biggest, as the
    player taps the smaller piles (the last side on a tie, the form's own default)."""
    biggest = max(len(pile) for pile in piles)
    return max(side for side, pile in enumerate(piles) if len(pile) == biggest)
