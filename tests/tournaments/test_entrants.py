"""Withdraw and add between rounds (issue 40, point 3): "The organiser withdraws an entrant (no
longer paired; results kept; their past opponents keep their points) and adds a late entrant
before a Swiss round (paired from that round, with the points the rules give for missed rounds:
zero unless the organiser says otherwise), on the pages and in the API."

Through the JSON API and the organiser's pages; each next round's pairings are read back."""

import sqlite3

import pytest
from test_night_numbers import start, swiss

from companion import store
from companion.web.tournament_requests import LateEntrant
from helpers import FOUR_NIL, finish, phone
from markup import nodes, texts

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]


def new(client, entrants=NAMES, **body):
    """A Swiss of three rounds, seeded as typed, unless ``body`` says otherwise."""
    return swiss(client, list(entrants), **{"rounds": 3, "seeding": "order", **body})


def play(client, tournament_id):
    """The current round's tables finished, each won by its first entrant (4 to 0 a hand)."""
    tournament = client.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    for table in tournament["rounds"][-1]["tables"]:
        if not table["over"] and table["withdrew"] is None:
            finish(client, table["match"], FOUR_NIL)
    return client.get(f"/api/v1/tournaments/{tournament_id}").get_json()


def seated(round_):
    return {name for table in round_["tables"] for name in table["entrants"]} | set(round_["byes"])


def row(tournament, name):
    return next(r for r in tournament["standings"] if r["entrant"] == name)


# -- Withdraw -----------------------------------------------------------------------------------

def test_a_withdrawn_entrant_is_paired_no_more_and_every_result_stays(client):
    tournament = new(client)
    first = start(client, tournament["id"])["rounds"][0]
    tournament = play(client, tournament["id"])
    winner, loser = first["tables"][0]["entrants"]          # Anna beat Dario (1 v 4 of six)
    before = {r["entrant"]: r for r in tournament["standings"]}
    answer = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/1/withdraw", json={})
    assert answer.status_code == 200, answer.get_json()
    tournament = answer.get_json()
    assert winner == "Anna" and tournament["entrants"][0]["withdrawn"] == 1
    # Results kept: Anna keeps her win, Dario his loss and nothing more; no forfeit for anyone.
    assert row(tournament, "Anna")["match_points"] == before["Anna"]["match_points"] == 2
    assert row(tournament, "Anna")["withdrawn"] and not row(tournament, loser)["withdrawn"]
    second = start(client, tournament["id"])["rounds"][1]
    assert "Anna" not in seated(second)
    assert seated(second) == set(NAMES) - {"Anna"}
    assert len(second["byes"]) == 1                          # five left: one has the bye
    tournament = play(client, tournament["id"])
    assert row(tournament, "Anna")["played"] == 1 and row(tournament, "Anna")["match_points"] == 2
    assert row(tournament, loser)["match_points"] == before[loser]["match_points"] + (
        2 if loser in second["byes"] or any(t["entrants"][0] == loser for t in second["tables"]) else 0)
    third = start(client, tournament["id"])["rounds"][2]
    assert "Anna" not in seated(third)
    # Asked again: as it was, and said so on the page.
    again = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/1/withdraw", json={})
    assert again.status_code == 200 and again.get_json()["entrants"][0]["withdrawn"] == 1
    page = client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    assert "withdrawn" in texts(page, '[data-testid="standings"] [data-testid="withdrawn"]')


