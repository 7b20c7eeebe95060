"""Cards in words in a language: a card's name ("Seven of coins", "7 di denari", "siete de oros"), what a tile
shows ("7", "R") and the name it has for a screen reader, the suits' words and marks, a card's
notation as a page writes it and reads it back, and a pile counted in words. Re-exported by
``companion.i18n``."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import get_locale, gettext, lazy_gettext as _l

from ..rules.cards import Card

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
    # Spanish names the Italian pack as its own (the same forty cards): "as de oros", "sota de
    # copas", in lower case as Spanish writes them in a sentence ("el siete de oros").
    "es": ({1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
            8: "sota", 9: "caballo", 10: "rey"},
           {"d": "oros", "c": "copas", "s": "espadas", "b": "bastos"}),
}
_FRENCH_PACK = {
    "it": ({1: "Asso", 8: "Fante", 9: "Donna", 10: "Re"},
           {"d": "quadri", "c": "cuori", "s": "picche", "b": "fiori"}),
    "en": ({1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
            8: "Jack", 9: "Queen", 10: "King"},
           {"d": "diamonds", "c": "hearts", "s": "spades", "b": "clubs"}),
    "fr": ({1: "As", 8: "Valet", 9: "Dame", 10: "Roi"},
           {"d": "carreau", "c": "cœur", "s": "pique", "b": "trèfle"}),
    "es": ({1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
            8: "jota", 9: "reina", 10: "rey"},
           {"d": "diamantes", "c": "corazones", "s": "picas", "b": "tréboles"}),
}
# The Chkobba pack names its 9 the Jack and its 8 the Queen (only the labels: RULES §1).
_CHKOBBA_FIGURES = {"it": {8: "Donna", 9: "Fante"}, "en": {8: "Queen", 9: "Jack"},
                    "fr": {8: "Dame", 9: "Valet"}, "es": {8: "reina", 9: "jota"}}
# The Spanish pack (Escoba, RULES §12) keeps its own names on every page: its figures are not
# the Italian pack's (a sota is no Fante, a caballo no Queen) and its suits name Escoba's points
# (oros). They are catalogue messages, for a language to write them its own way; the Ace and the
# numbers are written as the Italian pack's are.
_SPANISH_FIGURES = {8: _l("Sota"), 9: _l("Caballo"), 10: _l("Rey")}
_SPANISH_SUITS = {"d": _l("oros"), "c": _l("copas"), "s": _l("espadas"), "b": _l("bastos")}
_SPANISH_ONE = {"d": _l("oro"), "c": _l("copa"), "s": _l("espada"), "b": _l("basto")}
# What its cards print in their corners: 1 to 7, and 10, 11, 12 on the sota, caballo and rey,
# which are worth 8, 9 and 10 (pagat: "The Sota is labelled 10, though it is worth only 8").
_SPANISH_PRINTED = {8: "10", 9: "11", 10: "12"}
_SPANISH_WORTH = {printed: str(worth) for worth, printed in _SPANISH_PRINTED.items()}


def _values(pack: str, language: str) -> dict[int, Any]:
    """The names of the values that have one, in this pack and language."""
    values = (_ITALIAN_PACK if pack in ("italian", "spanish") else _FRENCH_PACK)[language][0]
    if pack == "chkobba":
        return {**values, **_CHKOBBA_FIGURES[language]}
    if pack == "spanish" and language != "es":     # Spanish names it as it names the Italian pack
        return {**values, **_SPANISH_FIGURES}
    return values


def card_words(card: Card, language: str, pack: str = "italian") -> str:
    """'7 di denari', 'Seven of coins', '7 de deniers'; 'Re di denari', 'Queen of hearts'; in the
    Spanish pack 'Sota of copas', '7 d’oros' (its own names, in the page's language when a
    catalogue gives them another); 'siete de oros', 'sota de copas' in Spanish, whichever the
    pack. In English every value is a capital, as the messages write the Ace and the King;
    Spanish writes none ("tiene el rey de oros")."""
    value, suit = str(_values(pack, language).get(card.value, card.value)), suit_name(card.suit, pack, language)
    if language == "it":
        return f"{value} di {suit}"
    if language == "fr":
        return f"{value} d’{suit}" if suit[0] in "aeiouéè" else f"{value} de {suit}"
    if language == "es":
        return f"{value} de {suit}"
    return f"{value} of {suit}"


_SYMBOLS = {"d": "♦", "c": "♥", "s": "♠", "b": "♣"}
# What a card tile shows for a figure, per language: F C R in Italian, J Q K in English, S C R
# in Spanish (sota, caballo, rey); a French pack in Spanish shows J Q K, as the packs sold in
# Spain and Argentina print them (jota, reina, rey: an R would be both the Queen and the King).
_SHORT = {"italian": {"it": {1: "A", 8: "F", 9: "C", 10: "R"}, "en": {1: "A", 8: "J", 9: "H", 10: "K"},
                      "fr": {1: "A", 8: "V", 9: "C", 10: "R"}, "es": {1: "A", 8: "S", 9: "C", 10: "R"}},
          "french": {"it": {1: "A", 8: "F", 9: "D", 10: "R"}, "en": {1: "A", 8: "J", 9: "Q", 10: "K"},
                     "fr": {1: "A", 8: "V", 9: "D", 10: "R"}, "es": {1: "A", 8: "J", 9: "Q", 10: "K"}},
          "chkobba": {"it": {1: "A", 8: "D", 9: "F", 10: "R"}, "en": {1: "A", 8: "Q", 9: "J", 10: "K"},
                      "fr": {1: "A", 8: "D", 9: "V", 10: "R"}, "es": {1: "A", 8: "Q", 9: "J", 10: "K"}},
          "spanish": {language: _SPANISH_PRINTED for language in ("it", "en", "fr", "es")}}


# A suit in a mini tile: the French packs' symbol; the Italian suits' initials, two letters in
# English, where coins, cups and clubs share one; in Spanish o c e b (oros, copas, espadas,
# bastos), none of which is another suit's letter in RULES §1's notation.
_MARKS = {"it": {"d": "d", "c": "c", "s": "s", "b": "b"}, "fr": {"d": "d", "c": "c", "s": "é", "b": "b"},
          "en": {"d": "co", "c": "cu", "s": "sw", "b": "cl"}, "es": {"d": "o", "c": "c", "s": "e", "b": "b"}}


# The Spanish suits' initials: oros, copas, espadas, bastos.
_SPANISH_MARKS = {"d": "o", "c": "c", "s": "e", "b": "b"}


def suit_mark(suit: str, pack: str = "italian", language: str | None = None) -> str:
    if pack == "spanish":
        return _SPANISH_MARKS[suit]
    if pack != "italian":
        return _SYMBOLS[suit]
    return _MARKS[language or str(get_locale())][suit]


def card_notation(cards: str, pack: str = "italian", language: str | None = None) -> str:
    """Cards in RULES §1's notation ("7d 7c 6b 1s") written as the page marks their suits: the
    same in Italian, "7co 7cu 6cl 1sw" in English (where "7c" reads as a club), "7d 7c 6b 1é" in
    French, "7o 7c 6b 1e" in Spanish, "7♦ 7♥ 6♣ 1♠" with a French-suited pack (``read_marks``
    reads them back).

    >>> card_notation("7d 7c 6b 1s", language="en"), card_notation("7d 6b", "french", "it")
    ('7co 7cu 6cl 1sw', '7♦ 6♣')
    >>> card_notation("7d 7c 6b 1s", language="es")
    '7o 7c 6b 1e'
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
    ("7d"); anything else as it was typed (RULES' own "7c" is cups on every page). A Spanish
    pack's figures are typed as they print and as its tiles show them: "12o" is the rey de oros
    (10d), "10c" the sota de copas (8c).

    >>> read_marks("7CO", language="en"), read_marks("7c", language="en"), read_marks("1é", language="fr")
    ('7d', '7c', '1s')
    >>> read_marks("7o", language="es"), read_marks("1E", language="es"), read_marks("7d", language="es")
    ('7d', '1s', '7d')
    >>> read_marks("12o", "spanish", "en"), read_marks("10c", "spanish", "it"), read_marks("11d", "spanish", "fr")
    ('10d', '8c', '9d')
    """
    marks = {mark: suit for suit, mark in _MARKS[language or str(get_locale())].items()}
    marks.update((symbol, suit) for suit, symbol in _SYMBOLS.items())
    if pack == "spanish":       # "7o" is the 7 of oros, "1e" the As de espadas
        marks.update((mark, suit) for suit, mark in _SPANISH_MARKS.items())
    found = re.fullmatch(r"(\d+)(\D+)", token.strip().lower())
    if not found:
        return token
    value, mark = found.groups()
    if pack == "spanish":
        value = _SPANISH_WORTH.get(value, value)
    if mark in marks:
        return value + marks[mark]
    return value + mark if pack == "spanish" else token


def suit_words(suit: str, pack: str = "italian", language: str | None = None) -> str:
    """The suit's name in the page's language: 'denari', 'coins', 'deniers'; with a French-suited
    pack its symbol first ('♦ quadri')."""
    name = suit_name(suit, pack, language)
    return name if pack in ("italian", "spanish") else f"{_SYMBOLS[suit]} {name}"


def suit_name(suit: str, pack: str = "italian", language: str | None = None) -> str:
    """The suit's name in that pack, without a symbol: 'coppe', 'hearts' ("cups (hearts in a
    French pack)")."""
    language = language or str(get_locale())
    if pack == "spanish" and language != "es":
        return str(_SPANISH_SUITS[suit])
    return (_ITALIAN_PACK if pack in ("italian", "spanish") else _FRENCH_PACK)[language][1][suit]


