"""A hand's request is one model that validates (issue 44): its piles, sweeps and counts are
typed (a count a whole number from 0, a holder true or false, a side's counts an object with no
other key), each refusal at its place (pydantic's loc) and in the words the rules engine gives
the same mistake, by the match's sides and rules; its JSON Schema, the OpenAPI document's, says
what the API takes. Before, ``tally_of`` and ``piles_and_sweeps`` checked them by hand beside
models kept only for the document: the schema took a count below 0 and a key that is no count,
and named a side in 24 characters where the API took 78; every refusal of a pile or a tally
was placed at the hand as a whole."""

from __future__ import annotations

from types import SimpleNamespace

import jsonschema
import pytest

from companion import rules
from companion.api.openapi import SPEC
from companion.names import TEAM_NAME_MAX
from companion.rules import rules_for
from companion.web.hand_requests import HandEntry, HandIn, ScoreRequest, Tally
from companion.web.question_requests import ClaimAsked
from helpers import FULL

PILES = [FULL[:20], FULL[20:]]
COUNTS = [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 1}, {"cards": 18, "coins": 4}]


def refused(model, body, context=None) -> list[tuple[tuple, str]]:
    return [(refusal.at, str(refusal.said)) for refusal in model.check(body, context)[1]]


def with_count(side: int, **changed) -> dict:
    return {"tallies": [{**tally, **changed} if n == side else tally for n, tally in enumerate(COUNTS)]}


def test_a_sides_counts_are_the_rules_engines_in_its_order():
    """One list of counts: a count added to the rules engine's Tally and not here would be
    refused as "not a count"."""
    assert tuple(Tally.model_fields) == rules.Tally._fields


@pytest.mark.parametrize("body, at, words", [
    ({"piles": [FULL[:20], "x"]}, ("piles", 1), "pile 2 must be a list of cards"),
    ({"piles": [FULL[:20], [7]]}, ("piles", 1, 0), "7 is not a card"),
    ({"piles": PILES, "sweeps": [0, -1]}, ("sweeps", 1), "the sweeps of side 2 must be a whole number, 0 or more"),
    ({"piles": PILES, "sweeps": [True, 0]}, ("sweeps", 0), "the sweeps of side 1 must be a whole number, 0 or more"),
    (with_count(1, coins=-1), ("tallies", 1, "coins"), "the denari of side 2 must be a whole number, 0 or more"),
    (with_count(0, cards="22"), ("tallies", 0, "cards"), "the cards of side 1 must be a whole number, 0 or more"),
    (with_count(0, sevens=1.0), ("tallies", 0, "sevens"), "the sevens of side 1 must be a whole number, 0 or more"),
    (with_count(0, piva=1), ("tallies", 0, "piva"), "piva must be true or false"),
    (with_count(1, **{"my-key": 1}), ("tallies", 1, "my-key"), "my-key is not a count; the counts are cards, "),
    ({"tallies": [{"cards": 20}, COUNTS[1]]}, ("tallies", 0, "coins"), "tally 1 needs coins"),
    ({"tallies": [COUNTS[0], 18]}, ("tallies", 1), "tally 2 must be an object of counts"),
    (with_count(0, primiera_cards="7d"), ("tallies", 0, "primiera_cards"),
     "the primiera cards of tally 1 must be a list of cards"),
])
def test_each_refusal_is_at_its_place_in_the_rules_engines_words(body, at, words):
    """Each place as pydantic's loc names it (before: at the hand as a whole)."""
    (place, said), *_ = refused(ScoreRequest, body)
    assert place == at and said.startswith(words)


def test_a_hand_for_a_match_is_refused_in_its_sides_names_and_its_rules_words():
    """Read for a match (the context the API and the page read it in), a count refused names the
    match's side, in its variant's words (Escoba's escobas, its oros)."""
    escoba = SimpleNamespace(rules=rules_for("escoba"), names=("Ana", "Berto"))
    context = {"match": escoba}
    assert refused(HandIn, {"piles": PILES, "sweeps": [0, -1]}, context) == [
        (("sweeps", 1), "the escobas of Berto must be a whole number, 0 or more")]
    assert refused(HandIn, with_count(0, coins="6"), context) == [
        (("tallies", 0, "coins"), "the oros of Ana must be a whole number, 0 or more")]


def test_counts_when_tallies_are_sent_else_cards():
    """The other way's fields are not read; piles left out are refused as not a list."""
    assert HandEntry.read({**with_count(0), "piles": "x", "sweeps": 5}).piles is None
    assert refused(HandEntry, {}) == [(("piles",), "piles must be a list")]
    assert refused(HandEntry, {"piles": PILES, "sweeps": None}) == [
        (("sweeps",), "sweeps must be a list with one count per side")]
    assert HandEntry.read({"piles": PILES}).sweeps == [0, 0]


def test_the_stored_entry_is_written_as_before():
    """The counts in the rules engine's order, every count written, the cards as the rules
    engine writes them ("1d" for "1D" is not taken: the cards are read, then written)."""
    entry = HandEntry.read({**with_count(0, primiera_cards=["7d", "6c", "1s", "7b"])}).entry()
    assert list(entry["tallies"][0]) == list(rules.Tally._fields)
    assert "primiera_cards" not in entry["tallies"][1] and entry["tallies"][1]["sweeps"] == 0


@pytest.mark.parametrize("names, words", [
    (["Anna"], "names must be a list of 2 names"),
    (["Anna", 5], "names must be a list of 2 names"),
    (["x" * (TEAM_NAME_MAX + 1), "Bruno"], f"every name must be 1 to {TEAM_NAME_MAX} characters"),
])
def test_the_sides_names_of_a_score_and_a_claim_are_read_alike(names, words):
    for model, body in ((ScoreRequest, {"piles": PILES}), (ClaimAsked, {"claimer": 0, "piles": PILES})):
        (at, said), *_ = refused(model, {**body, "names": names})
        assert at[0] == "names" and said.startswith(words)


def schema(name: str) -> dict:
    """A request's schema from the OpenAPI document, its components as its $defs."""
    import json
    text = json.dumps(SPEC["components"]["schemas"]).replace("#/components/schemas/", "#/$defs/")
    schemas = json.loads(text)
    return {**schemas[name], "$defs": schemas}


@pytest.mark.parametrize("body", [
    with_count(0, cards=-1), with_count(1, colour=1), {"piles": PILES, "sweeps": [-1, 0]},
])
def test_what_the_schema_refuses_the_api_refuses(body):
    """Before, the document took a count below 0 and a key that is no count (the API refused
    both)."""
    assert not jsonschema.Draft202012Validator(schema("ScoreRequest")).is_valid(body)
    assert refused(ScoreRequest, body)


def test_what_the_api_takes_the_schema_takes():
    """A side named as a match keeps a team's name (TEAM_NAME_MAX): before, the document
    stopped at 24 characters."""
    body = {"piles": PILES, "names": ["x" * TEAM_NAME_MAX, "Bruno"]}
    assert jsonschema.Draft202012Validator(schema("ScoreRequest")).is_valid(body)
    assert ScoreRequest.check(body)[1] == []