def test_withdrawn_mid_round_their_table_is_not_played_their_opponent_wins_it_by_forfeit(client):
    """Bruno leaves while his table against Dario is in play: the game is not played, the round
    can end, and Dario, there to play, wins it by forfeit, as a chess arbiter marks it ("+" for
    the one present). Before: Dario had nothing for the round, behind those who played theirs."""
    tournament = new(client, NAMES[:4])
    first = start(client, tournament["id"])["rounds"][0]
    table = first["tables"][1]                               # Bruno v Dario, not begun
    finish(client, first["tables"][0]["match"])
    client.post(f"/api/v1/matches/{table['match']}/hands", json=FOUR_NIL)   # Bruno 4, Dario 0
    tournament = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/2/withdraw", json={}).get_json()
    assert tournament["rounds"][0]["over"]
    left = tournament["rounds"][0]["tables"][1]
    assert left["withdrew"] == "Bruno" and not left["over"] and left["winner"] == "Dario"
    dario = row(tournament, "Dario")
    assert (dario["match_points"], dario["played"], dario["won"], dario["byes"]) == (2, 1, 1, 1)
    assert (dario["scored"], dario["conceded"]) == (0, 0)                # no points of a hand
    assert (row(tournament, "Bruno")["played"], row(tournament, "Bruno")["match_points"]) == (0, 0)
    # Anna beat Carla 12 to 0, Dario won without playing: level on 2 and on the Buchholz (Bruno,
    # who forfeited, counts 0, C.07 16.3.1), Anna above by the difference. Counting the table
    # Bruno left as a draw for his opponents put Dario above by the Buchholz.
    assert [(r["entrant"], r["decided_by"]) for r in tournament["standings"][:2]] == [
        ("Anna", None), ("Dario", "difference")]
    page = client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    assert "Bruno withdrew: Dario wins without playing" in texts(page, '[data-testid="round-1"] .match-meta')
    second = start(client, tournament["id"])["rounds"][1]
    assert seated(second) == {"Anna", "Carla", "Dario"}


NIL_FOUR = {"tallies": list(reversed(FOUR_NIL["tallies"]))}       # the second side wins 4 to 0


def test_hands_recorded_after_an_entrant_left_their_table_do_not_make_it_played(client):
    """Bruno withdraws while his table against Dario is in play; a scorer goes on entering
    hands there until the match ends, Bruno ahead. Before: the table then counted as played,
    Bruno (withdrawn) took its win and Dario lost it. The table stays the one Bruno left: its
    hands kept in the match, no game in the standings."""
    tournament = new(client, NAMES[:4])
    first = start(client, tournament["id"])["rounds"][0]
    table = first["tables"][1]                               # Bruno v Dario
    finish(client, first["tables"][0]["match"])
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/2/withdraw", json={})
    standings = client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["standings"]
    assert finish(client, table["match"])["outcome"]["over"]          # Bruno wins it 12 to 0
    tournament = client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()
    left = tournament["rounds"][0]["tables"][1]
    assert left["withdrew"] == "Bruno" and not left["over"] and left["totals"] == [12, 0]
    assert tournament["standings"] == standings
    assert (row(tournament, "Bruno")["played"], row(tournament, "Bruno")["match_points"]) == (0, 0)


def test_a_night_whose_last_table_was_left_is_listed_finished_with_its_winner(client):
    """A Swiss of one round: Anna beats Carla, Bruno leaves his table against Dario, and the night
    is over. Before: the home page listed it "In play" for good, "round 1: 1 of 2 tables
    playing", since the match Bruno left never ends, and never said who won."""
    tournament = new(client, NAMES[:4], rounds=1)
    first = start(client, tournament["id"])["rounds"][0]
    finish(client, first["tables"][0]["match"])
    over = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/2/withdraw", json={}).get_json()
    assert over["over"] and over["winner"] == "Anna"
    page = client.get("/").get_data(as_text=True)
    assert "In play" not in texts(page, "main h2") and "Finished" in texts(page, "main h2")
    assert texts(page, f'[data-testid="night-{tournament["id"]}"] .match-meta') == [
        "Tournament night · Anna wins the tournament"]


@pytest.mark.parametrize("entrants", ['["Anna", 3, {"left": "x"}, {"left": [null, "2"]}]', '{"left": [1]}', 'not json "left"'])
def test_the_lists_read_a_restored_files_odd_entrants_as_no_table_left(app, client, entrants):
    """The home page reads which tables were left from the entrants as stored: a restored file's
    other values there are read as none, never a 500."""
    tournament = new(client, NAMES[:4], rounds=1)
    start(client, tournament["id"])
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("UPDATE tournaments SET entrants = ? WHERE id = ?", [entrants, tournament["id"]])
    page = client.get("/")
    assert page.status_code == 200
    assert "In play" in texts(page.get_data(as_text=True), "main h2")


