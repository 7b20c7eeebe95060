"""Who sits at a table: how long a name may be, when two names are the same player, and what
a PIN is. Written once, here, for every door that takes a name or a PIN: the new match and
player pages (their forms), the JSON API, the tournaments, and the store, which finds a player
by the same key that makes two names the same.

Plain Python below the store and the model, so that each of them may read it. The JSON API and
the tournaments refuse in the words below; the pages say it in their own (``web/forms.py``), at
the same limits.

>>> name_fits("Anna"), name_fits("  "), name_fits("x" * (NAME_MAX + 1))
(True, False, False)
>>> all_different(["Anna", "Bruno"]), all_different(["Anna", " anna"])
(True, False)
>>> valid_pin("1234"), valid_pin("123"), valid_pin(1234)
(True, False, False)
>>> tidy("  Anna\u200b  Maria "), all_different(["Anna", "An\u200bna"])
('Anna Maria', False)
>>> team_name(["Anna", "Bruno"]), team_name(["Jean-Baptiste", "Gianmaria"])
('Anna & Bruno', 'Jean-Baptis. & Gianmaria')
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable

from .rules.said import said

NAME_MAX = 24           # a name's characters at most: it must fit beside its score on a phone
PIN_MIN, PIN_MAX = 4, 8     # a PIN's digits
PIN_PATTERN = rf"\d{{{PIN_MIN},{PIN_MAX}}}"     # a whole PIN, as re.fullmatch takes it

NAME_REFUSED = said("every name must be 1 to {most} characters", most=NAME_MAX)
SAME_NAMES = said("two names are the same: the score would be unclear")
PIN_REFUSED = said("pin must be {least} to {most} digits", least=PIN_MIN, most=PIN_MAX)


# Letters that show as nothing: fillers some keyboards offer as "blank" names.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def tidy(name: str) -> str:
    """A name as it is kept and shown: composed the one way Unicode allows (NFC, so "é" typed
    as e + accent is the "é" another phone sends), without the characters that show as nothing
    (zero-width spaces, direction marks, controls: "An\u200bna" would look like Anna yet be
    another player), every kind of space a plain one, runs of spaces one, and trimmed."""
    kept = []
    for char in unicodedata.normalize("NFC", str(name)):
        kind = unicodedata.category(char)
        if kind[0] == "Z" or char.isspace():
            kept.append(" ")
        elif kind[0] != "C" and char not in _FILLERS:
            kept.append(char)
    return " ".join("".join(kept).split())


def name_key(name: str) -> str:
    """What makes two names the same player: tidied, case-folded ("anna " is Anna). The store
    keeps it beside each player (``players.key``): changing it asks for a migration (m010)."""
    return tidy(name).casefold()


def team_name(players: Iterable[str]) -> str:
    """A team's name when none is given: its players' ("Anna & Bruno"), the same words on every
    phone in every language (a fixed "Us" would be the other team on the opponents' phones).
    Cut to fit NAME_MAX, the longest name first, letter by letter, with a dot ("Jean-Baptis.")."""
    names = [tidy(name) for name in players]
    room = NAME_MAX - len(" & ") * (len(names) - 1)
    while sum(map(len, names)) > room:
        longest = max(range(len(names)), key=lambda i: len(names[i]))
        name = names[longest]
        names[longest] = (name[:-2] if name.endswith(".") else name[:-1]).rstrip(" -") + "."
    return " & ".join(names)


def name_fits(name: Any) -> bool:
    """A name of 1 to NAME_MAX characters once tidied."""
    return isinstance(name, str) and 0 < len(tidy(name)) <= NAME_MAX


def all_different(names: Iterable[str]) -> bool:
    """No two of these names are the same player: the score would be unclear."""
    names = list(names)
    return len({name_key(name) for name in names}) == len(names)


def valid_pin(text: Any) -> bool:
    """A PIN: PIN_MIN to PIN_MAX digits, nothing else."""
    return isinstance(text, str) and re.fullmatch(PIN_PATTERN, text) is not None
