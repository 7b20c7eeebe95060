"""Small helpers for the tests: cards written as in RULES §1."""

from companion.rules import deck, parse_cards


def cards(text: str):
    """cards("7d 7c 6b 1s") -> the list of Cards."""
    return parse_cards(text.split())


def split_deck(first: str, size: int = 40):
    """Two piles: the cards named, and every other card of the deck."""
    pile = cards(first)
    return pile, [card for card in deck(size) if card not in pile]