def test_the_match_page_of_a_table_left_says_it_is_not_played(client):
    """A scorer at the table Bruno left sees on its match page that it is not played, and that
    hands entered there count for nothing in the tournament (before: nothing said so, and they
    went on as if it counted); the other table's page says nothing of it."""
    tournament = new(client, NAMES[:4])
    first = start(client, tournament["id"])["rounds"][0]
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/2/withdraw", json={})
    left, other = first["tables"][1], first["tables"][0]
    assert "Bruno" in left["entrants"]
    said = texts(client.get(f"/matches/{left['match']}").get_data(as_text=True), '[data-testid="table-left"]')
    assert said == ["An entrant withdrew from the tournament during this table: it is not played, and "
                    "hands entered here count for nothing in the tournament."]
    assert texts(client.get(f"/matches/{other['match']}").get_data(as_text=True), '[data-testid="table-left"]') == []


def test_a_knockout_table_left_and_finished_later_keeps_its_walkover(client):
    """K4 withdraws from round 1's K1 v K4, K1 goes through and the final starts; then K4's old
    table is played out, K4 winning. Before: round 1 then said K4 had won it, and the standings
    put K4 (withdrawn, out) above K1, the finalist."""
    names = [f"K{i}" for i in range(1, 5)]
    tournament = new(client, names, format="knockout", rounds=None)
    first = start(client, tournament["id"])["rounds"][0]
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/4/withdraw", json={})
    left = next(t for t in first["tables"] if "K4" in t["entrants"])
    finish(client, next(t for t in first["tables"] if t is not left)["match"])
    final = start(client, tournament["id"])["rounds"][1]["tables"]
    assert [set(t["entrants"]) for t in final] == [{"K1", "K2"}]
    finish(client, left["match"], NIL_FOUR if left["entrants"][1] == "K4" else FOUR_NIL)
    tournament = client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()
    again = next(t for t in tournament["rounds"][0]["tables"] if "K4" in t["entrants"])
    assert (again["withdrew"], again["winner"], again["over"]) == ("K4", "K1", False)
    assert [r["entrant"] for r in tournament["standings"]][:2] == ["K2", "K1"]
    assert row(tournament, "K4")["match_points"] == 0


def test_a_swiss_gives_no_bye_to_one_who_won_by_forfeit_already(client):
    """FIDE's Swiss rules (C.04.1 d): a player who has already received a pairing-allocated bye,
    or scored a forfeit win, shall not receive the pairing-allocated bye. Carla leaves her round 1
    table, Franco wins it by forfeit; Elena has round 2's bye, Franco loses to Dario. In round 3
    Franco is the lowest of those on 2 and would have the bye, a second point without a game:
    Dario, the lowest who had neither, has it."""
    tournament = new(client)
    first = start(client, tournament["id"])["rounds"][0]
    assert [t["entrants"] for t in first["tables"]] == [["Anna", "Dario"], ["Bruno", "Elena"], ["Carla", "Franco"]]
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/3/withdraw", json={})
    play(client, tournament["id"])
    second = start(client, tournament["id"])["rounds"][1]
    assert second["byes"] == ["Elena"]
    for table in second["tables"]:
        finish(client, table["match"], NIL_FOUR if table["entrants"][1] == "Dario" else FOUR_NIL)
    assert {r["entrant"]: r["match_points"] for r in client.get(
        f"/api/v1/tournaments/{tournament['id']}").get_json()["standings"]}["Franco"] == 2
    third = start(client, tournament["id"])["rounds"][2]
    assert third["byes"] == ["Dario"]
    assert all(len({*t["entrants"]} & {"Anna", "Bruno"}) < 2 for t in third["tables"])     # no repeat


