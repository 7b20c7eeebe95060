"""One language per page: Italian, English, French or Spanish, with Flask-Babel.

A page's language is the one the player chose with the switch on every page (kept in a cookie),
else the best of the phone's ``Accept-Language`` (``es-AR`` is Spanish), else the server's
``--lang``, else Italian, the game's own. The JSON API speaks English unless the request's
``Accept-Language`` asks for another of the four. Cards are named in words here (the rules
package only knows ``7d``), with the names of the pack on the table: ``7 di denari``, ``seven of
coins``, ``7 de deniers``, ``siete de oros``.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_time, format_timedelta
from babel.numbers import format_decimal, format_percent
from flask import Flask, current_app, g, has_request_context, request
from flask_babel import get_locale, get_translations, gettext, lazy_gettext

from ..rules.cards import Card
from ..rules.rulesets import PRESET_TITLES
from ..rules.said import Figure, Item, Joined, Said, Suit, Versus, english
from .cards import (
    card_in_words,
    card_notation,
    card_words,
    pile_count_forms,
    pile_count_text,
    read_marks,
    short_words,
    singular_counts,
    suit_mark,
    suit_marks,
    suit_name,
    suit_words,
    tile_words,
    value_words,
    worth_words,
)
from .fitting import FittingBabel, FittingTranslations, page_catalogue, template_gettext, template_ngettext

# The pages' languages, each named in itself (the language switch): the command's --lang and
# SCOPA_LANG take one of them (companion.settings), and every page is worded in them.
LANGUAGES = {"it": "Italiano", "en": "English", "fr": "Français", "es": "Español"}
COOKIE = "lang"
# The API's language when a request asks for none of them: English, the messages' own.
API_LANGUAGES = ["en", *(code for code in LANGUAGES if code != "en")]


babel = FittingBabel()


def page_language() -> str:
    """The language of this page (or of this API answer)."""
    if request.path.startswith("/api/"):
        return request.accept_languages.best_match(API_LANGUAGES) or "en"
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return (request.accept_languages.best_match(list(LANGUAGES))
            or current_app.config.get("LANG") or "it")


def regional(language: str) -> str:
    """The locale this page writes dates and numbers in: the phone's own, with its territory
    (en_GB: "24 Nov 2026", 13:05; fr_CH, fr_BE; es_AR, es_MX, es_419), when its
    ``Accept-Language`` names the page's language with one; else the language's (en: "Nov 24,
    2026"). The messages stay in it, en, fr or es: a territory changes how figures are written,
    not the words."""
    if not has_request_context():
        return language
    found = g.get("regional_locales")
    if found is None:
        found = {}
        for tag, _quality in request.accept_languages:      # the phone's best first
            try:
                locale = Locale.parse(tag, sep="-")
            except (ValueError, TypeError, UnknownLocaleError):
                continue
            if locale.territory and locale.language in LANGUAGES:
                found.setdefault(locale.language, str(locale))
        g.regional_locales = found
    return found.get(language, language)


def colon(language: str | None = None) -> str:
    """A label's colon: French puts a no-break space before it ("Règles :")."""
    return "\u00a0:" if (language or str(get_locale())) == "fr" else ":"


def show(value: Any, language: str | None = None, pack: str = "italian") -> str:
    """One value of an explanation as this page shows it."""
    language = language or str(get_locale())
    if isinstance(value, Card):
        return card_words(value, language, pack)
    if isinstance(value, Suit):
        if value.pack:     # a suit of the pack named, without its symbol: "cups (hearts ...)"
            return suit_name(value.code, value.pack, language)
        return suit_words(value.code, pack, language)
    if isinstance(value, Figure):
        return value_words(value.value, pack, language)
    if isinstance(value, Item):         # "Escobas 1", not the API's "scope 1" (item_label: below)
        return item_label(value.key, value)
    if isinstance(value, Versus):
        between = {"it": " a ", "fr": " à ", "es": " a "}.get(language, " to ")
        return between.join(show(v, language, pack) for v in value.figures)
    if isinstance(value, list):
        words = [show(v, language, pack) for v in value]
        return ", ".join(words)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) and -1000 < value < 1000:
        return str(value)       # what Babel writes in all four, 30 times quicker (a list of hands)
    if isinstance(value, (int, float)):
        return format_decimal(value, locale=regional(language))
    return str(value)


def show_all(values: Any, between: str, language: str) -> str:
    """Several figures shown one after the other ("13 · 5"). Templates pass the page's ``lang``:
    Flask-Babel's lookup costs more than the figures, and a list of 200 hands shows 800."""
    return between.join(show(value, language) for value in values)


