"""The limits' refusals in the player's words (``web.limits`` counts; this says): a new match
or a delete refused, with what to do (wait, or ask the organiser for the QR of the night when
it is the address that is held), a code or a PIN sent from another site's page; and, once, a
word on the log when a proxy seems to be in front without --trust-proxy."""

from __future__ import annotations

import math

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _, ngettext

from ..i18n import for_api
from ..rules.said import Said, said, said_n
from .limits import FromAnotherSite, TooMany

FORWARDING = ("Forwarded", "X-Forwarded-For", "X-Real-IP")


def init_app(app: Flask) -> None:
    """A refused new match or delete, and a code or PIN from another site's page, answered in
    the phone's language; and, once, a word on the log when a proxy seems to be in front
    without --trust-proxy: every phone then has its address, and shares its limits."""
    @app.errorhandler(TooMany)
    def too_many(error: TooMany):
        minutes = max(1, math.ceil(error.wait / 60))

        def refused(for_the_api: Said | None, for_the_page: str):
            """The refusal in the API's words, or on the page (also an API request's, when it
            has no words of its own: the API deletes no match)."""
            retry = {"Retry-After": str(error.wait)}
            if for_the_api is not None and request.path.startswith("/api/"):
                return jsonify({"error": for_api(for_the_api)}), 429, retry
            return render_template("error.html", message=for_the_page), 429, retry

        if error.scope == "address" and error.limit == "new phones":    # a phone new here, among too many
            return refused(said_n(
                "too many new phones at this address this hour: wait {n} minute, or ask the "
                "organiser for the QR of the night",
                "too many new phones at this address this hour: wait {n} minutes, or ask the "
                "organiser for the QR of the night", minutes), ngettext(
                "Too many phones new to the companion have started or deleted matches from this "
                "network this hour: wait %(num)d minute, or ask the organiser for the QR of the "
                "night, which lets the club's phones go on.",
                "Too many phones new to the companion have started or deleted matches from this "
                "network this hour: wait %(num)d minutes, or ask the organiser for the QR of the "
                "night, which lets the club's phones go on.", minutes))
        if error.scope == "address":        # the ceiling of the phones not let in by the QR
            return refused(said_n(
                "too many matches started or deleted from this address this hour: wait {n} "
                "minute, or ask the organiser for the QR of the night",
                "too many matches started or deleted from this address this hour: wait {n} "
                "minutes, or ask the organiser for the QR of the night", minutes), ngettext(
                "Too many matches started or deleted from this network this hour: wait %(num)d "
                "minute, or ask the organiser for the QR of the night, which lets the club's "
                "phones go on.",
                "Too many matches started or deleted from this network this hour: wait %(num)d "
                "minutes, or ask the organiser for the QR of the night, which lets the club's "
                "phones go on.", minutes))
        if error.kind == "match deletes":
            return refused(None, ngettext(
                "Too many matches deleted from this phone: wait %(num)d minute, then try again, "
                "or ask the organiser.",
                "Too many matches deleted from this phone: wait %(num)d minutes, then try again, "
                "or ask the organiser.", minutes))
        return refused(said_n(
            "too many new matches from this address: wait {n} minute, then try again",
            "too many new matches from this address: wait {n} minutes, then try again",
            minutes), ngettext(
            "Too many new matches from this phone: wait %(num)d minute, then try again.",
            "Too many new matches from this phone: wait %(num)d minutes, then try again.",
            minutes))

    @app.errorhandler(FromAnotherSite)
    def from_another_site(_error: FromAnotherSite):
        if request.path.startswith("/api/"):
            return jsonify({"error": for_api(said(
                "this request comes from another site's page: nothing was done"))}), 403
        return render_template("error.html", message=_(
            "This came from another site's page, so it was not tried: open the companion "
            "yourself and try again.")), 403

    @app.before_request
    def proxy_in_front() -> None:
        if (app.config.get("TRUST_PROXY") or app.extensions.get("scopa.proxy_said")
                or not any(header in request.headers for header in FORWARDING)):
            return
        app.extensions["scopa.proxy_said"] = True
        app.logger.warning(
            "scopa-companion: a request from %(peer)s carries forwarding headers (X-Forwarded-For): "
            "if a reverse proxy at %(peer)s is in front, every phone has its address and shares "
            "its limits on PINs, new and deleted matches; if that proxy sets X-Forwarded-For itself (nginx "
            "with proxy_set_header), start with --trust-proxy %(peer)s; never for a relay that "
            "passes the phones' own headers on (socat): docs/running.md. Said once.",
            {"peer": request.remote_addr})
