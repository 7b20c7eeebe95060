"""Forms: a new match, and a hand (its piles of cards, or its counts).

Each form turns what was typed into what the rules engine takes; the engine's refusals come back
as form errors in the players' words, and the form comes back filled in.
"""

from __future__ import annotations

import random
from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from flask_wtf import FlaskForm
from wtforms import (BooleanField, Field, HiddenField, IntegerField, RadioField, SelectField,
                     SelectMultipleField, StringField, TextAreaField)
from wtforms.fields.choices import SelectChoice
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget
from wtforms.validators import (InputRequired, Length, NumberRange, Optional, Regexp,
                                ValidationError)

from .matches import Match, score_entry, sides_for
from .rules import RulesError, ScopaError, check_seating, deck, rules_for, seating_of
from .i18n import card_in_words, explain, suit_words
from .rules.cards import SUITS, Card, parse_cards, suit_values
from .rules.said import said, said_n
from .i18n import VARIANT_TITLES

PLAYER_COUNTS = {"2": 2, "3": 3, "4": 4, "2x2": 4, "2x3": 6}
# The counts a hand by counts asks for, as its refusals name them (translated with them).
COUNT_WORDS = {"cards": said("cards"), "coins": said("coins"),
               "sevens": said("sevens"), "sixes": said("sixes"), "aces": said("aces")}


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
                 ("count-down", _l("most sevens, then sixes, aces, fives ... figures"))],
    "missing_suit": [("loses", _l("loses to any side with all four suits")),
                     ("void", _l("cannot win the primiera")),
                     ("zero", _l("counts 0, totals compared as they are"))],
    "napola": [("off", _l("no Napola")), ("to-six", _l("A-2-3 and up, at most A-6 (6 points)")),
               ("to-horse", _l("up to Ace-Horse (9); the whole suit, Napoleone, wins"))],
    "declarations": [("off", _l("none")), ("bazzica", _l("Bazzica: bazzica 3, bazzicotto 10")),
                     ("sbarazzina", _l("Sbarazzina: bazzica 2 or 3, three of a kind 7"))],
    "capture": [("standard", _l("a single card before a sum; capturing compulsory")),
                ("fewest", _l("at most two cards, the fewest possible (Sco_papa)")),
                ("fewest-any", _l("the fewest cards possible, any number")),
                ("quindici-1", _l("only cards making 15 with the card played")),
                ("quindici-2", _l("equal value, or making 15: free choice")),
                ("quindici-3", _l("as above, and an Ace takes all")),
                ("asso-pigliatutto", _l("an Ace takes the whole table, a scopa")),
                ("scopa-d-assi", _l("an Ace takes the whole table, no scopa")),
                ("corse", _l("capturing never compulsory (Corse)"))],
    "void_deal": [("kings", _l("three or four Kings on the first table")),
                  ("equal", _l("three cards of one value on the first table")),
                  ("aces", _l("three Kings, or any Ace on the first table")),
                  ("off", _l("never"))],
    "pack": [("italian", _l("Italian suits")), ("french", _l("French suits")),
             ("chkobba", _l("French suits, Chkobba labels (9 Jack, 8 Queen)"))],
}

RULE_LABELS = {
    "deck": _l("Deck"), "bonus_suit": _l("Bonus suit"), "primiera": _l("Primiera"),
    "missing_suit": _l("A side missing a suit"), "re_bello": _l("Re Bello: 1 for the King of the bonus suit"),
    "napola": _l("Napola"), "scalette": _l("Scalette: sequences from the Ace and from the King"),
    "piva": _l("Piva: the two of clubs costs 5"), "declarations": _l("Declarations"),
    "target": _l("Target"), "hands": _l("Or a number of hands"),
    "cappotto": _l("Cappotto: 7 to 0 wins at once"), "double_under": _l("Double game when the loser is under"),
    "claims": _l("Chiamarsi fuori allowed"), "capture": _l("Captures"), "void_deal": _l("Deal again when"),
    "ace_takes_itself": _l("An Ace on the empty table takes itself"), "pack": _l("Suits of the pack"),
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
                  "count-down": _l("most sevens, then sixes, aces…")}
