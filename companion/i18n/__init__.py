"""One language per page: Italian, English or French, with Flask-Babel.

A page's language is the one the player chose with the switch on every page (kept in a cookie),
else the best of the phone's ``Accept-Language``, else the server's ``--lang``, else Italian, the
game's own. The JSON API speaks English unless the request's ``Accept-Language`` asks for Italian
or French. Cards are named in words here (the rules package only knows ``7d``), with the names of
the pack on the table: ``7 di denari``, ``seven of coins``, ``7 de deniers``.
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
from ..rules.said import Joined, Said, Suit, Versus, english
from .fitting import FittingBabel, FittingTranslations, template_gettext, template_ngettext

LANGUAGES = {"it": "Italiano", "en": "English", "fr": "Français"}
COOKIE = "lang"


babel = FittingBabel()


def page_language() -> str:
    """The language of this page (or of this API answer)."""
    if request.path.startswith("/api/"):
        return request.accept_languages.best_match(["en", "it", "fr"]) or "en"
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return (request.accept_languages.best_match(list(LANGUAGES))
            or current_app.config.get("LANG") or "it")


def regional(language: str) -> str:
    """The locale this page writes dates and numbers in: the phone's own, with its territory
    (en_GB: "24 Nov 2026", 13:05; fr_CH, fr_BE), when its ``Accept-Language`` names the page's
    language with one; else the language's (en: "Nov 24, 2026"). The messages stay in it, en or
    fr: a territory changes how figures are written, not the words."""
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


# -- Cards in words -------------------------------------------------------------------------

# Per language and pack: the names of the values (the others are their figures) and the suits.
_ITALIAN_PACK = {
    "it": ({1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"},
           {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}),
    "en": ({1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
            8: "Jack", 9: "Horse", 10: "King"},
           {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}),
    "fr": ({1: "As", 8: "Valet", 9: "Cavalier", 10: "Roi"},
           {"d": "deniers", "c": "coupes", "s": "épées", "b": "bâtons"}),
}
_FRENCH_PACK = {
    "it": ({1: "Asso", 8: "Fante", 9: "Donna", 10: "Re"},
           {"d": "quadri", "c": "cuori", "s": "picche", "b": "fiori"}),
    "en": ({1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
            8: "Jack", 9: "Queen", 10: "King"},
           {"d": "diamonds", "c": "hearts", "s": "spades", "b": "clubs"}),
    "fr": ({1: "As", 8: "Valet", 9: "Dame", 10: "Roi"},
           {"d": "carreau", "c": "cœur", "s": "pique", "b": "trèfle"}),
}
# The Chkobba pack names its 9 the Jack and its 8 the Queen (only the labels: RULES §1).
_CHKOBBA_FIGURES = {"it": {8: "Donna", 9: "Fante"}, "en": {8: "Queen", 9: "Jack"},
                    "fr": {8: "Dame", 9: "Valet"}}


def card_words(card: Card, language: str, pack: str = "italian") -> str:
    """'7 di denari', 'Seven of coins', '7 de deniers'; 'Re di denari', 'Queen of hearts'. In
    English every value is a capital, as the messages write the Ace and the King."""
    values, suits = (_ITALIAN_PACK if pack == "italian" else _FRENCH_PACK)[language]
    if pack == "chkobba":
        values = {**values, **_CHKOBBA_FIGURES[language]}
    value, suit = values.get(card.value, str(card.value)), suits[card.suit]
    if language == "it":
        return f"{value} di {suit}"
    if language == "fr":
        return f"{value} d’{suit}" if suit[0] in "aeiouéè" else f"{value} de {suit}"
    return f"{value} of {suit}"


_SYMBOLS = {"d": "♦", "c": "♥", "s": "♠", "b": "♣"}
# What a card tile shows for a figure, per language: F C R in Italian, J Q K in English...
_SHORT = {"italian": {"it": {1: "A", 8: "F", 9: "C", 10: "R"}, "en": {1: "A", 8: "J", 9: "H", 10: "K"},
                      "fr": {1: "A", 8: "V", 9: "C", 10: "R"}},
          "french": {"it": {1: "A", 8: "F", 9: "D", 10: "R"}, "en": {1: "A", 8: "J", 9: "Q", 10: "K"},
                     "fr": {1: "A", 8: "V", 9: "D", 10: "R"}},
          "chkobba": {"it": {1: "A", 8: "D", 9: "F", 10: "R"}, "en": {1: "A", 8: "Q", 9: "J", 10: "K"},
                      "fr": {1: "A", 8: "D", 9: "V", 10: "R"}}}


# A suit in a mini tile: the French packs' symbol; the Italian suits' initials, two letters in
# English, where coins, cups and clubs share one.
_MARKS = {"it": {"d": "d", "c": "c", "s": "s", "b": "b"}, "fr": {"d": "d", "c": "c", "s": "é", "b": "b"},
          "en": {"d": "co", "c": "cu", "s": "sw", "b": "cl"}}


def suit_mark(suit: str, pack: str = "italian", language: str | None = None) -> str:
    if pack != "italian":
        return _SYMBOLS[suit]
    return _MARKS[language or str(get_locale())][suit]


def card_notation(cards: str, pack: str = "italian", language: str | None = None) -> str:
    """Cards in RULES §1's notation ("7d 7c 6b 1s") written as the page marks their suits: the
    same in Italian, "7co 7cu 6cl 1sw" in English (where "7c" reads as a club), "7d 7c 6b 1é" in
    French, "7♦ 7♥ 6♣ 1♠" with a French-suited pack (``read_marks`` reads them back).

    >>> card_notation("7d 7c 6b 1s", language="en"), card_notation("7d 6b", "french", "it")
    ('7co 7cu 6cl 1sw', '7♦ 6♣')
    """
    return " ".join(code[:-1] + suit_mark(code[-1], pack, language) for code in cards.split())


def suit_marks(pack: str = "italian", language: str | None = None) -> str:
    """What each suit's mark stands for, as a card's notation on the page writes it: "co coins,
    cu cups, sw swords, cl clubs"."""
    language = language or str(get_locale())
    return ", ".join(f"{suit_mark(suit, pack, language)} {suit_words(suit, pack, language).split()[-1]}"
                     for suit in "dcsb")


