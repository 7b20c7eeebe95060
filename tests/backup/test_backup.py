"""Backup and restore from the pages: a backup holds every match and restores it (keeping the
store as it was before), a file that is not a backup restores nothing, and only the organiser
(the machine itself, or a phone with the code) restores. (Split from the old tests/test_live.py.)"""

import json
import sqlite3
from io import BytesIO

import pytest

from helpers import HAND, new_match, restore_backup

pytestmark = pytest.mark.usefixtures("fresh_rate_limit")     # each test counts wrong PINs afresh


# -- Backup and restore --------------------------------------------------------------------

def test_a_backup_holds_every_match_and_restores(app, client, tmp_path):
    match_id = new_match(client)
    client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    backup = client.get("/backup/download")
    assert backup.status_code == 200 and backup.data.startswith(b"SQLite format 3\x00")
    saved = tmp_path / "saved.sqlite"
    saved.write_bytes(backup.data)
    assert sqlite3.connect(saved).execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 1

    client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)          # a later hand...
    assert json.loads(client.get(f"/api/v1/matches/{match_id}").data)["totals"] == [10, 0]
    response = restore_backup(client, saved.read_bytes(), confirm="y")
    assert response.status_code == 303
    assert json.loads(client.get(f"/api/v1/matches/{match_id}").data)["totals"] == [5, 0]   # ...undone
    kept = list((tmp_path).glob("before-restore-*.sqlite"))
    assert len(kept) == 1 and sqlite3.connect(kept[0]).execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 2


def test_a_file_that_is_not_a_backup_restores_nothing(client):
    match_id = new_match(client)
    response = client.post("/backup/restore", data={"backup": (BytesIO(b"not a database" * 100), "x.sqlite"),
                                                    "confirm": "y"}, content_type="multipart/form-data",
                           follow_redirects=True)
    assert "Nothing restored: that file is not a Scopa companion backup." in response.get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{match_id}").status_code == 200


def test_restore_only_by_the_organiser(app):
    response = app.test_client().post("/backup/restore",
                           data={"confirm": "y"}, follow_redirects=True)
    assert response.status_code == 403
    assert "only the organiser can make one" in response.get_data(as_text=True)


def test_the_restore_page_says_its_limit_and_what_to_do_beyond_it(client):
    """The web restore takes a backup of up to 8 MiB (the largest request waitress takes, on any
    URL); the page says so before a file is chosen, and how a larger one is restored on the
    machine (tests/app/test_store_file.py restores one there)."""
    page = client.get("/backup").get_data(as_text=True)
    assert "A backup of up to 8 MiB restores from here." in page
    assert "<code>scopa-companion restore FILE</code>" in page