# One card of a suit, for "1 denaro" beside "4 denari".
_ONE_OF_SUIT = {"it": {"d": "denaro", "c": "coppa", "s": "spada", "b": "bastone"},
                "en": {"d": "coin", "c": "cup", "s": "sword", "b": "club"},
                "fr": {"d": "denier", "c": "coupe", "s": "épée", "b": "bâton"},
                "es": {"d": "oro", "c": "copa", "s": "espada", "b": "basto"}}


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
    many = suit_words(suit, pack, language) if pack in ("italian", "spanish") else _SYMBOLS[suit]
    one = {"italian": _ONE_OF_SUIT[language][suit], "spanish": str(_SPANISH_ONE[suit])}.get(pack, _SYMBOLS[suit])
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
    return str(_values(pack, language).get(value, value))


def worth_words(card: Card, pack: str = "italian") -> str:
    """What a card is worth where its tile shows another number: a Spanish pack's sota prints
    10 and is worth 8 ("= 8"); "" for every other card.

    >>> from companion.rules.cards import parse_card
    >>> worth_words(parse_card("8c"), "spanish"), worth_words(parse_card("8c")), worth_words(parse_card("7c"), "spanish")
    ('= 8', '', '')
    """
    return f"= {card.value}" if pack == "spanish" and card.value in _SPANISH_PRINTED else ""


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
    >>> tile_words(parse_card("7s"), "spanish", "it")
    '7 di espadas'
    >>> [tile_words(parse_card(c), language="es") for c in ("1d", "8c", "2d")]
    ['As de oros', 'Sota de copas', '2, Dos de oros']

    A label starts with a capital, though Spanish writes its cards in lower case in a sentence.
    """
    language = language or str(get_locale())
    shown, words = short_words(card, pack, language), card_words(card, language, pack)
    words = words[:1].upper() + words[1:]
    if worth_words(card, pack):         # "10 = 8, Sota of copas": all the tile shows, then its name
        return f"{shown} {worth_words(card, pack)}, {words}"
    return words if words.lower().startswith(shown.lower()) else f"{shown}, {words}"
