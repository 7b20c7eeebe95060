"""The home page (issue 22, point 7): one "+ New match" on it; a tournament's tables as one line
that leads to the tournament, in play while any table plays, then finished, never listed twice
(across pages too), in two reads of the store; the score chart's figures and legend."""

from companion import create_app, store
from companion.table.views import PAGE
from helpers import FULL, finish, organiser
from markup import attr, attrs, nodes, texts, words

# The first side takes every card and a sweep: over at a target of 1.
EVERY_CARD_AND_A_SWEEP = {"piles": [FULL, []], "sweeps": [1, 0]}


def night(client, entrants=4, name="Circolo Arci"):
    made = client.post("/api/v1/tournaments", json={
        "name": name, "format": "round-robin", "options": {"target": 1},
        "entrants": [f"{name[0]}{i}" for i in range(entrants)]}).get_json()
    started = client.post(f"/api/v1/tournaments/{made['id']}/rounds", json={}).get_json()
    return made["id"], [table["match"] for table in started["rounds"][-1]["tables"]]


def lines(page: str) -> list[tuple[str, str]]:
    """The list's lines, in order: (what it links to, its words)."""
    return [(link.attributes["href"], words(link)) for link in nodes(page, "a.match-item")]


def test_the_home_page_has_one_new_match_button(client):
    home = client.get("/").get_data(as_text=True)
    assert home.count("+ New match") == 1
    assert client.get("/players").get_data(as_text=True).count("+ New match") == 1      # the bar's


def test_a_tournaments_tables_are_one_line_that_leads_to_the_tournament(client):
    casual = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    tournament, tables = night(client, entrants=8)
    assert len(tables) == 4
    later = client.post("/api/v1/matches", json={"players": ["Carla", "Dario"]}).get_json()["id"]
    home = lines(client.get("/").get_data(as_text=True))
    # In play, newest first: the tournament where its newest table stands, once, no table alone.
    assert [href for href, _ in home] == [f"/matches/{later}", f"/tournaments/{tournament}", f"/matches/{casual}"]
    assert home[1][1] == "Circolo Arci Tournament night · round 1: 4 of 4 tables playing"
    # A table over: still in play, one line, its count down; the finished table not listed.
    finish(client, tables[0], EVERY_CARD_AND_A_SWEEP)
    home = lines(client.get("/").get_data(as_text=True))
    assert [words for href, words in home if href.startswith("/tournaments")] == [
        "Circolo Arci Tournament night · round 1: 3 of 4 tables playing"]
    assert not [href for href, _ in home if href == f"/matches/{tables[0]}"]
    # Every table over: listed once, under Finished.
    for table in tables[1:]:
        finish(client, table, EVERY_CARD_AND_A_SWEEP)
    page = client.get("/").get_data(as_text=True)
    finished = page[page.index("<h2>Finished</h2>"):]
    assert lines(finished)[0] == (f"/tournaments/{tournament}",
                                  "Circolo Arci Tournament night · round 1: every table has finished")
    assert sum(href == f"/tournaments/{tournament}" for href, _ in lines(page)) == 1
    assert not [href for href, _ in lines(page) if href in {f"/matches/{t}" for t in tables}]


def test_a_tournament_across_pages_is_listed_once(client):
    tournament, tables = night(client, entrants=18, name="Lunedì")          # 9 tables
    for _ in range(PAGE + 3):
        client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    # The tournament's tables are older than the page: it comes first on the next page, once.
    first = client.get("/").get_data(as_text=True)
    assert f"/tournaments/{tournament}" not in first
    more = attr(first, 'a[href^="/matches?state=playing"]', "href")
    second = lines(client.get(more).get_data(as_text=True))
    assert [href for href, _ in second].count(f"/tournaments/{tournament}") == 1
    assert len(second) == 3 + 1
    # A page boundary inside the tournament's tables: the rest of them never make a second line.
    newest = max(tables)
    listed = lines(client.get(f"/matches?state=playing&before={newest}").get_data(as_text=True))
    assert f"/tournaments/{tournament}" not in [href for href, _ in listed]
    assert not {href for href, _ in listed} & {f"/matches/{t}" for t in tables}


