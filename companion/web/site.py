"""The pages that belong to no room: the language switch, the manifest that puts the companion
on a phone's home screen, and the health check."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request, url_for
from flask_babel import get_locale, gettext as _

from ..i18n import COOKIE, LANGUAGES
from .bounds import URL
from .pages import YEAR, back_here, on_this_site

bp = Blueprint("site", __name__)

# In every template, the macros imported without the page's context too (the organiser's link).
bp.add_app_template_global(back_here)


@bp.get("/lang/<code>")
def choose_language(code: str):
    """The language switch: kept a year in a cookie, then back to the page it was pressed on.
    A link that says only that page's path (``back_here``: its query was long) comes back
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
