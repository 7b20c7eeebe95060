"""The poll decides in the view (table/live.py): one partial per target it swaps, each writing its
own out-of-band mark, the match page made of the same partials; and what is drawn is kept
outside the match model (table/drawn.py), so that the first page after a change draws only the
lines that changed (issue 36, point 4)."""

import dataclasses
import random
from pathlib import Path

import pytest

from companion import create_app, store
from companion.matches import Match, build
from companion.table import drawn
from helpers import ORGANISER, ORGANISER_CODE, random_hand
from markup import attr, count, nodes, one, texts


def new_match(client, players=("Anna", "Bruno")) -> int:
    answer = client.post("/api/v1/matches", json={"players": list(players), "first_dealer": 0,
                                                  "options": {"target": 1000}})
    assert answer.status_code == 201
    return answer.get_json()["id"]


def add(client, match_id: int, rng: random.Random) -> dict:
    answer = client.post(f"/api/v1/matches/{match_id}/hands", json=random_hand(2, rng))
    assert answer.status_code == 201
    return answer.get_json()["hand"]


def version_of(client, match_id: int) -> int:
    return client.get(f"/api/v1/matches/{match_id}").get_json()["version"]


def rendered(app, call) -> list[str]:
    """The live region's partials ``call()`` draws, in their order (each include too)."""
    names = []
    original = app.jinja_env.get_template

    def get_template(name, *args, **kwargs):
        if isinstance(name, str) and name.startswith("table/_live"):
            names.append(name)
        return original(name, *args, **kwargs)

    app.jinja_env.get_template = get_template
    try:
        call()
    finally:
        app.jinja_env.get_template = original
    return names


def test_a_poll_a_version_behind_sends_each_part_by_its_id_out_of_band(client):
    rng = random.Random(3)
    match_id = new_match(client)
    hands = [add(client, match_id, rng) for _ in range(4)]
    client.delete(f"/api/v1/matches/{match_id}/hands/{hands[-1]['id']}",
                  headers={"If-Match": f'"{hands[-1]["version"]}"'})
    added = add(client, match_id, rng)
    answer = client.get(f"/matches/{match_id}/poll?since={version_of(client, match_id) - 2}")
    assert attr(answer, "#live-poll", "hx-swap-oob") is None      # the target itself
    for part in ("live-score", "live-next", "live-after-end", "live-ratings", "live-last", "live-chart"):
        assert attr(answer, f"#{part}", "hx-swap-oob") == "true", part
    assert count(answer, "#live") == 0 and count(answer, "#live-hands") == 0
    assert [node.attributes["hx-swap-oob"] for node in nodes(answer, "[hx-swap-oob^=delete]")] == [
        f"delete:#hand-{hands[-1]['id']}"]
    assert attr(answer, f"ol[hx-swap-oob='afterbegin:#live-hands'] > li#hand-{added['id']}", "data-number") == "4"


def test_a_poll_that_cannot_send_only_what_changed_sends_the_whole_live_region(client):
    rng = random.Random(4)
    match_id = new_match(client)
    for _ in range(3):
        add(client, match_id, rng)
    answer = client.get(f"/matches/{match_id}/poll?since=0")
    assert attr(answer, "#live", "hx-swap-oob") == "true"
    assert not nodes(answer, "#live [hx-swap-oob]")     # its parts go in with it
    assert texts(answer, "#live-hands > li b") == ["3", "2", "1"]
    page = client.get(f"/matches/{match_id}")
    assert not nodes(page, "[hx-swap-oob]")
    assert [node.attributes["id"] for node in nodes(page, "#live > [id]")] == [
        node.attributes["id"] for node in nodes(answer, "#live > [id]")]