def read_marks(token: str, pack: str = "italian", language: str | None = None) -> str:
    """A card typed as the page marks its suit ("7co", "1é", "7♦") in RULES §1's notation
    ("7d"); anything else as it was typed (RULES' own "7c" is cups on every page).

    >>> read_marks("7CO", language="en"), read_marks("7c", language="en"), read_marks("1é", language="fr")
    ('7d', '7c', '1s')
    """
    marks = {mark: suit for suit, mark in _MARKS[language or str(get_locale())].items()}
    marks.update((symbol, suit) for suit, symbol in _SYMBOLS.items())
    found = re.fullmatch(r"(\d+)(\D+)", token.strip().lower())
    if found and found.group(2) in marks:
        return found.group(1) + marks[found.group(2)]
    return token


def suit_words(suit: str, pack: str = "italian", language: str | None = None) -> str:
    """The suit's name in the page's language: 'denari', 'coins', 'deniers'; with a French-suited
    pack its symbol first ('♦ quadri')."""
    language = language or str(get_locale())
    name = (_ITALIAN_PACK if pack == "italian" else _FRENCH_PACK)[language][1][suit]
    return name if pack == "italian" else f"{_SYMBOLS[suit]} {name}"


# One card of a suit, for "1 denaro" beside "4 denari".
_ONE_OF_SUIT = {"it": {"d": "denaro", "c": "coppa", "s": "spada", "b": "bastone"},
                "en": {"d": "coin", "c": "cup", "s": "sword", "b": "club"},
                "fr": {"d": "denier", "c": "coupe", "s": "épée", "b": "bâton"}}


# The counts a language says in the singular: "1 carta", and in French "0 carte" too.
_SINGULAR = {"fr": (0, 1)}


def singular_counts(language: str) -> tuple[int, ...]:
    """The counts said in the singular in ``language`` ("1 card", "0 carte")."""
    return _SINGULAR.get(language, (1,))


def pile_count_forms(suit: str, pack: str, language: str) -> dict[str, Any]:
    """How the pile picker counts a pile, ``#`` standing for the number: "# carta", "# carte",
    "# denaro", "# denari" (a French-suited pack: "# ♦"), and ``one``, the counts said in the
    singular. The page sends it to companion.js (``data-count-forms``), which counts a pile as
    cards are tapped with these words and this rule, and no copy of its own."""
    many = suit_words(suit, pack, language) if pack == "italian" else _SYMBOLS[suit]
    one = _ONE_OF_SUIT[language][suit] if pack == "italian" else _SYMBOLS[suit]
    return {"card": gettext("%(count)s card", count="#"), "cards": gettext("%(count)s cards", count="#"),
            "coin": f"# {one}", "coins": f"# {many}", "one": list(singular_counts(language))}


def pile_count_text(cards: int, coins: int, forms: dict[str, Any], language: str) -> str:
    """A pile counted: "18 carte, 4 denari" (companion.js writes the same as cards are tapped).

    >>> forms = {"card": "# carta", "cards": "# carte", "coin": "# denaro", "coins": "# denari"}
    >>> pile_count_text(18, 1, forms, "it")
    '18 carte, 1 denaro'
    """
    singular = singular_counts(language)
    return ", ".join(forms[key if n in singular else key + "s"].replace("#", str(n))
                     for n, key in ((cards, "card"), (coins, "coin")))


