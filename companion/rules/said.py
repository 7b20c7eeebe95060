"""What the rules say, without speaking a language.

An explanation or a refusal is a ``Said``: an English sentence with named blanks (it is also the
message's key in the translation catalogues) and the figures, cards and names that fill them.
``str()`` gives the English sentence with cards in the API's notation (``7d``), for the JSON API
and the tests; the web layer renders it in the page's language, naming each card in words.
Nothing here knows about Flask.

>>> from companion.rules.cards import Card
>>> why = said("{name} has the {card}", name="Anna", card=Card(7, "d"))
>>> str(why)
'Anna has the 7d'
>>> why.text, why.values["card"]
('{name} has the {card}', Card(value=7, suit='d'))
"""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any, Callable, Iterable, Mapping, NamedTuple

_ENGLISH = NullTranslations()


class Said(NamedTuple):
    text: str                       # English, with {blanks}; the catalogues' key
    values: Mapping[str, Any]       # str, int, float, a Card, a list of Cards, another Said
    plural: str | None = None       # the English plural, chosen by the value "n"

    def render(self, translations: Any, show: Callable[[Any], str]) -> str:
        """The sentence in a language: ``translations`` (a ``gettext`` catalogue) gives the
        text's translation, ``show`` writes one value (a card in words, 5,5 in Italian)."""
        text: str
        if self.plural is None:
            text = translations.gettext(self.text)
        else:
            text = translations.ngettext(self.text, self.plural, self.values["n"])
        return text.format(**{k: _shown(v, translations, show) for k, v in self.values.items()})

    def __str__(self) -> str:
        return self.render(_ENGLISH, english)


class Joined(NamedTuple):
    """Several things said one after the other ("; " between them in every language, or
    ``between``, such as " + " for the cards of a primiera)."""

    parts: tuple[Any, ...]
    between: str = "; "

    def render(self, translations: Any, show: Callable[[Any], str]) -> str:
        return self.between.join(_shown(part, translations, show) for part in self.parts)

    def __str__(self) -> str:
        return self.between.join(map(english, self.parts))


class Suit(NamedTuple):
    """A suit named in a sentence: "denari" in the API's sentences, in words on a page (in the
    page's pack, or in ``pack`` when one is named: Hurrikan's hearts, Escoba's oros)."""

    code: str
    pack: str | None = None

    def __str__(self) -> str:
        if self.pack == "spanish":
            return {"d": "oros", "c": "copas", "s": "espadas", "b": "bastos"}[self.code]
        if self.pack == "french":
            return {"d": "diamonds", "c": "hearts", "s": "spades", "b": "clubs"}[self.code]
        return {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}[self.code]


class Figure(NamedTuple):
    """A figure named by its value in a sentence (8, 9 or 10): "Horse" in an Italian pack, "Queen"
    in a French one (Hurrikan's primiera names its figures by the pack on the table)."""

    value: int

    def __str__(self) -> str:
        return {8: "Jack", 9: "Horse", 10: "King"}[self.value]


class Item(NamedTuple):
    """A point of the hand named in a sentence (the claim's certain points): its key in the API's
    sentences ("scope"), its name on a page ("Sweeps", "Escobas"). The rule items that change a
    point's name ride along, named as the rules name them (the bonus suit's name for "denari",
    Cirulla's "accusi" for its declarations, Escoba's preset for all its points), so that a page
    names it as the match does."""

    key: str
    bonus_suit: str = "d"
    pack: str = "italian"
    declarations: str = "off"
    preset: str = ""            # Escoba names its points its own way (cartas, oros, velo...)
    name: str = ""              # its name in the API's sentences, where not its key ("oros")

    def __str__(self) -> str:
        return self.name or self.key


class Versus(NamedTuple):
    """Figures compared, one per side: "22 v 18" (numbers written as the language writes them)."""

    figures: tuple

    def __str__(self) -> str:
        return " v ".join(map(english, self.figures))


def said(text: str, /, **values: Any) -> Said:
    """What the rules say: ``text`` in English with {blanks}, filled from ``values``. The
    translation catalogues are extracted from the calls of this function."""
    return Said(text, values)


def said_n(singular: str, plural: str, n: int, /, **values: Any) -> Said:
    """The same, with a singular and a plural chosen by ``n`` (a blank too: {n})."""
    return Said(singular, {"n": n, **values}, plural)


def joined(parts: Iterable[Said], otherwise: Said) -> Said | Joined:
    """The parts said one after the other, or ``otherwise`` when there are none."""
    parts = tuple(parts)
    if not parts:
        return otherwise
    return parts[0] if len(parts) == 1 else Joined(parts)


def _shown(value: Any, translations: Any, show: Callable[[Any], str]) -> str:
    if isinstance(value, (Said, Joined)):
        return value.render(translations, show)
    return show(value)


def english(value: Any) -> str:
    """A value as the API's sentences show it: a card in its notation (7d), cards listed."""
    if isinstance(value, list) and value and all(isinstance(v, Suit) for v in value):
        return ", ".join(v.code for v in value)
    if isinstance(value, list):
        return " ".join(map(english, value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