def test_the_view_chooses_the_partials_of_a_poll(app, client):
    rng = random.Random(5)
    match_id = new_match(client)
    hands = [add(client, match_id, rng) for _ in range(3)]
    version = version_of(client, match_id)

    def poll(since, undo=False):
        return rendered(app, lambda: client.get(f"/matches/{match_id}/poll?since={since}" + ("&undo=1" if undo else "")))

    parts = ["table/_live_score.html", "table/_live_next.html", "table/_live_after_end.html",
             "table/_live_ratings.html", "table/_live_last.html", "table/_live_chart.html"]
    assert poll(version - 1) == ["table/_live_poll.html", *parts, "table/_live_added.html"]
    client.delete(f"/api/v1/matches/{match_id}/hands/{hands[-1]['id']}",
                  headers={"If-Match": f'"{hands[-1]["version"]}"'})
    assert poll(version, undo=True) == ["table/_live_poll.html", *parts, "table/_live_removed.html", "table/_live_undo_gone.html"]
    assert poll(0) == ["table/_live_poll.html", "table/_live.html", *parts, "table/_live_hands.html"]


def test_no_template_decides_a_swap():
    """The flashed notices are read by base.html and the views only; no out-of-band mark is
    built as a string; #live is opened and closed by one template, unconditionally."""
    folder = Path(__file__).resolve().parents[2] / "templates/table"
    for template in folder.glob("_live*.html"):
        source = template.read_text()
        assert "get_flashed_messages" not in source, template.name
        assert "|safe" not in source and "'hx-swap-oob" not in source, template.name
    live = (folder / "_live.html").read_text()
    assert live.count('<div id="live"') == 1 and live.count("</div>") == 1
    assert "{% if not" not in live and "delta" not in live


def test_the_first_page_after_a_hand_draws_only_its_line(app, client, monkeypatch):
    rng = random.Random(6)
    match_id = new_match(client)
    for _ in range(30):
        add(client, match_id, rng)
    assert client.get(f"/matches/{match_id}").status_code == 200
    drawn_lines = []
    original = drawn.get_template_attribute

    def counting(template, name):
        macro = original(template, name)
        return lambda hand, *args: drawn_lines.append(hand.number) or macro(hand, *args)

    monkeypatch.setattr(drawn, "get_template_attribute", counting)
    add(client, match_id, rng)
    page = client.get(f"/matches/{match_id}")
    assert drawn_lines == [31]
    assert texts(page, "#live-hands > li b") == [str(number) for number in range(31, 0, -1)]
    assert client.get(f"/matches/{match_id}").status_code == 200      # the others: nothing drawn
    assert drawn_lines == [31]


def test_the_match_model_is_not_changed_by_drawing_it(client):
    """Nothing drawn is kept with the match model: the built match is the same after its page
    and its poll have been drawn."""
    rng = random.Random(7)
    match_id = new_match(client)
    for _ in range(3):
        add(client, match_id, rng)
    with client.application.app_context():
        current = store.built_match(store.get_db(), match_id, build, on_earlier=True)
        before = dataclasses.asdict(current)
    assert client.get(f"/matches/{match_id}").status_code == 200
    assert client.get(f"/matches/{match_id}/poll?since=0").status_code == 200
    assert dataclasses.asdict(current) == before
    assert not [field.name for field in dataclasses.fields(Match) if "html" in field.name]


@pytest.mark.parametrize("language", ["en", "it"])
def test_two_stores_with_the_same_match_and_version_draw_their_own(tmp_path, language):
    """What is kept is never another store's: a store restored starts its versions over, so a
    match there may have the id and version of one drawn before."""
    pages = []
    for name, players in (("one", ("Anna", "Bruno")), ("two", ("Carla", "Dario"))):
        app = create_app({"SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "ORGANISER_CODE": ORGANISER_CODE,
                          "DATABASE": str(tmp_path / f"{name}.sqlite")})
        client = app.test_client()
        client.environ_base.update(ORGANISER, HTTP_ACCEPT_LANGUAGE=language)
        match_id = new_match(client, players)
        add(client, match_id, random.Random(8))
        pages.append((players, client.get(f"/matches/{match_id}")))
    for players, page in pages:
        assert players[0] in one(page, "#live-hands").text()
