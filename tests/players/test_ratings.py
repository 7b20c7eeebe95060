"""Players' ratings (issue 24): OpenSkill's Plackett-Luce, over the finished matches in the order
they finished. The expected ratings are worked out here by calling the library itself over the
same matches, their places taken from each match as the API gives it back."""

import math
import random
import re
from collections import defaultdict

import pytest
from copied_store import app_on_a_copy
from openskill.models import PlackettLuce

from companion import store
from helpers import HAND, one_hand_match, organiser, play
from markup import attr, texts

MIRROR = {"piles": HAND["piles"][::-1], "sweeps": HAND["sweeps"][::-1]}    # 0 - 5


def ranks_of(match: dict) -> list[int]:
    """The sides' places: the winner first, the others by their totals, equal totals sharing."""
    winner, totals = match["outcome"]["winner"], match["totals"]
    order = [(side != winner, -total) for side, total in enumerate(totals)]
    return [1 + sum(other < mine for other in order) for mine in order]


def expected(client, match_ids, variant=None) -> dict[str, tuple[float, float, int]]:
    """Each player's (mu, sigma, matches), by name, from the library alone."""
    model = PlackettLuce()
    ratings, counts = defaultdict(model.rating), defaultdict(int)
    for match_id in match_ids:
        match = client.get(f"/api/v1/matches/{match_id}").get_json()
        if not match["outcome"]["over"] or variant not in (None, match["rules"]["preset"]):
            continue
        teams = [side["players"] for side in match["sides"]]
        new = model.rate([[ratings[name] for name in team] for team in teams], ranks=ranks_of(match))
        for team, rated in zip(teams, new):
            for name, rating in zip(team, rated):
                ratings[name] = rating
                counts[name] += 1
    return {name: (rating.mu, rating.sigma, counts[name]) for name, rating in ratings.items()}


def answered(client, query="") -> dict[str, tuple[float, float, int]]:
    rows = client.get(f"/api/v1/ratings{query}").get_json()["ratings"]
    return {row["name"]: (row["mu"], row["sigma"], row["matches"]) for row in rows}


def assert_same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for name, (mu, sigma, count) in want.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
        assert got[name][2] == count, name


def test_two_players_are_rated_as_the_library_rates_them(client):
    rng = random.Random(24)
    ids = [play(client, {"players": pair}, rng)
           for pair in (["Anna", "Bruno"], ["Bruno", "Carla"], ["Anna", "Carla"], ["Anna", "Bruno"],
                        ["Carla", "Bruno"], ["Anna", "Bruno"])]
    want = expected(client, ids)
    assert_same(answered(client), want)
    # The list: the settled players first, then the provisional ones, each by mu, the highest
    # first; the figure shown is 1500 + 24 (mu - 25) (issue 33: it follows mu).
    rows = client.get("/api/v1/ratings").get_json()["ratings"]
    assert [(row["provisional"], -row["mu"]) for row in rows] == sorted(
        (row["provisional"], -row["mu"]) for row in rows)
    for row in rows:
        assert row["rating"] == round(1500 + 24 * (row["mu"] - 25))
        assert row["provisional"] == (row["matches"] < 5)
    # The players' records carry the same, and one player's history has a point a match.
    players = {p["name"]: p for p in client.get("/api/v1/players").get_json()["players"]}
    assert players["Anna"]["mu"] == pytest.approx(want["Anna"][0])
    assert players["Anna"]["provisional"] is True and players["Bruno"]["provisional"] is False
    anna = client.get(f"/api/v1/players/{players['Anna']['id']}").get_json()
    assert len(anna["rating_history"]) == 4
    assert anna["rating_history"][-1]["rating"] == anna["rating"]