def percent(share: float, language: str) -> str:
    """A share as ``language`` writes a whole percentage ("62 %" in French)."""
    return format_percent(share, locale=regional(language))


def signed(value: int, language: str) -> str:
    """A change with its sign, a minus sign for a fall ("+12", "−8", "±0").

    >>> signed(12, "en"), signed(-8, "it"), signed(0, "fr"), signed(1200, "fr")
    ('+12', '−8', '±0', '+1 200')
    """
    sign = "+" if value > 0 else "\u2212" if value < 0 else "\u00b1"
    return sign + show(abs(value), language)


def decimal(value: float, language: str) -> str:
    """A rate to one decimal place ("1,4" in Italian and French)."""
    return format_decimal(round(value, 1), format="0.0", locale=regional(language))


def say(what: Any, pack: str | None = None) -> str:
    """An explanation or a refusal of the rules (a ``Said``) in this page's language."""
    if isinstance(what, (Said, Joined)):
        chosen = pack or g.get("pack", "italian")
        translations, language = page_catalogue()
        text = what.render(FittingTranslations(translations, language),
                           lambda v: show(v, language, chosen))
        # Several sentences joined ("; ", rules.said.Joined): French spaces its semicolon.
        return re.sub(r"(?<=[^\s\u00a0]); ", "\u00a0; ", text) if language == "fr" else text
    return str(what)


def api_words() -> FittingTranslations | None:
    """The request's catalogue as ``for_api`` reads it, None in English (the rules' own words):
    looked up once for an answer that words many values (a match's 200 hands, 5 lines each),
    as Flask-Babel's lookup costs more than the wording."""
    translations, language = page_catalogue()
    return None if language == "en" else FittingTranslations(translations, language)


# ``for_api``'s words when none are given: looked up for the request (None is English's).
LOOKED_UP = object()


def for_api(what: Any, words: Any = LOOKED_UP) -> str:
    """An explanation or a refusal as the JSON API gives it: cards in their notation (7d), in
    English unless the request asked for Italian, French or Spanish. ``words``: ``api_words()``,
    looked up here unless given."""
    if isinstance(what, Exception):
        what = what.args[0] if what.args else str(what)
    if isinstance(what, (Said, Joined)):
        if words is LOOKED_UP:
            words = api_words()
        if words is not None:
            return what.render(words, english)
    return str(what)


def explain(error: Exception, pack: str | None = None) -> str:
    """A refusal (a ScopaError, its message a Said or plain text) in this page's language, its
    cards named in ``pack`` (a match's own: Escoba's 7 of oros, not the 7 di denari)."""
    return say(error.args[0], pack) if error.args else str(error)


def sentence(text: Any) -> str:
    """A message shown alone, as a sentence: its first letter a capital. The rules' refusals
    start small, as they also go inside other sentences ("Not undone: the match ..."); a page
    showing one by itself writes it as a sentence ("Le carte di denari sono 9 in tutto").

    >>> sentence("le carte di denari sono 9 in tutto, non 10"), sentence("7d is in both piles")
    ('Le carte di denari sono 9 in tutto, non 10', '7d is in both piles')
    """
    text = str(text)
    return text[:1].upper() + text[1:]


# The points of a hand as each language's players name them (the game's own terms kept where
# they use them: primiera, settebello, scopa).
ITEM_LABELS = {
    "carte": lazy_gettext("Cards"), "denari": lazy_gettext("Coins"),
    "settebello": lazy_gettext("Settebello"), "primiera": lazy_gettext("Primiera"),
    "scope": lazy_gettext("Scope"), "re_bello": lazy_gettext("Re Bello"),
    "napola": lazy_gettext("Napola"), "scalette": lazy_gettext("Scalette"),
    "piva": lazy_gettext("Piva"), "declarations": lazy_gettext("Bazzica"),
    "grande": lazy_gettext("Grande"), "piccola": lazy_gettext("Piccola"),
}


# Escoba's points by its own Spanish names on every page (RULES §12): cartas, oros, el velo (the
# siete de oros), setenta, escobas. Catalogue messages, as the rules pages gloss them.
ESCOBA_LABELS = {
    "carte": lazy_gettext("Cartas"), "denari": lazy_gettext("Oros"), "settebello": lazy_gettext("Velo"),
    "primiera": lazy_gettext("Setenta"), "scope": lazy_gettext("Escobas"),
}


