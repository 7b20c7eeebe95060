"""What a page's buttons post beside a form (a version, a switch, the ids ticked) is read by a
small model (``web.posts``), as the API's requests are (issue 44): a value no page sends is
refused in words, 400, and nothing changes. Before, each was read by hand: "archived=yes" and
"rated=yes" meant false (a match archived was put back, a rated one left out of the ratings),
"version=x" meant no version (the page said another phone had changed the hand), a round "x"
that it had been started already, an id that is not one was skipped."""

from __future__ import annotations

import pytest

from helpers import counts_form, new_match
from markup import texts


def a_match_with_a_hand(client) -> tuple[int, dict]:
    match_id = new_match(client)
    assert client.post(f"/matches/{match_id}/hands/new", data=counts_form(22, 6)).status_code == 303
    return match_id, client.get(f"/api/v1/matches/{match_id}").get_json()


def refused(answer, words: str) -> None:
    assert answer.status_code == 400
    assert [said.startswith(words) for said in texts(answer, "[data-testid=error]")] == [True], \
        texts(answer, "[data-testid=error]")


@pytest.mark.parametrize("path, data, words", [
    ("/matches/{m}/archive", {"archived": "yes"}, "Archived must be true or false"),
    ("/matches/{m}/rated", {"rated": "yes"}, 'Say "rated": true or false'),
    ("/matches/{m}/delete", {"version": "x"}, "Version must be a whole number from 0"),
    ("/matches/{m}/hands/{h}/edit", {**counts_form(20, 6), "version": "x"}, "Version must be a whole number from 1"),
    ("/matches/{m}/hands/{h}/delete", {"version": "1.5"}, "Version must be a whole number from 1"),
    ("/matches/{m}/hands/{h}/undo", {"version": "²"}, "Version must be a whole number from 1"),
    ("/matches/{m}/hands/restore", {"hand": ["{h}", "x"], "version": "3"}, "Hand.1 must be a whole number"),
    ("/matches/{m}/hands/after-end/delete", {"hand": "{h}:x"}, "Hand.0.1 must be a whole number"),
    ("/matches/delete", {"match": ["{m}", "x"]}, "Match.1 must be a whole number"),
])
def test_a_crafted_value_beside_a_matchs_form_is_refused_in_words_and_changes_nothing(client, path, data, words):
    match_id, before = a_match_with_a_hand(client)
    hand_id = before["hands"][0]["id"]
    filled = {key: [v.format(h=hand_id, m=match_id) for v in value] if isinstance(value, list)
              else value.format(h=hand_id, m=match_id) for key, value in data.items()}
    answer = client.post(path.format(m=match_id, h=hand_id), data=filled)
    refused(answer, words)
    after = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert after["version"] == before["version"] and after["hands"] == before["hands"]
    assert after.get("archived") == before.get("archived") and after.get("rated") == before.get("rated")


def test_a_crafted_player_to_merge_into_is_refused_in_words(client):
    new_match(client)
    anna = client.get("/api/v1/players").get_json()["players"][0]["id"]
    refused(client.post(f"/players/{anna}/merge", data={"into": "x"}), "Into must be a whole number")


def test_a_crafted_round_is_refused_in_words_and_starts_nothing(client):
    made = client.post("/api/v1/tournaments", json={"name": "Night", "format": "round-robin",
                                                    "entrants": ["Anna", "Bruno", "Carla"]}).get_json()
    refused(client.post(f"/tournaments/{made['id']}/rounds", data={"round": "x"}),
            "Round must be a whole number")
    assert client.get(f"/api/v1/tournaments/{made['id']}").get_json()["rounds"] == []
