"""The table's forms: a new match (its players, seating and rules) and the PIN page. A hand's form
is in ``hand_form``."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, IntegerField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..i18n import VARIANT_TITLES, explain
from ..matches import Match, sides_for
from ..names import PIN_MAX, all_different, look_alike, team_name, tidy
from ..rules import RulesError, ScopaError, check_seating, rules_for
from ..web.forms import NAME_LENGTH, PIN_FORMAT, PRESETS_SEATING, RULE_CHOICES, RULE_LABELS, options
from ..web.requests import NewMatch

# The seats of each layout: the form's, and companion.js's, which reads them from the page
# (data-seats on the new match form) to offer as many dealers as there are seats.
PLAYER_COUNTS = {"2": 2, "3": 3, "4": 4, "2x2": 4, "2x3": 6}


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
    # A team left without a name is named after its players ("Anna & Carla": team_names), the
    # same on every phone; seats 1, 3, 5 are team A, seats 2, 4, 6 team B (sides_for).
    team1 = StringField(_l("Team %(number)s", number="A"), [NAME_LENGTH])
    team2 = StringField(_l("Team %(number)s", number="B"), [NAME_LENGTH])
    # Its choices are the names typed (see seat_choices); any seat is checked by
    # validate_first_dealer, in words.
    first_dealer = SelectField(_l("Who deals first"), default="random", validate_choice=False,
                               choices=options([("random", _l("drawn at random"))]))
    pin = StringField(_l("Edit PIN (optional)"), [Optional(), PIN_FORMAT])
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
    grande_piccola = BooleanField(RULE_LABELS["grande_piccola"])
    matta = BooleanField(RULE_LABELS["matta"])
    # A checkbox before issue 42: its "y", from a page loaded before, is read as true was (15-30).
    deal_scope = SelectField(RULE_LABELS["deal_scope"], choices=options(RULE_CHOICES["deal_scope"]),
                             default="off", coerce=lambda value: "15-30" if value == "y" else value)

    RULE_FIELDS = ("deck", "bonus_suit", "primiera", "missing_suit", "re_bello", "napola",
                   "scalette", "piva", "declarations", "target", "hands", "cappotto",
                   "double_under", "claims", "capture", "void_deal", "ace_takes_itself", "pack",
                   "grande_piccola", "matta", "deal_scope")

    @classmethod
    def preset_data(cls, preset: str) -> dict[str, Any]:
        """The rule fields as a preset sets them."""
        return {name: value for name, value in rules_for(preset).as_dict().items()
                if name in cls.RULE_FIELDS}

    @classmethod
    def same_as(cls, match: Match) -> dict[str, Any] | None:
        """The form filled as ``match`` was made ("Same players as last time"): its seating, its
        players in seating order (the order the form takes them in, so the teams alternate), its
        variant and rules, and the deal passing on as a rematch's does. Its PIN stays behind: it
        is kept only hashed. None for a match the form could not have made (a variant no longer
        offered, a seating it has no layout for)."""
        sides = match.sides
        size = len(sides[0]["players"])
        layout = str(len(sides)) if size == 1 else f"2x{size}"
        if layout not in PLAYER_COUNTS or match.rules.preset not in VARIANT_TITLES:
            return None
        data = {name: value for name, value in match.rules.as_dict().items() if name in cls.RULE_FIELDS}
        data.update({f"player{seat}": name for seat, (name, _side) in enumerate(match.seats, start=1)})
        if size > 1:       # a name of its own is kept; one made of the players' is made anew
            for field, side in zip(("team1", "team2"), sides):
                if side["name"] != team_name(side["players"]):
                    data[field] = side["name"]
        return {**data, "layout": layout, "preset": match.rules.preset,
                "first_dealer": str(match.next_first_dealer)}

    @property
    def player_names(self) -> list[str]:
        count = PLAYER_COUNTS.get(self.layout.data, 2)
        return [tidy(getattr(self, f"player{i}").data or "") for i in range(1, count + 1)]

    def validate_layout(self, field: Field) -> None:
        names = self.player_names
        if any(not name for name in names):
            raise ValidationError(_("Give a name to each of the %(count)s players", count=len(names)))
        alike = look_alike(names)
        if alike:
            raise ValidationError(_("%(name)s looks like %(other)s: two names that read the same "
                                    "would make the score unclear", name=alike[0], other=alike[1]))
        if not all_different(names):
            raise ValidationError(_("Two players have the same name: the score would be unclear"))
        if "x" in field.data and not all_different(self.team_names()):
            raise ValidationError(_("Give the two teams different names"))

    def validate_first_dealer(self, field: Field) -> None:
        if field.data != "random" and str(field.data) not in map(str, range(len(self.player_names))):
            raise ValidationError(_("Choose one of the %(count)s players to deal first", count=len(self.player_names)))

    def seat_choices(self) -> "NewMatchForm":
        """Who may deal first, by the names typed so far ("Player 3" for a name not typed yet),
        only as many as the seats of the chosen layout. Returns the form, for templates."""
        count = PLAYER_COUNTS.get(self.layout.data, 2)
        self.first_dealer.choices = options([("random", _("drawn at random")), *[
            (str(seat), tidy(getattr(self, f"player{seat + 1}").data or "")
             or _("Player %(number)s", number=seat + 1)) for seat in range(count)]])
        return self

    def seat_for_variant(self) -> None:
        """The seating the chosen variant needs, chosen for the players (Scopone: two teams of
        two; Bazzica, Sbarazzina, Piva: two players)."""
        if self.preset.data in PRESETS_SEATING:
            self.layout.data = PRESETS_SEATING[self.preset.data]

    def validate(self, extra_validators=None) -> bool:
        """The fields one by one, then the rules they make together (a target of 0 is said
        once, by its field, not again by the rules with the item's code name); then the whole,
        as the JSON API's request is (``request``, a ``web.requests.NewMatch``: the one
        description of a new match, which the table's service takes)."""
        if not super().validate(extra_validators):
            return False
        try:
            rules = self.rules()
        except RulesError as error:
            self.preset.errors.append(explain(error))  # type: ignore[attr-defined]  # a list once validated; stubs: Sequence
            return False
        sides = self.sides()
        try:
            check_seating(rules, len(sides), len(sides[0]["players"]))
        except RulesError as error:
            self.layout.errors = [explain(error)]
            return False
        try:
            self.request = NewMatch.read(self.asked())
        except ScopaError as error:     # the page and the API disagree: said, never a 500
            self.layout.errors = [explain(error)]
            return False
        return True

    def asked(self) -> dict[str, Any]:
        """The form's data as a new match's request says it (the API's JSON): its players, or
        two teams whose players sit alternately (seats 1, 3, 5 and 2, 4, 6), a team's name left
        out when none is typed."""
        names = self.player_names
        if "x" in (self.layout.data or ""):
            typed = [tidy(self.team1.data or ""), tidy(self.team2.data or "")]
            sides: dict[str, Any] = {"teams": [{"name": typed[team] or None, "players": names[team::2]}
                                               for team in (0, 1)]}
        else:
            sides = {"players": names}
        dealer = self.first_dealer.data
        return {"variant": self.preset.data, **sides, "pin": (self.pin.data or "").strip() or None,
                "options": {name: getattr(self, name).data for name in self.RULE_FIELDS},
                "first_dealer": dealer if dealer == "random" else int(dealer)}

    def rules(self):
        items = {name: getattr(self, name).data for name in self.RULE_FIELDS}
        return rules_for(self.preset.data, items)

    def team_names(self) -> list[str]:
        """The two teams' names: as typed, else their players' ("Anna & Carla"), by the names
        typed so far (the form's placeholders show them)."""
        layout = self.layout.data or ""
        # Teams of the size the layout ends with ("2x3"); a crafted layout ending otherwise, 2.
        last = layout[-1:]
        size = int(last) if "x" in layout and last.isascii() and last.isdigit() else 2
        names = [tidy(getattr(self, f"player{i}").data or "") for i in range(1, 7)]
        typed = [tidy(self.team1.data or ""), tidy(self.team2.data or "")]
        return [typed[team] or team_name([name for name in names[team:2 * size:2] if name])
                for team in (0, 1)]

    def sides(self) -> list[dict[str, Any]]:
        return sides_for(self.layout.data, self.player_names, self.team_names())



class RulesPreviewForm(NewMatchForm):
    """The same fields, read from a GET when the variant changes; no CSRF on a read."""

    class Meta:
        csrf = False


class PinForm(FlaskForm):
    pin = StringField(_l("PIN"), [InputRequired(_l("Enter the match's PIN")), Length(max=PIN_MAX)])
