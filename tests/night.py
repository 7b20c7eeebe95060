"""A club night of six players (issue 33), as the tests play it and the closing note's
screenshots show it: one-hand matches, the first side (or team) winning 5 to 0, in this order.
``python tests/night.py URL`` plays it on a running companion (its organiser's code in
SCOPA_ORGANISER_CODE, if it asks for one)."""

from __future__ import annotations

import json
import os
import sys
import urllib.request

from helpers import HAND

# Each match: its sides, the winner's first; a side of two names is a team (a Scopone).
NIGHT: list[list[list[str]]] = [
    [["Salvatore"], ["Gianni"]],
    [["Carla"], ["Elena"]],
    [["Franco"], ["Massimiliana"]],
    [["Carla", "Salvatore"], ["Gianni", "Elena"]],
    [["Elena"], ["Franco"]],
    [["Massimiliana"], ["Gianni"]],
    [["Carla"], ["Salvatore"]],
    [["Salvatore"], ["Elena"]],
    [["Gianni"], ["Franco"]],
    [["Carla", "Franco"], ["Massimiliana", "Salvatore"]],
    [["Massimiliana"], ["Elena"]],
    [["Carla"], ["Gianni"]],
]


def body(sides: list[list[str]]) -> dict:
    """The new match's body for these sides: one hand, the first side dealing."""
    if len(sides[0]) == 1:
        made = {"players": [side[0] for side in sides]}
    else:
        made = {"variant": "scopone", "teams": [{"name": " & ".join(side), "players": side} for side in sides]}
    return {**made, "first_dealer": 0, "options": {"hands": 1}}


def play_the_night(client) -> list[int]:
    """The night played through a Flask test client: the matches' ids, in order."""
    ids = []
    for sides in NIGHT:
        made = client.post("/api/v1/matches", json=body(sides))
        assert made.status_code == 201, made.get_json()
        saved = client.post(f"/api/v1/matches/{made.get_json()['id']}/hands", json=HAND)
        assert saved.status_code == 201, saved.get_json()
        ids.append(made.get_json()["id"])
    return ids


def _send(base: str, path: str, data: dict) -> dict:
    request = urllib.request.Request(base + "/api/v1" + path, data=json.dumps(data).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "X-Scopa-Organiser": os.environ.get("SCOPA_ORGANISER_CODE", "")})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


if __name__ == "__main__":
    base = sys.argv[1].rstrip("/")
    for sides in NIGHT:
        match = _send(base, "/matches", body(sides))
        _send(base, f"/matches/{match['id']}/hands", HAND)
    print(f"{len(NIGHT)} matches played on {base}")
