"""What every room's pages share, below the rooms and above the model: loading a match or
answering 404, the safe ``next`` address, the PIN checks (``access``), the matches this phone played (``phone``), the limits per address
(``limits``), the bounds of a request (``bounds``), who is the organiser (``organiser``), the QR of the night that lets the club's phones in (``welcome``), the forms' kit (``forms``), the CSV writer (``exports``), the error pages
(``errors``), the host check (``hosts``), what the charts share (``charts``) and the pages that
belong to no room (``site``: the language switch, the manifest, the health check).

A room imports from here; nothing here imports a room.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from ..names import names_above, one_line_form, short_form, text_width
from ..rules.cards import parse_card
from . import assets, bounds, errors, hosts, limit_words, organiser, site, welcome
from .forms import pile_tiles, rule_in_words


def init_app(app: Flask) -> None:
    """The host check, the error pages, the pages of no room, the static files (``assets``:
    bundled, hashed, compressed, served before Flask), and the
    helpers every room's templates call. A helper only formats what it is given: what a page
    shows from the store (or from the phone's session) its view reads and passes to the
    template."""
    hosts.init_app(app)
    bounds.init_app(app)        # before the host check: the first hook of all
    errors.init_app(app)
    limit_words.init_app(app)
    organiser.init_app(app)
    welcome.init_app(app)
    app.register_blueprint(site.bp)
    assets.init_app(app)
    for helper in (rule_in_words, pile_tiles, parse_card, short_form, one_line_form, text_width, names_above):
        app.add_template_global(helper)
    app.add_template_filter(whole_words)


# A word with a hyphen in it ("Jean-Baptiste"); a score ("14 a 12", "11 à 8", "3 to 0").
_HYPHENATED = re.compile(r"[^\s<>&;]+-[^\s<>&;]+")
_SCORE = re.compile(r"\b\d+ (?:a|à|to) \d+\b")


def whole_words(text: Any, scores: bool = False) -> Markup:
    """``text`` escaped, each hyphenated word ("Jean-Baptiste") in a span kept on one line
    (``.nowrap``), and with ``scores`` each score too ("14 a 12"): a browser breaks a line after
    a hyphen, and a name split there reads as two ("Jean-" above "Baptiste"). The words stay
    what they are (no U+2011 hyphen: the page's text, copied or read aloud, is the name as
    typed).

    >>> str(whole_words("Jean-Baptiste & Ugo vince 14 a 12", scores=True))
    '<span class="nowrap">Jean-Baptiste</span> &amp; Ugo vince <span class="nowrap">14 a 12</span>'
    """
    kept = _HYPHENATED.sub(lambda m: f'<span class="nowrap">{m.group(0)}</span>', str(escape(text)))
    if scores:
        kept = _SCORE.sub(lambda m: f'<span class="nowrap">{m.group(0)}</span>', kept)
    return Markup(kept)