def test_a_withdrawal_before_round_1_takes_the_entrant_off_the_list(client):
    tournament = new(client, NAMES[:5], format="round-robin", rounds=None)
    assert tournament["planned_rounds"] == 5
    tournament = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/3/withdraw", json={}).get_json()
    assert [e["name"] for e in tournament["entrants"]] == ["Anna", "Bruno", "Dario", "Elena"]
    assert tournament["planned_rounds"] == 3
    assert seated(start(client, tournament["id"])["rounds"][0]) == {"Anna", "Bruno", "Dario", "Elena"}


def test_a_page_read_before_an_entrant_was_taken_off_removes_nobody_else(client):
    """Before round 1 withdrawing takes an entrant off the list, and those after move up a number.
    The organiser taps Remove beside Bruno (number 2), then, on the same page, beside Carla
    (number 3 there): before, the second tap removed Dario, number 3 by then. Each form says whom
    it means: the second is refused in words, and Carla is removed once asked from the new list.
    Each form is posted whole, as a browser posts it: its csrf_token too, which the request's
    closed model (``EntrantChange``) does not list and the page leaves out of it."""
    tournament = new(client)
    page_url = f"/tournaments/{tournament['id']}/entrants"
    page = client.get(page_url).get_data(as_text=True)
    forms = {name: form for name, form in zip(texts(page, '[data-testid="entrant"] .entrant-name'),
                                               nodes(page, '[data-testid="entrant"] form'))}
    posted = {name: (form.attributes["action"], {field.attributes["name"]: field.attributes["value"]
                                                 for field in form.css("input[name]")})
              for name, form in forms.items()}
    assert {"name", "csrf_token"} <= set(posted["Bruno"][1])
    assert client.post(posted["Bruno"][0], data=posted["Bruno"][1]).status_code == 303
    refused = client.post(posted["Carla"][0], data=posted["Carla"][1], follow_redirects=True).get_data(as_text=True)
    assert "changed meanwhile" in " ".join(texts(refused, ".flash"))
    entrants = [e["name"] for e in client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["entrants"]]
    assert entrants == ["Anna", "Carla", "Dario", "Elena", "Franco"]
    action = dict(zip(texts(refused, '[data-testid="entrant"] .entrant-name'),
                      (f.attributes["action"] for f in nodes(refused, '[data-testid="entrant"] form'))))["Carla"]
    client.post(action, data={"name": "Carla"})
    assert "Carla" not in [e["name"] for e in client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["entrants"]]


def test_the_api_withdraws_the_entrant_named_or_nobody(client):
    """The API's number is the list's as the program read it: with the entrant's name in the
    body, a list changed meanwhile is refused (409) rather than withdrawing the next one."""
    tournament = new(client)
    base = f"/api/v1/tournaments/{tournament['id']}/entrants"
    assert client.post(f"{base}/2/withdraw", json={"name": "Bruno"}).status_code == 200
    stale = client.post(f"{base}/3/withdraw", json={"name": "Carla"})
    assert stale.status_code == 409 and "changed meanwhile" in stale.get_json()["error"]
    assert [e["name"] for e in stale.get_json()["entrants"]] == ["Anna", "Carla", "Dario", "Elena", "Franco"]
    assert client.post(f"{base}/2/withdraw", json={"name": " carla "}).status_code == 200
    for body, words in (({"name": 7}, "1 to 24 characters"), ({"name": "x" * 25}, "1 to 24 characters")):
        answer = client.post(f"{base}/1/withdraw", json=body)
        assert answer.status_code == 400 and words in answer.get_json()["error"]
    start(client, tournament["id"])
    client.post(f"{base}/1/withdraw", json={})
    wrong = client.post(f"{base}/1/reinstate", json={"name": "Dario"})
    assert wrong.status_code == 409 and wrong.get_json()["entrants"][0]["withdrawn"] == 1


