"""The commands the companion prints work as they are printed (issue 45): every start said "back
it up with scopa-companion backup FILE", and after the README's install that answered `command
not found` (the command is .venv/bin/scopa-companion); the "cannot open the store" line said
the same bare command. Now each is the path the companion was started from, ``scopa-companion``
alone where that name on the PATH is this very program (pipx), or docker compose's in the
container."""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from command_here import main_serving

from companion import store, upkeep
from companion.settings import Settings

INSTALLED = Path(sys.executable).with_name("scopa-companion")


def without_the_environment_on_path() -> str:
    """PATH as after the README's install, the environment never activated: its bin/ left out."""
    return os.pathsep.join(folder for folder in os.environ.get("PATH", "").split(os.pathsep)
                           if folder and Path(folder).resolve() != INSTALLED.parent.resolve())


@pytest.mark.skipif(os.name == "nt" or not INSTALLED.exists(), reason="the installed command, in a POSIX shell")
def test_the_banners_backup_command_runs_as_printed(monkeypatch, tmp_path, capsys):
    """The companion started as the README starts it (.venv/bin/scopa-companion, not on the
    PATH: its cli.main in the test's process, the program's path its argv[0], as the installed
    command's is); the command its banner prints is run, word for word, by a shell in another
    folder (a process of its own: the printed words are the property), and makes a backup
    that is a store."""
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("PATH", without_the_environment_on_path())
    monkeypatch.delenv("SCOPA_DB", raising=False)
    monkeypatch.setattr(sys, "argv", [str(INSTALLED)])
    here = tmp_path / "elsewhere"
    here.mkdir()
    ran = []

    def run_the_printed_command(port: int) -> None:
        banner = next(line for line in capsys.readouterr().out.splitlines() if "scores kept in" in line)
        printed = re.search(r"\(back it up with (.+), or from the home page, Backup\)", banner).group(1)
        ran.append(printed)
        done = subprocess.run(printed, shell=True, cwd=here, env=dict(os.environ), capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, (printed, done.stderr)

    assert main_serving(monkeypatch, ["--host", "127.0.0.1", "--port", "0"], run_the_printed_command) == 0
    assert ran and ran[0].startswith(str(INSTALLED))        # the path it was started from
    made = list(here.iterdir())
    assert len(made) == 1 and re.fullmatch(r"scopa-\d{4}-\d\d-\d\d\.sqlite", made[0].name)
    assert store.examine(str(made[0]), thorough=True) == len(store.MIGRATIONS)     # a whole store, of this version
    with sqlite3.connect(made[0]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)


def test_the_program_is_the_path_it_was_started_from(monkeypatch, tmp_path):
    program = tmp_path / ".venv" / "bin" / "scopa-companion"
    program.parent.mkdir(parents=True)
    program.write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    settings = Settings()
    # In a terminal: relative where that is shorter; in a log (systemd's journal), absolute.
    assert upkeep.own_program(settings, terminal=True, argv0=str(program)) == [".venv/bin/scopa-companion"]
    assert upkeep.own_program(settings, terminal=False, argv0=".venv/bin/scopa-companion") == [str(program)]
    monkeypatch.chdir(program.parent)
    assert upkeep.own_program(settings, terminal=True, argv0=str(program)) == ["./scopa-companion"]
    # pipx, or an activated environment: the name on the PATH is this very program.
    monkeypatch.setattr(shutil, "which", lambda name: str(program))
    assert upkeep.own_program(settings, terminal=False, argv0=str(program)) == ["scopa-companion"]
    # Another scopa-companion on the PATH is not this one.
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/local/bin/scopa-companion")
    assert upkeep.own_program(settings, terminal=False, argv0=str(program)) == [str(program)]
    # python -m companion, as the tests start it.
    main = Path(upkeep.__file__).with_name("__main__.py")
    assert upkeep.own_program(settings, terminal=False, argv0=str(main)) == [sys.executable, "-m", "companion"]


def test_in_composes_container_the_commands_are_docker_composes(monkeypatch):
    monkeypatch.setenv("SCOPA_COMPOSE_SERVICE", "companion")
    monkeypatch.setenv("SCOPA_DATA", "/data")
    settings = Settings()
    printed = upkeep.backup_command(settings, Path("/data/scopa.sqlite"))
    assert re.fullmatch(r"docker compose exec companion scopa-companion backup /data/scopa-[\d-]+\.sqlite",
                        printed)
    assert upkeep.restore_command(settings) == "docker compose run --rm companion restore /data/FILE"


def test_the_refusal_of_a_store_names_the_restore_as_started(monkeypatch, tmp_path, capsys):
    """The "cannot open the store" line said "scopa-companion restore FILE" whatever was run."""
    not_a_store = tmp_path / "scopa.sqlite"
    with sqlite3.connect(not_a_store) as conn:
        conn.execute("CREATE TABLE notes (x)")
    monkeypatch.setattr(sys, "argv", [str(INSTALLED)])
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert upkeep.opened_app(Settings(db=str(not_a_store))) is None
    said = capsys.readouterr().err
    assert said.rstrip().endswith(f"restore a backup ({INSTALLED} restore FILE)"), said


def test_the_zeroconf_hint_is_a_command_of_this_environment(monkeypatch):
    printed = upkeep.install_command("zeroconf", terminal=False)
    assert printed.split() == [sys.executable, "-m", "pip", "install", "zeroconf"]
    monkeypatch.setattr(sys, "prefix", "/home/anna/.local/share/pipx/venvs/scopa-companion")
    assert upkeep.install_command("zeroconf") == "pipx inject scopa-companion zeroconf"


def test_the_backup_page_gives_the_restore_on_the_machine_as_started(app, client):
    """The backup page said "scopa-companion restore FILE" too; the command sets the one it
    was started with (cli: RESTORE_COMMAND), said in its words."""
    app.config["RESTORE_COMMAND"] = "/home/anna/scopa companion/.venv/bin/scopa-companion restore FILE"
    page = client.get("/backup").get_data(as_text=True)
    assert "<code>/home/anna/scopa companion/.venv/bin/scopa-companion restore FILE</code>" in page
