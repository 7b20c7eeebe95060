"""The new tournament's form, and the organiser's late entrant's."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import Optional

from ..i18n import VARIANT_TITLES
from ..web.forms import WholeNumberField, options, whole_or_text
from ..web.tournament_requests import NewTournament

FORMAT_WORDS = {"round-robin": _l("Round robin (everyone meets everyone)"),
                "swiss": _l("Swiss (a set number of rounds)"),
                "knockout": _l("Knockout (a bracket)")}


class NewTournamentForm(FlaskForm):
    """A tournament as the page asks for it; what it must be is checked once, for the page and
    the API alike, by ``service.create``: no field here refuses a value its request refuses (a
    format not offered, rounds below 1), so that the page says it in the API's words."""

    name = StringField(_l("Name"), id="t-name", render_kw={"required": True, "autocomplete": "off"})
    format = RadioField(_l("Format"), choices=options(FORMAT_WORDS.items()), default="round-robin",
                        validate_choice=False)
    variant = SelectField(_l("Variant"), choices=options(list(VARIANT_TITLES.items())),
                          default="classica", id="t-variant", validate_choice=False)
    entrants = TextAreaField(_l("Entrants, one a line"), id="t-entrants",
                             render_kw={"rows": 8, "autocapitalize": "words"})
    rounds = WholeNumberField(_l("Rounds (Swiss only)"), [Optional()], id="t-rounds",
                          render_kw={"inputmode": "numeric", "autocomplete": "off", "min": 1})
    seeding = RadioField(_l("Seeding"), default="order", validate_choice=False, choices=options(
        [("rating", _l("by rating (players without one last)")),
         ("order", _l("in the order written")), ("draw", _l("drawn (knockout)"))]))
    pin = StringField(_l("PIN (optional)"), id="t-pin",
                      render_kw={"inputmode": "numeric", "autocomplete": "off"})

    def field_for(self, at: tuple[str | int, ...]) -> Field | None:
        """The field a refusal of ``NewTournament`` names (its ``loc``: the fields have the
        request's names); None for what no field asks (the rules together), said at the top."""
        name = at[0] if at else None
        return self[name] if name in NewTournament.model_fields and name in self else None

    def entrant_list(self) -> list[Any]:
        """One entrant a line: a name, or a pair written "Nord: Anna, Bruno"."""
        return [entrant_of(line) for line in (self.entrants.data or "").splitlines() if line.strip()]


def entrant_of(line: str) -> Any:
    """An entrant as typed on a line: a name (Anna), or a pair's name, a colon and its two
    players (Nord: Anna, Bruno), as the API takes them."""
    if ":" in line:
        name, players = line.split(":", 1)
        return {"name": name.strip(), "players": [p.strip() for p in players.split(",") if p.strip()]}
    return line.strip()


class LateEntrantForm(FlaskForm):
    """An entrant added after the tournament was made; what it must be is checked once, for the
    page and the API alike, by ``web.tournament_requests.LateEntrant`` and the service."""

    entrant = StringField(_l("Entrant"), id="late-entrant",
                          render_kw={"required": True, "autocomplete": "off", "autocapitalize": "words"})
    points = RadioField(_l("Points for each round missed"), default="0", validate_choice=False,
                        coerce=whole_or_text, choices=options(
        [("0", _l("no points")), ("1", _l("a draw's (1)")), ("2", _l("a win's (2)"))]))

    def field_for(self, at: tuple[str | int, ...], points_shown: bool = True) -> Field | None:
        """The field a refusal of ``LateEntrant`` names (its ``loc``): the entrant, the points
        (``points_shown``: where the page asks for them, once a round is played); else None."""
        match at:
            case ("entrant", *_):
                return self.entrant
            case ("points_per_missed_round", *_) if points_shown:
                return self.points
        return None

    def asked(self) -> dict[str, Any]:
        """The request as ``LateEntrant`` reads it."""
        # The number a choice posts; anything else as sent, for the request to refuse in words.
        return {"entrant": entrant_of(self.entrant.data or ""),
                "points_per_missed_round": 0 if self.points.data is None else self.points.data}
