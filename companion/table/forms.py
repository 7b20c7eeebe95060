"""The table's forms: a new match (its players, seating and rules) and the PIN page. A hand's form
is in ``hand_form``."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional

from ..i18n import VARIANT_TITLES, say
from ..matches import Match, sides_for
from ..names import PIN_MAX, team_name, tidy
from ..rules import rules_for
from ..rules.rulesets import BOUNDS
from ..web.forms import PRESETS_SEATING, RULE_CHOICES, RULE_LABELS, WholeNumberField, options
from ..web.match_requests import NewMatch
from ..web.refusals import Refusal

# The seats of each layout: the form's, and companion.js's, which reads them from the page
# (data-seats on the new match form) to offer as many dealers as there are seats.
PLAYER_COUNTS = {"2": 2, "3": 3, "4": 4, "2x2": 4, "2x3": 6}


def between(item: str) -> dict[str, int]:
    """A number item's bounds (rules.rulesets.BOUNDS), as its input's min and max."""
    least, most = BOUNDS[item]
    return {"min": least, "max": most}


def rule_select(item: str, **kwargs: Any) -> SelectField:
    """A rule item's choices; the value is checked by the rules engine, with the others
    (``NewMatchForm.validate``), not by the choices offered."""
    return SelectField(RULE_LABELS[item], choices=options(RULE_CHOICES[item]), validate_choice=False, **kwargs)


class NewMatchForm(FlaskForm):
    layout = RadioField(_l("Who plays"), default="2", choices=options([
        ("2", _l("2 players")), ("3", _l("3 players")), ("4", _l("4 players")),
        ("2x2", _l("2 teams of 2")), ("2x3", _l("2 teams of 3"))]))
    player1 = StringField(_l("Player %(number)s", number=1))
    player2 = StringField(_l("Player %(number)s", number=2))
    player3 = StringField(_l("Player %(number)s", number=3))
    player4 = StringField(_l("Player %(number)s", number=4))
    player5 = StringField(_l("Player %(number)s", number=5))
    player6 = StringField(_l("Player %(number)s", number=6))
    # A team left without a name is named after its players ("Anna & Carla": team_names), the
    # same on every phone; seats 1, 3, 5 are team A, seats 2, 4, 6 team B (sides_for).
    team1 = StringField(_l("Team %(number)s", number="A"))
    team2 = StringField(_l("Team %(number)s", number="B"))
    # Its choices are the names typed (see seat_choices). The fields below are the page's way of
    # typing a new match's request (web.match_requests.NewMatch, which validates it: ``validate``);
    # they check only what the request cannot see (a target left empty, a number not a number).
    first_dealer = SelectField(_l("Who deals first"), default="random", validate_choice=False,
                               choices=options([("random", _l("drawn at random"))]))
    pin = StringField(_l("Edit PIN (optional)"))
    preset = SelectField(_l("Variant"), choices=options(list(VARIANT_TITLES.items())), default="classica",
                         validate_choice=False)

    deck = rule_select("deck", coerce=int)
    bonus_suit = rule_select("bonus_suit")
    primiera = rule_select("primiera")
    missing_suit = rule_select("missing_suit")
    re_bello = BooleanField(RULE_LABELS["re_bello"])
    napola = rule_select("napola")
    scalette = BooleanField(RULE_LABELS["scalette"])
    piva = BooleanField(RULE_LABELS["piva"])
    declarations = rule_select("declarations")
    # min and max for the phone's keyboard, the bounds the request checks (NewMatch's RuleItems).
    target = WholeNumberField(RULE_LABELS["target"], [InputRequired(_l("Give the target score"))],
                          render_kw=between("target"))
    hands = WholeNumberField(RULE_LABELS["hands"], [Optional()], render_kw=between("hands"))
    cappotto = BooleanField(RULE_LABELS["cappotto"])
    double_under = WholeNumberField(RULE_LABELS["double_under"], [Optional()], render_kw=between("double_under"))
    claims = BooleanField(RULE_LABELS["claims"])
    capture = rule_select("capture")
    void_deal = rule_select("void_deal")
    ace_takes_itself = BooleanField(RULE_LABELS["ace_takes_itself"])
    pack = rule_select("pack")
    grande_piccola = BooleanField(RULE_LABELS["grande_piccola"])
    matta = BooleanField(RULE_LABELS["matta"])
    # A checkbox before issue 42: its "y", from a page loaded before, is read as true was (15-30).
    deal_scope = rule_select("deal_scope",
                             default="off", coerce=lambda value: "15-30" if value == "y" else value)

    request: NewMatch      # the request the form makes, once validated

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
        """The fields as typed (a number, a target given), and the request they make, validated
        once by its model (``request``, a ``web.match_requests.NewMatch``: the one description of a new
        match, the JSON API's too, which the table's service takes), each refusal shown by the
        field it names, in the words the API gives it (a field already refused as typed keeps
        that refusal alone)."""
        typed = super().validate(extra_validators)
        asked = self.asked()
        # A rule item not typed as one (a target left empty) is left out: its field says why.
        asked["options"] = {item: value for item, value in asked["options"].items() if not self[item].errors}
        request, refused = NewMatch.check(asked)
        for refusal in refused:
            field = self.field_for(refusal)
            if not field.errors:
                field.errors.append(say(refusal.said))  # type: ignore[attr-defined]  # a list once validated; stubs: Sequence
        if request is not None:
            self.request = request
        return typed and not refused

    def field_for(self, refusal: Refusal) -> Field:
        """The field a refusal names: a seat's name, a team's, a rule item, the PIN, the dealer;
        the variant for the rules together, the layout for the seating and the names together."""
        match refusal.at:
            case ("players", int(seat), *_):
                return self[f"player{seat + 1}"]
            case ("teams", int(team), "players", int(seat), *_):
                return self[f"player{team + 1 + 2 * seat}"]
            case ("teams", int(team), "name", *_):
                return self[f"team{team + 1}"]
            case ("options", str(item), *_) if item in self.RULE_FIELDS:
                return self[item]
            case ("variant", *_) | ("options", *_):
                return self.preset
            case ("pin", *_):
                return self.pin
            case ("first_dealer", *_):
                return self.first_dealer
            case _:
                return self.layout

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
        # A seat's number as the select posts it; anything else is sent as typed, for the
        # request to refuse in words.
        seat = int(dealer) if isinstance(dealer, str) and dealer.isascii() and dealer.isdigit() \
            and len(dealer) < 4 else dealer
        return {"variant": self.preset.data, **sides, "pin": (self.pin.data or "").strip() or None,
                "options": {name: getattr(self, name).data for name in self.RULE_FIELDS},
                "first_dealer": seat}

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
