"""The store's file as the organiser handles it on the machine: a stop by SIGTERM leaves it one
whole file, a store this version must not open is refused at start and left as it was, and
``scopa-companion backup`` and ``restore`` (which a serving companion's lock keeps away)."""

import hashlib
import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from io import BytesIO

import pytest
from big_stores import padded
from command_here import command as run_here

import companion
from companion import store
from companion.matches import Ledger
from helpers import HAND, STARTING, api, new_match, organiser, start_companion


def launch(db, tmp_path, copy_of_migrated, program=None):
    """``scopa-companion`` (or ``program``) on 127.0.0.1 and a port of its own
    (helpers.start_companion), on the store ``db``, a copy of the run's migrated store (the
    migrations are not what these tests are about): the process (its output in
    ``process.stdout``) and its address."""
    copy_of_migrated(str(db))
    return start_companion("--db", str(db), command=program, output=subprocess.PIPE,
                           env=dict(os.environ, SCOPA_DATA=str(tmp_path / "data")))


def stopped_whole(process, db, hands: int) -> None:
    """``process``, sent its stop, ends with exit code 0 and leaves the store one whole file:
    no WAL with data beside it, and the main file alone, copied elsewhere, holds all ``hands``
    hands saved (found in review: after SIGTERM, docker compose stop or systemd, the WAL was
    left beside the store, and a copy of scopa.sqlite alone held none of the matches)."""
    try:
        said, _ = process.communicate(timeout=STARTING)     # it ends when it stops
    finally:
        if process.poll() is None:      # it did not stop: no companion left behind the test
            process.kill()
            process.communicate()
    assert process.returncode == 0, said
    for leftover in ("-wal", "-shm"):
        beside = db.parent / f"{db.name}{leftover}"
        assert not beside.exists() or beside.stat().st_size == 0
    copied = db.parent.parent / "elsewhere" / db.name
    copied.parent.mkdir()
    shutil.copyfile(db, copied)                     # the main file only
    assert hands_in(copied) == hands


def command(*args, tmp_path) -> subprocess.CompletedProcess:
    """``scopa-companion ARGS`` run to its end in this process (command_here.command), its data
    folder the test's: nothing here is a process's own (a signal, a port held, a stop), and a
    process of its own cost each call a second of imports."""
    return run_here(*args, data=tmp_path / "data")


def hands_in(path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM hands WHERE deleted IS NULL").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def made_store(copy_of_migrated):
    """``made_store(path, matches=1, hands=3)``: a store with ``matches`` matches of ``hands``
    hands, made through the API (on a copy of the run's migrated store) and copied whole into
    ``path``, one file and nothing beside it."""
    def made(path, matches=1, hands=3):
        made = copy_of_migrated(str(path.parent / "made" / path.name))
        app = companion.create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                                    "DATABASE": made})
        client = app.test_client()
        for _ in range(matches):
            match_id = new_match(client, options={"target": 1000})
            for _ in range(hands):
                assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
        store.backup_to(made, str(path))
        store.stop_cleanly(made)
        return path
    return made


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- A clean stop -----------------------------------------------------------------------------

@pytest.mark.parametrize("from_a_script", [False, True], ids=["Ctrl-C", "Ctrl-C, started in the background by a script"])
def test_a_clean_stop_leaves_the_store_one_whole_file(tmp_path, copy_of_migrated, from_a_script):
    """Ctrl-C (SIGINT) leaves the store one whole file (``stopped_whole``), as SIGTERM does
    (test_a_backup_while_phones_save_holds_every_hand_saved_before_it stops its server so).
    Found by a stress run of the suite: a companion started from a script in the background
    (``scopa-companion &``, which starts it with SIGINT ignored) did not stop on SIGINT at all."""
    db = tmp_path / "data" / "scopa.sqlite"
    script = None
    if from_a_script:
        script = tmp_path / "start.sh"
        script.write_text(f"#!/bin/sh\ntrap '' INT\nexec {shlex.quote(sys.executable)} -m companion \"$@\"\n")
        script.chmod(0o755)
    process, base = launch(db, tmp_path, copy_of_migrated, program=script and str(script))
    match_id = api(base, "/matches", {"players": ["Anna", "Bruno"], "options": {"target": 1000}})["id"]
    for _ in range(6):
        api(base, f"/matches/{match_id}/hands", HAND)
    process.send_signal(signal.SIGINT)
    stopped_whole(process, db, 6)


