"""A tournament night through the JSON API and the pages (issue 14): rounds whose tables are
ordinary matches, the standings worked out from those matches, 409s at the wrong time, the
board. The expected standings are worked out here from the tables' matches as the API gives
them back, never from the module that ranks them."""

import random
import sqlite3
from collections import Counter
from itertools import combinations

import pytest

from companion import create_app, store
from helpers import organiser, phone, random_hand
from markup import attr, texts


def new(client, **body):
    body = {"name": "Giovedì", "format": "round-robin", "options": {"target": 5}, **body}
    answer = client.post("/api/v1/tournaments", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play_round(client, tournament, rng, decide=None):
    """Start the next round and play every table to its end; ``decide(entrants)`` may name the
    side that takes every card of each hand. Returns the tournament as it then is."""
    started = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    assert started.status_code == 201, started.get_json()
    tournament = started.get_json()
    for table in tournament["rounds"][-1]["tables"]:
        match = client.get(f"/api/v1/matches/{table['match']}").get_json()
        assert [side["name"] for side in match["sides"]] == table["entrants"]
        while not match["outcome"]["over"]:
            if decide:
                side = decide(table["entrants"])
                piles = [[], []]
                piles[side] = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
                hand = {"piles": piles, "sweeps": [1 if i == side else 0 for i in range(2)]}
            else:
                hand = random_hand(2, rng)
            saved = client.post(f"/api/v1/matches/{table['match']}/hands", json=hand)
            assert saved.status_code == 201, saved.get_json()
            match = saved.get_json()["match"]
    return client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()


def expected_standings(client, tournament, swiss=False):
    """The standings worked out here: 2 points a win, 1 a draw, a bye a win; then, level on
    points, for a round robin: head-to-head (only among entrants who all met, again among those
    it leaves level), the beaten opponents' points, the points difference, the points scored;
    for a Swiss: the opponents' points without the lowest, all of them (a bye counts the
    entrant's own points, at most one a round), head-to-head, the difference, the points
    scored; last the order of entry."""
    names = [entrant["name"] for entrant in tournament["entrants"]]
    rows = {name: Counter() for name in names}
    games, opponents = [], {name: [] for name in names}
    for round_ in tournament["rounds"]:
        for name in round_["byes"]:
            rows[name].update(played=1, won=1, match_points=2, byes=1)
        for table in round_["tables"]:
            match = client.get(f"/api/v1/matches/{table['match']}").get_json()
            if not match["outcome"]["over"]:
                continue
            a, b = table["entrants"]
            winner = match["outcome"]["winner"]
            games.append((a, b, None if winner is None else table["entrants"][winner]))
            for side, (me, other) in enumerate(((a, b), (b, a))):
                row = rows[me]
                row.update(played=1, scored=match["totals"][side], conceded=match["totals"][1 - side])
                if winner is None:
                    row.update(drawn=1, match_points=1)
                    opponents[me].append((other, 1))
                elif winner == side:
                    row.update(won=1, match_points=2)
                    opponents[me].append((other, 2))
                else:
                    row.update(lost=1)
                    opponents[me].append((other, 0))
    points = {n: rows[n]["match_points"] for n in names}
    rounds = len(tournament["rounds"])

    def buchholz(n, cut):
        values = [points[o] for o, _ in opponents[n]] + [min(points[n], rounds)] * rows[n]["byes"]
        return sum(values) - (min(values) if cut and values else 0)

    def head_to_head(group):
        scores = {n: 0.0 for n in group}
        for x, y in combinations(group, 2):
            met = [w for a, b, w in games if {a, b} == {x, y}]
            if not met:
                return None
            scores[x] += sum(2 if w == x else 1 if w is None else 0 for w in met) / len(met)
            scores[y] += sum(2 if w == y else 1 if w is None else 0 for w in met) / len(met)
        return scores

    figures = {
        "buchholz_cut1": lambda g: {n: buchholz(n, True) for n in g},
        "buchholz": lambda g: {n: buchholz(n, False) for n in g},
        "head_to_head": head_to_head,
        "sonneborn_berger": lambda g: {n: sum(points[o] * p for o, p in opponents[n]) for n in g},
        "difference": lambda g: {n: rows[n]["scored"] - rows[n]["conceded"] for n in g},
        "scored": lambda g: {n: rows[n]["scored"] for n in g},
    }
    criteria = (["buchholz_cut1", "buchholz", "head_to_head"] if swiss else
                ["head_to_head", "sonneborn_berger"]) + ["difference", "scored"]

    def ranked(group, start):
        for at in range(start, len(criteria)):
            values = figures[criteria[at]](group)
            if values is None or len(set(values.values())) < 2:
                continue
            return [n for level in sorted(set(values.values()), reverse=True)
                    for n in ranked([n for n in group if values[n] == level], at)]
        return sorted(group, key=names.index)

    order = [n for level in sorted(set(points.values()), reverse=True)
             for n in ranked([n for n in names if points[n] == level], 0)]
    return [{"entrant": n, **{k: rows[n][k] for k in ("played", "won", "drawn", "lost",
                                                       "match_points", "scored", "conceded")}}
            for n in order]


def check_standings(client, tournament, swiss=False):
    expected = expected_standings(client, tournament, swiss)
    answered = [{k: row[k] for k in expected[0]} for row in tournament["standings"]]
    assert answered == expected


@pytest.mark.parametrize("n", [4, 5])
def test_a_round_robin_meets_everyone_once_and_ranks_from_the_matches(client, n):
    rng = random.Random(n)
    tournament = new(client, entrants=[f"P{i}" for i in range(n)])
    assert tournament["rounds"] == [] and not tournament["over"]
    while not tournament["over"]:
        tournament = play_round(client, tournament, rng)
        check_standings(client, tournament)
    rounds = tournament["rounds"]
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(t["entrants"]) for r in rounds for t in r["tables"])
    assert set(met) == {frozenset(p) for p in combinations([f"P{i}" for i in range(n)], 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [name for t in r["tables"] for name in t["entrants"]] + r["byes"]
        assert sorted(seated) == sorted(f"P{i}" for i in range(n))
    byes = Counter(name for r in rounds for name in r["byes"])
    assert (set(byes.values()) == {1} and len(byes) == n) if n % 2 else not byes
    assert tournament["winner"] == tournament["standings"][0]["entrant"]
    # Over: no round more.
    late = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    assert late.status_code == 409 and "over" in late.get_json()["error"]


def test_a_round_is_refused_while_one_is_played_and_started_once(client):
    tournament = new(client, entrants=["Anna", "Bruno", "Carla", "Dario"])
    first = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    assert first.status_code == 201
    again = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    assert again.status_code == 409 and "round 1 is still being played" in again.get_json()["error"]
    assert len(client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["rounds"]) == 1
    # From the page: the button of round 1, sent again after round 1 started, starts nothing.
    page = client.post(f"/tournaments/{tournament['id']}/rounds", data={"round": "1"},
                       follow_redirects=True)
    assert "already started" in page.get_data(as_text=True)
    assert len(client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["rounds"]) == 1


def test_a_swiss_never_repeats_a_pair_and_counts_buchholz(client):
    rng = random.Random(8)
    tournament = new(client, format="swiss", rounds=4, entrants=[f"S{i}" for i in range(8)])
    while not tournament["over"]:
        tournament = play_round(client, tournament, rng)
        check_standings(client, tournament, swiss=True)
    assert len(tournament["rounds"]) == 4
    pairs = [frozenset(t["entrants"]) for r in tournament["rounds"] for t in r["tables"]]
    assert len(pairs) == len(set(pairs)) == 16
    assert all(row["buchholz"] is not None for row in tournament["standings"])


def test_a_knockout_advances_the_winners_to_a_champion(client):
    names = [f"K{i}" for i in range(1, 7)]
    strength = {name: i for i, name in enumerate(names)}     # K1 beats everyone: seed order
    tournament = new(client, format="knockout", entrants=names)
    decide = lambda entrants: min((0, 1), key=lambda side: strength[entrants[side]])
    tournament = play_round(client, tournament, random.Random(1), decide)
    first = tournament["rounds"][0]
    assert sorted(first["byes"]) == ["K1", "K2"]              # the top seeds
    assert len(first["tables"]) == 2
    winners = {t["winner"] for t in first["tables"]}
    tournament = play_round(client, tournament, random.Random(2), decide)
    second = {name for t in tournament["rounds"][1]["tables"] for name in t["entrants"]}
    assert second == winners | {"K1", "K2"}
    tournament = play_round(client, tournament, random.Random(3), decide)
    final = tournament["rounds"][2]["tables"]
    assert len(final) == 1 and set(final[0]["entrants"]) == {"K1", "K2"}
    assert tournament["over"] and tournament["winner"] == "K1"


def test_a_corrected_result_moves_the_standings(client):
    tournament = new(client, entrants=["Anna", "Bruno", "Carla", "Dario"])
    tournament = play_round(client, tournament, random.Random(5), lambda entrants: 0)
    table = tournament["rounds"][0]["tables"][0]
    winner, loser = table["entrants"]
    match = client.get(f"/api/v1/matches/{table['match']}").get_json()
    hand = match["hands"][0]
    # The hand was entered the wrong way round: the loser took every card.
    client.put(f"/api/v1/matches/{table['match']}/hands/{hand['id']}", json={
        "piles": [[], [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]], "sweeps": [0, 1],
        "version": hand["version"]})
    after = client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()
    rows = {row["entrant"]: row for row in after["standings"]}
    assert rows[loser]["won"] == 1 and rows[winner]["lost"] == 1
    check_standings(client, after)


def test_pairs_play_as_teams_the_organiser_starts_the_rounds_and_the_pin_guards_the_tables(client):
    pairs = [{"name": "Nord", "players": ["Anna", "Bruno"]}, {"name": "Sud", "players": ["Carla", "Dario"]},
             {"name": "Est", "players": ["Elsa", "Fabio"]}, {"name": "Ovest", "players": ["Gino", "Ugo"]}]
    tournament = new(client, variant="scopone", entrants=pairs, pin="246813", options={})
    client.application.config["ORGANISER_CODE"] = "K7P-2QX"
    client.environ_base["HTTP_X_SCOPA_ORGANISER"] = "K7P-2QX"
    other = phone(client.application)          # another phone: not the organiser's
    refused = other.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    assert refused.status_code == 403 and "only the organiser" in refused.get_json()["error"]
    with_pin = other.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={}, headers={"X-Scopa-PIN": "246813"})
    assert with_pin.status_code == 403              # the PIN is the scorers', not the organiser's
    started = other.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={},
                         headers={"X-Scopa-Organiser": "k7p-2qx"})
    assert started.status_code == 201
    table = started.get_json()["rounds"][0]["tables"][0]
    match = client.get(f"/api/v1/matches/{table['match']}").get_json()
    assert match["pin"] and [s["name"] for s in match["sides"]] == table["entrants"]
    assert all(len(side["players"]) == 2 for side in match["sides"])
    hand = random_hand(2, random.Random(1))
    assert other.post(f"/api/v1/matches/{table['match']}/hands", json=hand).status_code == 403
    assert other.post(f"/api/v1/matches/{table['match']}/hands", json=hand,
                      headers={"X-Scopa-PIN": "246813"}).status_code == 201
    # Scopone is for pairs: players alone are refused, in words.
    alone = client.post("/api/v1/tournaments", json={"name": "x", "format": "swiss", "variant": "scopone",
                                                     "entrants": ["A", "B", "C", "D"]})
    assert alone.status_code == 400 and "Scopone" in alone.get_json()["error"]


