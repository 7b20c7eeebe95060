"""Where the store lives, and what a phone sees when the store cannot save: a full disk, a
read-only store, a file that is not a companion store. Nothing recorded is lost, reads go on,
and saving comes back without a restart once the cause is gone."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from command_here import main_here

from companion import adopt_old_store, create_app, data_folder, secret_key, store
from helpers import organiser, serving

HAND = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "sweeps": 1},
                    {"cards": 18, "coins": 4, "settebello": False, "sweeps": 0}]}


def form(cards=22):
    return {"mode": "tallies", "rest": "1", "t_cards_0": str(cards), "t_coins_0": "6",
            "settebello": "0", "sweeps_0": "0", "sweeps_1": "0", "save": "1"}


# -- Where the store lives ----------------------------------------------------------------------

def test_the_store_and_key_live_in_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOPA_DB", raising=False)
    monkeypatch.delenv("SCOPA_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))    # platformdirs on Linux
    if sys.platform != "linux":
        pytest.skip("XDG_DATA_HOME is how the test moves the data folder on Linux")
    app = create_app()
    assert Path(app.config["DATABASE"]) == tmp_path / "share" / "scopa-companion" / "scopa.sqlite"
    assert (tmp_path / "share" / "scopa-companion" / "secret_key").is_file()
    assert not Path(app.config["DATABASE"]).is_relative_to(sys.prefix)   # not in the venv


def test_scopa_db_and_scopa_data_still_win(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path / "data"))
    assert data_folder() == tmp_path / "data"
    monkeypatch.setenv("SCOPA_DB", str(tmp_path / "elsewhere.sqlite"))
    assert create_app().config["DATABASE"] == str(tmp_path / "elsewhere.sqlite")


def test_a_store_at_the_old_place_is_moved_once(tmp_path):
    old, new = tmp_path / "venv" / "var" / "companion-instance", tmp_path / "data"
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE": str(old / "scopa.sqlite")})
    match_id = organiser(app).post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    (old / "secret_key").write_text("a" * 64)
    note = adopt_old_store(old, new)
    assert note == f"moved the store from {old / 'scopa.sqlite'} to {new / 'scopa.sqlite'}"
    assert not (old / "scopa.sqlite").exists() and (new / "secret_key").read_text() == "a" * 64
    moved = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE": str(new / "scopa.sqlite")})
    assert organiser(moved).get(f"/api/v1/matches/{match_id}").status_code == 200
    assert adopt_old_store(old, new) is None          # once: nothing left to move


def test_an_empty_or_broken_key_file_is_replaced(tmp_path):
    (tmp_path / "secret_key").write_text("")
    key = secret_key(tmp_path)
    assert len(key) == 64 and (tmp_path / "secret_key").read_text() == key
    (tmp_path / "secret_key").write_bytes(b"\xff\xfe broken")
    assert secret_key(tmp_path) != key and len((tmp_path / "secret_key").read_text()) == 64
    assert secret_key(tmp_path) == (tmp_path / "secret_key").read_text()   # kept from now on


def test_a_key_that_cannot_be_written_leaves_no_empty_file(tmp_path, monkeypatch, capsys):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    key = secret_key(tmp_path)
    assert len(key) == 64 and list(tmp_path.iterdir()) == []
    assert "could not be saved" in capsys.readouterr().err


# -- Storage failures through the pages and the API ---------------------------------------------

def cached_connection(app):
    """The connection this thread's requests use (the test client runs them in this thread)."""
    return store.db._threads.connections[app.config["DATABASE"]]


def test_a_read_only_store_explains_itself_keeps_reading_and_recovers(app, client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    assert client.post(f"/matches/{match_id}/hands/new", data=form()).status_code == 303
    cached_connection(app).execute("PRAGMA query_only = ON")     # as a read-only file answers
    page = client.post(f"/matches/{match_id}/hands/new", data=form(30))
    text = page.get_data(as_text=True)
    assert page.status_code == 503 and "its store is read-only. Nothing was saved" in text
    assert 'name="t_cards_0" type="text" value="30"' in text or 'value="30"' in text   # form kept
    # The next request opens a fresh connection: saving works again, nothing was lost.
    assert client.get(f"/matches/{match_id}").status_code == 200
    cached_connection(app).execute("PRAGMA query_only = ON")
    api = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    assert api.status_code == 503 and "read-only" in api.get_json()["error"]
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    assert len(client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]) == 2


def test_a_full_disk_answers_503_and_loses_nothing(app, client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"],
                                                    "options": {"target": 1000}}).get_json()["id"]
    conn = cached_connection(app)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")          # no room for one more page
    saved, answer = 0, None
    for _ in range(60):
        answer = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
        if answer.status_code != 201:
            break
        saved += 1
        cached_connection(app).execute(f"PRAGMA max_page_count = {pages}")
    assert answer.status_code == 503
    assert answer.get_json()["error"].startswith("The server could not save: its disk is full")
    assert len(client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]) == saved