CAPTURE_SHORT = {"standard": _l("standard captures"), "fewest": _l("fewest cards, at most two"),
                 "fewest-any": _l("fewest cards"), "quindici-1": _l("captures making 15"),
                 "quindici-2": _l("equal or 15"), "quindici-3": _l("equal or 15, Ace takes all"),
                 "asso-pigliatutto": _l("Ace takes all"), "scopa-d-assi": _l("Ace takes all, no scopa"),
                 "corse": _l("capturing not compulsory")}


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
              (rules.declarations != "off", rules.declarations.capitalize()),
              (rules.cappotto, "Cappotto"), (rules.claims, _("chiamarsi fuori")),
              (rules.double_under, _("double game under %(points)s", points=rules.double_under))]
    parts += [str(name) for on, name in extras if on]
    return " · ".join(parts)


# Said when a name is too long, rather than cut by the browser without a word (no maxlength).
NAME_LENGTH = Length(max=24, message=_l("A name has at most %(max)d characters: shorten this one"))


class NewMatchForm(FlaskForm):
    layout = RadioField(_l("Who plays"), default="2", choices=options([
        ("2", _l("2 players")), ("3", _l("3 players")), ("4", _l("4 players")),
        ("2x2", _l("2 teams of 2")), ("2x3", _l("2 teams of 3"))]))
    player1 = StringField(_l("Player %(number)s", number=1), [NAME_LENGTH])
    player2 = StringField(_l("Player %(number)s", number=2), [NAME_LENGTH])
    player3 = StringField(_l("Player %(number)s", number=3), [NAME_LENGTH])
    player4 = StringField(_l("Player %(number)s", number=4), [NAME_LENGTH])
    player5 = StringField(_l("Player %(number)s", number=5), [NAME_LENGTH])
    player6 = StringField(_l("Player %(number)s", number=6), [NAME_LENGTH])
    team1 = StringField(_l("Team %(number)s", number=1), [NAME_LENGTH], default=_l("Us"))
    team2 = StringField(_l("Team %(number)s", number=2), [NAME_LENGTH], default=_l("Them"))
    # Its choices are the names typed (see seat_choices); any seat is checked by
    # validate_first_dealer, in words.
    first_dealer = SelectField(_l("Who deals first"), default="random", validate_choice=False,
                               choices=options([("random", _l("drawn at random"))]))
    pin = StringField(_l("Edit PIN (optional)"), [Optional(), Regexp(r"^\d{4,8}$", message=_l("A PIN is 4 to 8 digits"))])
    preset = SelectField(_l("Variant"), choices=options(list(VARIANT_TITLES.items())), default="classica")

    deck = SelectField(RULE_LABELS["deck"], choices=options(RULE_CHOICES["deck"]), coerce=int)
    bonus_suit = SelectField(RULE_LABELS["bonus_suit"], choices=options(RULE_CHOICES["bonus_suit"]))
    primiera = SelectField(RULE_LABELS["primiera"], choices=options(RULE_CHOICES["primiera"]))
    missing_suit = SelectField(RULE_LABELS["missing_suit"], choices=options(RULE_CHOICES["missing_suit"]))
    re_bello = BooleanField(RULE_LABELS["re_bello"])
    napola = SelectField(RULE_LABELS["napola"], choices=options(RULE_CHOICES["napola"]))
    scalette = BooleanField(RULE_LABELS["scalette"])
    piva = BooleanField(RULE_LABELS["piva"])
    declarations = SelectField(RULE_LABELS["declarations"], choices=options(RULE_CHOICES["declarations"]))
    target = IntegerField(RULE_LABELS["target"], [InputRequired(_l("Give the target score")),
                                                  NumberRange(1, 1000)])
    hands = IntegerField(RULE_LABELS["hands"], [Optional(), NumberRange(1, 100)])
    cappotto = BooleanField(RULE_LABELS["cappotto"])
    double_under = IntegerField(RULE_LABELS["double_under"], [Optional(), NumberRange(1, 1000)])
    claims = BooleanField(RULE_LABELS["claims"])
    capture = SelectField(RULE_LABELS["capture"], choices=options(RULE_CHOICES["capture"]))
    void_deal = SelectField(RULE_LABELS["void_deal"], choices=options(RULE_CHOICES["void_deal"]))
    ace_takes_itself = BooleanField(RULE_LABELS["ace_takes_itself"])
    pack = SelectField(RULE_LABELS["pack"], choices=options(RULE_CHOICES["pack"]))

    RULE_FIELDS = ("deck", "bonus_suit", "primiera", "missing_suit", "re_bello", "napola",
                   "scalette", "piva", "declarations", "target", "hands", "cappotto",
                   "double_under", "claims", "capture", "void_deal", "ace_takes_itself", "pack")

    @classmethod
    def preset_data(cls, preset: str) -> dict[str, Any]:
        """The rule fields as a preset sets them."""
        return {name: value for name, value in rules_for(preset).as_dict().items()
                if name in cls.RULE_FIELDS}

    @property
    def player_names(self) -> list[str]:
        count = PLAYER_COUNTS.get(self.layout.data, 2)
        return [(getattr(self, f"player{i}").data or "").strip() for i in range(1, count + 1)]

    def validate_layout(self, field: Field) -> None:
        names = self.player_names
        if any(not name for name in names):
            raise ValidationError(_("Give a name to each of the %(count)s players", count=len(names)))
        if len({name.casefold() for name in names}) != len(names):
            raise ValidationError(_("Two players have the same name: the score would be unclear"))
        if "x" in field.data:
            teams = [self.team1.data.strip(), self.team2.data.strip()]
            if not all(teams) or teams[0].casefold() == teams[1].casefold():
                raise ValidationError(_("Give the two teams different names"))

    def validate_first_dealer(self, field: Field) -> None:
        if field.data != "random" and (not str(field.data).isdigit()
                                       or int(field.data) >= len(self.player_names)):
            raise ValidationError(_("Choose one of the %(count)s players to deal first", count=len(self.player_names)))

    def seat_choices(self) -> "NewMatchForm":
        """Who may deal first, by the names typed so far ("Player 3" for a name not typed yet),
        only as many as the seats of the chosen layout. Returns the form, for templates."""
        count = PLAYER_COUNTS.get(self.layout.data, 2)
        self.first_dealer.choices = options([("random", _("drawn at random")), *[
            (str(seat), (getattr(self, f"player{seat + 1}").data or "").strip()
             or _("Player %(number)s", number=seat + 1)) for seat in range(count)]])
        return self

    def seat_for_variant(self) -> None:
        """The seating the chosen variant needs, chosen for the players (Scopone: two teams of
        two; Bazzica, Sbarazzina, Piva: two players)."""
        if self.preset.data in PRESETS_SEATING:
            self.layout.data = PRESETS_SEATING[self.preset.data]

    def validate(self, extra_validators=None) -> bool:
        """The fields one by one, then the rules they make together (a target of 0 is said
        once, by its field, not again by the rules with the item's code name)."""
        if not super().validate(extra_validators):
            return False
        try:
            rules = self.rules()
        except RulesError as error:
            self.preset.errors.append(explain(error))
            return False
        sides = self.sides()
        try:
            check_seating(rules, len(sides), len(sides[0]["players"]))
        except RulesError as error:
            self.layout.errors = [explain(error)]
            return False
        return True

    def rules(self):
        items = {name: getattr(self, name).data for name in self.RULE_FIELDS}
        return rules_for(self.preset.data, items)

    def sides(self) -> list[dict[str, Any]]:
        return sides_for(self.layout.data, self.player_names,
                         [self.team1.data.strip(), self.team2.data.strip()])

    def dealer(self) -> int:
        if self.first_dealer.data == "random":
            return random.randrange(len(self.player_names))
        return int(self.first_dealer.data)


