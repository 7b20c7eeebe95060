"""What every room's pages share, below the rooms and above the model: loading a match or
answering 404, the safe ``next`` address, the PIN checks (``access``), the matches this phone played (``phone``), the limits per address
(``limits``), the bounds of a request (``bounds``), who is the organiser (``organiser``), the forms' kit (``forms``), the CSV writer (``exports``), the error pages
(``errors``), the host check (``hosts``), what the charts share (``charts``) and the pages that
belong to no room (``site``: the language switch, the manifest, the health check).

A room imports from here; nothing here imports a room.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, request
from markupsafe import Markup, escape

from ..names import names_above, one_line_form, short_form, text_width
from ..rules.cards import parse_card
from . import bounds, errors, hosts, limits, organiser, site
from .forms import rule_in_words
from .pages import YEAR


def init_app(app: Flask) -> None:
    """The host check, the error pages, the pages of no room, hashed static files, and the
    helpers every room's templates call. A helper only formats what it is given: what a page
    shows from the store (or from the phone's session) its view reads and passes to the
    template."""
    hosts.init_app(app)
    bounds.init_app(app)        # before the host check: the first hook of all
    errors.init_app(app)
    limits.init_app(app)
    organiser.init_app(app)
    app.register_blueprint(site.bp)
    _static_files_cached_for_good(app)
    for helper in (rule_in_words, parse_card, short_form, one_line_form, text_width, names_above):
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


def _static_files_cached_for_good(app: Flask) -> None:
    """Static files get URLs with their content's hash (``/static/companion.css?v=1a2b3c4d5e``)
    and are kept by the phones for a year without asking again: a new version of a file has a
    new URL. (A dozen lines rather than a library: Flask-Static-Digest needs a build step that
    writes digested copies of the files, and a wheel here carries the files as they are.)"""
    @lru_cache(maxsize=None)
    def digest(filename: str) -> str | None:
        path = Path(app.static_folder, filename)
        if not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()[:10]

    @app.url_defaults
    def hashed_static_urls(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            values["v"] = digest(values["filename"])

    @app.after_request
    def keep_hashed_static_files(response):
        if (request.endpoint == "static" and response.status_code == 200
                and request.args.get("v") == digest(request.view_args.get("filename", ""))):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response