# -- Refused at start, and left as it was -------------------------------------------------------

def damage(path):
    """A byte flipped in the header of a page of the hands' table: SQLite's quick check fails."""
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
    conn.close()
    with open(path, "r+b") as file:
        file.seek((root - 1) * page_size)
        kind = file.read(1)[0]
        file.seek((root - 1) * page_size)
        file.write(bytes([kind ^ 0xFF]))


def newer(path):
    """The migration of a later version than this one recorded in the store."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO migrations (version, applied) VALUES (?, '2030-01-01')",
                     [len(store.MIGRATIONS) + 1])
    conn.close()


def newer_in_the_wal(path):
    """The same, left in the WAL by a companion that stopped without a word (a power cut): a
    check that read the store's file alone would miss it."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    with conn:
        conn.execute("INSERT INTO migrations (version, applied) VALUES (?, '2030-01-01')",
                     [len(store.MIGRATIONS) + 1])
    for kept in ("", "-wal"):                   # the files as the power cut left them
        shutil.copyfile(f"{path}{kept}", f"{path}{kept}.cut")
    conn.close()                                # (which checkpoints: put back what was cut)
    for kept in ("", "-wal"):
        os.replace(f"{path}{kept}.cut", f"{path}{kept}")
    assert os.path.getsize(f"{path}-wal") > 0


@pytest.mark.parametrize("harm, words", [(damage, "is damaged (SQLite's quick check fails)"),
                                         (newer, "was written by a newer version of the companion"),
                                         (newer_in_the_wal, "was written by a newer version")])
def test_a_store_this_version_must_not_open_is_refused_and_left_alone(tmp_path, made_store, harm, words):
    """Found in review: a damaged store started without a word and failed page by page (503);
    a newer one even took writes. Now: one line, exit 1, the file as it was (its hash), and no
    -wal or -shm file made beside it."""
    db = made_store(tmp_path / "the store" / "scopa.sqlite")      # a space: the URI quotes it
    harm(db)
    before = sha(db)
    started = command("--host", "127.0.0.1", "--port", "0", "--db", db, tmp_path=tmp_path)
    assert started.returncode == 1
    assert started.stdout == ""                         # no banner, no QR code
    lines = started.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("scopa-companion: cannot open the store: ")
    assert words in lines[0] and "Nothing was written to it" in lines[0]
    assert sha(db) == before
    if harm is not newer_in_the_wal:
        assert not any(db.parent.glob("scopa.sqlite-*"))      # no -wal, no -shm made


# -- Backup and restore on the machine ----------------------------------------------------------

