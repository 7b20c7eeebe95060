"""The pages that belong to no room: the language switch, the manifest that puts the companion
on a phone's home screen, and the health check."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request, url_for
from flask_babel import get_locale, gettext as _

from ..i18n import COOKIE, LANGUAGES
from .bounds import URL
from .pages import YEAR, on_this_site

bp = Blueprint("site", __name__)

# The longest query the language links copy (``next``). A page's own queries are a few hundred
# bytes (the claim's forty cards, a filter, the primiera tool carrying a hand's form along);
# one of 16 KiB (``bounds.URL``) was copied into each of the four links, percent-encoded again
# (up to three times its size), so a page asked with it answered 100 KB and more.
ECHOED = 2048


@bp.app_context_processor
def language_links() -> dict:
    return {"language_next": language_next}


def language_next() -> str:
    """Where the language links come back to: this page, its query too when it is no longer
    than ``ECHOED``, else its path alone (the switch then reads the query from the Referer).

    >>> from flask import Flask
    >>> with Flask(__name__).test_request_context("/players?period=month"):
    ...     language_next()
    '/players?period=month'
    >>> with Flask(__name__).test_request_context("/players?junk=" + "x" * 5000):
    ...     language_next()
    '/players'
    """
    if len(request.query_string) > ECHOED:
        return request.path
    return request.full_path.rstrip("?")


@bp.get("/lang/<code>")
def choose_language(code: str):
    """The language switch: kept a year in a cookie, then back to the page it was pressed on.
    A link that says only that page's path (``language_next``: its query was long) comes back
    to the page the browser says it was pressed on (the Referer: the companion sends it to
    itself, ``Referrer-Policy: same-origin``), when that is the same path on this host."""
    back = on_this_site(request.args.get("next", ""), url_for("table.index"))
    pressed_on = urlsplit(request.referrer or "")
    if ("?" not in back and pressed_on.netloc == request.host and pressed_on.path == back
            and pressed_on.query and len(pressed_on.path) + len(pressed_on.query) <= URL):
        back = on_this_site(f"{pressed_on.path}?{pressed_on.query}", back)
    response = redirect(back, 303)
    if code in LANGUAGES:
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True)
    return response


FELT = "#0f5132"     # the table's green (static/companion.css, --felt)


@bp.get("/manifest.webmanifest")
def manifest():
    """What a phone needs to put the companion on its home screen and open it like an app:
    the name in the phone's language, the icons (hashed URLs, kept a year), the felt's green."""
    def icon(name: str, size: int, purpose: str) -> dict[str, str]:
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}",
                "type": "image/png", "purpose": purpose}

    body = {
        "id": "/", "name": _("Scopa companion"), "short_name": "Scopa", "lang": str(get_locale()),
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": FELT, "theme_color": FELT,
        "icons": [icon("icon-192.png", 192, "any"), icon("icon-512.png", 512, "any"),
                  icon("icon-maskable-192.png", 192, "maskable"),
                  icon("icon-maskable-512.png", 512, "maskable")],
    }
    response = current_app.response_class(current_app.json.dumps(body),
                                          mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"     # its name follows the language switch
    return response


@bp.get("/healthz")
def healthz():
    """A trivial route: the ceiling the load benchmark compares the poll against."""
    return "ok", 200, {"Content-Type": "text/plain"}
