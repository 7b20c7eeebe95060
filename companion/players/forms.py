"""The players' forms: a rename, and whom a player is the same person as."""

from __future__ import annotations

from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, StringField
from wtforms.validators import InputRequired, Optional, ValidationError

from ..names import tidy
from ..web.forms import NAME_LENGTH


class RenameForm(FlaskForm):
    name = StringField(_l("Name"), [InputRequired(_l("Give the player a name")), NAME_LENGTH])

    def validate_name(self, field: Field) -> None:
        if not tidy(field.data or ""):
            raise ValidationError(_("Give the player a name"))


class MergeForm(FlaskForm):
    """Whom a player is the same person as: asked with a GET, confirmed on its own page."""

    find = StringField(_l("The same person as"), [Optional(), NAME_LENGTH],
                       render_kw={"autocomplete": "off", "enterkeyhint": "search"})

    class Meta:
        csrf = False
