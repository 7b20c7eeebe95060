"""The standings as CSV (issue 40, point 5: "the standings download as CSV"): the file a club
pastes into its spreadsheet, read back here with the standard library's csv, its rows in the
standings' order and its figures those of the JSON API's standings; names a spreadsheet would
misread (a comma, a leading "=") kept whole and harmless, as the match CSV keeps them
(tests/backup/test_exports.py)."""

import csv
import io

from markup import attr

NAMES = ["Rossi, Anna", "=cmd|' /C calc'!A0", "Bruno 🂡 Müller", "Ugo;=1+1", "Carla", "Dario"]
EVERYONE = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]


def read(response):
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/csv")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert response.get_data().startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))


def night(client, entrants, **body):
    """A tournament of ``entrants`` with its round 1 played: the first-named at each table takes
    every card, with a scopa (5 a hand, to 5)."""
    made = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "swiss", "rounds": 3, "entrants": entrants, "options": {"target": 5}, **body})
    assert made.status_code == 201, made.get_json()
    tournament = client.post(f"/api/v1/tournaments/{made.get_json()['id']}/rounds", json={}).get_json()
    for table in tournament["rounds"][-1]["tables"]:
        saved = client.post(f"/api/v1/matches/{table['match']}/hands", json={"piles": [EVERYONE, []], "sweeps": [1, 0]})
        assert saved.status_code == 201, saved.get_json()
    return client.get(f"/api/v1/tournaments/{tournament['id']}").get_json()


def test_the_standings_download_in_their_order_with_every_figure(client):
    tournament = night(client, NAMES)
    rows = read(client.get(f"/tournaments/{tournament['id']}/standings.csv"))
    header, body = rows[0], rows[1:]
    # The tie-breaks' figures in a Swiss's order (head-to-head left out: it applied nowhere).
    assert header == ["Place", "Entrant", "Match points", "Opponents' points but the lowest",
                      "Opponents' points", "Points difference", "Won", "Drawn", "Lost", "Played",
                      "Byes", "Points scored", "Points conceded", "Tie-break"]
    standings = tournament["standings"]
    assert [row[0] for row in body] == [str(place) for place in range(1, len(NAMES) + 1)]
    safe = {"=cmd|' /C calc'!A0": "'=cmd|' /C calc'!A0", "Ugo;=1+1": "Ugo;'=1+1"}
    assert [row[1] for row in body] == [safe.get(row["entrant"], row["entrant"]) for row in standings]
    column = {name: header.index(name) for name in header}
    for row, expected in zip(body, standings):
        assert [int(row[column[name]]) for name in ("Match points", "Points difference", "Opponents' points",
                                                    "Won", "Drawn", "Lost", "Played", "Points scored", "Points conceded")] \
            == [expected[key] for key in ("match_points", "difference", "buchholz", "won", "drawn", "lost",
                                          "played", "scored", "conceded")]
    # The tie-break the page shows on a row, in the page's words (the winners level on every
    # figure: their entry order decides).
    assert body[1][column["Tie-break"]] == "entry order"
    assert body[0][column["Tie-break"]] == ""


def test_no_field_becomes_a_formula_whatever_the_spreadsheet_splits_on(client):
    tournament = night(client, NAMES)
    text = client.get(f"/tournaments/{tournament['id']}/standings.csv").get_data().decode("utf-8-sig")
    for separator in (",", ";"):
        for row in csv.reader(io.StringIO(text), delimiter=separator):
            for field in row:
                assert not field.lstrip(' "').startswith(("=", "+", "-", "@")) or field.lstrip(' "-').isdigit(), field


def test_the_standings_are_in_the_pages_language_and_the_tournament_page_links_them(client):
    tournament = night(client, ["Anna", "Bruno", "Carla", "Dario"], format="round-robin")
    rows = read(client.get(f"/tournaments/{tournament['id']}/standings.csv", headers={"Accept-Language": "it"}))
    # A round robin's tie-breaks in its order: head-to-head applied nowhere, so no column.
    assert rows[0][:5] == ["Posizione", "Iscritto", "Punti", "Punti degli avversari battuti", "Differenza punti"]
    assert "Punti degli avversari" not in rows[0]           # no opponents' points outside a Swiss
    assert rows[0][-1] == "Spareggio"
    page = client.get(f"/tournaments/{tournament['id']}")
    assert attr(page, "[data-testid=standings-csv]", "href") == f"/tournaments/{tournament['id']}/standings.csv"


def test_a_pairs_players_are_a_column(client):
    tournament = night(client, [{"name": "Nord", "players": ["Anna", "Bruno"]},
                                {"name": "Sud", "players": ["Carla", "Dario"]}], format="round-robin")
    rows = read(client.get(f"/tournaments/{tournament['id']}/standings.csv"))
    assert rows[0][:3] == ["Place", "Entrant", "Players"]
    assert [row[1:3] for row in rows[1:]] == [["Nord", "Anna, Bruno"], ["Sud", "Carla, Dario"]]


def test_the_api_gives_the_same_rows_with_the_jsons_names(client):
    tournament = night(client, NAMES)
    page = read(client.get(f"/tournaments/{tournament['id']}/standings.csv"))
    api = read(client.get(f"/api/v1/tournaments/{tournament['id']}/standings.csv"))
    assert api[0] == ["place", "entrant", "match_points", "buchholz_cut1", "buchholz", "difference", "won",
                      "drawn", "lost", "played", "byes", "scored", "conceded", "tie_break"]
    assert [row[:-1] for row in api[1:]] == [row[:-1] for row in page[1:]]
    assert api[2][-1] == "entry_order" and api[1][-1] == ""
    missing = client.get("/api/v1/tournaments/999/standings.csv")
    assert missing.status_code == 404 and missing.get_json()["error"]
    assert client.get("/tournaments/999/standings.csv").status_code == 404


def test_a_withdrawn_entrant_is_marked_in_a_column_of_its_own(client):
    tournament = night(client, NAMES)
    before = read(client.get(f"/api/v1/tournaments/{tournament['id']}/standings.csv"))
    assert "withdrawn" not in before[0]                     # no one withdrew: no column
    gone = client.post(f"/api/v1/tournaments/{tournament['id']}/entrants/1/withdraw", json={})
    assert gone.status_code == 200, gone.get_json()
    rows = read(client.get(f"/api/v1/tournaments/{tournament['id']}/standings.csv"))
    column = rows[0].index("withdrawn")
    marked = {row[1] for row in rows[1:] if row[column] == "1"}
    assert marked == {tournament["entrants"][0]["name"]}
    page = read(client.get(f"/tournaments/{tournament['id']}/standings.csv", headers={"Accept-Language": "fr"}))
    assert page[0][column] == "Retrait"