def test_a_backup_while_phones_save_holds_every_hand_saved_before_it(tmp_path, copy_of_migrated):
    """``scopa-companion backup FILE`` while a phone saves hand after hand: a consistent copy
    (it restores) with every hand saved before the copy began, and without the organiser's
    phones' keys. The server, stopped by SIGTERM (docker compose stop, systemd), leaves the
    store one whole file with every hand it answered for (``stopped_whole``)."""
    db = tmp_path / "data" / "scopa.sqlite"
    process, base = launch(db, tmp_path, copy_of_migrated)
    try:
        match_id = api(base, "/matches", {"players": ["Anna", "Bruno"], "options": {"target": 1000}})["id"]
        conn = sqlite3.connect(db)
        with conn:
            conn.execute("INSERT INTO organiser_phones (key_hash, created) VALUES ('secret', 'now')")
        conn.close()
        saved, stop, enough = [], threading.Event(), threading.Event()

        def phone():
            while not stop.is_set() and len(saved) < 190:      # 5 points a hand: 200 end it
                api(base, f"/matches/{match_id}/hands", HAND)
                saved.append(1)
                if len(saved) >= 10:
                    enough.set()

        saving = threading.Thread(target=phone)
        saving.start()
        try:
            assert enough.wait(timeout=60)
            before = len(saved)                                 # saved before the copy began
            backup = command("backup", tmp_path / "night.sqlite", "--db", db, tmp_path=tmp_path)
        finally:
            stop.set()
            saving.join(timeout=60)
        assert backup.returncode == 0, backup.stderr
        assert re.fullmatch(r"Backed up .* into .*night\.sqlite: 1 match\n", backup.stdout)
        assert hands_in(tmp_path / "night.sqlite") >= before
        conn = sqlite3.connect(tmp_path / "night.sqlite")
        assert conn.execute("SELECT COUNT(*) FROM organiser_phones").fetchone()[0] == 0
        conn.close()
        in_use = (f"scopa-companion: another scopa-companion is using {db} (serving it, or "
                  "restoring into it): stop it first (Ctrl-C where it runs)\n")
        refused = command("restore", tmp_path / "night.sqlite", "--db", db, tmp_path=tmp_path)
        assert (refused.returncode, refused.stderr) == (1, in_use)     # not under a server
        second = command("--host", "127.0.0.1", "--port", "0", "--db", db, tmp_path=tmp_path)
        assert (second.returncode, second.stderr, second.stdout) == (1, in_use, "")
    except BaseException:
        process.kill()                  # no companion left behind a failed test
        process.communicate()
        raise
    process.send_signal(signal.SIGTERM)
    stopped_whole(process, db, len(saved))                 # every answered save is in the store
    kept = hands_in(tmp_path / "night.sqlite")
    assert len(saved) >= kept
    restored = command("restore", tmp_path / "night.sqlite", "--db", db, tmp_path=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert hands_in(db) == kept
    assert len(list(db.parent.glob("before-restore-*.sqlite"))) == 1


def test_a_store_larger_than_the_web_restore_takes_is_restored_on_the_machine(tmp_path, made_store):
    """The web restore takes up to companion.RESTORE_LIMIT (8 MiB, in parts of 64 KiB: no request
    carries more); ``scopa-companion restore FILE`` takes a store of any size, checked as the web
    restore checks one. Here a store of 8 hands a few MiB over the limit, by the free pages a
    table dropped leaves in its file (the machine's restore has no path that a store's size
    takes: a size made of rows, 2,000 matches, was 2 s of checking each row, which
    test_a_restore_copies_rows_into_a_store_made_afresh and the page's restore check): its match
    copied."""
    backup = made_store(tmp_path / "big.sqlite", matches=1, hands=8)
    padded(backup, companion.RESTORE_LIMIT + 2 * 1024 * 1024)
    db = made_store(tmp_path / "data" / "scopa.sqlite")
    restored = command("restore", backup, "--db", db, tmp_path=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith(f"Restored {backup} into {db}: 1 match;")
    assert hands_in(db) == 8
    assert backup.stat().st_size > companion.RESTORE_LIMIT                  # the web refuses it
    refused = organiser(companion.create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                                              "DATABASE": str(db)})).post(
        "/backup/restore", data={"backup": (BytesIO(backup.read_bytes()), "big.sqlite"), "confirm": "y"},
        content_type="multipart/form-data")
    assert refused.status_code == 413


def test_a_restore_on_the_machine_refuses_what_the_web_refuses(tmp_path, made_store):
    db = made_store(tmp_path / "data" / "scopa.sqlite")
    before = sha(db)
    junk = tmp_path / "notes.sqlite"
    junk.write_bytes(b"shopping list\n" * 300)
    refused = command("restore", junk, "--db", db, tmp_path=tmp_path)
    assert (refused.returncode, refused.stderr) == (
        1, "scopa-companion: nothing restored: that file is not a Scopa companion backup\n")
    assert sha(db) == before and junk.read_bytes() == b"shopping list\n" * 300
    store.check_backup(str(made_store(tmp_path / "other.sqlite")), Ledger)     # a store passes


def test_a_store_refused_at_start_is_replaced_by_a_restore_on_the_machine(tmp_path, made_store):
    """What the refusal's line advises works: a restore on the machine onto a damaged store
    (kept beside it, as it was), after which the companion opens it."""
    good = made_store(tmp_path / "good.sqlite", hands=2)
    db = made_store(tmp_path / "data" / "scopa.sqlite")
    damage(db)
    damaged = sha(db)
    restored = command("restore", good, "--db", db, tmp_path=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert store.examine(str(db)) == len(store.MIGRATIONS) and hands_in(db) == 2
    kept = list(db.parent.glob("before-restore-*.sqlite"))
    assert len(kept) == 1 and sha(kept[0]) == damaged
