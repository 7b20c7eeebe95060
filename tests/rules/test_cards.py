import pytest

from companion.rules.cards import (
    Card,
    CardError,
    card_name,
    deck,
    english_name,
    italian_name,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize("text, card", [
    ("7d", Card(7, "d")), ("7D", Card(7, "d")), ("10b", Card(10, "b")), (" 1s ", Card(1, "s")),
])
def test_cards_are_read_in_either_case(text, card):
    assert parse_card(text) == card
    assert str(parse_card(text)) == f"{card.value}{card.suit}"


@pytest.mark.parametrize("text", ["11x", "0d", "11d", "7", "d", "", "07d", "7dd", "x7"])
def test_what_is_not_a_card_is_refused_by_name(text):
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


def test_a_card_entered_twice_is_refused():
    with pytest.raises(CardError, match="7d is entered twice"):
        parse_cards(["7d", "1c", "7D"])


def test_the_decks():
    assert len(deck(40)) == 40 and len(set(deck(40))) == 40
    corse = deck(36)
    assert len(corse) == 36 and all(card.value != 2 for card in corse)   # the four 2s removed


def test_italian_names():
    assert italian_name(Card(7, "d")) == "Sette di denari"
    assert italian_name(Card(10, "d")) == "Re di denari"
    assert italian_name(Card(2, "b")) == "Due di bastoni"
    assert italian_name(Card(9, "c")) == "Cavallo di coppe"


def test_french_labels_change_names_never_values():
    # RULES §1: the Chkobba pack labels value 9 "Jack" and 8 "Queen".
    assert english_name(Card(9, "c"), "french") == "Queen of hearts"
    assert english_name(Card(9, "c"), "chkobba") == "Jack of hearts"
    assert english_name(Card(8, "s"), "chkobba") == "Queen of spades"
    assert card_name(Card(1, "d"), "italian") == "Asso di denari"
    assert english_name(Card(9, "c")) == "Horse of cups"