def test_a_players_rating_history_comes_a_page_at_a_time(client):
    """Found in review (issue 41, finding 1): GET /api/v1/players/<id> carried one rating point
    per finished match, 315 KB at 2,643 matches. It carries the newest 50 by default (``limit``,
    up to 500) in the order they finished, and ``rating_history_next`` the page before them:
    following the links gives the whole history once, in order."""
    finished = [one_hand_match(client, ["Anna", "Bruno"], HAND if n % 3 else MIRROR) for n in range(7)]
    anna = client.get("/api/v1/players").get_json()["players"][0]["id"]
    whole = client.get(f"/api/v1/players/{anna}").get_json()
    assert [point["match"] for point in whole["rating_history"]] == finished
    assert whole["rating_history_next"] is None
    seen, page = [], f"/api/v1/players/{anna}?limit=3&variant=classica"
    while page:
        answer = client.get(page).get_json()
        assert len(answer["rating_history"]) <= 3 and answer["matches"] == 7
        seen[:0] = answer["rating_history"]
        page = answer["rating_history_next"]
        assert page is None or "variant=classica" in page
    assert seen == whole["rating_history"]
    assert seen[-1]["rating"] == whole["rating"]
    assert client.get(f"/api/v1/players/{anna}?limit=501").status_code == 400
    many = [one_hand_match(client, ["Anna", "Bruno"]) for _ in range(50)]
    default = client.get(f"/api/v1/players/{anna}").get_json()
    assert [point["match"] for point in default["rating_history"]] == many
    assert default["rating_history_next"] is not None


def test_three_sides_and_a_draw(client):
    rng = random.Random(3)
    ids = [play(client, {"players": ["Anna", "Bruno", "Carla"]}, rng) for _ in range(3)]
    # A match of one hand that ends level: a draw is a draw.
    level = {"tallies": [{"cards": 20, "coins": 5, "settebello": False, "sweeps": 0, "primiera": True},
                         {"cards": 20, "coins": 5, "settebello": True, "sweeps": 0}]}
    drawn = one_hand_match(client, ["Anna", "Bruno"], level)
    assert client.get(f"/api/v1/matches/{drawn}").get_json()["outcome"]["winner"] is None
    assert_same(answered(client), expected(client, [*ids, drawn]))


def test_teams_count_for_each_player(client):
    rng = random.Random(4)
    teams = {"variant": "scopone", "teams": [{"name": "Noi", "players": ["Anna", "Dario"]},
                                             {"name": "Loro", "players": ["Bruno", "Elena"]}]}
    ids = [play(client, teams, rng) for _ in range(2)]
    ids.append(play(client, {"players": ["Anna", "Bruno"]}, rng))
    assert_same(answered(client), expected(client, ids))
    # Scopone's own ratings count its matches alone.
    assert_same(answered(client, "?variant=scopone"), expected(client, ids, "scopone"))


def _fresh(migrated_store, tmp_path, name):
    return organiser(app_on_a_copy(migrated_store, tmp_path / name, WTF_CSRF_ENABLED=False))


def test_an_old_match_edited_or_deleted_rates_as_the_corrected_history(client, tmp_path, migrated_store):
    games = [(["Anna", "Bruno"], HAND), (["Bruno", "Carla"], HAND), (["Anna", "Carla"], MIRROR),
             (["Anna", "Bruno"], MIRROR), (["Carla", "Bruno"], HAND)]
    ids = [one_hand_match(client, players, hand) for players, hand in games]
    # The first match corrected: Bruno won it.
    first = client.get(f"/api/v1/matches/{ids[0]}").get_json()["hands"][0]
    edited = client.put(f"/api/v1/matches/{ids[0]}/hands/{first['id']}", json={**MIRROR, "version": first["version"]})
    assert edited.status_code == 200, edited.get_json()
    corrected = _fresh(migrated_store, tmp_path, "corrected.sqlite")
    for players, hand in [(games[0][0], MIRROR), *games[1:]]:
        one_hand_match(corrected, players, hand)
    assert_same(answered(client), answered(corrected))
    # The third match deleted: as if it had never been played...
    version = client.get(f"/api/v1/matches/{ids[2]}").get_json()["version"]
    assert client.post(f"/matches/{ids[2]}/delete", data={"version": version}).status_code == 303
    without = _fresh(migrated_store, tmp_path, "without.sqlite")
    for players, hand in [(games[0][0], MIRROR), games[1], *games[3:]]:
        one_hand_match(without, players, hand)
    assert_same(answered(client), answered(without))
    # ... and brought back, in the place it finished in.
    assert client.post(f"/organiser/deleted/{ids[2]}/restore").status_code == 303
    assert_same(answered(client), answered(corrected))
    # A hand deleted from an old match: no longer finished, it is rated no more.
    second = client.get(f"/api/v1/matches/{ids[1]}").get_json()["hands"][0]
    gone = client.delete(f"/api/v1/matches/{ids[1]}/hands/{second['id']}?version={second['version']}")
    assert gone.status_code == 200, gone.get_json()
    unfinished = _fresh(migrated_store, tmp_path, "unfinished.sqlite")
    for players, hand in [(games[0][0], MIRROR), games[2], games[3], games[4]]:
        one_hand_match(unfinished, players, hand)
    assert_same(answered(client), answered(unfinished))


