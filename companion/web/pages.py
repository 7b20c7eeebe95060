"""What every room's pages share: loading a match or answering 404, the safe ``next`` address and
the way back to this page (``back_here``, bounded), the address phones open and its QR code, a
form's first error, a CSV answer, and a notice that offers an action (an Undo)."""

from __future__ import annotations

import functools
from typing import Any, Callable, Container
from urllib.parse import urlsplit

import segno
from flask import current_app, flash, make_response, request
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound

from ..i18n import colon, say, sentence
from ..matches import Match, build
from ..store import reads as store


def load_match(match_id: int, missing: Callable[[], Exception] = NotFound) -> Match:
    """The match as it is now, worked out once per version and kept (``store.built_match``);
    else ``missing`` is raised: a 404 page, or the API's answer in words."""
    current = store.built_match(store.get_db(), match_id, build, on_earlier=True)
    if current is None:
        raise missing()
    return current


YEAR = 365 * 24 * 3600     # what a phone keeps for good: a language cookie, a hashed static file

def under_match(match: Match) -> dict[str, Any]:
    """The query that asks the referee's tools a question under a match's own rules: what the
    match page's links and the referee's own pages both send."""
    return {"match": match.id}


C0_AND_SPACE = "".join(map(chr, range(0x21)))


def on_this_site(target: str, fallback: str) -> str:
    """``target`` if it is a path on this site as a browser would read it, else ``fallback``.

    A browser strips spaces and control characters around an address, drops tabs and line
    breaks anywhere in it, and reads a backslash as a slash: "/\t/evil.example" and "/\\evil"
    lead to another site. So they are read the same way here (every control character dropped:
    none belongs in a Location header) before the check."""
    cleaned = "".join(ch for ch in target.strip(C0_AND_SPACE) if ch >= " " and ch != "\x7f")
    cleaned = cleaned.replace("\\", "/")
    parts = urlsplit(cleaned)
    if not cleaned.startswith("/") or cleaned.startswith("//") or parts.scheme or parts.netloc:
        return fallback
    return cleaned


# The longest query a page writes back into itself: the language links' ``next``, the way back
# from the PIN page or the organiser's code, a form's ``next``. A page's own queries are a few
# hundred bytes (the claim's forty cards, a filter, the primiera tool carrying a hand's form
# along); one of 16 KiB (``bounds.URL``) was copied into each of the four language links,
# percent-encoded again (up to three times its size), so a page asked with it answered 100 KB
# and more.
ECHOED = 2048


def back_here() -> str:
    """The address to come back to this page: its path and query, the query only when it is no
    longer than ``ECHOED``, else the path alone (the language switch then reads the query from
    the Referer); the home page for a path longer than ``ECHOED``, which is no page's (a page
    not found, whose four language links each wrote 15 KB of path back).

    >>> from flask import Flask
    >>> with Flask(__name__).test_request_context("/players?period=month"):
    ...     back_here()
    '/players?period=month'
    >>> with Flask(__name__).test_request_context("/players?junk=" + "x" * 5000):
    ...     back_here()
    '/players'
    >>> with Flask(__name__).test_request_context("/" + "x" * 5000):
    ...     back_here()
    '/'
    """
    if len(request.path) > ECHOED:
        return request.script_root + "/"
    if len(request.query_string) > ECHOED:
        return request.path
    return request.full_path.rstrip("?")


def query_kept(*leaving_out: str) -> dict[str, Any]:
    """The query's items (every value of each) that a link to the next page of this one, or
    to where it moved, carries on, but for ``leaving_out``: none when the query is longer than
    ``ECHOED``, as ``back_here`` keeps it. (Any: what ``url_for``'s keywords take.)

    >>> from flask import Flask
    >>> with Flask(__name__).test_request_context("/api/v1/players?variant=classica&page=2"):
    ...     query_kept("page")
    {'variant': ['classica']}
    >>> with Flask(__name__).test_request_context("/api/v1/players?junk=" + "x" * 5000):
    ...     query_kept("page")
    {}
    """
    if len(request.query_string) > ECHOED:
        return {}
    return {key: request.args.getlist(key) for key in request.args if key not in leaving_out}


def join_url() -> str:
    """The address phones should open: the machine's LAN address when the server knows it."""
    lan = current_app.config.get("LAN_URLS") or []
    return lan[0] if lan else request.host_url


@functools.lru_cache(maxsize=64)
def qr_svg(url: str, scalable: bool = False) -> str:
    """The QR code of an address, drawn once: 5 px a module, or ``scalable``, with a viewBox and
    no size of its own, as large as the page's CSS draws it whole (the board on the wall)."""
    return segno.make(url, error="m").svg_inline(scale=5, omitsize=scalable, dark="#1d1d1b", light="#fffdf5")


def first_error(form, passing_over: Container[str] = ()) -> str:
    """A form's first refusal, named by its field ("Player 1: a name has at most...", in French
    "Joueur 1 : un nom..."). The message goes on the sentence the label starts: its first letter
    small, unless its second is a capital too (a PIN). A refusal of the whole form (one
    ``validate()`` adds to ``form_errors``: a rules' ``Said`` or a sentence) is said alone.
    ``passing_over``: fields whose refusals are said elsewhere (``error_at_top``)."""
    for field in form:
        if field.errors and field.name not in passing_over:
            message = str(field.errors[0])
            if field.name in ("csrf_token", "layout"):
                return message
            if message[1:2].islower():
                message = message[:1].lower() + message[1:]
            return f"{field.label.text}{colon()} {message}"
    if form.form_errors:
        return say(form.form_errors[0])
    return _("Something in the form is not right")


def error_at_top(form, drawn: Container[str]) -> str | None:
    """What a page says at the top of a form whose fields ``drawn`` show their own refusals under
    them: the first refusal of the others (``first_error``), or None when each is at its field."""
    if form.form_errors or any(field.errors for field in form if field.name not in drawn):
        return first_error(form, drawn)
    return None


def csv_answer(text: str, filename: str):
    """A CSV file to download."""
    response = make_response(text)
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def flash_said(refusal: Any) -> None:
    """Flash what a service said (a rules' ``Said``, its first letter small as it also goes
    inside sentences) as a notice of its own: in the page's language, as a sentence."""
    flash(sentence(say(refusal)))


def flash_action(text: str, action: str, label: str, fields: list[tuple[str, str | int]],
                 notice_id: str | None = None) -> None:
    """Flash a notice that offers one action, such as the Undo after a delete: the next page
    shows ``text`` with a button ``label`` that posts ``fields`` to ``action`` (a plain form with
    the CSRF token: no script needed; base.html draws it with the ``action_notice`` macro).
    ``notice_id`` names the form, so a fragment swapped in later can take the button away
    (hx-swap-oob) once the action no longer holds. The page answering the action checks that
    it still holds: a notice left open is only an offer."""
    # any JSON the session keeps is a message; Flask's types say str
    flash({"text": text, "action": action, "label": label, "fields": fields, "id": notice_id},  # type: ignore[arg-type]
          "action")
