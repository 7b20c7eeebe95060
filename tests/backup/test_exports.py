"""Taking the scores away (issue 13, point 5): CSV that a spreadsheet opens, re-read here with
the standard library's csv, giving back every hand's points."""

import csv
import io
import re

from markup import nodes

FULL = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]
NAMES = ["Anna, detta \"la Rossa\"", "=cmd|' /C calc'!A0", "Bruno 🂡 Müller"]


def read(response):
    assert response.headers["Content-Type"].startswith("text/csv")
    assert response.headers["Content-Disposition"].startswith("attachment;")
    raw = response.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")          # the BOM: Excel reads UTF-8 as such
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))


def test_a_match_export_gives_back_every_hands_points(client):
    match_id = client.post("/api/v1/matches", json={
        "players": NAMES, "first_dealer": 0, "pin": "246813", "options": {"re_bello": True}}).get_json()["id"]
    hands = [
        {"piles": [FULL[:14], FULL[14:27], FULL[27:]], "sweeps": [1, 0, 2]},
        {"tallies": [{"cards": 20, "coins": 6, "settebello": True, "re_bello": True, "primiera": True},
                     {"cards": 10, "coins": 2}, {"cards": 10, "coins": 2}]},
    ]
    for hand in hands:
        assert client.post(f"/api/v1/matches/{match_id}/hands", json=hand,
                           headers={"X-Scopa-PIN": "246813"}).status_code == 201
    played = client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]
    rows = read(client.get(f"/matches/{match_id}/export.csv"))
    header, body = rows[0], rows[1:]
    assert header[:2] == ["Hand", "Side"] and header[-2:] == ["Hand total", "Running total"]
    assert "Re Bello" in header and "Scope" in header
    assert len(body) == len(played) * 3
    running = [0, 0, 0]
    for number, hand in enumerate(played, start=1):
        for side in range(3):
            row = body[(number - 1) * 3 + side]
            points = hand["points"][side] if "points" in hand else None
            total = int(row[-2])
            running[side] += total
            assert int(row[0]) == number and int(row[-1]) == running[side]
            assert sum(int(v) for v in row[2:-2]) == total       # the items add up to the hand
            if points is not None:
                assert total == points
    # Names with commas, quotes, accents and emoji survive; a formula is made harmless.
    assert [row[1] for row in body[:3]] == [NAMES[0], "'" + NAMES[1], NAMES[2]]
    assert running == client.get(f"/api/v1/matches/{match_id}").get_json()["totals"]
    text = client.get(f"/matches/{match_id}/export.csv").get_data(as_text=True)
    assert "246813" not in text and "pbkdf2" not in text and "scrypt" not in text


def test_every_match_in_one_file(client):
    ids = [client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0}).get_json()["id"]
           for _ in range(3)]
    client.post(f"/api/v1/matches/{ids[0]}/hands", json={"tallies": [
        {"cards": 22, "coins": 6, "settebello": True, "primiera": True}, {"cards": 18, "coins": 4}]})
    client.post(f"/matches/{ids[1]}/archive", data={"archived": "1"})
    version = client.get(f"/api/v1/matches/{ids[2]}").get_json()["version"]
    client.post(f"/matches/{ids[2]}/delete", data={"version": version})
    rows = read(client.get("/export.csv"))
    assert rows[0][:5] == ["Match", "Date", "Variant", "Result", "Hands"]
    assert [int(r[0]) for r in rows[1:]] == ids[:2]            # the archived one too, not the deleted
    first = rows[1]
    assert first[2] == "Scopa classica" and first[4] == "1"
    assert first[5:9] == ["Anna", "4", "Bruno", "0"]


def test_an_export_in_the_pages_language(client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0}).get_json()["id"]
    client.post(f"/api/v1/matches/{match_id}/hands", json={"tallies": [
        {"cards": 22, "coins": 6, "settebello": True, "primiera": True}, {"cards": 18, "coins": 4}]})
    client.get("/lang/it")
    assert read(client.get(f"/matches/{match_id}/export.csv"))[0][:2] == ["Mano", "Nome"]
    client.get("/lang/fr")
    assert read(client.get("/export.csv"))[0][0] == "Partie"


def test_a_match_page_draws_the_running_totals_as_a_chart(client):
    """Issue 13, point 3: one line per side with as many points as hands plus one, the target
    as a line, a ring where the sides level; drawn on the server (no script)."""
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0,
                                                    "options": {"target": 21}}).get_json()["id"]
    assert 'data-testid="chart"' not in client.get(f"/matches/{match_id}").get_data(as_text=True)
    anna = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True}, {"cards": 18, "coins": 4}]}
    bruno = {"tallies": [{"cards": 18, "coins": 4}, {"cards": 22, "coins": 6, "settebello": True, "primiera": True}]}
    for hand in (anna, bruno, anna):
        client.post(f"/api/v1/matches/{match_id}/hands", json=hand)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    svg = nodes(page, "svg.chart")[0]
    lines = svg.css("polyline.chart-line[points]")
    assert [line.attributes["class"] for line in lines] == ["chart-line side-0", "chart-line side-1"]
    heights = [[int(p.split(",")[1]) for p in line.attributes["points"].split()] for line in lines]
    assert all(len(h) == 4 for h in heights)                      # 3 hands + the start
    assert heights[0][1] < heights[0][0] and heights[0][2] == heights[0][1]   # Anna 4, 4
    assert heights[1][2] == heights[0][2]                          # 4 all after hand 2
    assert len(svg.css("circle.chart-tie")) == 1
    assert svg.css(".chart-target") and not svg.css("[style], script")
    assert svg.css("desc") and "Anna 8, Bruno 4" in svg.text()


