"""Names as the frozen migrations key them (8: the seats, 10 and 18: the players' keys, 11 and 18:
the tournaments' index): ``names.tidy`` and ``names.name_key`` as they were when issue 44 froze
the migrations (issue 41's: UTS #39's skeleton, what shows as nothing left out), copied so that a
later change to the live ones changes no released migration. A change to the live key comes with
a migration of its own, holding its own copy, that works every key out again (as m018 did)."""

from __future__ import annotations

import unicodedata
from functools import cache

import idna.core

_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
              (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
              (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
              (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0000, 0xE0FFF))
_IGNORED = frozenset(chr(code) for low, high in _IGNORABLE for code in range(low, high + 1))
_JOINERS = "\u200c\u200d"


def tidy(name: str) -> str:
    """A name as kept: NFC, what shows as nothing left out, spaces one and trimmed.

    >>> tidy("  An\\u200bna\\ufe0f  Maria ")
    'Anna Maria'
    """
    text, kept = unicodedata.normalize("NFC", str(name)), []
    for place, char in enumerate(text):
        kind = unicodedata.category(char)
        if kind[0] == "Z" or char.isspace():
            kept.append(" ")
        elif char in _JOINERS:
            if _joins(text, place):
                kept.append(char)
        elif kind[0] != "C" and char not in _FILLERS and char not in _IGNORED:
            kept.append(char)
    return " ".join("".join(kept).split())


def _joins(text: str, place: int) -> bool:
    try:
        return idna.core.valid_contextj(text, place)
    except (ValueError, IndexError):
        return False


def name_key(name: str) -> str:
    """The key that makes two names one player.

    >>> name_key("Anna") == name_key("\\u0410nna") == name_key("ANNA"), name_key("Lia") == name_key("Ila")
    (True, False)
    """
    text = unicodedata.normalize("NFD", tidy(name))
    return unicodedata.normalize("NFC", "".join(_folded(char) for char in text if char not in _IGNORED))


@cache
def _folded(char: str) -> str:
    if not char.isascii():
        looks = _looks(char)
        char = "I" if looks == "l" and char.isupper() else looks
    return "".join(_looks(part).casefold() for part in char.casefold())


@cache
def _looks(char: str) -> str:
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
    from confusable_homoglyphs import confusables
    found = confusables.is_confusable(text, greedy=True) if len(text) == 1 else False
    if not isinstance(found, list) or not found:
        return ()
    return tuple(dict.fromkeys(glyph["c"].strip("\u200e\u200f") for glyph in found[0]["homoglyphs"]))