def test_a_round_robin_keeps_its_schedule_and_the_withdrawn_entrants_opponents_win_by_forfeit(client):
    """Berger's tables for four: Anna v Dario and Bruno v Carla, then Dario v Carla and Anna v
    Bruno, then Bruno v Dario and Carla v Anna. Dario withdraws after round 1 (which Anna won
    against him): Carla has no game in round 2 nor Bruno in round 3, and each wins it by forfeit,
    as FIDE's Tournament Rules give the withdrawn player's later opponents ("+"). Before: they
    had nothing, 2 points behind Anna, who had met Dario before he left."""
    tournament = new(client, NAMES[:4], format="round-robin", rounds=None)
    start(client, tournament["id"])
    play(client, tournament["id"])
    tournament = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/4/withdraw", json={}).get_json()
    for number, resting in ((2, "Carla"), (3, "Bruno")):
        before = row(tournament, resting)["match_points"]
        round_ = start(client, tournament["id"])["rounds"][number - 1]
        assert round_["rests"] == [resting] and round_["byes"] == []
        assert [t["entrants"] for t in round_["tables"]] == [["Anna", "Bruno"] if number == 2 else ["Carla", "Anna"]]
        tournament = play(client, tournament["id"])
        assert row(tournament, resting)["match_points"] == before + 2
    played = {r["entrant"]: (r["played"], r["byes"]) for r in tournament["standings"]}
    assert played == {"Anna": (3, 0), "Bruno": (3, 1), "Carla": (3, 1), "Dario": (1, 0)}
    page = client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    assert texts(page, '[data-testid="rest"]') == [
        "Bruno wins without playing: their opponent withdrew (counts as a win)",
        "Carla wins without playing: their opponent withdrew (counts as a win)"]
    assert tournament["over"] and tournament["winner"] == "Anna"


def test_a_knockout_entrant_who_withdraws_lets_the_opponent_through(client):
    names = [f"K{i}" for i in range(1, 9)]
    tournament = new(client, names, format="knockout", rounds=None)
    first = start(client, tournament["id"])["rounds"][0]
    # K1 v K8 in play: K8 withdraws, K1 goes through without finishing.
    k8 = names.index("K8") + 1
    tournament = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/{k8}/withdraw", json={}).get_json()
    walkover = next(t for t in tournament["rounds"][0]["tables"] if "K8" in t["entrants"])
    assert walkover["withdrew"] == "K8" and walkover["winner"] == "K1"
    for table in first["tables"]:
        if "K8" not in table["entrants"]:
            finish(client, table["match"])
    # A winner withdraws between rounds: their next opponent has a bye.
    k2 = names.index("K2") + 1
    assert client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/{k2}/withdraw", json={}).status_code == 200
    second = start(client, tournament["id"])["rounds"][1]
    assert "K2" not in seated(second) and "K8" not in seated(second)
    assert len(second["byes"]) == 1 and "K1" in seated(second)
    # One already out cannot withdraw: said, 409.
    out = names.index("K5") + 1
    refused = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/{out}/withdraw", json={})
    assert refused.status_code == 409 and "already out" in refused.get_json()["error"]


def test_a_withdrawn_entrant_comes_back_until_the_next_round_starts(client):
    tournament = new(client, NAMES[:4])
    start(client, tournament["id"])
    play(client, tournament["id"])
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/3/withdraw", json={})
    back = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/3/reinstate", json={})
    assert back.status_code == 200 and back.get_json()["entrants"][2]["withdrawn"] is None
    assert "Carla" in seated(start(client, tournament["id"])["rounds"][1])
    play(client, tournament["id"])
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/3/withdraw", json={})
    start(client, tournament["id"])
    late = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/3/reinstate", json={})
    assert late.status_code == 409 and "cannot come back" in late.get_json()["error"]


# -- Add a late entrant -----------------------------------------------------------------------------

