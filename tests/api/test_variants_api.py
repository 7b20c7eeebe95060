"""GET /api/v1/variants describes each variant in a few words (issue 23, point 1): who plays it,
the deck, the goal and what sets it apart, the same words as the rules pages, in the language
the request asks for."""


import pytest

from companion.api.openapi import SPEC
from companion.rules import PRESETS, rules_for
from companion.rules.describe import description
from markup import text


def variants(client, lang=None) -> dict:
    headers = {"Accept-Language": lang} if lang else {}
    answer = client.get("/api/v1/variants", headers=headers)
    assert answer.status_code == 200
    return answer.get_json()["variants"]


def test_every_variant_has_a_description(client):
    found = variants(client)
    assert set(found) == set(PRESETS)
    for name, variant in found.items():
        rules = rules_for(name)
        assert variant["description"] == str(description(rules))
        assert f"{rules.deck} cards; first to {rules.target}." in variant["description"]


@pytest.mark.parametrize("name, words", [
    ("classica", "The classic game: every other variant changes something in it."),
    ("scopone", "Four players in two teams of two; 40 cards; first to 11. The deal: 10 cards each, none on the table."),
    ("napola", "one point a card, 6 at most"),
    ("piva", "Piva: the 2b costs 5"),                  # cards as the API writes them
    ("hurrikan", "The bonus suit is coppe"),
    ("corse", "36 cards: the four twos are taken out. Capturing is never compulsory."),
])
def test_the_descriptions_say_what_sets_each_apart(client, name, words):
    assert words in variants(client)[name]["description"]


def test_the_description_is_what_the_rules_page_says(client):
    """The page and the API say the same sentences (the page names cards in words)."""
    said = text(client.get("/rules/scopa-d-assi"), "body")
    for sentence in variants(client)["scopa-d-assi"]["description"].rstrip(".").split(". "):
        assert sentence in said


@pytest.mark.parametrize("lang, words", [
    ("it", "Due giocatori, uno contro l'altro; 40 carte; si gioca a 21."),
    ("fr", "Deux joueurs, l’un contre l’autre\u00a0; 40 cartes\u00a0; en 21 points."),
    ("es-AR,es;q=0.9", "Dos jugadores, uno contra otro; 40 cartas; se juega a 21."),
])
def test_the_description_speaks_the_asked_language(client, lang, words):
    assert variants(client, lang)["bazzica"]["description"].startswith(words)
    assert "bazzicotto 10" in variants(client, lang)["bazzica"]["description"]


def test_the_openapi_document_names_the_description():
    schemas = SPEC["components"]["schemas"]
    variant = schemas["Variants"]["properties"]["variants"]["additionalProperties"]["$ref"]
    schema = schemas[variant.rsplit("/", 1)[1]]
    assert {"title", "description", "rules"} <= set(schema["required"])
    assert schema["properties"]["description"]["type"] == "string"
