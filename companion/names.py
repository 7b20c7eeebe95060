"""Who sits at a table: how long a name may be, when two names are the same player, what a PIN
is, and how a name is written where its box is too narrow for it (``short_form``,
``one_line_form``: the pages never break a name inside a word). Written once, here, for every
door that takes a name or a PIN: the new match and player pages (their forms), the JSON API,
the tournaments, and the store, which finds a player by the same key that makes two names the
same.

Plain Python below the store and the model, so that each of them may read it. The JSON API, the
new match's page and the tournaments refuse in the words below; other pages say it in their own
(``web/forms.py``), at the same limits.

>>> name_fits("Anna"), name_fits("  "), name_fits("x" * (NAME_MAX + 1))
(True, False, False)
>>> all_different(["Anna", "Bruno"]), all_different(["Anna", " anna"])
(True, False)
>>> valid_pin("246810"), valid_pin("1234"), valid_pin("١٢٣٤٥٦"), valid_pin(246810)
(True, False, False, False)
>>> tidy("  Anna\u200b  Maria "), all_different(["Anna", "An\u200bna"])
('Anna Maria', False)
>>> all_different(["Anna", "\u0410nna"]), look_alike(["Anna", "\u0410nna"]) == ("\u0410nna", "Anna")
(False, True)
>>> team_name(["Anna", "Bruno"]), team_name(["Jean-Baptiste", "Bartolomeo"])
('Anna & Bruno', 'Jean-Baptiste & Bartolomeo')
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any, Callable, Iterable

import idna.core

from .rules.said import Said, said

NAME_MAX = 24           # a name's characters at most: it must fit beside its score on a phone
# A team's name made of its players' (three at most, "Anna & Bruno & Carla"): their names whole,
# so longer than a name typed may be (NAME_MAX still holds for a team's name typed).
TEAM_NAME_MAX = 3 * NAME_MAX + 2 * len(" & ")
TOURNAMENT_NAME_MAX = 60    # a tournament's name's characters at most (its board's title)
# A player's key (name_key) at most: a letter may read as a sequence ("m" as "rn"; 6 characters
# at most in Unicode's confusables, 8 in NFKC), and a look-alike flagged by m018 or m021 its id.
KEY_MAX = 8 * NAME_MAX
# A new PIN's digits: 6 at least, since wrong tries are limited per address only (web.limits), so
# that 100 addresses trying all night have less than 1% odds (docs/running.md). PINs of 4 or 5
# digits set before still work: a PIN is only checked against its hash.
PIN_MIN, PIN_MAX = 6, 8
# A whole PIN, as re.fullmatch takes it: ASCII digits only ([0-9], not \d, which takes "١٢٣٤٥٦"
# too: digits other phones' keyboards can hardly type).
PIN_PATTERN = rf"[0-9]{{{PIN_MIN},{PIN_MAX}}}"

NAME_REFUSED = said("every name must be 1 to {most} characters", most=NAME_MAX)
# Said alike by the pages and the JSON API (issue 44: the page's words, a player's, for both).
NAME_TOO_LONG = said("A name has at most {most} characters: shorten this one", most=NAME_MAX)
SAME_NAMES = said("Two players have the same name: the score would be unclear")
TEAMS_ALIKE = said("Give the two teams different names")
PIN_REFUSED = said("A PIN is {least} to {most} digits from 0 to 9", least=PIN_MIN, most=PIN_MAX)


# Letters that show as nothing: fillers some keyboards offer as "blank" names.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, unchanged since Unicode 9):
# what a font draws as nothing, whatever it is (a variation selector, U+034F the combining
# grapheme joiner, the tags): "Anna" + U+FE0F or U+034F shows as Anna.
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
              (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
              (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
              (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0000, 0xE0FFF))
_IGNORED = frozenset(chr(code) for low, high in _IGNORABLE for code in range(low, high + 1))
_JOINERS = "\u200c\u200d"          # ZWNJ and ZWJ: needed where they change how a word is drawn


def ignorable(char: str) -> bool:
    """A character that shows as nothing (Unicode's Default_Ignorable_Code_Point).

    >>> ignorable("\ufe0f"), ignorable("\u034f"), ignorable("a")
    (True, True, False)
    """
    return char in _IGNORED


def tidy(name: str) -> str:
    """A name as it is kept and shown: composed the one way Unicode allows (NFC, so "é" typed
    as e + accent is the "é" another phone sends), without the characters that show as nothing
    (zero-width spaces, direction marks, controls, variation selectors, U+034F: "An\u200bna"
    would look like Anna yet be another player), every kind of space a plain one, runs of
    spaces one, and trimmed. A zero-width joiner or non-joiner stays only where it changes how
    the name is drawn (after a virama, or between joining Arabic letters: IDNA's CONTEXTJ
    rules, RFC 5892, as the ``idna`` library checks them); anywhere else it shows as nothing.

    >>> tidy("Anna\ufe0f"), tidy("An\u034fna"), tidy("Anna\u200d")
    ('Anna', 'Anna', 'Anna')
    >>> tidy("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645") == "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    True
    """
    text, kept = unicodedata.normalize("NFC", str(name)), []
    for place, char in enumerate(text):
        kind = unicodedata.category(char)
        if kind[0] == "Z" or char.isspace():
            kept.append(" ")
        elif char in _JOINERS:
            if _joins(text, place):
                kept.append(char)
        elif kind[0] != "C" and char not in _FILLERS and not ignorable(char):
            kept.append(char)
    return " ".join("".join(kept).split())


def _joins(text: str, place: int) -> bool:
    """Whether the joiner at ``place`` changes how ``text`` is drawn (RFC 5892's CONTEXTJ)."""
    try:
        return idna.core.valid_contextj(text, place)
    except (ValueError, IndexError):
        return False


def name_key(name: str) -> str:
    """What makes two names the same player: the names a human reads as one. Tidied, each
    character as the letters it stands for (``_compatible``), a capital I drawn as an l read as one
    (``_drawn_as_l``), what shows as nothing left out (``ignorable``), each letter as Unicode's
    confusables say it looks (UTS #39's skeleton, ``_looks``) in any case: "anna ", "\u0410nna"
    (Cyrillic А), "Anna" + U+FE0F, "\uff21\uff4e\uff4e\uff41" are Anna. The store keeps it: a change
    comes with a migration holding its own copy of the new key (as m018 and m021 do).

    >>> name_key("Anna") == name_key("\u0410nna") == name_key("ANNA") == name_key("\u0391\u039d\u039d\u0391")
    True
    >>> name_key("Ilaria") == name_key("ilaria"), name_key("Marco") == name_key("\u041carco")
    (True, True)
    >>> name_key("Ilaria") == name_key("llaria"), name_key("Lia") == name_key("Ila")
    (False, False)
    >>> name_key("José") == name_key("Jose"), name_key("Анна") == name_key("Anna")
    (False, False)
    >>> name_key("Player \u00b9") == name_key("PIayer 1") == name_key("Player 1")
    True
    """
    text = _drawn_as_l(tidy("".join(_compatible(char) for char in tidy(name))))
    return unicodedata.normalize("NFC", _skeleton(text))


def _skeleton(text: str) -> str:
    return "".join(_folded(char) for char in unicodedata.normalize("NFD", text) if not ignorable(char))


@cache
def _compatible(char: str) -> str:
    """The letters ``char`` stands for (NFKC, as UTS #39 takes a name: "\uff21" and "\u1d2c" are A,
    "\u00b9" is 1), or ``char`` if their key would pass its share of KEY_MAX (U+FDFA's 18).

    >>> _compatible("\uff21"), _compatible("\u2081"), _compatible("\ufb03"), _compatible("\ufdfa") == "\ufdfa"
    ('A', '1', 'ffi', True)
    """
    form = unicodedata.normalize("NFKC", char)
    return form if len(_skeleton(form)) <= KEY_MAX // NAME_MAX else char


_CAPITAL_I_RUN = re.compile(r"(?<=[^\W\d_I])I+(?=[^\W\d_])")


def _drawn_as_l(text: str) -> str:
    """Each run of capital I (or of capitals like it) between a letter and a small letter as the l
    a sans-serif font draws alike ("PIayer", "MarceIlo"); elsewhere an I is an I ("Ilaria",
    "ILARIA"; "llaria" is another name). The price: "McIntyre" is "Mclntyre", not "mcintyre".

    >>> _drawn_as_l("PIayer 1"), _drawn_as_l("ILARIA Ilaria"), _drawn_as_l("AIIa"), _drawn_as_l("IIa")
    ('Player 1', 'ILARIA Ilaria', 'Alla', 'IIa')
    """
    text = "".join("I" if char.isupper() and _looks(char) == "l" else char for char in text)
    return _CAPITAL_I_RUN.sub(lambda run: "l" * len(run[0]) if run.string[run.end()].islower()
                              else run[0], text)


@cache
def _folded(char: str) -> str:
    """One letter of a name as ``name_key`` compares it: a plain (ASCII) letter in any case, then
    as it looks ("0" is "O", "m" is "rn", as UTS #39 has them); any other letter as it looks
    first, so that a capital of another script is the capital it looks like (a Cyrillic М is
    M, whose small letter is m, though its own small м looks like no m), then in any case.
    A capital of another script that looks like an l (UTS #39's capital I) is that I."""
    if not char.isascii():
        char = "I" if char.isupper() and _looks(char) == "l" else _looks(char)
    return "".join(_looks(part).casefold() for part in char.casefold())


@cache
def _looks(char: str) -> str:
    """What a character looks like: its prototype in Unicode's confusables (UTS #39), the
    character itself when it has none. confusable-homoglyphs keeps that table both ways (each
    character with all that look like it), so the prototype is read off its shape: a character
    mapped to a sequence, or to a character others look like too, is that; a prototype has the
    others. Where only two characters look alike the table cannot say which is the prototype:
    either is, the same one for both (the smaller), which is all a comparison needs."""
    alike = _alike(char)
    if not alike:
        return char
    if len(alike) == 1:
        other = alike[0]
        if len(other) > 1 or len(_alike(other)) > 1:
            return other
        return min(char, other)
    return char


@cache
def _alike(text: str) -> tuple[str, ...]:
    """The characters (or sequences) Unicode's confusables say ``text`` looks like, or that look
    like it (confusable-homoglyphs' table, without the direction marks it writes around a
    right-to-left character)."""
    from confusable_homoglyphs import confusables  # its table loads on first use: ~10 ms
    found = confusables.is_confusable(text, greedy=True) if len(text) == 1 else None
    if not found:
        return ()
    return tuple(dict.fromkeys(glyph["c"].strip("\u200e\u200f") for glyph in found[0]["homoglyphs"]))


def team_name(players: Iterable[str]) -> str:
    """A team's name when none is given: its players' ("Anna & Bruno"), the same words on every
    phone in every language (a fixed "Us" would be the other team on the opponents' phones).
    The names are kept whole ("Jean-Baptiste & Bartolomeo", up to TEAM_NAME_MAX): a page too
    narrow for one shortens it at a word (``short_form``), never the name kept. (Before issue 35
    they were cut letter by letter with a full stop, "Jean-Bapti. & Bartolomeo": migration 17
    wrote them whole.)"""
    return " & ".join(tidy(name) for name in players)


def name_fits(name: Any, most: int = NAME_MAX) -> bool:
    """A name of 1 to NAME_MAX characters once tidied (``most``: TEAM_NAME_MAX for a side's
    name, which a team named after its players may reach)."""
    return isinstance(name, str) and 0 < len(tidy(name)) <= most


def all_different(names: Iterable[str]) -> bool:
    """No two of these names are the same player: the score would be unclear."""
    names = list(names)
    return len({name_key(name) for name in names}) == len(names)


def look_alike(names: Iterable[str]) -> tuple[str, str] | None:
    """The first name that reads as an earlier one though it is written otherwise (not only in
    another case: "\u0410nna" and "Anna"), with that earlier one; None when there is none."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen and tidy(seen[key]).casefold() != tidy(name).casefold():
            return name, seen[key]
        seen.setdefault(key, name)
    return None


def names_clash(names: Iterable[str]) -> Said | None:
    """Why these names cannot sit at one table, said: one looks like another (whom), or two are
    the same; None when every one is another player."""
    names = list(names)
    if all_different(names):
        return None
    alike = look_alike(names)
    if alike:
        return said("{name} looks like {other}: two names that read the same would make the score "
                    "unclear", name=alike[0], other=alike[1])
    return SAME_NAMES


def valid_pin(text: Any) -> bool:
    """A PIN: PIN_MIN to PIN_MAX digits, nothing else."""
    return isinstance(text, str) and re.fullmatch(PIN_PATTERN, text) is not None


# -- A name in a narrow column -----------------------------------------------------------------
# How wide a letter is drawn in bold, in em (the font's size): a rough measure, on the wide side
# of the fonts phones use (DejaVu Sans Bold, the widest of them, measured; Roboto and San
# Francisco are narrower), so that a name said to fit does.
_NARROW, _MIDDLE, _WIDE = frozenset(" iljIJ.,'’|!:;"), frozenset("frt-\u2011()"), frozenset("mwMW")
ELLIPSIS = "…"      # ends a word cut short: never a full stop, which reads as a sentence's end


def _letter_width(char: str) -> float:
    base = unicodedata.normalize("NFD", char)[0]       # é is as wide as e
    if base in _NARROW:
        return 0.38
    if base in _MIDDLE:
        return 0.5
    if base in _WIDE:
        return 1.05
    if not base.isascii():
        return 1.0                                     # another script: as wide as an M
    return 0.85 if base.isupper() or base.isdigit() else 0.72


def text_width(text: str) -> float:
    """How wide ``text`` is drawn in bold, in em, about.

    >>> round(text_width("Luca"), 2), round(text_width("Massimiliana"), 2)
    (3.01, 7.94)
    """
    return sum(_letter_width(char) for char in text)


# How wide two sides' names may be together, in em, to be said on each line of the list of
# every hand beside their points: wider (two teams named after their players, a Scopone) and a
# line took five lines at 360 px, as with four sides.
NAMES_ON_A_LINE = 14


def names_above(names: list[str]) -> bool:
    """Whether the list of every hand says the sides' names once above it, each line holding only
    the points in their order: with more than two sides, or two whose names are too wide to
    share a line with their points.

    >>> names_above(["Anna", "Bruno"]), names_above(["Anna", "Bruno", "Carla"])
    (False, True)
    >>> names_above(["Jean-Baptiste & Bartolomeo Giangiacomo", "Marie-Amélie & Massimiliana"])
    True
    """
    return len(names) > 2 or sum(text_width(name) for name in names) > NAMES_ON_A_LINE


def line_pieces(name: str) -> list[str]:
    """What a browser may put on lines of their own: the words. A hyphenated word is one piece:
    the pages keep it whole (``whole_words``: "Jean-Baptiste" never "Jean-" above "Baptiste").

    >>> line_pieces("Jean-Baptiste de la Tour")
    ['Jean-Baptiste', 'de', 'la', 'Tour']
    """
    return [piece for piece in name.split(" ") if piece]


def short_form(name: str, room: float) -> str | None:
    """The name as it is written in a box ``room`` em wide that must not break a word: None when
    each of its words fits as it is (the box wraps between words: a team "Jean-Baptiste &
    Bartolomeo" between its players), otherwise each word too wide cut to what fits and ended
    with an ellipsis, never a full stop ("Bartolomeo" -> "Bartol…"); the words that fit stay
    whole. The page shows the whole name too, to a screen reader and on a tap.

    >>> short_form("Anna Maria", 4) is None, short_form("Jean-Baptiste & Bartolomeo", 9) is None
    (True, True)
    >>> short_form("Bartolomeo Giangiacomo", 4), short_form("Massimiliana", 5.5)
    ('Bart… Gian…', 'Massi…')
    >>> short_form("Jean-Baptiste & Ugo", 6), short_form("Ugo", 0.5)
    ('Jean-Ba… & Ugo', 'U…')
    """
    words = line_pieces(name)
    if all(text_width(word) <= room for word in words):
        return None
    return " ".join(_cut(word, room) for word in words)


# How wide the board on the wall draws a name: DejaVu Sans Bold's advance widths, in em. It is
# the widest of the types a screen's browser draws the board in (Segoe UI, San Francisco, Roboto,
# Noto Sans and Cantarell are narrower), so a name said to fit on a line does; text_width, the
# phones' rough measure, reckons 4 to 14% more, and would cut names on the board that fit.
_DRAWN = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -'’.&,()–…",
    (0.675, 0.716, 0.593, 0.716, 0.678, 0.435, 0.716, 0.712, 0.343, 0.343, 0.665, 0.343, 1.042,
     0.712, 0.687, 0.716, 0.716, 0.493, 0.595, 0.478, 0.712, 0.652, 0.924, 0.645, 0.652, 0.582,
     0.774, 0.762, 0.734, 0.83, 0.683, 0.683, 0.821, 0.837, 0.372, 0.372, 0.775, 0.637, 0.995,
     0.837, 0.85, 0.733, 0.85, 0.77, 0.72, 0.682, 0.812, 0.774, 1.103, 0.771, 0.724, 0.725,
     *[0.696] * 10, 0.348, 0.415, 0.306, 0.38, 0.38, 0.872, 0.38, 0.457, 0.457, 0.5, 1.0)))


def drawn_width(text: str) -> float:
    """How wide the board on the wall draws ``text`` in bold, in em, at most (a letter with an
    accent as wide as the letter; a letter of another script as text_width reckons it, as wide
    as an M).

    >>> round(drawn_width("Anna"), 3), round(drawn_width("Amélie"), 3), round(text_width("Amélie"), 3)
    (2.873, 3.858, 4.1)
    """
    return sum(_DRAWN.get(unicodedata.normalize("NFD", char)[0]) or _letter_width(char) for char in text)


def one_line_form(name: str, room: float) -> str | None:
    """The name as it is written on one line ``room`` em wide (the board on the wall, where a
    name on two lines would push its last rows off the screen, measured as it draws them:
    ``drawn_width``): None when it fits whole, otherwise its first word and the initials of the
    others, the first cut short with an ellipsis as well if even that does not fit.

    >>> one_line_form("Anna Maria", 7) is None, one_line_form("Anna-Maria Rossini", 10.9) is None
    (True, True)
    >>> one_line_form("Bartolomeo Giangiacomo", 9), one_line_form("Jean-Baptiste", 5)
    ('Bartolomeo G.', 'Jean-B…')
    >>> one_line_form("Mariagrazia Lombardozzi", 6)
    'Maria… L.'
    """
    if drawn_width(name) <= room:
        return None
    first, *others = line_pieces(name)
    rest = "".join(" " + piece[0] + "." for piece in others)
    return _cut(first, room - drawn_width(rest), drawn_width) + rest


def _cut(word: str, room: float, width: Callable[[str], float] = text_width) -> str:
    """One word of a name, cut (with an ellipsis) to fit ``room`` em as ``width`` measures it;
    at least its first letter."""
    if width(word) <= room:
        return word
    kept = word
    while len(kept) > 1 and width(kept + ELLIPSIS) > room:
        kept = kept[:-1]
    return kept.rstrip("-\u2011") + ELLIPSIS