def test_a_late_entrant_joins_a_swiss_with_no_points_for_the_rounds_missed_unless_given(client):
    tournament = new(client, NAMES[:4])
    start(client, tournament["id"])
    play(client, tournament["id"])
    added = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json={"entrant": "Zoe"})
    assert added.status_code == 201, added.get_json()
    assert added.headers["Location"].endswith(f"/api/v1/tournaments/{tournament['id']}")
    zoe = added.get_json()["entrants"][-1]
    assert (zoe["name"], zoe["joined"], zoe["missed_points"], zoe["seed"]) == ("Zoe", 2, 0, 5)
    assert row(added.get_json(), "Zoe")["match_points"] == 0
    second = start(client, tournament["id"])["rounds"][1]
    assert "Zoe" in seated(second)
    assert seated(second) == {"Anna", "Bruno", "Carla", "Dario", "Zoe"}
    # Another, given a draw's point for each of the two rounds missed, joins round 3 on 2.
    play(client, tournament["id"])
    given = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants",
                        json={"entrant": "Ugo", "points_per_missed_round": 1}).get_json()
    assert row(given, "Ugo")["match_points"] == 2 and row(given, "Ugo")["played"] == 0
    third = start(client, tournament["id"])["rounds"][2]
    assert "Ugo" in seated(third) and len(seated(third)) == 6


@pytest.mark.parametrize("body, words", [
    ({"entrant": "anna"}, "the same"),
    ({"entrant": {"name": "Nord", "players": ["Zoe", "Ugo"]}}, "all players or all pairs"),
    ({"entrant": "Zoe", "points_per_missed_round": 3}, "0, 1 (a draw's) or 2 (a win's)"),
    ({"entrant": "Zoe", "points_per_missed_round": True}, "0, 1 (a draw's) or 2 (a win's)"),
    ({"entrant": "x" * 25}, "1 to 24 characters"),
    ({"entrant": 7}, "a name, or a pair"),
    ({}, "give the entrant"),
])
def test_a_late_entrant_not_of_the_tournaments_form_is_refused_in_words(client, body, words):
    tournament = new(client, NAMES[:4])
    answer = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json=body)
    assert answer.status_code == 400, answer.get_json()
    assert words in answer.get_json()["error"]
    assert len(client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["entrants"]) == 4


@pytest.mark.parametrize("body, at", [
    ({}, ("entrant",)), ({"entrant": None}, ("entrant",)), ({"entrant": 7}, ("entrant",)),
    ({"entrant": {"name": 5, "players": ["Zoe", "Ugo"]}}, ("entrant", "name")),
    ({"entrant": {"name": "Nord", "players": ["Zoe"]}}, ("entrant", "players")),
    ({"entrant": "Zoe", "points_per_missed_round": 1.0}, ("points_per_missed_round",)),
])
def test_a_late_entrant_is_refused_at_the_field_it_names(body, at):
    """A late entrant is one model that validates (issue 44): a name or a pair told apart by what
    was sent (pydantic's discriminator), each refusal at its field. Before, a hand check
    (``_entrant``, ``_an_entrant``) refused the entrant as a whole request (no field)."""
    refusal, *_ = LateEntrant.check(body)[1]
    assert refusal.at == at and str(refusal.said)


@pytest.mark.parametrize("name", ["Ánna", "ANNA.", "\u0410nna", "Anna\u0301"])
def test_a_late_entrant_who_looks_like_an_entrant_on_the_board_is_refused(client, name):
    """Anna is entered; "Ánna", "ANNA." and "Аnna" (its A Cyrillic) read as Anna from across the
    room, and the standings would show two Annas. Before: each joined (201)."""
    tournament = new(client, NAMES[:4])
    answer = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json={"entrant": name})
    assert answer.status_code == 400, answer.get_json()
    # "look the same", or for a letter of another alphabet "Аnna looks like Anna" (names_clash)
    assert "look" in answer.get_json()["error"]
    assert client.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json={"entrant": "Anna Maria"}).status_code == 201


@pytest.mark.parametrize("format, words", [("round-robin", "round robin's schedule"),
                                           ("knockout", "knockout's bracket")])
