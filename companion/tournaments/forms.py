"""The new tournament's form."""

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
        entrants: list[Any] = []
        for line in (self.entrants.data or "").splitlines():
            if ":" in line:
                name, players = line.split(":", 1)
                entrants.append({"name": name.strip(),
                                 "players": [p.strip() for p in players.split(",") if p.strip()]})
            elif line.strip():
                entrants.append(line.strip())
        return entrants
