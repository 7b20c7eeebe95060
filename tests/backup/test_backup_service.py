"""backup.service without HTTP: a restore says what became of it (Restored, NotABackup,
NotStored), the store replaced or left as it was; a download is the store without the
organiser's phones. How the page words each outcome: test_backup.py, test_restore_code.py."""

import sqlite3
from pathlib import Path

import pytest

from companion import store
from companion.backup import service
from helpers import new_match


@pytest.fixture
def database(app) -> Path:
    with app.test_request_context():
        yield Path(app.config["DATABASE"])


def matches(database: Path) -> list[int]:
    with sqlite3.connect(database) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM matches WHERE deleted IS NULL ORDER BY id")]


def test_a_download_is_the_store_without_the_organisers_phones(client, database, tmp_path):
    kept = new_match(client)
    store.add_organiser_phone(store.get_db(), "a phone's key")
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(service.download(database, "scopa.sqlite"))
    assert matches(copy) == [kept]
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT COUNT(*) FROM organiser_phones").fetchone() == (0,)
    assert store.organiser_phone_count(store.get_db()) == 1     # the store itself keeps them
    assert not [p for p in database.parent.iterdir() if p.name.startswith(store.DOWNLOADING)]


def test_a_backup_replaces_every_match_and_the_store_before_is_kept(client, database):
    kept = new_match(client)
    backup = service.download(database, "scopa.sqlite")
    new_match(client)
    restored = service.restore(database, lambda path: path.write_bytes(backup))
    assert isinstance(restored, service.Restored) and restored.kept.exists()
    assert matches(database) == [kept] and len(matches(restored.kept)) == 2


def test_a_file_that_is_not_a_backup_replaces_nothing(client, database):
    kept = new_match(client)
    refused = service.restore(database, lambda path: path.write_bytes(b"not a store" * 100))
    assert isinstance(refused, service.NotABackup) and refused.why
    assert matches(database) == [kept]
    assert not [p for p in database.parent.iterdir() if p.name.startswith(store.RESTORING)]


def test_a_disk_that_fails_during_the_restore_replaces_nothing(client, database, monkeypatch):
    kept = new_match(client)
    backup = service.download(database, "scopa.sqlite")
    new_match(client)

    def full(source, target):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr("companion.store.backup.copy_rows", full)
    failed = service.restore(database, lambda path: path.write_bytes(backup))
    assert failed == service.NotStored(store.StorageError.MESSAGES["full"])
    assert matches(database) == [kept, kept + 1]
