"""Names put into sentences: the word before a name changes with the name's first letter
("ad Anna" but "a Elena" in Italian, "d’Amélie" in French, "Bruno e Inés" in Spanish), and before
a card with the card's gender in Spanish ("el rey", "la sota"). Every message passes through
``fit`` before its blanks are filled: Flask-Babel's (``gettext`` and ``lazy_gettext`` in Python,
``_()`` and ``ngettext()`` in the templates) and the rules' sentences (``FittingTranslations``,
which ``i18n.say`` hands to ``Said.render``)."""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from flask import g
from flask_babel import Babel, Domain, get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.utils import cached_property

# A name (or a card) put into a sentence changes the word before it when it starts with a vowel:
# Italian writes "ad Anna" (the euphonic d, in today's usage only before the same vowel: "a Elena",
# "a Ugo"), French elides "de Amélie" to "d’Amélie", "que Ugo" to "qu’Ugo", "le As" to "l’As".
# Spanish writes "e" for "y" before an i sound ("Bruno e Inés", "e Hilda", but "y Yolanda", "y
# hielo") and "u" for "o" before an o sound ("Anna u Óscar"); and the article before a card or a
# suit follows its gender: the messages say "el {card}", which is "la sota", "la reina", "la
# jota" ("del" "de la", "al" "a la", "un" "una"), and "los {suit}", which is "las copas".
# Applied to a message's translation before its blanks are filled, to the word right before a
# blank, by what the value that fills the blank starts with (not an h in French: "de Hans" and
# "d’Hélène" both exist, and a name does not say which it is). Each rule: the words it changes,
# whether a value's text calls for the change (given the word), and the word's replacement.
Rule = tuple["re.Pattern[str]", Callable[[str, str], bool], Callable[[str], str]]


