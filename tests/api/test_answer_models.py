"""The API's answers are built as their models (issue 44, one description per request:
api/answer_models.py and its kin, sent by ``answers.sent``): a value of the wrong type fails
where the answer is built, not only in the tests that check answers against the document, and
the answers' bytes are those the API sent when it wrote its dicts by hand: the same keys in the
same order (jsonify keeps a dict's order here), a whole figure whole, a hand's entry as stored."""

from __future__ import annotations

import dataclasses
import json

import pytest
from pydantic import ValidationError

from companion.api import answers
from companion.api.answer_models import Closed, Entry
from companion.api.openapi import ANSWERS
from companion.api.openapi_tournaments import Standing, Table
from companion.web.pages import load_match
from helpers import FULL, HAND, finish, new_match


def _subclasses(model: type) -> set[type]:
    found = set(model.__subclasses__())
    return found.union(*(_subclasses(sub) for sub in found)) if found else found


def test_every_answers_model_is_strict_and_closed():
    """Each model the document's answers come from is an answer's model (``Closed``): no key
    it does not declare, no value read as another type (a count sent as "3", a 0 as false).
    The hand's entry, as stored, is the one open object, strict too."""
    models = {model.__name__: model for model in _subclasses(Closed)} | {"Entry": Entry}
    assert set(ANSWERS) <= set(models)
    for name in ANSWERS:
        config = models[name].model_config
        assert config.get("strict") is True, name
        assert config.get("extra") == ("allow" if name == "Entry" else "forbid"), name


def test_a_value_of_the_wrong_type_fails_where_the_answer_is_built(client):
    """A match whose PIN flag read as the store's 1, not True: before, ``{"pin": 1}`` went out
    and only the check of answers against the document could see it; now the answer is not
    built."""
    match_id = new_match(client)
    with client.application.test_request_context():
        match = load_match(match_id)
        assert answers.match_summary(match).pin is False
        with pytest.raises(ValidationError, match="pin"):
            answers.match_summary(dataclasses.replace(match, has_pin=1))


def _keys(response) -> list[str]:
    """The answer's top-level keys in the order it sent them."""
    return list(json.loads(response.get_data(as_text=True)))


MATCH_KEYS = ["id", "created", "version", "sides", "rules", "pin", "totals", "hands", "outcome", "rated",
              "next_hand"]


def test_the_answers_keys_come_in_the_order_they_always_have(client):
    """A client reads the keys in the order sent (a person reading the JSON, a program that
    keeps it): the models declare them in that order, which no document check sees."""
    made = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0})
    assert _keys(made) == MATCH_KEYS
    match_id = made.get_json()["id"]
    saved = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    assert _keys(saved) == ["hand", "match"]
    assert list(saved.get_json()["hand"]) == ["id", "number", "version", "entry", "points", "totals_after",
                                              "breakdown"]
    clash = client.post(f"/api/v1/matches/{match_id}/hands", json={**HAND, "number": 1})
    assert clash.status_code == 409 and _keys(clash) == ["error", "hand", "match"]
    assert _keys(client.get(f"/api/v1/matches/{match_id}")) == [*MATCH_KEYS, "hands_next"]
    player = client.get(f"/api/v1/players/{client.get('/api/v1/players').get_json()['players'][0]['id']}")
    assert _keys(player)[-10:] == ["rating", "mu", "sigma", "provisional", "rating_history", "rating_history_next",
                                   "head_to_head", "best_hand", "worst_hand", "last_matches"]
    finish(client, match_id)
    ratings = client.get("/api/v1/ratings").get_json()["ratings"]
    assert ratings and list(ratings[0]) == ["id", "name", "rating", "mu", "sigma", "matches", "provisional"]
    night = client.post("/api/v1/tournaments", json={"name": "Sera", "format": "round-robin",
                                                     "entrants": ["Anna", "Bruno", "Carla"]}).get_json()["id"]
    client.post(f"/api/v1/tournaments/{night}/rounds", json={})
    refused = client.post(f"/api/v1/tournaments/{night}/rounds", json={})
    assert refused.status_code == 409 and _keys(refused)[:3] == ["error", "id", "name"]


def test_a_hand_entered_with_declarations_is_sent_as_stored(client):
    """An API hand with declarations stores them before its mode: its answer keeps the store's
    order (a model would put its own field, ``mode``, first)."""
    match_id = new_match(client, variant="cirulla")
    hand = {"piles": [FULL[:20], FULL[20:]], "sweeps": [0, 0],
            "declarations": [{"side": 1, "deal": 3, "cards": ["1b", "2c", "3s"]}]}
    saved = client.post(f"/api/v1/matches/{match_id}/hands", json=hand)
    assert saved.status_code == 201, saved.get_json()
    for answer in (saved, client.get(f"/api/v1/matches/{match_id}")):
        assert '"entry":{"declarations":[{"side":1,"deal":3,"cards":["1b","2c","3s"]}],"mode":"piles"' \
            in answer.get_data(as_text=True)


def test_a_whole_figure_is_sent_whole():
    """A primiera of 76, a head-to-head of 1, a chance of 1 are sent as 76 and 1, as the dicts
    sent them (a float field writes 76.0); halves stay halves."""
    table = {"table": 1, "match": 1, "entrants": ["A", "B"], "totals": [0, 0], "over": False, "winner": None,
             "withdrew": None}
    assert Table(**table, chances=[1, 0]).model_dump(mode="json")["chances"] == [1, 0]
    assert json.dumps(Table(**table, chances=[0.25, 0.75]).model_dump(mode="json")["chances"]) == "[0.25, 0.75]"
    row = {"entrant": "A", "played": 2, "won": 1, "drawn": 0, "lost": 1, "byes": 0, "match_points": 2,
           "scored": 20, "conceded": 20, "difference": 0, "buchholz_cut1": None, "buchholz": None,
           "sonneborn_berger": 2, "withdrawn": False, "decided_by": "head_to_head"}
    assert json.dumps(Standing(**row, head_to_head=1).model_dump(mode="json")["head_to_head"]) == "1"
    assert json.dumps(Standing(**row, head_to_head=1.5).model_dump(mode="json")["head_to_head"]) == "1.5"


def test_a_whole_primiera_is_sent_whole(client):
    scored = client.post("/api/v1/score", json=HAND).get_data(as_text=True)
    values = [side["primiera_value"] for side in json.loads(scored)["sides"]]
    assert all(isinstance(value, int) for value in values), values
    assert all(f'"primiera_value":{value},' in scored for value in values)
