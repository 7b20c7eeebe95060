"""The QR of the night: the join address with a token that only the organiser is shown, which
lets a phone in as one of the club's for a night (issue 41: behind one address, a relay, a NAT,
a captive portal, nothing in a request tells a club's new phone from a guest's script; the
organiser does).

- The token is signed with the app's secret key (itsdangerous, which Flask signs its own
  cookie with) and holds for a night (``NIGHT``, 12 h) from when it was drawn: the QR the
  terminal prints at start (``cli.print_join``), the home page's and the tournament board's when
  the organiser's phone or laptop opens them (``shown``; to any other phone they carry the plain
  address), and the organiser's own page of it (``/organiser/qr``, printable).
- A phone that opens any page with ``?welcome=<token>`` is let in (``phone.admit``: its signed
  cookie says so, for a night) and sent on to the same address without the token, so that its
  address bar shows none to pass on. A token past its night, badly signed, or of a QR the
  organiser has renewed lets nothing in, and says nothing: the page just opens.
- The organiser can renew the QR (``renew``): the tokens drawn before no longer let a phone in,
  and every address may let in ``limits.ADMISSIONS`` phones again, so a guest who spent them
  with a photo of the old QR keeps nobody out. Phones already let in stay so for their night: renewing is for a QR seen by someone it should
  not have been, not a reason to make every phone of the club scan again.
- Whoever holds the token can let in phones: at most ``limits.ADMISSIONS`` a night at one
  address (docs/running.md says what a guest with it can do).

What a renewal changes (a random word, the tokens' payload) is kept in a file beside the store,
``welcome``, so that a restart keeps the night's QR and every serving process reads the same.
"""

from __future__ import annotations

import hmac
import os
import secrets
import tempfile
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

from flask import Flask, Response, current_app, flash, g, redirect, request
from flask_babel import gettext as _
from itsdangerous import BadData, URLSafeTimedSerializer

from . import limits
from .pages import on_this_site
from .phone import admit, admitted

PARAM = "welcome"
NIGHT = 12 * 3600
SALT = "scopa-companion: the QR of the night"
_FIRST = "night"                # the word before any renewal: no file needed until one


def _word_file(app: Flask) -> Path:
    return Path(app.config["DATABASE"]).parent / "welcome"


def _word(app: Flask) -> str | None:
    """The word the tokens of now carry: the last renewal's, else (no file: never renewed)
    ``_FIRST``; None when the file is there and cannot be read, or does not hold a word, which no
    token carries (falling back to ``_FIRST`` would let in again the tokens of before the first
    renewal)."""
    try:
        kept = _word_file(app).read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return _FIRST
    except (OSError, UnicodeDecodeError):
        return None
    return kept if kept.isalnum() and len(kept) <= 32 else None


def _signer(app: Flask) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(app.config["SECRET_KEY"], salt=SALT)


def token(app: Flask | None = None) -> str:
    """A token drawn now: it lets phones in for ``NIGHT``, unless the QR is renewed."""
    app = app or current_app._get_current_object()      # type: ignore[attr-defined]
    return str(_signer(app).dumps(_word(app) or ""))


def link(url: str, app: Flask | None = None) -> str:
    """``url`` with a token drawn now.

    >>> app = Flask(__name__); app.config.update(SECRET_KEY="k", DATABASE="/nowhere/s.sqlite")
    >>> link("http://192.168.1.23:8000/", app).startswith("http://192.168.1.23:8000/?welcome=")
    True
    """
    parts = urlsplit(url)
    query = "&".join(filter(None, [parts.query, urlencode({PARAM: token(app)})]))
    return urlunsplit(parts._replace(query=query))


def lets_in(given: str, app: Flask | None = None) -> bool:
    """Whether ``given`` is a token of this companion, drawn less than a night ago, since the
    QR's last renewal."""
    app = app or current_app._get_current_object()      # type: ignore[attr-defined]
    if len(given) > 200:            # a token is about 60 characters
        return False
    try:
        word = _signer(app).loads(given, max_age=NIGHT)
    except BadData:                 # badly signed, past its night, not a token at all
        return False
    now = _word(app)
    return isinstance(word, str) and now is not None and hmac.compare_digest(word.encode(), now.encode())


def renew(app: Flask | None = None) -> bool:
    """The QR renewed: the tokens drawn before let no phone in any more. False when the word
    could not be written (a full or read-only disk): the old QR then still holds."""
    app = app or current_app._get_current_object()      # type: ignore[attr-defined]
    path = _word_file(app)
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".welcome-")
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(8))
        os.replace(temporary, path)
    except OSError:
        if temporary:
            Path(temporary).unlink(missing_ok=True)
        return False
    # The admissions start afresh: whoever spent an address's with the old token (a photo of the
    # board's QR) kept the club's later phones out until the organiser lifted it by hand.
    limits.lift_every("admissions")
    return True


def shown(url: str, organiser: bool) -> str:
    """The address a page's QR code carries: with a token for the organiser's phone or laptop
    (the page is then kept by no cache: ``no_store``), the plain address for any other."""
    if not organiser:
        return url
    g.scopa_welcome_shown = True
    return link(url)


def init_app(app: Flask) -> None:
    """A page opened with a token: the phone let in (when the token holds and its address may
    still let phones in tonight), then sent on to the same page without it, whatever the token
    was. A page carrying a token is kept by no cache."""
    @app.before_request
    def welcomed():
        if PARAM not in request.args or request.method not in ("GET", "HEAD"):
            return None
        given = request.args.get(PARAM, "")
        if not admitted() and lets_in(given) and limits.admission():
            admit()
            flash(_("Welcome: this phone is one of the club's tonight."))
        rest = [(name, value) for name, value in request.args.items(multi=True) if name != PARAM]
        target = quote(request.script_root + request.path) + ("?" + urlencode(rest) if rest else "")
        return redirect(on_this_site(target, "/"), 303)

    @app.after_request
    def no_store(response: Response) -> Response:
        if g.get("scopa_welcome_shown"):
            response.headers["Cache-Control"] = "private, no-store"
        return response
