"""The rule items a request may change are one closed model (issue 44), made from what the rules
engine takes (rules.rulesets: CHOICES, BOOLEANS, BOUNDS), so the document, the API and the new
match form's inputs say each item's values once."""

from __future__ import annotations

from companion.api.openapi import SPEC
from companion.rules.rulesets import BOOLEANS, BOUNDS, CHOICES, ITEMS
from companion.table.forms import NewMatchForm
from companion.web.requests import RuleItems


def test_the_rule_items_model_has_every_item_and_its_values_as_the_rules_engine_takes_them():
    schema = SPEC["components"]["schemas"]["RuleItems"]
    assert tuple(RuleItems.model_fields) == ITEMS
    assert schema["additionalProperties"] is False and "required" not in schema
    for item, choices in CHOICES.items():
        shown = schema["properties"][item]
        enum = [branch for branch in shown.get("anyOf", [shown]) if "enum" in branch][0]["enum"]
        assert tuple(enum) == choices, item
    for item in BOOLEANS:
        assert schema["properties"][item] == {"type": "boolean"}, item
    for item, (least, most) in BOUNDS.items():
        shown = schema["properties"][item]
        number = [branch for branch in shown.get("anyOf", [shown]) if branch.get("type") == "integer"][0]
        assert (number["minimum"], number["maximum"]) == (least, most), item


def test_the_new_match_form_asks_for_the_numbers_within_the_same_bounds():
    for item, (least, most) in BOUNDS.items():
        assert getattr(NewMatchForm, item).kwargs["render_kw"] == {"min": least, "max": most}


def test_a_rule_item_past_its_bound_is_refused_in_the_rules_engines_words_by_the_api(client):
    answer = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "options": {"target": 1001}})
    assert (answer.status_code, answer.get_json()["error"]) == (400, "the target must be a whole number from 1 to 1000")
    answer = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "options": {"primiera": None}},
                         headers={"Accept-Language": "it"})
    assert answer.status_code == 400 and answer.get_json()["error"].startswith("primiera")
    # RULES §8: "`true` is read as `15-30`", as before.
    answer = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "options": {"deal_scope": True}})
    assert answer.status_code == 201 and answer.get_json()["rules"]["deal_scope"] == "15-30"
