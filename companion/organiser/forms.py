"""The organiser's code, typed on a phone."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length


class CodeForm(FlaskForm):
    code = StringField(_l("The organiser's code"),
                       [InputRequired(_l("Type the organiser's code")), Length(max=64)])
    next = HiddenField()
