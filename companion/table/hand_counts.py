"""A hand by counts, from what was typed to what is stored: each count's row checked and its
one blank side given the rest (``counts_entered``), and the primiera as the referee's tool
worked it out, checked before it is kept (``worked_out``). The hand's form (``hand_form``)
reads its fields into these and words nothing itself."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..rules import ScopaError, Tally
from ..rules.cards import suit_values
from ..rules.primiera import COUNT_ORDER, SCALES, PrimieraResult, decide_piles
from ..rules.rulesets import Rules
from ..rules.said import Said, said
from ..rules.tally import bonus_suit, count_refused, primiera_cards_of

# The counts a hand by counts asks for, as its refusals name them (translated with them).
COUNT_WORDS = {"cards": said("cards"), "coins": said("coins"),
               "sevens": said("sevens"), "sixes": said("sixes"), "aces": said("aces")}
COUNTS = tuple(COUNT_WORDS)


def deck_totals(rules: Rules) -> dict[str, int]:
    """What the deck holds of each count: 40 cards (36), 10 coins (9), four sevens..."""
    return {"cards": rules.deck, "coins": len(suit_values(rules.deck)), "sevens": 4, "sixes": 4, "aces": 4}


def rest_of_deck(first: dict[str, int | None], rules: Rules) -> dict[str, int | None]:
    """The other side's counts of a hand of two sides: what the deck holds but the first
    side's (None where the first is blank, or more than the deck holds: then it is refused).

    >>> from companion.rules.rulesets import rules_for
    >>> rest_of_deck({"cards": 22, "coins": 6, "sevens": None}, rules_for("classica"))
    {'cards': 18, 'coins': 4, 'sevens': None}
    """
    totals = deck_totals(rules)
    return {name: None if value is None or not 0 <= value <= totals[name] else totals[name] - value
            for name, value in first.items()}


def typed_as_text(rows: dict[str, Iterable[Any]], names: Sequence[str], rules: Rules) -> list[tuple[Any, Said]]:
    """Each count and scopa field of ``rows`` (by its ``Tally`` name) typed as something not a
    whole number ("abc", "2.5": the field keeps the text, ``web.forms.WholeNumberField``), with
    the words the hand's request gives it ("the cards of Anna must be a whole number, 0 or
    more"): refused at its field before anything adds the counts up."""
    return [(field, count_refused(name, names[i], rules))
            for name, fields in rows.items() for i, field in enumerate(fields) if isinstance(field.data, str)]


def counts_entered(typed: dict[str, list[int | None]], rules: Rules,
                   partial: bool = False) -> dict[str, list[int | None]]:
    """Each count's row as typed (None: blank), with the one side left blank given the rest;
    a row left all blank is all None. ScopaError when a row cannot be: more than the deck
    holds, more than one side blank, no cards or coins at all. ``partial``: a hand still being
    entered, whose counts not entered yet stay None (the preview awaits them)."""
    totals = deck_totals(rules)
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
        assert cards is not None, "every side's best cards given"
        worked = decide_piles(cards, rules.primiera, rules.missing_suit)
    except ScopaError:
        return None
    if worked.winner is None:
        agrees = chosen in (None, "", "none")
    else:
        agrees = chosen == str(worked.winner)
    return (best, worked) if agrees else None


def unused_fields(rules) -> list[str]:
    """The fields a match's rules have no use for: counts, holders, declarations."""
    unused = {"t_sevens": rules.primiera not in COUNT_ORDER,
              "t_sixes": rules.primiera not in ("sevens-sixes", "count-down"),
              "t_aces": rules.primiera != "count-down",
              "t_napola": rules.napola == "off" and not (rules.scalette or rules.grande_piccola),
              "t_alta": not (rules.scalette or rules.grande_piccola),
              "re_bello": not rules.re_bello,
              "piva": not (rules.piva and rules.deck == 40),
              "primiera": rules.primiera in ("sevens-sixes", "sevens"),
              "primiera_best": rules.primiera not in SCALES,
              "decl": rules.declarations == "off"}
    return [name for name, off in unused.items() if off]