def test_a_malformed_tournament_is_refused_in_words(client):
    """What the API answers a refusal (tournaments.service.create's Refused: each refusal is
    checked without HTTP in test_tournament_service.py): 400, the words, nothing made."""
    answer = client.post("/api/v1/tournaments", json={
        "name": "x", "format": "swiss", "entrants": ["Anna", "Bruno", "Carla", "Dario"], "rounds": 9})
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json() == {"error": "a Swiss tournament of 4 entrants has 1 to 3 rounds"}
    assert client.get("/api/v1/tournaments/1").status_code == 404


def test_the_pages_run_a_night(client):
    answer = client.post("/tournaments/new", data={
        "name": "Circolo", "format": "round-robin", "variant": "classica",
        "entrants": "Anna\nBruno\n\nCarla\n", "seeding": "order"})
    assert answer.status_code == 303
    page_url = answer.headers["Location"]
    tournament_id = int(page_url.rsplit("/", 1)[1])
    page = client.get(page_url).get_data(as_text=True)
    assert "Start round 1" in page
    client.post(f"/tournaments/{tournament_id}/rounds", data={"round": "1"})
    page = client.get(page_url).get_data(as_text=True)
    assert "Round 1" in page and "Bye: " in page
    sheet = client.get(f"/tournaments/{tournament_id}/pairings").get_data(as_text=True)
    tables = texts(sheet, "td.big-figure")
    assert tables == ["1"] and "deals first" in sheet.lower()
    # The board polls: nothing while nothing changed, the new score once it does.
    board = client.get(f"/tournaments/{tournament_id}/board").get_data(as_text=True)
    version = attr(board, "[data-version]", "data-version")
    # A screen without JavaScript refreshes only when asked to (axe: meta-refresh).
    assert 'http-equiv="refresh"' not in board and "?refresh=1" in board
    assert 'http-equiv="refresh"' in client.get(f"/tournaments/{tournament_id}/board?refresh=1").get_data(as_text=True)
    quiet = client.get(f"/tournaments/{tournament_id}/board/live?since={version}")
    assert quiet.get_data() == b"" and quiet.headers["HX-Reswap"] == "none"
    match_id = client.get(f"/api/v1/tournaments/{tournament_id}").get_json()["rounds"][0]["tables"][0]["match"]
    client.post(f"/api/v1/matches/{match_id}/hands", json=random_hand(2, random.Random(1)))
    moved = client.get(f"/tournaments/{tournament_id}/board/live?since={version}").get_data(as_text=True)
    assert 'id="board-live"' in moved and f'data-version="{version}"' not in moved
    assert client.get(f"/tournaments/{tournament_id}/standings").status_code == 200
    refused = client.post("/tournaments/new", data={"name": "x", "format": "round-robin",
                                                    "variant": "classica", "entrants": "Solo"})
    assert refused.status_code == 400 and "2 to 64" in refused.get_data(as_text=True)
    for path in ("/tournaments/99", "/tournaments/99/board", "/tournaments/99/board/live",
                 "/tournaments/99/pairings", f"/tournaments/{2**80}"):
        assert client.get(path).status_code == 404, path