def short_words(card: Card, pack: str = "italian", language: str | None = None) -> str:
    """What a card tile shows: its number, or its figure's initial in the page's language."""
    language = language or str(get_locale())
    return _SHORT[pack][language].get(card.value, str(card.value))


def value_words(value: int, pack: str = "italian", language: str | None = None) -> str:
    """A card's value in words, without its suit: 'Fante', 'Jack', 'seven' (the rules pages'
    scale of the primiera names values, not cards)."""
    language = language or str(get_locale())
    values = (_ITALIAN_PACK if pack == "italian" else _FRENCH_PACK)[language][0]
    if pack == "chkobba":
        values = {**values, **_CHKOBBA_FIGURES[language]}
    return values.get(value, str(value))


def card_in_words(card: Card, pack: str = "italian") -> str:
    """A card in words in the page's language (templates: ``card_name(card, pack)``)."""
    return card_words(card, str(get_locale()), pack)


def tile_words(card: Card, pack: str = "italian", language: str | None = None) -> str:
    """A card tile's name for a screen reader or a speech user: the card in words, led by what
    the tile shows when the words do not start with it (WCAG 2.5.3, label in name: one says
    what one sees). "2, Two of coins"; "Ace of coins", "7 di denari" as they are.

    >>> from companion.rules.cards import parse_card
    >>> [tile_words(parse_card(c), language="en") for c in ("2d", "1d", "10c")]
    ['2, Two of coins', 'Ace of coins', 'King of cups']
    >>> tile_words(parse_card("2d"), language="it"), tile_words(parse_card("9s"), "french", "fr")
    ('2 di denari', 'Dame de pique')
    """
    language = language or str(get_locale())
    shown, words = short_words(card, pack, language), card_words(card, language, pack)
    return words if words.lower().startswith(shown.lower()) else f"{shown}, {words}"


def show(value: Any, language: str | None = None, pack: str = "italian") -> str:
    """One value of an explanation as this page shows it."""
    language = language or str(get_locale())
    if isinstance(value, Card):
        return card_words(value, language, pack)
    if isinstance(value, Suit):
        return suit_words(value.code, pack, language)
    if isinstance(value, Versus):
        between = {"it": " a ", "fr": " à "}.get(language, " to ")
        return between.join(show(v, language, pack) for v in value.figures)
    if isinstance(value, list):
        words = [show(v, language, pack) for v in value]
        return ", ".join(words)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) and -1000 < value < 1000:
        return str(value)       # what Babel writes in all three, 30 times quicker (a list of hands)
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
        chosen = pack or getattr(g, "pack", "italian")
        language = str(get_locale())
        text = what.render(FittingTranslations(get_translations(), language),
                           lambda v: show(v, language, chosen))
        # Several sentences joined ("; ", rules.said.Joined): French spaces its semicolon.
        return re.sub(r"(?<=[^\s\u00a0]); ", "\u00a0; ", text) if language == "fr" else text
    return str(what)


def for_api(what: Any) -> str:
    """An explanation or a refusal as the JSON API gives it: cards in their notation (7d), in
    English unless the request asked for Italian or French."""
    if isinstance(what, Exception):
        what = what.args[0] if what.args else str(what)
    if isinstance(what, (Said, Joined)) and str(get_locale()) != "en":
        return what.render(FittingTranslations(get_translations(), str(get_locale())), english)
    return str(what)


def explain(error: Exception) -> str:
    """A refusal (a ScopaError, its message a Said or plain text) in this page's language."""
    return say(error.args[0]) if error.args else str(error)


# The points of a hand as each language's players name them (the game's own terms kept where
# they use them: primiera, settebello, scopa).
ITEM_LABELS = {
    "carte": lazy_gettext("Cards"), "denari": lazy_gettext("Coins"),
    "settebello": lazy_gettext("Settebello"), "primiera": lazy_gettext("Primiera"),
    "scope": lazy_gettext("Scope"), "re_bello": lazy_gettext("Re Bello"),
    "napola": lazy_gettext("Napola"), "scalette": lazy_gettext("Scalette"),
    "piva": lazy_gettext("Piva"), "declarations": lazy_gettext("Bazzica"),
}


def item_label(item: str, rules: Any = None) -> str:
    """A point's name; "coins" becomes the bonus suit's name where another suit is the bonus."""
    if item == "denari" and rules is not None and rules.bonus_suit != "d":
        return suit_words(rules.bonus_suit, rules.pack).capitalize()
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
    app.add_template_global(pile_count_forms)
    app.add_template_global(pile_count_text)
