"""The declarations of a hand's form (Bazzica's and Sbarazzina's, Cirulla's accusi): one row
each, who made it, after which deal and the three cards shown (``decl_0_side``, ``decl_0_deal``,
``decl_0_cards``). The hand's form (``hand_form``) holds a list of them; the rules judge them."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField

from ..web.forms import CardGrid, options

DECLARATIONS = 4        # the declarations a hand's form has room for (Bazzica, Sbarazzina)
ACCUSI = 8              # ... for Cirulla's accusi, where each player may make one every deal


class Declaration(FlaskForm):
    """One declaration: who made it, after which deal, and the three cards shown."""

    class Meta:
        csrf = False        # a row of the hand's form, which carries the token

    side = SelectField(_l("Who"), default="")
    deal = SelectField(_l("After deal"), default="1", choices=options((str(d), str(d)) for d in range(1, 7)))
    # Tapped on a grid; cards typed as codes ("1d 1c 2s") are read too, as the API writes
    # them. The rules say what is wrong with them.
    cards = CardGrid(_l("Cards shown"), validate_choice=False)

    def shown(self) -> list[str]:
        return [code for value in self.cards.data or [] for code in value.replace(",", " ").split()]