def test_a_tables_match_cannot_be_deleted(client):
    tournament = new(client, entrants=["Anna", "Bruno"])
    tournament = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={}).get_json()
    match_id = tournament["rounds"][0]["tables"][0]["match"]
    version = client.get(f"/api/v1/matches/{match_id}").get_json()["version"]
    answer = client.post(f"/matches/{match_id}/delete", data={"version": version}, follow_redirects=True)
    assert "table 1 of Giovedì" in answer.get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{match_id}").status_code == 200


def test_a_player_renamed_during_a_tournament_keeps_one_record(client):
    """Found in review: the next round's tables were made with the old name, which made a new
    player."""
    tournament = new(client, entrants=["Anna", "Bruno", "Carla", "Dario"])
    tournament = play_round(client, tournament, random.Random(3))
    anna = next(p["id"] for p in client.get("/api/v1/players").get_json()["players"] if p["name"] == "Anna")
    assert client.post(f"/players/{anna}/rename", data={"name": "Anna Rossi"}).status_code == 303
    tournament = play_round(client, tournament, random.Random(4))
    names = {p["name"] for p in client.get("/api/v1/players").get_json()["players"]}
    assert names == {"Anna Rossi", "Bruno", "Carla", "Dario"}
    assert "Anna Rossi" in [row["entrant"] for row in tournament["standings"]]
    assert any("Anna Rossi" in t["entrants"] for t in tournament["rounds"][1]["tables"])
    record = client.get(f"/api/v1/players/{anna}").get_json()
    assert record["matches"] == 2