def test_a_round_robin_or_a_knockout_takes_a_late_entrant_only_before_round_1(client, format, words):
    tournament = new(client, NAMES[:4], format=format, rounds=None)
    before = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json={"entrant": "Zoe"})
    assert before.status_code == 201 and before.get_json()["entrants"][-1]["joined"] == 1
    start(client, tournament["id"])
    after = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json={"entrant": "Ugo"})
    assert after.status_code == 409 and words in after.get_json()["error"]
    assert [e["name"] for e in after.get_json()["entrants"]] == [*NAMES[:4], "Zoe"]
    page = client.get(f"/tournaments/{tournament['id']}/entrants").get_data(as_text=True)
    assert words in " ".join(texts(page, '[data-testid="no-late-entrant"]')).replace("’", "'")


def test_only_the_organiser_changes_the_entrants(app, client):
    tournament = new(client, NAMES[:4])
    guest = phone(app)
    for path in ("entrants/1/withdraw", "entrants/1/reinstate"):
        answer = guest.post(f"/api/v1/tournaments/{tournament['id']}/{path}", json={})
        assert answer.status_code == 403 and "only the organiser" in answer.get_json()["error"]
    answer = guest.post(f"/api/v1/tournaments/{tournament['id']}/entrants", json={"entrant": "Zoe"})
    assert answer.status_code == 403
    assert guest.get(f"/tournaments/{tournament['id']}/entrants").status_code == 403
    assert guest.post(f"/tournaments/{tournament['id']}/entrants/1/withdraw").status_code == 403
    assert 'data-testid="entrants-link"' not in guest.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    assert len(client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["entrants"]) == 4
    for path in (f"/api/v1/tournaments/{tournament['id']}/entrants/9/withdraw",
                 f"/api/v1/tournaments/{tournament['id']}/entrants/0/reinstate",
                 "/api/v1/tournaments/99/entrants/1/withdraw"):
        assert client.post(path, json={}).status_code == 404, path


# -- The organiser's page ---------------------------------------------------------------------------