def _before_a_blank(words: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w’'])(" + words + r") (?=%\((\w+)\)[sd]|\{(\w+)\})")


def _starts_with(letters: str) -> Callable[[str, str], bool]:
    return lambda word, shown: shown[:1] in letters


_VOWELS = "AEIOUYÀÂÈÉÊËÎÏÌÒÓÔÙÛÜŒÆaeiouyàâèéêëîïìòóôùûüœæ"
_FEMININE = frozenset({"sota", "reina", "jota", "copa", "copas", "espada", "espadas", "pica", "picas"})
_FEMININE_ARTICLE = {"el": "la", "del": "de la", "al": "a la", "un": "una", "los": "las"}


def _feminine(word: str, shown: str) -> bool:
    """Whether a card's or a suit's words are feminine: their first word, after a French suit's
    symbol ("♠ picas")."""
    first = re.match(r"\W*([^\W\d_]+)", shown)
    return first is not None and first.group(1).lower() in _FEMININE


def _capital_kept(word: str, replacement: str) -> str:
    return replacement[:1].upper() + replacement[1:] if word[:1].isupper() else replacement


def _sounds_alike(word: str, shown: str) -> bool:
    """'y' before an i sound (i, hi, not the diphthong of "hielo" or "Iago"), 'o' before an o."""
    start = shown.lower()
    if word in "yY":
        start = start[1:] if start.startswith("h") else start
        return start[:1] in ("i", "í") and start[1:2] not in ("a", "e", "o", "u", "á", "é", "ó", "ú")
    return (start[1:] if start.startswith("h") else start)[:1] in ("o", "ó")


_BEFORE_A_WORD: dict[str, tuple[Rule, ...]] = {
    "it": ((_before_a_blank(r"[Aa]"), _starts_with("AÀÁÂaàáâ"), lambda word: word + "d "),),
    "fr": ((_before_a_blank(r"[Dd]e|[Qq]ue|[Ll]e|[Ll]a"), _starts_with(_VOWELS), lambda word: word[:-1] + "’"),),
    "es": ((_before_a_blank(r"[Ee]l|[Dd]el|[Aa]l|[Uu]n|[Ll]os"), _feminine,
            lambda word: _capital_kept(word, _FEMININE_ARTICLE[word.lower()]) + " "),
           (_before_a_blank(r"[YyOo]"), _sounds_alike,
            lambda word: {"y": "e", "Y": "E", "o": "u", "O": "U"}[word] + " ")),
}


# A verb right after a name agrees with it: a team named after its players ("Carla & Dario", the
# default) is two people, so "Carla & Dario have the Seven of coins", "… ont le 7 de deniers",
# "… hanno il settebello", "… tienen el siete de oros", not "has", "a", "ha", "tiene". A team's own name ("I Lupi") is left singular,
# as a club's name is. The verbs the messages put right after a name, and their plurals.
_PLURAL_VERBS = {
    "en": {"has": "have", "is": "are", "was": "were", "wins": "win", "scores": "score", "deals": "deal",
           "needs": "need", "takes": "take", "gets": "get", "holds": "hold", "costs": "cost",
           "plays": "play", "starts": "start", "ends": "end"},
    "fr": {"a": "ont", "gagne": "gagnent", "doit": "doivent", "sort": "sortent", "récupère": "récupèrent",
           "termine": "terminent", "joue": "jouent", "perdrait": "perdraient", "marque": "marquent",
           "est": "sont"},
    "it": {"ha": "hanno", "vince": "vincono", "è": "sono", "deve": "devono", "fa": "fanno",
           "chiude": "chiudono", "segna": "segnano", "perderebbe": "perderebbero", "aveva": "avevano",
           "riprende": "riprendono"},
    "es": {"tiene": "tienen", "no tiene": "no tienen", "gana": "ganan", "es": "son", "canta": "cantan",
           "cantó": "cantaron", "reparte": "reparten", "repartió": "repartieron", "llega": "llegan",
           "perdería": "perderían", "se anota": "se anotan", "no puede": "no pueden"},
}
_AFTER_TWO = {language: re.compile(r"(%\((\w+)\)[sd]|\{(\w+)\}) (" + "|".join(verbs) + r")(?!\w)")
              for language, verbs in _PLURAL_VERBS.items()}


def _agreed(text: str, values: Mapping[str, Any], language: str) -> str:
    verbs = _PLURAL_VERBS.get(language[:2])
    if not verbs:
        return text

    def one(found: re.Match) -> str:
        value = values.get(found.group(2) or found.group(3))
        if not (isinstance(value, str) and " & " in value):
            return found.group(0)
        return f"{found.group(1)} {verbs[found.group(4)]}"
    return _AFTER_TWO[language[:2]].sub(one, text)


def fit(text: str, values: Mapping[str, Any], language: str) -> str:
    """``text`` (a translation with blanks, %(name)s or {name}) with the word before each blank
    fitted to the value that fills it.

    >>> fit("La primiera va a %(name)s", {"name": "Anna"}, "it")
    'La primiera va ad %(name)s'
    >>> fit("assegnata a {name} dai giocatori", {"name": "Bruno"}, "it")
    'assegnata a {name} dai giocatori'
    >>> fit("Primiera de %(name)s :", {"name": "Amélie"}, "fr")
    'Primiera d’%(name)s :'
    >>> fit("{name} a le {card}", {"name": "Anna", "card": "As de deniers"}, "fr")
    '{name} a l’{card}'
    >>> fit("{name} has the {card}, {name} takes", {"name": "Carla & Dario", "card": "7"}, "en")
    '{name} have the {card}, {name} take'
    >>> fit("{winner} gagne, {name} a le {card}", {"winner": "Carla & Anna", "name": "Lupi", "card": "7"}, "fr")
    '{winner} gagnent, {name} a le {card}'
    >>> fit("Primiera de %(name)s :", {"name": Markup('<span class="nowrap">Anna-Maria</span>')}, "fr")
    'Primiera d’%(name)s :'
    >>> fit("%(name)s ha il settebello", {"name": "Anna & Carla"}, "it")
    '%(name)s hanno il settebello'
    >>> fit("{name} tiene el {card}", {"name": "Carla & Dario", "card": "sota de oros"}, "es")
    '{name} tienen la {card}'
    >>> fit("%(one)s y %(other)s, %(one)s o %(other)s", {"one": "Ana", "other": "Inés"}, "es")
    '%(one)s e %(other)s, %(one)s o %(other)s'
    """
    if not values:
        return text
    changed = _agreed(text, values, language)
    for pattern, applies, fitted in _BEFORE_A_WORD.get(language, ()):

        def one(found: re.Match[str], applies: Callable[[str, str], bool] = applies,
                fitted: Callable[[str], str] = fitted) -> str:
            value = values.get(found.group(2) or found.group(3))
            # A name kept whole (web.whole_words) starts with its span's tag: its first letter is
            # the text's, the tags stripped ("ad Anna-Maria", "d'Anna-Maria").
            shown = Markup(value).striptags() if isinstance(value, Markup) else value
            shown = str(shown).lstrip() if isinstance(value, str) else ""
            return fitted(found.group(1)) if shown and applies(found.group(1), shown) else found.group(0)

        changed = pattern.sub(one, changed)
    return Markup(changed) if isinstance(text, Markup) else changed


class _FittingDomain(Domain):
    """Flask-Babel's messages (``gettext`` in Python, ``lazy_gettext``), the words before the
    blanks fitted to the names that fill them (``fit``)."""

    def gettext(self, string: str, /, **variables: Any) -> str:
        translations, language = self._catalogue()
        text = translations.ugettext(string)
        return fit(text, variables, language) % variables if variables else text

    def ngettext(self, singular: str, plural: str, count: int, /, **variables: Any) -> str:
        variables.setdefault("num", count)
        translations, language = self._catalogue()
        text = translations.ungettext(singular, plural, count)
        return fit(text, variables, language) % variables

    def _catalogue(self) -> tuple[Any, str]:
        """This domain's catalogue and the page's language, kept for the request
        (``page_catalogue``): the app's one domain is this one (``FittingBabel``), so the
        page's catalogue is its own."""
        return page_catalogue()


class FittingBabel(Babel):
    """Flask-Babel, its messages fitted (``_FittingDomain``)."""

    @cached_property
    def domain_instance(self) -> Domain:
        return _FittingDomain(domain=self.domain)


def page_catalogue() -> tuple[Any, str]:
    """The page's catalogue (Flask-Babel's ``get_translations()``) and its language ("it"),
    kept for the request while its locale is the same object: a page of 200 hands says
    hundreds of messages, and Flask-Babel's lookups (the domain, the locale, its name) cost
    more than the messages (issue 41: a fifth of the match page). A locale forced for a while
    (``force_locale``) is another object, looked up again."""
    locale = get_locale()
    if not g:           # outside a request: nothing to keep it in
        return get_translations(), str(locale)
    kept = g.get("_page_catalogue")
    if kept is None or kept[0] is not locale:
        kept = g._page_catalogue = (locale, get_translations(), str(locale))
    return kept[1], kept[2]


@pass_context
def template_gettext(context: Any, string: str, /, **variables: Any) -> str:
    """A template's ``_()``: Jinja's own (escaped, always a format string), fitted."""
    translations, language = page_catalogue()
    text = translations.ugettext(string)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return fit(text, variables, language) % variables


@pass_context
def template_ngettext(context: Any, singular: str, plural: str, count: int, /, **variables: Any) -> str:
    translations, language = page_catalogue()
    text = translations.ungettext(singular, plural, count)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    variables.setdefault("num", count)
    return fit(text, variables, language) % variables


class _Sentence(str):
    """A rule's sentence in a language (a Said's translation): ``format`` fits the words before
    its blanks to the values shown in them."""

    language = "en"

    def format(self, *args: Any, **values: Any) -> str:
        return str.format(fit(str(self), values, self.language), *args, **values)


class FittingTranslations:
    """The page's catalogue as ``Said.render`` reads it, its sentences fitted (``_Sentence``)."""

    def __init__(self, translations: Any, language: str):
        self.translations, self.language = translations, language

    def _sentence(self, text: str) -> _Sentence:
        sentence = _Sentence(text)
        sentence.language = self.language
        return sentence

    def gettext(self, message: str) -> _Sentence:
        return self._sentence(self.translations.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> _Sentence:
        return self._sentence(self.translations.ngettext(singular, plural, n))