class PinForm(FlaskForm):
    pin = StringField(_l("PIN"), [InputRequired(_l("Enter the match's PIN")), Length(max=8)])


class RenameForm(FlaskForm):
    name = StringField(_l("Name"), [InputRequired(_l("Give the player a name")), NAME_LENGTH])

    def validate_name(self, field: Field) -> None:
        if not (field.data or "").strip():
            raise ValidationError(_("Give the player a name"))


class MergeForm(FlaskForm):
    """Whom a player is the same person as: asked with a GET, confirmed on its own page."""

    into = SelectField(_l("The same person as"), coerce=int)

    class Meta:
        csrf = False


FORMAT_WORDS = {"round-robin": _l("Round robin (everyone meets everyone)"),
                "swiss": _l("Swiss (a set number of rounds)"),
                "knockout": _l("Knockout (a bracket)")}


class NewTournamentForm(FlaskForm):
    """A tournament as the page asks for it; what it must be is checked once, for the page and
    the API alike, by ``tournament_pages.create``."""

    name = StringField(_l("Name"), id="t-name", render_kw={"required": True, "autocomplete": "off"})
    format = RadioField(_l("Format"), choices=options(FORMAT_WORDS.items()), default="round-robin")
    variant = SelectField(_l("Variant"), choices=options(list(VARIANT_TITLES.items())),
                          default="classica", id="t-variant")
    entrants = TextAreaField(_l("Entrants, one a line"), id="t-entrants",
                             render_kw={"rows": 8, "autocapitalize": "words"})
    rounds = IntegerField(_l("Rounds (Swiss only)"), [Optional(), NumberRange(min=1)], id="t-rounds",
                          render_kw={"inputmode": "numeric", "autocomplete": "off"})
    seeding = RadioField(_l("Knockout bracket"), default="order", choices=options(
        [("order", _l("seeded in the order written")), ("draw", _l("drawn"))]))
    pin = StringField(_l("PIN (optional)"), id="t-pin",
                      render_kw={"inputmode": "numeric", "autocomplete": "off"})

    def entrant_list(self) -> list[Any]:
        """One entrant a line: a name, or a pair written "Nord: Anna, Bruno"."""
        entrants: list[Any] = []
        for line in (self.entrants.data or "").splitlines():
            if ":" in line:
                name, players = line.split(":", 1)
                entrants.append({"name": name.strip(),
                                 "players": [p.strip() for p in players.split(",") if p.strip()]})
            elif line.strip():
                entrants.append(line.strip())
        return entrants