def test_kept_ratings_equal_a_replay_from_scratch_after_merges_and_undos(app, client):
    rng = random.Random(9)
    for pair in (["Ana", "Bruno"], ["Anna", "Carla"], ["Bruno", "Carla"], ["Ana", "Carla"], ["Anna", "Bruno"]):
        play(client, {"players": pair}, rng)
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}
    assert client.post(f"/players/{players['Ana']}/merge", data={"into": players["Anna"]}).status_code == 303

    def kept():
        with app.app_context():
            db = store.get_db()
            return sorted(tuple(row) for row in db.execute("SELECT * FROM ratings ORDER BY 1, 2"))

    def replayed():
        with app.app_context():
            db = store.get_db()
            with store.writing(db):
                store.rerate(db)
        return kept()

    merged = kept()
    assert "Ana" not in answered(client) and answered(client)["Anna"][2] == 4
    assert merged == replayed()
    change = client.get(f"/players/{players['Anna']}").get_data(as_text=True)
    undo = next(part.split('"')[0] for part in change.split('action="')[1:] if "/undo" in part.split('"')[0])
    assert client.post(undo).status_code == 303
    assert answered(client)["Ana"][2] == 2 and kept() == replayed()


def test_chances_to_win_add_up_to_one(app, client):
    rng = random.Random(5)
    for pair in (["Anna", "Bruno"], ["Anna", "Carla"], ["Anna", "Bruno"]):
        play(client, {"players": pair}, rng)
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}
    with app.app_context():
        db = store.get_db()
        for sides in ([[players["Anna"]], [players["Bruno"]]],
                      [[players["Anna"]], [players["Bruno"]], [players["Carla"]]],
                      [[players["Anna"], 999], [players["Bruno"], players["Carla"]]]):
            chances = store.chances(db, sides)
            assert len(chances) == len(sides) and math.isclose(sum(chances), 1)
        anna, bruno = store.chances(db, [[players["Anna"]], [players["Bruno"]]])
        assert anna > bruno == pytest.approx(1 - anna)


def test_seeding_by_rating_orders_the_bracket(client):
    for _ in range(3):
        one_hand_match(client, ["Anna", "Bruno"], HAND)
        one_hand_match(client, ["Carla", "Dario"], HAND)
        one_hand_match(client, ["Anna", "Carla"], HAND)
        one_hand_match(client, ["Bruno", "Dario"], HAND)
    order = [row["name"] for row in client.get("/api/v1/ratings").get_json()["ratings"]]
    assert order[0] == "Anna" and order[-1] == "Dario"
    made = client.post("/api/v1/tournaments", json={"name": "Sabato", "format": "knockout", "seeding": "rating",
                                                    "entrants": order[::-1]})
    assert made.status_code == 201, made.get_json()
    tournament = made.get_json()
    # Kept as typed (the standings' last tie-break), seeded by rating.
    assert [e["name"] for e in tournament["entrants"]] == order[::-1]
    assert [e["name"] for e in sorted(tournament["entrants"], key=lambda e: e["seed"])] == order
    started = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", json={}).get_json()
    assert [t["entrants"] for t in started["rounds"][0]["tables"]] == [[order[0], order[3]], [order[1], order[2]]]
    # Left out, the seeding is by rating when every entrant has one, else in the order written.
    auto = client.post("/api/v1/tournaments", json={"name": "Domenica", "format": "swiss",
                                                    "entrants": order[::-1]}).get_json()
    assert [e["name"] for e in sorted(auto["entrants"], key=lambda e: e["seed"])] == order
    written = client.post("/api/v1/tournaments", json={"name": "Lunedì", "format": "knockout",
                                                       "entrants": ["Dario", "Zoe", "Anna", "Bruno"]}).get_json()
    assert [e["name"] for e in sorted(written["entrants"], key=lambda e: e["seed"])] == ["Dario", "Zoe", "Anna", "Bruno"]
    # The page shows each table's chances before it starts.
    page = client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    assert page.count('data-testid="chances"') == 2
    # The standings show each entrant's rating.
    page = client.get(f"/tournaments/{tournament['id']}").get_data(as_text=True)
    assert 'data-testid="entrant-rating"' in page