def test_a_rename_reads_only_the_tournaments_that_name_the_player(app, client):
    """Issue 26: with 25,000 tournaments a rename read them all while holding the write lock
    (1.7 s). The store knows which tournaments name whom (tournament_players), including those
    made before it did (m011), and a rename twice over still finds them."""
    for number in range(30):
        new(client, name=f"Notte {number}", entrants=["Carla", "Dario"])
    mine = play_round(client, new(client, entrants=["anna", "Bruno"]), random.Random(5))
    with sqlite3.connect(app.config["DATABASE"]) as conn:      # as a store before m011
        conn.execute("DROP TABLE tournament_players")
        conn.execute("DELETE FROM migrations WHERE version = 11")
    store.forget_built()
    client = organiser(create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                                   "DATABASE": app.config["DATABASE"]}))
    anna = next(p["id"] for p in client.get("/api/v1/players").get_json()["players"] if p["name"] == "anna")
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        keys = conn.execute("SELECT tournament_id FROM tournament_players WHERE key = 'anna'").fetchall()
    assert keys == [(mine["id"],)]
    for name in ("Anna Rossi", "Anna Bianchi"):
        assert client.post(f"/players/{anna}/rename", data={"name": name}).status_code == 303
        entrants = client.get(f"/api/v1/tournaments/{mine['id']}").get_json()["entrants"]
        assert name in [e["name"] for e in entrants]
    other = client.get(f"/api/v1/tournaments/{mine['id'] - 1}").get_json()
    assert [e["name"] for e in other["entrants"]] == ["Carla", "Dario"]


