"""What a request may carry, bounded to what a phone could need and no more (issue 41): a guest
must not make the server work, or answer, in proportion to what it cares to send.

- The headers, the request line included, 32 KiB in all (``listening.HEADER_LIMIT``): waitress
  refuses more with 431 before the app sees anything (``listening.waitress_options``). A phone sends 1 to 5
  KiB: its cookie (at most 4 KiB in any browser), its user agent, an address of a few hundred
  bytes.
- The address, path and query, 16 KiB (``URL``): 414 here, before anything reads the query.
  The longest a page asks for is the referee's primiera tool opened from a hand's form, which
  carries the form along (``keep``, up to 6,000 characters: ``web.forms.KEEP_MAX``, about 9
  KiB once percent-encoded); then the new match's chances, which send the whole form (four
  names and two team names, each up to 9 bytes a letter once percent-encoded: about 4 KiB at
  the very worst). Every page that writes a query back (a filter, a next page) so writes
  back at most this.
- ``Accept-Language``: its first 16 languages, of at most 256 characters together, are all
  that is read (``LANGUAGES``, ``LANGUAGES_LENGTH``). A browser sends 1 to 6; each one read
  costs a ``Locale.parse`` for the page's dates, and 200 KB of them cost 318-370 ms a page.

A body is bounded by waitress too (``listening.waitress_options``): 64 KiB, the app's
``MAX_CONTENT_LENGTH``; the organiser's restore comes in parts of that size. A page's form comes
as a form, never as JSON (400): Flask-WTF reads a JSON body as a form's fields, and JSON that is
not an object, or fields that are not text (``{"pin": 123456}``), made a 500 on every page with a
form. JSON is the API's (``/api/``), which reads it itself.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import BadRequest, HTTPException

URL = 16 * 1024
LANGUAGES = 16
LANGUAGES_LENGTH = 256


class URITooLong(HTTPException):
    """werkzeug names 414 but has no exception for it."""
    code = 414
    description = "The address is too long."


def bounded_languages(header: str) -> str:
    """The first ``LANGUAGES`` languages of an ``Accept-Language`` header, cut at a comma
    within ``LANGUAGES_LENGTH`` characters (a language cut in two is left out).

    >>> bounded_languages("it-IT,it;q=0.9,en;q=0.8")
    'it-IT,it;q=0.9,en;q=0.8'
    >>> bounded_languages(",".join(f"x{n}" for n in range(5000))).count(",")
    15
    >>> bounded_languages("fr," + "x" * 300)
    'fr'
    """
    if len(header) <= LANGUAGES_LENGTH and header.count(",") < LANGUAGES:
        return header
    cut = header[:LANGUAGES_LENGTH + 1]
    if len(header) > LANGUAGES_LENGTH:
        cut = cut[:cut.rfind(",")] if "," in cut else ""
    return ",".join(cut.split(",")[:LANGUAGES])


def init_app(app: Flask) -> None:
    """The check runs first of all, before the host check and anything that reads the query
    or the languages. It is cheap (two lengths, a header read), as a hook every request runs
    must be, static files included."""
    def bounded() -> None:
        environ = request.environ
        if len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", "")) > URL:
            raise URITooLong()
        languages = environ.get("HTTP_ACCEPT_LANGUAGE")
        if languages:
            environ["HTTP_ACCEPT_LANGUAGE"] = bounded_languages(languages)
        if (request.is_json and request.method != "GET" and request.endpoint is not None
                and request.blueprint != "api"):        # a page's; no such page is still a 404
            raise BadRequest()
    app.before_request_funcs.setdefault(None, []).insert(0, bounded)