def test_a_file_that_is_not_a_store_is_said_plainly(app, client, tmp_path):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    store.db._threads.connections.clear()
    for suffix in ("", "-wal", "-shm"):
        Path(app.config["DATABASE"] + suffix).unlink(missing_ok=True)
    Path(app.config["DATABASE"]).write_bytes(b"not a database at all" * 100)
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 503 and "not a Scopa companion store" in page.get_data(as_text=True)
    api = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    assert api.status_code == 503 and "not a Scopa companion store" in api.get_json()["error"]


# -- A real full disk and a real read-only file system (a small tmpfs) ---------------------------

def call(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
            capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_real_full_disk_on_a_running_server(small_disk, copy_of_migrated):
    """A real file system filled to its last byte under the companion serving on waitress (in a
    thread of this process: the disk is the property, not the process). (A file system cannot
    be made read-only under a server holding the store open for writing: a read-only store is
    tried above through SQLite's own read-only mode.)"""
    database = copy_of_migrated(str(small_disk / "scopa.sqlite"))
    app = create_app({"SECRET_KEY": "disk", "DATABASE": database})
    with serving(app, threads=4) as base:
        _, match = call("POST", f"{base}/api/v1/matches", {"players": ["Anna", "Bruno"],
                                                            "options": {"target": 1000}})
        url = f"{base}/api/v1/matches/{match['id']}/hands"
        assert call("POST", url, HAND)[0] == 201
        filler = small_disk / "filler"
        with open(filler, "wb", buffering=0) as file:      # fill the disk to its last byte
            try:
                while True:
                    file.write(b"\0" * 4096)
            except OSError:
                pass
        statuses = [call("POST", url, HAND)[0] for _ in range(40)]
        assert 503 in statuses, statuses
        status, answer = call("POST", url, HAND)
        assert status == 503 and "its disk is full" in answer["error"]
        kept = call("GET", f"{base}/api/v1/matches/{match['id']}")[1]["hands"]
        assert len(kept) == 1 + statuses.count(201)                   # reads go on, nothing lost
        filler.unlink()
        assert call("POST", url, HAND)[0] == 201                      # no restart needed

        assert len(call("GET", f"{base}/api/v1/matches/{match['id']}")[1]["hands"]) == len(kept) + 1
    store.stop_cleanly(database)                    # as the command stops: the WAL folded in
    with sqlite3.connect(small_disk / "scopa.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_starting_on_a_file_that_is_not_a_store_says_so(tmp_path, monkeypatch, capsys):
    """The command's own main (``python -m companion`` exits with what it returns), in this
    process: a traceback would fail the test itself."""
    junk = tmp_path / "notes.sqlite"
    junk.write_bytes(b"shopping list: bread, milk\n" * 200)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path / "data"))
    assert main_here(["--host", "127.0.0.1", "--port", "0", "--db", str(junk)]) == 1
    said = capsys.readouterr()
    assert "cannot open the store: The server's store is not a Scopa companion store" in said.err
    assert "Traceback" not in said.err and "Open on the phones" not in said.out
    assert junk.read_bytes().startswith(b"shopping list")      # left as it was


def test_a_store_in_a_folder_that_cannot_be_made_is_said_in_one_line(tmp_path, capsys):
    """Found in review: --db in a folder the system will not make (under a file here) ended in
    mkdir's traceback. Now one line, exit 1, and nothing else is started."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    status = main_here(["--port", "0", "--db", str(blocker / "club" / "scopa.sqlite")])
    said = capsys.readouterr()
    assert status == 1
    assert said.err.startswith("scopa-companion: cannot open the store: ")
    assert str(blocker / "club") in said.err and "Traceback" not in said.err
    assert "Open on the phones" not in said.out


def test_a_stop_before_waitress_serves_is_a_clean_stop(tmp_path, monkeypatch, capsys):
    """Found in review: a SIGTERM (or Ctrl-C) arriving after the addresses are printed but before
    waitress's loop has started came out of the command as a KeyboardInterrupt traceback. It is
    a stop like any other: exit 0, the store left one whole file."""
    import waitress


    def stopped_at_once(app, **options):
        raise KeyboardInterrupt
    monkeypatch.setattr(waitress, "serve", stopped_at_once)
    database = tmp_path / "data" / "scopa.sqlite"
    # On 127.0.0.1: on every interface the command announces itself on the network (mDNS)
    # first, a second or two that this stop does not need.
    assert main_here(["--host", "127.0.0.1", "--port", "0", "--db", str(database)]) == 0
    assert database.exists() and not database.with_name("scopa.sqlite-wal").exists()
