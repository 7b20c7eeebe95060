"""A hand by counts, from what was typed to what is stored: each count's row checked and its
one blank side given the rest (``counts_entered``), and the primiera as the referee's tool
worked it out, checked before it is kept (``worked_out``). The hand's form (``hand_form``)
reads its fields into these and words nothing itself."""

from __future__ import annotations

from typing import Sequence

from ..rules import ScopaError, Tally
from ..rules.cards import suit_values
from ..rules.primiera import PrimieraResult, decide_piles
from ..rules.rulesets import Rules
from ..rules.said import said
from ..rules.tally import bonus_suit, primiera_cards_of

# The counts a hand by counts asks for, as its refusals name them (translated with them).
COUNT_WORDS = {"cards": said("cards"), "coins": said("coins"),
               "sevens": said("sevens"), "sixes": said("sixes"), "aces": said("aces")}
COUNTS = tuple(COUNT_WORDS)


def counts_entered(typed: dict[str, list[int | None]], rules: Rules,
                   partial: bool = False) -> dict[str, list[int | None]]:
    """Each count's row as typed (None: blank), with the one side left blank given the rest;
    a row left all blank is all None. ScopaError when a row cannot be: more than the deck
    holds, more than one side blank, no cards or coins at all. ``partial``: a hand still being
    entered, whose counts not entered yet stay None (the preview awaits them)."""
    totals = {"cards": rules.deck, "coins": len(suit_values(rules.deck)), "sevens": 4, "sixes": 4, "aces": 4}
    # The bonus suit's count is said by the suit's name: Escoba's oros, not coins (RULES §12).
    words = {**COUNT_WORDS, "coins": bonus_suit(rules)}
    counts: dict[str, list[int | None]] = {}
    for name, total in totals.items():
        if name not in typed:
            continue
        values = list(typed[name])
        n = len(values)
        blank = [i for i, v in enumerate(values) if v is None]
        entered = sum(v for v in values if v is not None)
        if blank and entered > total:
            raise ScopaError(said("the {what} entered add up to more than {total}", what=words[name], total=total))
        if len(blank) == 1:          # one side left blank: it has the rest
            values[blank[0]] = total - entered
        elif partial:
            pass                     # what is not entered yet is awaited
        elif 1 < len(blank) < n:
            raise ScopaError(said("enter the {what} of every side (one may be left blank: it is "
                                  "worked out)", what=words[name]))
        elif blank and len(blank) == n and name in ("cards", "coins"):
            raise ScopaError(said("enter the {what} of each side", what=words[name]))
        counts[name] = values if len(blank) < n else [None] * n
    return counts


def worked_out(best_text: str | None, chosen: str | None, rules: Rules,
               names: Sequence[str]) -> tuple[list[list[str]], PrimieraResult] | None:
    """Each side's best cards for the primiera as the referee's tool worked it out and sent
    them back (``best_text``, the hand form's hidden ``primiera_best``: "7d 6c 1s 10b/7c 6d
    5s"), and what they give, while the primiera ``chosen`` (a side's number, "none") is the
    one they give. None when the tool was not asked, or when the players chose otherwise
    since: then the primiera is theirs ("marked by the players")."""
    if not best_text:
        return None
    best = [side.split() for side in best_text.split("/")]
    if len(best) != len(names):
        return None
    try:        # checked as the rules check a stored entry's
        cards = primiera_cards_of([Tally(None, None, primiera_cards=side) for side in best], rules, names)
        worked = decide_piles(cards, rules.primiera, rules.missing_suit)
    except ScopaError:
        return None
    if worked.winner is None:
        agrees = chosen in (None, "", "none")
    else:
        agrees = chosen == str(worked.winner)
    return (best, worked) if agrees else None