def test_the_organisers_page_withdraws_and_adds_and_the_next_round_follows(client):
    tournament = new(client, NAMES[:4])
    page_url = f"/tournaments/{tournament['id']}/entrants"
    assert 'data-testid="entrants-link"' in client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    start(client, tournament["id"])
    play(client, tournament["id"])
    page = client.get(page_url).get_data(as_text=True)
    assert texts(page, '[data-testid="entrant"] .entrant-name') == NAMES[:4]
    withdrawn = client.post(f"{page_url}/2/withdraw", follow_redirects=True).get_data(as_text=True)
    assert "Bruno withdrew: not paired from round 2 on" in " ".join(texts(withdrawn, ".flash"))
    assert texts(withdrawn, '[data-testid="withdrawn"]') == ["withdrawn after round 1"]
    # A late entrant with a win's points for round 1, which she missed.
    answer = client.post(page_url, data={"entrant": "Zoe", "points": "2"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(page_url)
    said = " ".join(texts(client.get(page_url).get_data(as_text=True), ".flash"))
    assert "Zoe joins from round 2, with 2 points for the rounds missed." in said
    refused = client.post(page_url, data={"entrant": "Carla", "points": "0"})
    assert refused.status_code == 400 and texts(refused.get_data(as_text=True), "#field-late-entrant p.error")
    second = start(client, tournament["id"])["rounds"][1]
    assert seated(second) == {"Anna", "Carla", "Dario", "Zoe"}
    # Zoe's 2 points put her among the winners of round 1: she meets one of them.
    winners = {"Anna", "Carla"}
    assert any("Zoe" in t["entrants"] and set(t["entrants"]) & winners for t in second["tables"])


@pytest.mark.parametrize("lang, words", [
    ("en", "or a pair: its name, a colon and its two players (Nord: Anna, Bruno)"),
    ("it", "o una coppia: il suo nome, i due punti e i suoi due giocatori (Nord: Anna, Bruno)"),
])
def test_a_pair_written_wrong_on_a_page_is_refused_in_the_pages_words(client, lang, words):
    """A page takes a pair written "Nord: Anna, Bruno"; "Nord: Anna" (one player) was refused with
    the API's JSON: 'each entrant is a name, or a pair {"name": ..., "players": [two names]}',
    on the Entrants page and the new tournament's alike."""
    client.set_cookie("lang", lang)
    pairs = new(client, [{"name": "Nord", "players": ["Anna", "Bruno"]},
                         {"name": "Sud", "players": ["Carla", "Dario"]}], rounds=1)
    late = client.post(f"/tournaments/{pairs['id']}/entrants", data={"entrant": "Est: Elena", "points": "0"})
    made = client.post("/tournaments/new", data={"name": "Giovedì", "format": "swiss", "variant": "classica",
                                                  "entrants": "Nord: Anna\nSud: Bruno, Carla", "seeding": "order"})
    for answer in (late, made):
        said = " ".join(texts(answer.get_data(as_text=True), ".error")).replace("\u00a0", " ")
        assert answer.status_code == 400 and words in said and "{" not in said and '"players"' not in said


def test_a_change_made_from_an_older_reading_is_refused_by_the_store(app, client):
    """Two phones at once: the entrants are written only over the version they were read at."""
    tournament = new(client, NAMES[:4])
    with app.app_context():
        db = store.get_db()
        version = db.execute("SELECT version FROM tournaments WHERE id = ?", [tournament["id"]]).fetchone()[0]
        store.set_entrants(db, tournament["id"], version, [{"name": n, "players": [n]} for n in NAMES[:5]])
        with pytest.raises(store.TournamentChanged):
            store.set_entrants(db, tournament["id"], version, [{"name": n, "players": [n]} for n in NAMES[:3]])
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        players = {key for (key,) in conn.execute("SELECT key FROM tournament_players")}
    assert "elena" in players                      # a rename finds the entrant added


@pytest.mark.parametrize("lang, words", [
    ("it", ["ha lasciato il torneo", "Fai rientrare", "Aggiungi l'iscritto", "Punti per ogni turno saltato",
            "vince a tavolino", "ritiro"]),
    ("fr", ["a quitté le tournoi", "Faire revenir", "Ajouter l’inscrit", "Points pour chaque tour manqué",
            "gagne par forfait", "retrait"]),
])
def test_the_entrants_words_in_italian_and_french(client, lang, words):
    tournament = new(client, NAMES[:4], format="round-robin", rounds=None)
    start(client, tournament["id"])
    play(client, tournament["id"])
    client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/4/withdraw", json={})
    start(client, tournament["id"])
    swiss = new(client, NAMES[:4])
    start(client, swiss["id"])
    client.set_cookie("lang", lang)
    said = client.post(f"/tournaments/{swiss['id']}/entrants/2/withdraw", follow_redirects=True)
    pages = " ".join(" ".join(texts(client.get(path).get_data(as_text=True), "main"))
                     for path in (f"/tournaments/{tournament['id']}/entrants", f"/tournaments/{tournament['id']}"))
    pages += " ".join(texts(said.get_data(as_text=True), "main"))
    pages = pages.replace("\u00a0", " ")
    for said in words:
        assert said in pages, said
    for english in ("withdrew", "Withdraw", "without playing", "Add the entrant", "Level on points", "entrant"):
        assert english not in pages, english


def test_a_round_paired_before_an_entrant_left_is_not_started(app, client):
    """The organiser on two phones: one withdraws Bruno while the other starts round 2 from the
    tournament as it read it, Bruno among the entrants. The round is refused, not started with
    Bruno in it; asked again, it is paired without him."""
    from companion.tournaments import service
    tournament = new(client, NAMES[:4])
    start(client, tournament["id"])
    play(client, tournament["id"])
    with app.app_context():
        read = service.load(tournament["id"])
        assert client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/2/withdraw", json={}).status_code == 200
        refused = service.start_next_round(read)
        assert isinstance(refused, service.NotNow) and "changed meanwhile" in str(refused.reason)
    assert len(client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()["rounds"]) == 1
    assert "Bruno" not in seated(start(client, tournament["id"])["rounds"][1])