# Chkobba's points as its players name them (seed 003: "Kārṭa", "Dīnārī", "Barmīla", "Sabʿa
# l-ḥayya", a sweep "a chkobba"; French players write karta, dinari, bermila, sabaa el haya),
# each with the page's own word beside it. Each only where Chkobba's own rule is in force.
CHKOBBA_LABELS = {
    "carte": lazy_gettext("Karta (cards)"), "denari": lazy_gettext("Dinari (diamonds)"),
    "settebello": lazy_gettext("Sabaa el haya (seven of diamonds)"),
    "primiera": lazy_gettext("Bermila (primiera)"), "scope": lazy_gettext("Chkobba (scope)"),
}


def _chkobbas(item: str, rules: Any) -> bool:
    if rules is None or rules.preset != "chkobba" or item not in CHKOBBA_LABELS:
        return False
    return {"denari": rules.bonus_suit == "d", "settebello": rules.bonus_suit == "d",
            "primiera": rules.primiera == "sevens-sixes"}.get(item, True)


def item_label(item: str, rules: Any = None) -> str:
    """A point's name; "coins" becomes the bonus suit's name where another suit is the bonus;
    Escoba's by their Spanish names, and Chkobba's points are called as its players call them."""
    if rules is not None and rules.preset == "escoba" and item in ESCOBA_LABELS:
        return str(ESCOBA_LABELS[item])
    if _chkobbas(item, rules):
        return str(CHKOBBA_LABELS[item])
    if item == "denari" and rules is not None and rules.bonus_suit != "d":
        return suit_words(rules.bonus_suit, rules.pack).capitalize()
    if item == "declarations" and rules is not None and rules.declarations == "cirulla":
        return str(lazy_gettext("Accusi"))
    return str(ITEM_LABELS.get(item, item))


# The variants by the names their players use: Italian names, but for the two Sco-papa titles.
VARIANT_TITLES = {**PRESET_TITLES,
                  "sco-papa": lazy_gettext("Sco-papa (most sevens, then sixes)"),
                  "sco-papa-primiera": lazy_gettext("Sco-papa with primiera")}


def variant_title(preset: str) -> str:
    return str(VARIANT_TITLES.get(preset, preset))


def when(stamp: str, language: str) -> str:
    """A stored time (ISO, UTC) as the phone writes it in ``language`` (``regional``), in the
    server's own time zone, which is the table's: '22 nov 2026, 18:05', 'Nov 22, 2026, 6:05 PM',
    on a British phone '22 Nov 2026, 18:05'."""
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError):
        return ""
    locale = regional(language)
    return f"{format_date(moment, 'medium', locale=locale)}, {format_time(moment, 'short', locale=locale)}"


def how_long(seconds: float) -> str:
    """A wait in the page's language, rounded as people say it: "42 minuti", "30 seconds"."""
    return format_timedelta(timedelta(seconds=seconds), threshold=1, locale=str(get_locale()))


def http_message(code: int) -> str:
    """What a page says for an HTTP error, in the page's language."""
    if code == 404:
        return gettext("There is no such page here: it may have been deleted.")
    if code == 413:
        return gettext("That is too big to send to the companion.")
    if code == 414:
        return gettext("That address is too long for the companion: go back and try again.")
    if code == 429:
        return gettext("Too many tries: wait a minute, then try again.")
    if code in (400, 403, 405):
        return gettext("The companion cannot do that: go back and try again.")
    return gettext("Something went wrong on the server. Nothing was lost; try again.")


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES",
                          str(Path(__file__).resolve().parent.parent / "translations"))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")     # the messages' own language
    babel.init_app(app, locale_selector=page_language)
    # The templates' _() and ngettext(), fitted as Python's are (``fit``).
    app.jinja_env.globals.update(gettext=template_gettext, ngettext=template_ngettext)

    @app.context_processor
    def language_of_the_page() -> dict[str, Any]:
        lang = str(get_locale())
        return {"lang": lang, "languages": LANGUAGES, "colon": colon(lang),
                "semicolon": "\u00a0;" if lang == "fr" else ";"}

    app.add_template_global(say)
    app.add_template_filter(sentence)
    app.add_template_global(variant_title)
    app.add_template_global(show)
    app.add_template_global(show_all)
    app.add_template_global(percent)
    app.add_template_global(decimal)
    app.add_template_global(signed)
    app.add_template_global(when)
    app.add_template_global(item_label)
    app.add_template_global(card_in_words, "card_name")
    app.add_template_global(tile_words, "tile_name")
    app.add_template_global(suit_words, "suit_label")
    app.add_template_global(suit_mark)
    app.add_template_global(card_notation)
    app.add_template_global(suit_marks)
    app.add_template_global(short_words, "short_label")
    app.add_template_global(worth_words, "worth_label")
    app.add_template_global(pile_count_forms)
    app.add_template_global(pile_count_text)
