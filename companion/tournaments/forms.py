"""The new tournament's form, and the organiser's late entrant's."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import NumberRange, Optional

from ..i18n import VARIANT_TITLES
from ..web.forms import options

FORMAT_WORDS = {"round-robin": _l("Round robin (everyone meets everyone)"),
                "swiss": _l("Swiss (a set number of rounds)"),
                "knockout": _l("Knockout (a bracket)")}


class NewTournamentForm(FlaskForm):
    """A tournament as the page asks for it; what it must be is checked once, for the page and
    the API alike, by ``service.create``."""

    name = StringField(_l("Name"), id="t-name", render_kw={"required": True, "autocomplete": "off"})
    format = RadioField(_l("Format"), choices=options(FORMAT_WORDS.items()), default="round-robin")
    variant = SelectField(_l("Variant"), choices=options(list(VARIANT_TITLES.items())),
                          default="classica", id="t-variant")
    entrants = TextAreaField(_l("Entrants, one a line"), id="t-entrants",
                             render_kw={"rows": 8, "autocapitalize": "words"})
    rounds = IntegerField(_l("Rounds (Swiss only)"), [Optional(), NumberRange(min=1)], id="t-rounds",
                          render_kw={"inputmode": "numeric", "autocomplete": "off"})
    seeding = RadioField(_l("Seeding"), default="order", choices=options(
        [("rating", _l("by rating (players without one last)")),
         ("order", _l("in the order written")), ("draw", _l("drawn (knockout)"))]))
    pin = StringField(_l("PIN (optional)"), id="t-pin",
                      render_kw={"inputmode": "numeric", "autocomplete": "off"})

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
    points = RadioField(_l("Points for each round missed"), default="0", choices=options(
        [("0", _l("no points")), ("1", _l("a draw's (1)")), ("2", _l("a win's (2)"))]))

    def asked(self) -> dict[str, Any]:
        """The request as ``LateEntrant`` reads it."""
        return {"entrant": entrant_of(self.entrant.data or ""),
                "points_per_missed_round": int(self.points.data or 0)}
