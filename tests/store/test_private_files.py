"""Found in review (issue 41, small ones): the store and its WAL were 0644, so any user of the
machine read every match's PIN hash (and the organiser's phones' key hashes). The data folder is
its owner's alone (0700), and so is every file the companion keeps there (0600): the store, its
WAL and shared memory, the key that signs the phones' cookies, the copy kept before a restore,
a backup. A store or folder an older version left open is closed at the next start."""

import os
import stat
import sys
from pathlib import Path

import pytest

from companion import create_app, store
from companion.matches import Ledger
from companion.settings import Settings
from helpers import new_match, organiser

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Windows keeps access lists, not modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    """The umask most systems give a user (022): what made the files 0644 before."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_a_new_data_folder_and_every_file_in_it_are_the_owners_alone(tmp_path, open_umask):
    folder = tmp_path / "data"
    app = create_app(settings=Settings(data=str(folder)))
    new_match(organiser(app))                           # a write: the WAL and its index exist
    database = Path(app.config["DATABASE"])
    assert database.parent == folder
    files = [database, Path(f"{database}-wal"), Path(f"{database}-shm"), folder / "secret_key"]
    assert all(path.exists() for path in files)
    assert {path.name: oct(mode(path)) for path in [folder, *files]} == {
        "data": "0o700", "scopa.sqlite": "0o600", "scopa.sqlite-wal": "0o600",
        "scopa.sqlite-shm": "0o600", "secret_key": "0o600"}


def test_a_store_and_folder_left_open_by_an_older_version_are_closed_at_start(tmp_path, open_umask,
                                                                               migrated_store):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    database = folder / "scopa.sqlite"
    database.write_bytes(Path(migrated_store).read_bytes())
    os.chmod(folder, 0o755)
    os.chmod(database, 0o644)
    app = create_app(settings=Settings(data=str(folder)))
    new_match(organiser(app))
    assert (oct(mode(folder)), oct(mode(database)), oct(mode(Path(f"{database}-wal")))) == (
        "0o700", "0o600", "0o600")


def test_a_store_named_elsewhere_is_closed_but_not_its_folder(tmp_path, open_umask):
    """--db in a folder the companion did not make (a home folder): that folder is left alone."""
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    app = create_app(settings=Settings(db=str(home / "club.sqlite"), data=str(tmp_path / "data")))
    new_match(organiser(app))
    assert (oct(mode(home)), oct(mode(home / "club.sqlite"))) == ("0o755", "0o600")


def test_backups_and_the_copy_kept_before_a_restore_are_the_owners_alone(tmp_path, open_umask, migrated_store):
    live = tmp_path / "live.sqlite"
    live.write_bytes(Path(migrated_store).read_bytes())
    backup = tmp_path / "backup.sqlite"
    store.backup_to(str(live), str(backup))
    kept = store.restore_from(str(live), str(backup), Ledger)
    assert (oct(mode(backup)), oct(mode(kept))) == ("0o600", "0o600")


def test_the_backup_command_writes_a_file_of_the_owners_alone(tmp_path, open_umask, migrated_store, monkeypatch):
    from companion import upkeep

    live = tmp_path / "live.sqlite"
    live.write_bytes(Path(migrated_store).read_bytes())
    monkeypatch.setattr(os, "umask", lambda mask: 0o022)     # the command's own umask left out
    assert upkeep.backup(live, tmp_path / "club-backup.sqlite") == 0
    assert oct(mode(tmp_path / "club-backup.sqlite")) == "0o600"
