"""Cards in the notation of RULES §1: ``<value><suit>``, case-insensitive.

>>> parse_card("7D")
Card(value=7, suit='d')
>>> str(parse_card("10b"))
'10b'
>>> italian_name(parse_card("7d"))
'Sette di denari'
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable, NamedTuple

from .said import said

SUITS = ("d", "c", "s", "b")
VALUES = tuple(range(1, 11))

SUIT_NAMES = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}
SUIT_NAMES_EN = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}
FRENCH_SUIT_NAMES = {"d": "diamonds", "c": "hearts", "s": "spades", "b": "clubs"}

VALUE_NAMES = {
    1: "Asso", 2: "Due", 3: "Tre", 4: "Quattro", 5: "Cinque",
    6: "Sei", 7: "Sette", 8: "Fante", 9: "Cavallo", 10: "Re",
}
VALUE_NAMES_EN = {1: "Ace", 8: "Jack", 9: "Horse", 10: "King"}
# French-suited packs: 9 is the Queen. The Chkobba pack swaps the two lower figures' labels
# (9 is called Jack and 8 Queen); only the labels change, never the capture values.
FRENCH_VALUE_NAMES = {1: "Ace", 8: "Jack", 9: "Queen", 10: "King"}
CHKOBBA_VALUE_NAMES = {1: "Ace", 8: "Queen", 9: "Jack", 10: "King"}
PACKS = ("italian", "french", "chkobba", "spanish")


class ScopaError(ValueError):
    """Input the rules refuse; the message says what is wrong in the player's words."""


class CardError(ScopaError):
    """A card, or a set of cards, that cannot be."""


class HandError(ScopaError):
    """An entered hand that cannot have happened at a real table."""


class Card(NamedTuple):
    value: int
    suit: str

    def __str__(self) -> str:
        return f"{self.value}{self.suit}"


_BY_NOTATION = {f"{value}{suit}": Card(value, suit) for suit in SUITS for value in VALUES}


def parse_card(text: str) -> Card:
    """Read one card such as ``"7d"`` or ``"10B"``; raise CardError for anything else."""
    card = _BY_NOTATION.get(text.strip().lower()) if isinstance(text, str) else None
    if card is None:
        raise CardError(said("{text} is not a card (write cards like 7d or 10b)", text=str(text)))
    return card


def parse_cards(texts: Iterable[str], what: Any = None) -> list[Card]:
    """Read a list of distinct cards; a card given twice is refused."""
    what = said("the cards") if what is None else what
    if isinstance(texts, (str, bytes)) or not isinstance(texts, (list, tuple)):
        raise CardError(said("{what} must be a list of cards", what=what))
    cards = [parse_card(text) for text in texts]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(said("{card} is entered twice in {what}", card=card, what=what))
        seen.add(card)
    return cards


def deck(size: int = 40) -> list[Card]:
    """The 40-card Italian deck, or Scopa Corse's 36 (the four 2s removed), suit by suit."""
    return list(full_deck(size))


@cache
def full_deck(size: int = 40) -> tuple[Card, ...]:
    """The deck as an immutable tuple, built once: scoring asks for it on every hand."""
    if size not in (40, 36):
        raise CardError(said("the deck has 40 cards, or 36 in Scopa Corse"))
    return tuple(Card(value, suit) for suit in SUITS for value in suit_values(size))


@cache
def deck_set(size: int = 40) -> frozenset[Card]:
    return frozenset(full_deck(size))


@cache
def deck_mask(size: int = 40) -> int:
    return mask_of(full_deck(size))


def suit_values(size: int = 40) -> tuple[int, ...]:
    """The values of one suit, in order: no 2 in Scopa Corse's 36 cards."""
    return VALUES if size == 40 else tuple(v for v in VALUES if v != 2)


# A pile as a bit set: one bit per card, suit by suit, ten bits a suit (bit value-1). Scoring
# counts and compares piles this way, in C, instead of looping over cards in Python.
SUIT_SHIFT = {suit: 10 * i for i, suit in enumerate(SUITS)}
BIT = {Card(value, suit): 1 << (SUIT_SHIFT[suit] + value - 1) for suit in SUITS for value in VALUES}
SUIT_BITS = 0x3FF


def mask_of(pile: Iterable[Card]) -> int:
    """The pile's bit set. A card given twice carries into another bit, so the mask then holds
    fewer cards than the pile: ``mask_of(p).bit_count() == len(p)`` exactly when all differ."""
    return sum(map(BIT.__getitem__, pile))


def value_mask(value: int) -> int:
    """The bits of the four cards of one value."""
    return sum(BIT[Card(value, suit)] for suit in SUITS)


def italian_name(card: Card) -> str:
    """'Asso di spade', 'Re di denari'."""
    return f"{VALUE_NAMES[card.value]} di {SUIT_NAMES[card.suit]}"


def english_name(card: Card, pack: str = "italian") -> str:
    """The card in English, for the Italian pack ('Horse of cups') or a French-suited one
    ('Queen of hearts'; in the Chkobba pack 'Jack of hearts' for the 9)."""
    if pack == "italian":
        names, suits = VALUE_NAMES_EN, SUIT_NAMES_EN
    else:
        names = CHKOBBA_VALUE_NAMES if pack == "chkobba" else FRENCH_VALUE_NAMES
        suits = FRENCH_SUIT_NAMES
    return f"{names.get(card.value, str(card.value))} of {suits[card.suit]}"


def card_name(card: Card, pack: str = "italian") -> str:
    """The name players at this table use: Italian for the Italian pack, else the French one."""
    return italian_name(card) if pack == "italian" else english_name(card, pack)


_SHORT = {"italian": {1: "A", 8: "F", 9: "C", 10: "R"},
          "french": {1: "A", 8: "J", 9: "Q", 10: "K"},
          "chkobba": {1: "A", 8: "Q", 9: "J", 10: "K"}}
_SUIT_LABELS = {"italian": SUIT_NAMES,
                "french": {"d": "♦ quadri", "c": "♥ cuori", "s": "♠ picche", "b": "♣ fiori"}}


def short_label(card: Card, pack: str = "italian") -> str:
    """What a card tile shows: 'A', '7', 'F' (Fante), 'C' (Cavallo), 'R' (Re); J/Q/K in French packs."""
    return _SHORT[pack].get(card.value, str(card.value))


def suit_label(suit: str, pack: str = "italian") -> str:
    return _SUIT_LABELS["italian" if pack == "italian" else "french"][suit]