HOSTILE = ["Ugo;=1+1", "x;=1+1;", 'x;"=A1+1";', "Ada, +39", "Eva;@SUM(A1)", "Lia; -2"]


def test_no_spreadsheet_finds_a_formula_whatever_it_splits_on(client):
    """Found in review: ``Ugo;=1+1`` was written unquoted, and Excel set up for Italian or
    French splits CSV on ";", which made a live formula. Every field is quoted now, and a
    formula character after a ";" or "," is made harmless too, since such a spreadsheet splits
    there whatever the quotes say."""
    ids = [client.post("/api/v1/matches", json={"players": [name, "Bruno"], "first_dealer": 0}).get_json()["id"]
           for name in HOSTILE]
    client.post(f"/api/v1/matches/{ids[0]}/hands", json={"tallies": [
        {"cards": 22, "coins": 6, "settebello": True, "primiera": True}, {"cards": 18, "coins": 4}]})
    for url in ["/export.csv", f"/matches/{ids[0]}/export.csv"]:
        text = client.get(url).get_data().decode("utf-8-sig")
        for line in text.splitlines():
            assert re.fullmatch(r'"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*', line), line    # every field quoted
        for separator in (",", ";"):
            for row in csv.reader(io.StringIO(text), delimiter=separator):
                for field in row:
                    assert not field.lstrip(' "').startswith(("=", "+", "-", "@")), (separator, field)
    names = [row[5] for row in read(client.get("/export.csv"))[1:]]
    assert names == ["Ugo;'=1+1", "x;'=1+1;", 'x;"\'=A1+1";', "Ada, '+39", "Eva;'@SUM(A1)", "Lia; '-2"]


def test_the_file_of_every_match_works_out_only_the_matches_changed_since(client, monkeypatch):
    """Issue 32: at 5,000 matches the file took most of a second for any guest, each time. Each
    match's line is now written once per version of the match (and language): asked again, only
    a match changed since is worked out, and the file still says what is so now."""
    from companion.web import exports
    ids = [client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0}).get_json()["id"]
           for _ in range(5)]
    written = []
    line = exports.match_line
    monkeypatch.setattr(exports, "match_line", lambda match: written.append(match.id) or line(match))
    assert len(read(client.get("/export.csv"))) == 6 and sorted(written) == ids
    written.clear()
    assert len(read(client.get("/export.csv"))) == 6 and written == []
    client.post(f"/api/v1/matches/{ids[2]}/hands", json={"tallies": [
        {"cards": 22, "coins": 6, "settebello": True, "primiera": True}, {"cards": 18, "coins": 4}]})
    rows = read(client.get("/export.csv"))
    assert written == [ids[2]] and rows[3][4] == "1" and rows[3][5:9] == ["Anna", "4", "Bruno", "0"]
    written.clear()
    assert read(client.get("/export.csv", headers={"Accept-Language": "fr"}))[0][0] == "Partie"
    assert sorted(written) == ids           # another language: its own lines


def test_the_file_of_every_match_after_a_restore_is_the_restored_stores(client, app_config, tmp_path):
    """A restored store's match may have the id and version of a line written before: a restore
    forgets every line written (store.forget_built)."""
    import sqlite3

    from companion import create_app
    from helpers import restore_backup
    other = create_app({**app_config, "DATABASE": str(tmp_path / "other.sqlite")}).test_client()
    other.post("/api/v1/matches", json={"players": ["Carla", "Dario"], "first_dealer": 0})
    with sqlite3.connect(tmp_path / "other.sqlite") as kept, sqlite3.connect(tmp_path / "saved.sqlite") as copy:
        kept.backup(copy)          # the other store as a backup holds it
    saved = (tmp_path / "saved.sqlite").read_bytes()
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0})
    assert read(client.get("/export.csv"))[1][5] == "Anna"
    answer = restore_backup(client, saved, confirm="y")
    assert answer.status_code == 303
    assert read(client.get("/export.csv"))[1][5] == "Carla"


def test_a_phones_territory_writes_no_file_of_its_own(client, monkeypatch):
    """The lines are kept by language: a guest naming another territory in each request
    (en-AU, en-IN, en-NZ...) gets the lines written already, not each match worded again."""
    from companion.web import exports
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "first_dealer": 0})
    written = []
    line = exports.match_line
    monkeypatch.setattr(exports, "match_line", lambda match: written.append(match.id) or line(match))
    for territory in ("AU", "IN", "NZ", "GB"):
        assert read(client.get("/export.csv", headers={"Accept-Language": f"en-{territory}"}))[1][5] == "Anna"
    assert len(written) == 1