class RulesPreviewForm(NewMatchForm):
    """The same fields, read from a GET when the variant changes; no CSRF on a read."""

    class Meta:
        csrf = False


# -- A hand --------------------------------------------------------------------------------

class CardGrid(SelectMultipleField):
    """Cards to tap on a grid of tiles: each a checkbox, so it works without JavaScript."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

def pile_fields(size: int, sides: list[tuple[str, str]]) -> dict[str, Field]:
    """One select per card of the deck saying whose pile it is in ("" for a card not tapped):
    a tile of the card grid. Used by the hand form and the referee's claim."""
    return {f"c_{card}": SelectField(str(card), choices=options([("", "—"), *sides]), default="")
            for card in deck(size)}


def card_rows(form: FlaskForm, size: int) -> list[tuple[str, list[Field]]]:
    """A form's card selects suit by suit, as the grid shows them."""
    return [(suit, [form[f"c_{card}"] for card in deck(size) if card.suit == suit])
            for suit in SUITS]


COUNTS = ("cards", "coins", "sevens", "sixes", "aces")


class HandFormBase(FlaskForm):
    mode = HiddenField(default="piles")
    key = HiddenField()   # one per form shown: a form sent twice records one hand
    version = HiddenField()   # the version of the hand an edit was made from
    number = IntegerField(widget=HiddenInput(), validators=[Optional()])  # the hand it records

    def __init__(self, match: Match, *args, **kwargs):
        self.match = match
        super().__init__(*args, **kwargs)

    # The fields each mode shows, for the templates.
    def card_fields(self) -> list[tuple[str, list[Field]]]:
        return card_rows(self, self.match.rules.deck)

    def side_fields(self, prefix: str) -> list[Field]:
        return [self[f"{prefix}_{i}"] for i in range(len(self.match.sides)) if f"{prefix}_{i}" in self]

    def declaration_rows(self) -> list[tuple[Field, Field, Field]]:
        return [(self[f"decl_{k}_side"], self[f"decl_{k}_deal"], self[f"decl_{k}_cards"])
                for k in range(4) if f"decl_{k}_side" in self]

    def is_blank(self) -> bool:
        """Nothing entered yet in the way chosen: no card tapped, or no count typed."""
        if self.mode.data == "tallies":
            return all(f.data is None for name, f in self._fields.items() if name.startswith("t_")) \
                and not any(self[h].data not in (None, "", "none") for h in
                            ("settebello", "re_bello", "piva", "primiera") if h in self)
        return not any(self[f"c_{card}"].data for card in deck(self.match.rules.deck))

    def pile_counts(self) -> list[tuple[int, ...]]:
        """Each side's cards and bonus-suit cards as tapped so far, the rest counted for the
        side that gets it: what the pile picker shows beside each name."""
        n = len(self.match.sides)
        rest = int(self.rest.data) if str(self.rest.data).isdigit() and int(self.rest.data) < n else n - 1
        counts = [[0, 0] for _ in range(n)]
        for card in deck(self.match.rules.deck):
            chosen = self[f"c_{card}"].data
            side = int(chosen) if chosen not in (None, "") else rest
            counts[side][0] += 1
            counts[side][1] += card.suit == self.match.rules.bonus_suit
        return [tuple(count) for count in counts]

    # From the fields to a stored entry --------------------------------------------------

    def entry(self) -> dict[str, Any]:
        """What was entered, as stored; ScopaError when it cannot be a real hand."""
        sides = range(len(self.match.sides))
        entry: dict[str, Any] = {"mode": self.mode.data if self.mode.data == "tallies" else "piles"}
        declarations = self._declarations()
        if declarations:
            entry["declarations"] = declarations
        sweeps = [self[f"sweeps_{i}"].data or 0 for i in sides]
        if entry["mode"] == "piles":
            rest = int(self.rest.data)
            piles: list[list[str]] = [[] for _ in sides]
            untapped = picked_for_rest = 0
            for card in deck(self.match.rules.deck):
                chosen = self[f"c_{card}"].data
                untapped += chosen in (None, "")
                picked_for_rest += chosen == str(rest)
                piles[int(chosen) if chosen not in (None, "") else rest].append(str(card))
            # Cards picked one by one for the side that also gets the rest: the rest would go
            # there silently (without JavaScript nothing stops it). Ask where they go instead.
            if untapped and picked_for_rest:
                raise ScopaError(said_n(
                    "{count} card is in no pile: choose whose it is, or tap only the cards of "
                    "the side that does not get the rest ({name} gets it)",
                    "{count} cards are in no pile: choose whose they are, or tap only the cards "
                    "of the side that does not get the rest ({name} gets it)",
                    untapped, count=untapped, name=self.match.names[rest]))
            entry.update(piles=piles, sweeps=sweeps)
        else:
            entry["tallies"] = self._tallies(sweeps)
        # Scoring refuses what cannot be; the score is kept for the preview.
        self.score = score_entry(entry, self.match.rules, self.match.names)
        return entry

    def _declarations(self) -> list[dict[str, Any]]:
        declared = []
        for side, deal, cards in self.declaration_rows():
            typed = [code for value in cards.data or [] for code in value.replace(",", " ").split()]
            if side.data in (None, "") and not typed:
                continue
            if side.data in (None, ""):
                raise ScopaError("say which side made each declaration")
            shown = parse_cards(typed, "a declaration")
            declared.append({"side": int(side.data), "deal": int(deal.data),
                             "cards": [str(c) for c in shown]})
        return declared

    def _tallies(self, sweeps: list[int]) -> list[dict[str, Any]]:
        rules, names = self.match.rules, self.match.names
        n = len(names)
        suit = len(suit_values(rules.deck))
        totals = {"cards": rules.deck, "coins": suit, "sevens": 4, "sixes": 4, "aces": 4}
        counts: dict[str, list[int | None]] = {}
        for name, total in totals.items():
            if f"t_{name}_0" not in self:
                continue
            values = [self[f"t_{name}_{i}"].data for i in range(n)]
            blank = [i for i, v in enumerate(values) if v is None]
            if len(blank) == 1:          # one side left blank: it has the rest
                values[blank[0]] = total - sum(v for v in values if v is not None)
                if values[blank[0]] < 0:
                    raise ScopaError(said("the {what} entered add up to more than {total}", what=COUNT_WORDS[name], total=total))
            elif blank and len(blank) < n:
                raise ScopaError(said("enter the {what} of every side (one may be left blank: it is "
                                      "worked out)", what=COUNT_WORDS[name]))
            elif blank and name in ("cards", "coins"):
                raise ScopaError(said("enter the {what} of each side", what=COUNT_WORDS[name]))
            counts[name] = values if not blank or len(blank) < n else [None] * n

        def holder(field: str) -> int | None:
            value = self[field].data if field in self else None
            return None if value in (None, "", "none") else int(value)

        settebello, re_bello, piva, primiera = (holder(f) for f in ("settebello", "re_bello",
                                                                    "piva", "primiera"))
        tallies = []
        for i in range(n):
            tally: dict[str, Any] = {name: values[i] for name, values in counts.items()}
            tally.update(settebello=settebello == i, re_bello=re_bello == i, piva=piva == i,
                         primiera=primiera == i, sweeps=sweeps[i])
            for field, key in (("t_napola", "napola"), ("t_alta", "scaletta_alta")):
                if f"{field}_{i}" in self:
                    tally[key] = self[f"{field}_{i}"].data or 0
            tallies.append(tally)
        return tallies

    def fill(self, entry: dict[str, Any]) -> None:
        """Set the fields from a stored entry, to edit it."""
        self.mode.data = entry["mode"]
        for i, count in enumerate(entry.get("sweeps") or [t["sweeps"] for t in entry["tallies"]]):
            self[f"sweeps_{i}"].data = count
        if entry["mode"] == "piles":
            self.rest.data = str(len(entry["piles"]) - 1)
            for side, pile in enumerate(entry["piles"][:-1]):
                for card in pile:
                    self[f"c_{card}"].data = str(side)
        else:
            for i, tally in enumerate(entry["tallies"]):
                for name in COUNTS:
                    if f"t_{name}_{i}" in self:
                        self[f"t_{name}_{i}"].data = tally.get(name)
                for field, key in (("t_napola", "napola"), ("t_alta", "scaletta_alta")):
                    if f"{field}_{i}" in self:
                        self[f"{field}_{i}"].data = tally.get(key, 0)
                for field in ("settebello", "re_bello", "piva", "primiera"):
                    if field in self and tally.get(field):
                        self[field].data = str(i)
        for k, declaration in enumerate(entry.get("declarations", [])[:4]):
            self[f"decl_{k}_side"].data = str(declaration["side"])
            self[f"decl_{k}_deal"].data = str(declaration["deal"])
            self[f"decl_{k}_cards"].data = list(declaration["cards"])