def test_the_pages_show_ratings(client):
    for _ in range(3):
        one_hand_match(client, ["Anna", "Bruno"], HAND)
        one_hand_match(client, ["Anna", "Carla"], HAND)
    finished = one_hand_match(client, ["Bruno", "Carla"], MIRROR)
    # The leaderboard by rating: the highest first, the provisional marked; by matches won, as ever.
    page = client.get("/players?order=rating").get_data(as_text=True)
    names = texts(page, 'th[scope="row"] > a[href]')
    assert names == [row["name"] for row in client.get("/api/v1/ratings").get_json()["ratings"]]
    ratings = texts(page, 'td[data-testid="rating"]')
    assert len(ratings) == 3 and all(ratings)
    assert page.count('data-testid="provisional"') == 2       # Bruno and Carla: 4 matches each
    assert 'data-testid="rating"' not in client.get("/players").get_data(as_text=True)
    anna = client.get("/api/v1/ratings").get_json()["ratings"][0]
    assert f"{anna['rating']:,}" in page
    # A player's page: the figure and the chart, a point a match after a new player's 1,500.
    player = client.get(f"/players/{anna['id']}").get_data(as_text=True)
    assert f"{anna['rating']:,}" in player and 'data-testid="rating-chart"' in player
    assert len(attr(player, ".chart-line.side-0[points]", "points").split()) == 7
    # A finished match: each player's change, signed.
    changes = client.get(f"/matches/{finished}").get_data(as_text=True)
    assert 'data-testid="rating-changes"' in changes and "+" in changes and "\u2212" in changes
    # A match not yet begun: each side's chance to win.
    waiting = client.post("/api/v1/matches", json={"players": ["Anna", "Zoe"]}).get_json()["id"]
    chances = client.get(f"/matches/{waiting}").get_data(as_text=True)
    shares = [share.removesuffix("%") for share in texts(chances, "strong") if re.fullmatch(r"\d+%", share)]
    assert len(shares) == 2 and int(shares[0]) > int(shares[1]) and abs(sum(map(int, shares)) - 100) <= 1


def test_the_new_match_form_shows_each_sides_chance_once_every_name_is_typed(app, client):
    """Issue 24: the new-match page shows each side's chance to win before the match starts,
    from the ratings (the form asks /matches/new/chances as the names change)."""
    rng = random.Random(7)
    for _ in range(3):
        play(client, {"players": ["Anna", "Bruno"]}, rng)
    client.set_cookie("lang", "en")
    page = client.get("/matches/new").get_data(as_text=True)
    assert 'hx-get="/matches/new/chances"' in page
    answer = client.get("/matches/new/chances?layout=2&player1=Anna&player2=Bruno")
    shown = {name: share.removesuffix("%") for name, share in
             zip(texts(answer, "span.side-name"), texts(answer, "span.side-name + strong"), strict=True)}
    with app.app_context():
        anna, bruno = store.chances_by_name(store.get_db(), [["Anna"], ["Bruno"]])
    assert shown == {"Anna": str(round(anna * 100)), "Bruno": str(round(bruno * 100))}
    teams = client.get("/matches/new/chances?layout=2x2&player1=Anna&player2=Bruno&player3=Carla&player4=Dario")
    assert "Anna &amp; Carla" in teams.get_data(as_text=True) and "Bruno &amp; Dario" in teams.get_data(as_text=True)
    for half_typed in ("layout=2&player1=Anna", "layout=2&player1=Anna&player2=anna", "layout=9&player1=A&player2=B"):
        answer = client.get(f"/matches/new/chances?{half_typed}")
        assert answer.status_code == 200 and answer.get_data(as_text=True) == ""


def test_a_name_merged_into_a_player_has_that_players_chance(app, client):
    """A name merged into another player ("Ana" into "Anna") seats that player in a new match
    (seats.known_player), so its chance to win is that player's, not a new player's."""
    rng = random.Random(11)
    for pair in (["Anna", "Bruno"], ["Anna", "Bruno"], ["Ana", "Carla"]):
        play(client, {"players": pair}, rng)
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}
    assert client.post(f"/players/{players['Ana']}/merge", data={"into": players["Anna"]}).status_code == 303
    with app.app_context():
        db = store.get_db()
        assert store.chances_by_name(db, [["Ana"], ["Bruno"]]) == store.chances_by_name(db, [["Anna"], ["Bruno"]])
        assert store.chances_by_name(db, [["Ana"], ["Bruno"]]) != store.chances_by_name(db, [["Ugo"], ["Bruno"]])
