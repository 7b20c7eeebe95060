"""A hand's form: the cards of each pile tapped on a grid, or the counts; what was entered turned
into the entry the store keeps, and a stored entry put back into the fields to edit it."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, IntegerField, RadioField, SelectField
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import HiddenInput

from ..i18n import card_in_words, suit_words
from ..matches import Match, score_entry
from ..rules import HandScore, ScopaError, Tally, deck
from ..rules.cards import Card, parse_cards, suit_values
from ..rules.primiera import SCALES, PrimieraResult, decide_piles
from ..rules.said import said, said_n
from ..rules.tally import primiera_cards_of
from ..web.forms import CardGrid, card_rows, options, pile_fields

# The counts a hand by counts asks for, as its refusals name them (translated with them).
COUNT_WORDS = {"cards": said("cards"), "coins": said("coins"),
               "sevens": said("sevens"), "sixes": said("sixes"), "aces": said("aces")}


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
        named = {str(side): side for side in range(n)}     # a crafted value names no side
        rest = named.get(str(self.rest.data), n - 1)
        counts = [[0, 0] for _ in range(n)]
        for card in deck(self.match.rules.deck):
            side = named.get(str(self[f"c_{card}"].data), rest)
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
        sweeps = self._sweeps()
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
        score = score_entry(entry, self.match.rules, self.match.names, waiting={item for item, _ in awaited})
        return score, [words for _, words in awaited]

    def _sweeps(self) -> list[int]:
        return [self[f"sweeps_{i}"].data or 0 for i in range(len(self.match.sides))]

    def _awaited(self) -> list[tuple[str, str]]:
        """What a hand by counts still waits for: (the item it decides, in words). A count row
        waits while more than one side is blank (one may be: it gets the rest), naming every
        blank side but the last; a card's holder while nobody is chosen; the primiera while it
        is neither chosen nor worked out by counts."""
        names, n = self.match.names, len(self.match.sides)
        decides = {"cards": "carte", "coins": "denari", "sevens": "primiera", "sixes": "primiera",
                   "aces": "primiera"}
        awaited = []
        for count in COUNTS:
            blank = [i for i in range(n) if f"t_{count}_{i}" in self and self[f"t_{count}_{i}"].data is None]
            if len(blank) == n:
                awaited.append((decides[count], self.row_words[count]))
            elif len(blank) > 1:
                awaited += [(decides[count], _("%(what)s of %(name)s", what=self.row_words[count], name=names[i]))
                            for i in blank[:-1]]
        for holder in ("settebello", "re_bello", "piva", "primiera"):
            if holder == "primiera" and self.match.rules.primiera == "count-down":
                continue            # the counts decide it; the mark only breaks a tie
            if holder in self and self[holder].data in (None, ""):
                awaited.append((holder, self[holder].label.text))
        return awaited

    def _tallies(self, sweeps: list[int], partial: bool = False) -> list[dict[str, Any]]:
        """Each side's counts as entered, one blank side a row given the rest. ``partial``: a
        hand still being entered, whose counts not entered yet stay None (``so_far``)."""
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
            typed = sum(v for v in values if v is not None)
            if blank and typed > total:
                raise ScopaError(said("the {what} entered add up to more than {total}", what=COUNT_WORDS[name], total=total))
            if len(blank) == 1:          # one side left blank: it has the rest
                values[blank[0]] = total - typed
            elif partial:
                pass                     # what is not entered yet is awaited (_awaited)
            elif 1 < len(blank) < n:
                raise ScopaError(said("enter the {what} of every side (one may be left blank: it is "
                                      "worked out)", what=COUNT_WORDS[name]))
            elif blank and len(blank) == n and name in ("cards", "coins"):
                raise ScopaError(said("enter the {what} of each side", what=COUNT_WORDS[name]))
            counts[name] = values if len(blank) < n else [None] * n

        def holder(field: str) -> int | None:
            value = self[field].data if field in self else None
            return None if value in (None, "", "none") else int(value)

        settebello, re_bello, piva, primiera = (holder(f) for f in ("settebello", "re_bello",
                                                                    "piva", "primiera"))
        worked = self.worked_out()
        tallies = []
        for i in range(n):
            tally: dict[str, Any] = {name: values[i] for name, values in counts.items()}
            tally.update(settebello=settebello == i, re_bello=re_bello == i, piva=piva == i,
                         primiera=primiera == i, sweeps=sweeps[i])
            for field, key in (("t_napola", "napola"), ("t_alta", "scaletta_alta")):
                if f"{field}_{i}" in self:
                    tally[key] = self[f"{field}_{i}"].data or 0
            if worked is not None:
                tally["primiera_cards"] = worked[0][i]
            tallies.append(tally)
        return tallies

    def worked_out(self) -> tuple[list[list[str]], PrimieraResult] | None:
        """Each side's best cards for the primiera as the referee's tool worked it out and sent
        them back (the hidden ``primiera_best``: "7d 6c 1s 10b/7c 6d 5s"), and what they give,
        while the primiera chosen is the one they give. None when the tool was not asked, or
        when the players chose otherwise since: then the primiera is theirs ("marked by the
        players")."""
        if "primiera_best" not in self or not self.primiera_best.data:
            return None
        best = [side.split() for side in self.primiera_best.data.split("/")]
        rules, chosen = self.match.rules, self.primiera.data
        if len(best) != len(self.match.sides):
            return None
        try:        # checked as the rules check a stored entry's
            cards = primiera_cards_of([Tally(None, None, primiera_cards=side) for side in best],
                                      rules, self.match.names)
            worked = decide_piles(cards, rules.primiera, rules.missing_suit)
        except ScopaError:
            return None
        if worked.winner is None:
            agrees = chosen in (None, "", "none")
        else:
            agrees = chosen == str(worked.winner)
        return (best, worked) if agrees else None

    def fill(self, entry: dict[str, Any]) -> None:
        """Set the fields from a stored entry, to edit it: cards as the player tapped them (the
        rest given to the biggest pile, every other pile's cards tapped), or the counts."""
        self.mode.data = entry["mode"]
        for i, count in enumerate(entry.get("sweeps") or [t["sweeps"] for t in entry["tallies"]]):
            self[f"sweeps_{i}"].data = count
        if entry["mode"] == "piles":
            rest = rest_of(entry["piles"])
            self.rest.data = str(rest)
            for side, pile in enumerate(entry["piles"]):
                for card in pile if side != rest else ():
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
            best = [tally.get("primiera_cards") for tally in entry["tallies"]]
            if "primiera_best" in self and None not in best:     # worked out by the referee
                self.primiera_best.data = "/".join(" ".join(cards) for cards in best)
        for k, declaration in enumerate(entry.get("declarations", [])[:4]):
            self[f"decl_{k}_side"].data = str(declaration["side"])
            self[f"decl_{k}_deal"].data = str(declaration["deal"])
            self[f"decl_{k}_cards"].data = list(declaration["cards"])


def rest_of(piles: list[list[str]]) -> int:
    """The side whose pile a hand by cards gives the cards not tapped: the biggest, as the
    player taps the smaller piles (the last side on a tie, the form's own default)."""
    biggest = max(len(pile) for pile in piles)
    return max(side for side, pile in enumerate(piles) if len(pile) == biggest)


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
    # Each count's row as the grid names it ("Cards"), and as the preview says it is awaited;
    # a field is its row's words and its side's name ("Cards of Bruno", also the start of its
    # error: "Cards of Bruno: Number must be..."), without a colon of its own.
    row_words = {"cards": _("Cards"), "coins": suit, "sevens": _("Sevens"), "sixes": _("Sixes"),
                 "aces": _("Aces"), "napola": _("%(suit)s in a row from the Ace", suit=suit),
                 "alta": _("%(suit)s in a row from the King down", suit=suit)}
    for i, name in enumerate(names):
        fields[f"sweeps_{i}"] = IntegerField(_("Scope of %(name)s", name=name),
                                             [Optional(), NumberRange(0, 20)], default=0)
        for count in counts:
            fields[f"t_{count}_{i}"] = IntegerField(_("%(what)s of %(name)s", what=row_words[count], name=name),
                                                    [Optional(), NumberRange(0, 40)])
        if rules.napola != "off" or rules.scalette:
            fields[f"t_napola_{i}"] = IntegerField(
                _("%(suit)s in a row from the Ace (%(name)s)", suit=suit, name=name),
                [Optional(), NumberRange(0, 10)])
        if rules.scalette:
            fields[f"t_alta_{i}"] = IntegerField(
                _("%(suit)s in a row from the King down (%(name)s)", suit=suit, name=name),
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
    if rules.primiera in SCALES:
        # Each side's best cards, where the referee's tool worked the primiera out (worked_out).
        fields["primiera_best"] = HiddenField()
    if rules.declarations != "off":
        for k in range(4):
            fields[f"decl_{k}_side"] = SelectField(_("Who"), choices=options([("", "—"), *sides]), default="")
            fields[f"decl_{k}_deal"] = SelectField(_("After deal"), default="1",
                                                   choices=options([(str(d), str(d)) for d in range(1, 7)]))
            # Tapped on a grid; cards typed as codes ("1d 1c 2s") are read too, as the API
            # writes them. The rules say what is wrong with them.
            fields[f"decl_{k}_cards"] = CardGrid(_("Cards shown"), validate_choice=False, choices=options(
                [(str(card), str(card)) for card in deck(rules.deck)]))
    fields["row_words"] = row_words
    form_class = type("HandForm", (HandFormBase,), fields)
    return form_class(match, **kwargs)