def hand_form(match: Match, **kwargs) -> HandFormBase:
    """The hand form for this match: its sides, its deck and the counts its rules need."""
    rules, names = match.rules, match.names
    sides = [(str(i), name) for i, name in enumerate(names)]
    fields = pile_fields(rules.deck, sides)
    fields["rest"] = RadioField(_("The cards not tapped go to"), choices=options(sides), default=str(len(names) - 1))
    counts = ["cards", "coins"]
    if rules.primiera in ("sevens-sixes", "count-down"):
        counts += ["sevens", "sixes"]
    if rules.primiera == "count-down":
        counts.append("aces")
    suit = suit_words(rules.bonus_suit, rules.pack).capitalize()
    words = {"cards": _("Cards: %(name)s"), "coins": _("%(suit)s: %(name)s"),
             "sevens": _("Sevens: %(name)s"), "sixes": _("Sixes: %(name)s"), "aces": _("Aces: %(name)s")}
    for i, name in enumerate(names):
        fields[f"sweeps_{i}"] = IntegerField(_("Scope of %(name)s", name=name),
                                             [Optional(), NumberRange(0, 20)], default=0)
        for count in counts:
            fields[f"t_{count}_{i}"] = IntegerField(words[count] % {"name": name, "suit": suit},
                                                    [Optional(), NumberRange(0, 40)])
        if rules.napola != "off" or rules.scalette:
            fields[f"t_napola_{i}"] = IntegerField(
                _("%(suit)s in a row from the Ace: %(name)s", suit=suit, name=name),
                [Optional(), NumberRange(0, 10)])
        if rules.scalette:
            fields[f"t_alta_{i}"] = IntegerField(
                _("%(suit)s in a row from the King down: %(name)s", suit=suit, name=name),
                [Optional(), NumberRange(0, 10)])
    fields["settebello"] = RadioField(_("Settebello"), choices=options(sides), validators=[Optional()])
    if rules.re_bello:
        fields["re_bello"] = RadioField(_("Re Bello"), choices=options(sides), validators=[Optional()])
    if rules.piva and rules.deck == 40:
        fields["piva"] = RadioField(_("Piva (the %(card)s)", card=card_in_words(Card(2, "b"), rules.pack)),
                                    choices=options(sides), validators=[Optional()])
    if rules.primiera != "sevens-sixes":
        label = (_("Primiera, if sevens, sixes and aces tie") if rules.primiera == "count-down"
                 else _("Primiera"))
        fields["primiera"] = RadioField(label, choices=options([*sides, ("none", _("nobody"))]),
                                        validators=[Optional()])
    if rules.declarations != "off":
        for k in range(4):
            fields[f"decl_{k}_side"] = SelectField(_("Who"), choices=options([("", "—"), *sides]), default="")
            fields[f"decl_{k}_deal"] = SelectField(_("After deal"), default="1",
                                                   choices=options([(str(d), str(d)) for d in range(1, 7)]))
            # Tapped on a grid; cards typed as codes ("1d 1c 2s") are read too, as the API
            # writes them. The rules say what is wrong with them.
            fields[f"decl_{k}_cards"] = CardGrid(_("Cards shown"), validate_choice=False, choices=options(
                [(str(card), str(card)) for card in deck(rules.deck)]))
    form_class = type("HandForm", (HandFormBase,), fields)
    return form_class(match, **kwargs)
