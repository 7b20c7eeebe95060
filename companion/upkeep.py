"""The store's upkeep from the command line: ``scopa-companion backup FILE`` and ``restore
FILE``, the lock a serving companion holds on its store, the clean stop on SIGTERM as on Ctrl-C,
and the start-up's refusal of a store it must not open, in one line each.

The store is found as the server finds it: ``--db``, else ``SCOPA_DB``, else ``scopa.sqlite`` in
the data folder. A restore replaces the store under a server's feet, whose caches (the matches
worked out once per version) would then be stale: so a serving companion holds a lock on its
store (a file beside it, ``scopa.sqlite.lock``, locked by the operating system through
filelock, on Windows, macOS and Linux alike, and let go if the process dies), and the restore
command takes the same lock or refuses. The web restore, made inside the serving companion,
needs no lock.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Callable, Iterator

from filelock import FileLock, Timeout

from . import store
from .instance import data_folder
from .matches import Ledger
from .settings import Settings
from .store.checks import read_only

# -- The commands it prints, as the user types them -----------------------------------------

def own_program(settings: Settings, terminal: bool | None = None, argv0: str | None = None) -> list[str]:
    """The words that start this very companion again, for the commands it prints: the path it
    was started from (``.venv/bin/scopa-companion``), or ``scopa-companion`` alone where that
    name on the PATH is this very program (pipx, an activated environment); ``python -m
    companion`` as ``.venv/bin/python -m companion``; in compose's container (SCOPA_COMPOSE_SERVICE),
    ``docker compose exec companion scopa-companion``. A path is shown relative to the current
    folder where that is shorter, for a terminal only (``terminal``: stdout's): a log (systemd's
    journal, docker's) is read from another folder."""
    if settings.compose_service:
        return ["docker", "compose", "exec", settings.compose_service, "scopa-companion"]
    path = Path(argv0 if argv0 is not None else sys.argv[0])
    if path.name == "__main__.py" and path.parent.name == "companion":
        return [shown_path(sys.executable, terminal), "-m", "companion"]
    if path.stem.lower() != "scopa-companion":      # not started as the command (a test, a script)
        return ["scopa-companion"]
    found = shutil.which("scopa-companion")
    if found and Path(found).resolve() == path.resolve():
        return ["scopa-companion"]
    return [shown_path(str(path), terminal)]


def shown_path(path: str, terminal: bool | None = None) -> str:
    """``path`` absolute, or relative to the current folder where that is shorter and read in
    this terminal; a bare name is made ``./name``, which a shell does not look up on the PATH."""
    absolute = os.path.abspath(path)
    if terminal is None:
        terminal = bool(sys.stdout and sys.stdout.isatty())
    if not terminal:
        return absolute
    try:
        relative = os.path.relpath(absolute)
    except ValueError:          # Windows: another drive
        return absolute
    if os.sep not in relative and not (os.altsep and os.altsep in relative):
        relative = os.path.join(os.curdir, relative)
    return relative if len(relative) < len(absolute) else absolute


def typed(words: list[str]) -> str:
    """``words`` as a shell takes them: quoted for Windows' cmd and PowerShell alike (double
    quotes), else for a POSIX shell."""
    if os.name == "nt":
        import subprocess
        return subprocess.list2cmdline(words)
    return " ".join(shlex.quote(word) for word in words)


def backup_command(settings: Settings, store_file: Path, terminal: bool | None = None) -> str:
    """The backup command the banner prints, pasted as it is: into a file named after the day,
    in the current folder (in the container, beside the store, in the volume)."""
    name = f"scopa-{date.today().isoformat()}.sqlite"
    target = str(store_file.parent / name) if settings.compose_service else name
    return typed([*own_program(settings, terminal), "backup", target])


def restore_command(settings: Settings, terminal: bool | None = None) -> str:
    """The restore of a backup FILE, made with the companion stopped: in compose's container, a
    container of its own on the same volume (``docker compose run``: ``exec`` needs the service
    running)."""
    if settings.compose_service:
        return (f"docker compose run --rm {settings.compose_service} "
                f"restore {store_path(settings).parent.as_posix().rstrip('/')}/FILE")
    return typed([*own_program(settings, terminal), "restore"]) + " FILE"


def install_command(package: str, terminal: bool | None = None) -> str:
    """What installs ``package`` beside this companion: ``pipx inject`` in pipx's environment,
    else the pip of the Python it runs on (``.venv/bin/python -m pip install zeroconf``)."""
    prefix = Path(sys.prefix)
    if prefix.parent.name == "venvs" and "pipx" in prefix.parts:
        return f"pipx inject {prefix.name} {package}"
    return typed([shown_path(sys.executable, terminal), "-m", "pip", "install", package])


class InUse(Exception):
    """Another scopa-companion holds the store (serving it, or restoring into it)."""


def store_path(settings: Settings) -> Path:
    """The store as the server finds it: --db, ``SCOPA_DB``, or the data folder's."""
    return Path(settings.db) if settings.db else data_folder(settings) / "scopa.sqlite"


@contextmanager
def held(path: Path) -> Iterator[None]:
    """The store's lock, held until the end of the block; InUse at once if another process
    holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(f"{path}.lock", blocking=False)
    try:
        lock.acquire()
    except Timeout:
        raise InUse(str(path)) from None
    try:
        yield
    finally:
        lock.release()


def in_use_line(path: Path) -> str:
    return (f"scopa-companion: another scopa-companion is using {path} (serving it, or restoring "
            f"into it): stop it first (Ctrl-C where it runs)")


def private_from_now() -> None:
    """Whatever the command writes from now on (the store, its WAL, the key, a backup, a
    restore's parts, the lock) is its user's alone: they hold every match's PIN hash. Each is
    also closed by name where it is made (``store.made_private``), for an app served otherwise
    (``flask run``, the tests)."""
    os.umask(0o077)


def while_held(settings: Settings, serve: Callable[[], int]) -> int:
    """``serve()`` with the store's lock held (the store the settings name); 1 and one line on
    stderr if another companion holds it."""
    private_from_now()
    path = store_path(settings)
    try:
        with held(path):
            return serve()
    except InUse:
        print(in_use_line(path), file=sys.stderr)
    except OSError as error:        # its folder cannot be made, or is read-only
        print(f"scopa-companion: cannot open the store: {error}", file=sys.stderr)
    return 1


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM (what ``docker compose stop``, systemd and ``kill`` send) ends the block as
    Ctrl-C does: as a KeyboardInterrupt, which waitress's loop takes as the end of serving. Only
    the main thread can be given a signal handler; elsewhere (a test) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signal, _frame):
        raise KeyboardInterrupt

    # SIGINT too, whatever the companion was started with: a shell script that starts it in the
    # background (``scopa-companion &``) hands it SIGINT ignored, and Python then leaves Ctrl-C
    # (and ``kill -INT``) without effect; a stress run of the tests found it so.
    before = {stop: signal.signal(stop, interrupt) for stop in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for stop, handler in before.items():
            signal.signal(stop, handler)


def unfit_line(unfit: store.Unfit, settings: Settings) -> str:
    """The one line that refuses to start on a store this version must not open."""
    path = unfit.path
    # compose starts a container that refused its store again and again: stopped first.
    stopped = "docker compose stop, then " if settings.compose_service else ""
    said = {"damaged": f"{path} is damaged (SQLite's quick check fails)",
            "not_store": f"The server's store is not a Scopa companion store ({path})",
            "newer": f"{path} was written by a newer version of the companion (its schema is at "
                     f"step {unfit.level}, this version's at {len(store.MIGRATIONS)}): update the companion",
            "foreign": f"{path} is not what the companion makes: {unfit.problem} (code in a store "
                       f"would run on every save)"}
    return (f"scopa-companion: cannot open the store: {said[unfit.reason]}. Nothing was written "
            f"to it; start with another --db, or restore a backup ({stopped}{restore_command(settings)})")


def opened_app(settings: Settings):
    """The companion's app on its store, or None once one line on stderr says why not: a store
    this version must not open (left as it was), or one it cannot open."""
    from . import create_app
    try:
        return create_app(settings=settings)
    except store.Unfit as unfit:
        print(unfit_line(unfit, settings), file=sys.stderr)
    except store.StorageError as failure:
        print(f"scopa-companion: cannot open the store: {str(failure.message)} ({failure})",
              file=sys.stderr)
    except OSError as error:
        print(f"scopa-companion: cannot open the store: {error}", file=sys.stderr)
    return None


def add_commands(parser: argparse.ArgumentParser) -> None:
    """``backup FILE`` and ``restore FILE``, each with its own ``--db`` too."""
    commands = parser.add_subparsers(dest="command", metavar="{backup,restore}",
                                     title="the store (instead of serving)")
    for name, text in (("backup", "copy the store into FILE, consistently, also while the "
                                  "companion runs (the organiser's phones left out)"),
                       ("restore", "replace the store with the backup FILE, once checked whole, "
                                   "keeping the present one beside it (the companion must be "
                                   "stopped)")):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("file", metavar="FILE")
        command.add_argument("--db", default=argparse.SUPPRESS,
                             help="the store (default: as the server finds it: SCOPA_DB, or "
                                  "scopa.sqlite in the data folder)")


def run(args: argparse.Namespace) -> int:
    """The command given: backup or restore. Exit 0, or 1 with one line on stderr."""
    private_from_now()
    path = store_path(args.settings)
    given = Path(args.file).expanduser()
    try:
        return (backup if args.command == "backup" else restore)(path, given)
    except InUse:
        print(in_use_line(path), file=sys.stderr)
    except store.NotABackup as problem:
        print(f"scopa-companion: nothing restored: {problem.args[0]}", file=sys.stderr)
    except (OSError, sqlite3.Error, store.StorageError, store.Unfit) as error:
        print(f"scopa-companion: {args.command}: {error}", file=sys.stderr)
    return 1


def _matches(path: Path) -> str:
    """How many matches the store at ``path`` holds, in words: "1 match", "12 matches"."""
    conn = read_only(str(path))
    try:
        count = conn.execute("SELECT COUNT(*) FROM matches WHERE deleted IS NULL").fetchone()[0]
    finally:
        conn.close()
    return f"{count} match{'' if count == 1 else 'es'}"


def backup(path: Path, target: Path) -> int:
    """The store copied into ``target`` with SQLite's backup API (one consistent state, while
    phones save), without the organiser's phones' keys, as the web download is. ``target`` is
    written whole or not at all, and never over another file."""
    if not path.is_file():
        raise OSError(f"there is no store at {path}")
    if target.exists():
        raise OSError(f"{target} already exists: name another file")
    with tempfile.TemporaryDirectory(dir=target.parent.resolve()) as folder:
        copy = Path(folder) / "backup.sqlite"
        store.backup_to(str(path), str(copy))
        store.without_organiser_phones(str(copy))
        os.replace(copy, target)
    print(f"Backed up {path} into {target}: {_matches(target)}", flush=True)
    return 0


def restore(path: Path, backup_file: Path) -> int:
    """The store replaced with ``backup_file`` (checked whole first, as the web restore checks
    it: a copy is checked, the file given is never changed), the present store kept beside it;
    of any size. Refused while a companion serves the store (InUse)."""
    if not backup_file.is_file():
        raise OSError(f"there is no file {backup_file}")
    with held(path), tempfile.TemporaryDirectory(prefix=store.RESTORING, dir=path.parent) as folder:
        received = Path(folder) / "restore.sqlite"
        shutil.copyfile(backup_file, received)
        had = path.is_file()
        keep = store.restore_from(str(path), str(received), Ledger)
        if not had:
            keep.unlink()           # a copy of the empty store the restore started from
    kept = f"the store as it was is kept as {keep}" if had else "there was no store before"
    print(f"Restored {backup_file} into {path}: {_matches(path)}; {kept}", flush=True)
    return 0