# -- Each refusal by its field (issue 44) --------------------------------------------------

NIGHT = {"name": "Circolo", "format": "swiss", "variant": "classica", "entrants": "Anna\nBruno\nCarla",
         "seeding": "order"}


@pytest.mark.parametrize("changes, field, said", [
    ({"rounds": "5"}, "t-rounds", "A Swiss tournament of 3 entrants has 1 to 2 rounds"),
    ({"name": " "}, "t-name", "A tournament needs a name of 1 to"),
    ({"pin": "12"}, "t-pin", "A PIN is 6 to 8 digits"),
    ({"entrants": "Anna\nanna"}, "t-entrants", "Two players have the same name"),
    ({"format": "nope"}, "format", "Format must be one of: round-robin, swiss, knockout"),
])
def test_a_new_tournament_refused_says_it_by_the_field_it_names(client, changes, field, said):
    """``NewTournament``'s refusal keeps its loc through ``service.create_from`` (``Refused.at``),
    and the page shows it under that field, as the new match's page does. Before, every refusal
    was at the top."""
    answer = client.post("/tournaments/new", data={**NIGHT, **changes})
    assert answer.status_code == 400
    assert [text.startswith(said) for text in texts(answer, f"#field-{field} p.error")] == [True], texts(answer, "p.error")
    assert texts(answer, "[data-testid=error]") == []


def test_a_new_tournament_refused_by_no_one_field_says_it_at_the_top(client):
    """Scopone's tables are two teams of two: entrants who are players, not pairs, are refused by
    the rules and the entrants together, which no one field says."""
    answer = client.post("/tournaments/new", data={**NIGHT, "variant": "scopone"})
    assert answer.status_code == 400
    assert len(texts(answer, "[data-testid=error]")) == 1
    assert texts(answer, ".field p.error") == []


def test_a_late_entrant_refused_says_it_by_its_field_or_at_the_top(client):
    """The entrant's name by its field; the points by theirs once a round is played (before,
    the page does not ask for them: at the top)."""
    tournament = client.post("/api/v1/tournaments", json={
        "name": "Circolo", "format": "swiss", "entrants": ["Anna", "Bruno", "Carla", "Dario"]}).get_json()
    page_url = f"/tournaments/{tournament['id']}/entrants"
    answer = client.post(page_url, data={"entrant": "anna", "points": "0"})
    assert answer.status_code == 400 and len(texts(answer, "#field-late-entrant p.error")) == 1
    answer = client.post(page_url, data={"entrant": "Zoe", "points": "9"})
    assert answer.status_code == 400 and len(texts(answer, "[data-testid=error]")) == 1
    client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={})
    answer = client.post(page_url, data={"entrant": "Zoe", "points": "9"})
    assert answer.status_code == 400 and texts(answer, "[data-testid=error]") == []
    assert texts(answer, "#field-points p.error") == [
        "Points_per_missed_round must be 0, 1 (a draw's) or 2 (a win's)"]
