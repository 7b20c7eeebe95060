"""The API's answers are as the OpenAPI document says (issue 44): the answers' schemas are
generated from their models (api/answer_models.py and its kin), and every answer a test under
tests/api gets is checked against its operation's schema (tests/documented.py, through
conftest's ``answers_as_documented``). Here: the check catches what it is there for (a key the
model does not have, a field left out, a status not documented), and an evening of the API
answers every operation the document describes, each as documented."""

from __future__ import annotations

from flask import Flask, jsonify

from companion.api.openapi import ANSWERS, SPEC
from documented import Seen, listened
from helpers import HAND

SCHEMAS = SPEC["components"]["schemas"]


def test_every_answer_schema_is_a_models():
    """No answer's schema is written by hand: each is a model's, as pydantic writes it."""
    answered = {ref.rsplit("/", 1)[1] for operations in SPEC["paths"].values()
                for operation in operations.values() for answer in operation["responses"].values()
                for ref in _refs(answer.get("content", {}))}
    assert answered and answered <= set(ANSWERS)
    assert {"Match", "Hand", "Tournament", "Player", "Change", "Error"} <= set(ANSWERS)


def _refs(schema) -> list[str]:
    if isinstance(schema, dict):
        return [schema["$ref"]] if "$ref" in schema else [r for value in schema.values() for r in _refs(value)]
    if isinstance(schema, list):
        return [r for value in schema for r in _refs(value)]
    return []


def test_the_answers_objects_are_closed():
    """An answer's object is closed where the API's is: a key the API adds and the model does
    not name is a key the document refuses (the hand's entry, as stored, and maps such as a
    side's points are the open ones)."""
    closed = {name for name, schema in ANSWERS.items() if schema.get("additionalProperties") is False}
    assert set(ANSWERS) - closed == {"Entry"}
    assert all(ANSWERS[name]["additionalProperties"] is False for name in ("Match", "Side", "Tournament"))


def answered(path: str, body: object, status: int = 200) -> list[str]:
    """What the check says of ``body`` answered with ``status`` by the route of the document's
    ``path`` (on an app of its own, out of the check this module's tests are under)."""
    app = Flask("bare")
    app.add_url_rule(path.replace("{", "<int:").replace("}", ">"), "fake", lambda **_: "")
    seen = Seen()
    with app.test_request_context(path.replace("{match_id}", "1").replace("{hand_id}", "2")):
        response = jsonify(body)
        response.status_code = status
        seen.answer(app, response)
    return seen.wrong


def test_the_check_refuses_an_answer_off_its_schema():
    good = {"matches": [], "next": None}
    assert answered("/api/v1/matches", good) == []
    assert "Additional properties" in answered("/api/v1/matches", {**good, "more": 1})[0]
    assert "'next' is a required property" in answered("/api/v1/matches", {"matches": []})[0]
    assert "'2' is not of type 'integer'" in "".join(answered("/api/v1/matches/{match_id}/hands/{hand_id}", {
        "hand": {"id": "2"}, "match": {}}))
    assert "does not say" in answered("/api/v1/matches", good, 418)[0]


def test_an_evening_of_the_api_answers_every_operation_as_documented(client):
    """Matches, hands (saved, sent twice, clashing, changed, deleted), the log and its undo, the
    ratings, the players, a tournament from its making to a withdrawal, and the referee's
    questions: every answer valid against the document, and every operation answered."""
    with listened() as seen:
        client.get("/api/v1/variants")
        client.post("/api/v1/score", json=HAND)
        client.post("/api/v1/score", json={"variant": "escoba", "tallies": [
            {"cards": 22, "coins": 6, "settebello": True, "sweeps": 1}, {"cards": 18, "coins": 4}]})
        client.post("/api/v1/captures", json={"table": ["1d", "2c", "3s"], "played": "3b"})
        client.post("/api/v1/deal", json={"variant": "cirulla", "table": ["1d", "2c", "3s", "9b"]})
        client.post("/api/v1/claim", json={"options": {"claims": True}, "claimer": 0, "piles": [
            ["7d", "1c"], ["2c", "3c"]], "sweeps": [1, 1], "totals": [10, 10]})
        made = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0,
                                                    "options": {"hands": 2}}).get_json()
        hands = f"/api/v1/matches/{made['id']}/hands"
        saved = client.post(hands, json=HAND, headers={"Idempotency-Key": "k1"}).get_json()
        client.post(hands, json=HAND, headers={"Idempotency-Key": "k1"})                   # 200
        client.post(hands, json={**HAND, "sweeps": [0, 0]}, headers={"Idempotency-Key": "k1"})  # 422
        client.post(hands, json={**HAND, "number": 1})                                      # 409
        hand = f"{hands}/{saved['hand']['id']}"
        client.get(hand)
        changed = client.put(hand, json={**HAND, "sweeps": [0, 0], "version": 1}).get_json()
        client.put(hand, json={**HAND, "version": 1})                                       # 409
        client.get(f"/api/v1/matches/{made['id']}?limit=1")
        client.get("/api/v1/matches?limit=1")
        changes = client.get(f"/api/v1/matches/{made['id']}/changes?limit=1").get_json()
        client.post(f"/api/v1/matches/{made['id']}/changes/{changes['changes'][0]['id']}/undo", json={})
        client.delete(f"{hand}?version={changed['hand']['version'] + 1}")
        client.post(hands, json=HAND)
        client.post(hands, json=HAND)
        client.post(hands, json=HAND)                                                       # over: 409
        client.put(f"/api/v1/matches/{made['id']}/rated", json={"rated": True})
        players = client.get("/api/v1/players?limit=1").get_json()
        client.get(f"/api/v1/players/{players['players'][0]['id']}?limit=1")
        client.get("/api/v1/ratings")
        made = client.post("/api/v1/tournaments", json={"name": "Sera", "format": "swiss", "entrants": [
            "Anna", "Bruno", "Carla", "Dario"]}).get_json()
        tournament = f"/api/v1/tournaments/{made['id']}"
        client.post(f"{tournament}/entrants", json={"entrant": "Zoe"})
        client.post(f"{tournament}/rounds", json={})
        client.post(f"{tournament}/rounds", json={})                                        # 409
        client.post(f"{tournament}/entrants/2/withdraw", json={})
        client.post(f"{tournament}/entrants/2/reinstate", json={})
        client.get(tournament)
        client.get(f"{tournament}/standings.csv")
        client.get("/api/v1/matches/9999")                                                  # 404
    assert seen.wrong == []
    documented = {(path, method) for path, operations in SPEC["paths"].items() for method in operations}
    assert {(path, method) for path, method, status in seen.answered if status < "3"} == documented - {
        ("/api/v1/openapi.json", "get")}
    assert {("/api/v1/matches/{match_id}/hands", "post", status) for status in ("200", "201", "409", "422")} \
        <= set(seen.answered)
    assert ("/api/v1/tournaments/{tournament_id}/rounds", "post", "409") in seen.answered