def test_the_list_reads_the_store_twice_however_many_tables(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.sqlite")})
    client = organiser(app)
    for name in ("Lunedì", "Martedì", "Mercoledì"):
        night(client, entrants=10, name=name)
    with app.app_context():
        db = store.get_db()
        reads = []
        db.conn.set_trace_callback(lambda sql: reads.append(sql) if sql.lstrip().upper().startswith("SELECT") else None)
        rows = store.listed_rows(db, over=False, limit=PAGE + 1)
        db.conn.set_trace_callback(None)
    assert len(rows) == 3 and all(row["tournament"]["tables"] == 5 for row in rows)
    assert len(reads) == 2, reads


def test_the_chart_has_its_figures_and_a_legend(client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0,
                                                    "options": {"target": 21}}).get_json()["id"]
    anna = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True}, {"cards": 18, "coins": 4}]}
    for _ in range(3):
        client.post(f"/api/v1/matches/{match_id}/hands", json=anna)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    figures = texts(page, "svg.chart text.chart-figure")
    assert figures == ["0", "10", "21"]                      # round values, and the target's
    assert texts(page, "svg.chart text.chart-figure.chart-figure-target") == ["21"]
    target_y = attr(page, "svg.chart .chart-target", "y1")
    assert target_y.isdigit() and attr(page, "svg.chart text.chart-figure-target", "y") == target_y
    assert texts(page, "svg.chart text.chart-hand") == ["1", "2", "3"]
    assert attrs(page, 'ul.chart-legend > li > span.chart-swatch[aria-hidden="true"]', "class") == [
        "chart-swatch side-0", "chart-swatch side-1"]
    assert texts(page, "ul.chart-legend > li") == ["Anna", "Bruno"]


def test_a_long_match_numbers_a_few_of_its_hands(client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"],
                                                    "options": {"target": 1000}}).get_json()["id"]
    for _ in range(30):
        client.post(f"/api/v1/matches/{match_id}/hands", json={"piles": [FULL[:20], FULL[20:]]})
    numbers = [int(n) for n in texts(client.get(f"/matches/{match_id}"), "svg.chart text.chart-hand")]
    assert numbers[-1] == 30 and len(numbers) <= 8 and numbers == sorted(numbers)


def test_a_finished_tournament_reads_who_won_in_each_language(client):
    """Issue 35: a finished tournament's line read "tour 3 : toutes les tables ont fini" on the
    French home page, not who won; between two rounds it still says the round is over."""
    tournament, tables = night(client, entrants=3, name="Circolo Arci")     # 3 rounds, a bye each
    for round_number in (1, 2, 3):
        for table in tables:
            finish(client, table, EVERY_CARD_AND_A_SWEEP)
        if round_number < 3:
            between = lines(client.get("/").get_data(as_text=True))
            assert between == [(f"/tournaments/{tournament}",
                                f"Circolo Arci Tournament night · round {round_number}: every table has finished")]
            tables = [t["match"] for t in client.post(f"/api/v1/tournaments/{tournament}/rounds",
                                                      json={}).get_json()["rounds"][-1]["tables"]]
    over = client.get(f"/api/v1/tournaments/{tournament}").get_json()
    assert over["over"] and over["winner"] in ("C0", "C1", "C2")
    winner = over["winner"]
    expected = {"en": f"Circolo Arci Tournament night · {winner} wins the tournament",
                "it": f"Circolo Arci Serata di torneo · {winner} vince il torneo",
                "fr": f"Circolo Arci Soirée de tournoi · {winner} gagne le tournoi"}
    for lang, line in expected.items():
        client.set_cookie("lang", lang)
        assert lines(client.get("/").get_data(as_text=True)) == [(f"/tournaments/{tournament}", line)]
