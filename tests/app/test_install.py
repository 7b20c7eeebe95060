"""Installed as README says: the dependencies pyproject.toml allows are those the companion
works with, and it keeps its matches outside the virtual environment (delete the environment,
install again, and every match is still there)."""

import contextlib
import json
import os
import site
import subprocess
import sys
import tomllib
import urllib.request
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from helpers import start_companion

ROOT = Path(__file__).resolve().parents[2]


def requirements(extra: str | None = None) -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return {Requirement(line).name.lower(): Requirement(line) for line in listed}


def test_the_installed_flask_has_what_the_companion_relies_on(app):
    """Flask 3.1 gave a request its own body limit (``request.max_content_length`` can be set):
    a restore sets it, and on Flask 3.0, which pyproject.toml once allowed, every restore
    crashed. The floor keeps 3.0 out; the Flask installed has the setter."""
    from flask import request
    with app.test_request_context("/backup/restore", method="POST"):
        request.max_content_length = 300 * 1024 * 1024
        assert request.max_content_length == 300 * 1024 * 1024
    flask = requirements()["flask"]
    assert not flask.specifier.contains("3.0.3") and flask.specifier.contains("3.1.0")


@pytest.mark.parametrize("extra", [None, "test"])
def test_every_dependency_installed_is_one_pyproject_allows(extra):
    """The suite runs on versions pyproject.toml allows (a lowest-versions run: docs/development.md,
    "Tests")."""
    for name, requirement in requirements(extra).items():
        assert requirement.specifier.contains(version(name), prereleases=True), (name, version(name))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The companion's wheel, built by the backend pyproject.toml names, the one installed with
    the tests (pip's isolated build environment filled hatchling from the index at every run),
    through its PEP 517 hook, in this process, as ``pip wheel --no-build-isolation`` calls it in a
    process of its own (a second of pip's imports)."""
    import hatchling.build
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["build-backend"] == "hatchling.build"
    folder = tmp_path_factory.mktemp("wheel")
    with contextlib.chdir(ROOT):            # the backend builds the project it is called in
        return folder / hatchling.build.build_wheel(str(folder))


def install(venv: Path, wheel: Path) -> Path:
    """A fresh virtual environment (the standard library's venv, as ``python -m venv`` makes
    one) with the companion's wheel installed by pip (not editable). Its dependencies are
    borrowed from the test environment, so nothing is downloaded."""
    import venv as virtual_environments
    virtual_environments.create(venv, with_pip=False)
    packages = next(venv.glob("lib/python3*/site-packages"), None) or venv / "Lib" / "site-packages"
    (packages / "borrowed.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    return venv / ("Scripts" if os.name == "nt" else "bin") / "scopa-companion"


@pytest.fixture(scope="module")
def installed(tmp_path_factory, wheel) -> Path:
    """The wheel installed once for the module, its ``scopa-companion``: each test serves it with a
    home of its own, and none changes the environment."""
    return install(tmp_path_factory.mktemp("installed") / "venv", wheel)


def serve(command: Path, home: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOPA_", "XDG_"))}
    env["HOME"] = str(home)
    process, base = start_companion(env=env, command=str(command), output=subprocess.PIPE)
    return base, process


def stop(process) -> str:
    process.terminate()
    output, _ = process.communicate(timeout=10)
    return output


def files_in(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` (Python's own byte-code caches left out: they are the
    interpreter's, not the companion's): its size and when it was last written."""
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts}


@pytest.mark.skipif(sys.platform != "linux", reason="the fake HOME moves the data folder on Linux")
def test_reinstalling_keeps_every_match(tmp_path, installed):
    """A match made with one installation is there for a fresh one: nothing of it is kept in the
    environment, which can be deleted and made again. The environment is file for file as it
    was installed after serving (nothing written into it: the store is the data folder's alone),
    so serving it again is serving a fresh installation of the same wheel (a second one was
    made here before, to the same effect: a second's install saved)."""
    home = tmp_path / "home"
    venv = installed.parents[1]
    as_installed = files_in(venv)
    base, process = serve(installed, home)
    request = urllib.request.Request(base + "/api/v1/matches", method="POST",
                                     data=json.dumps({"players": ["Anna", "Bruno"]}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        match_id = json.load(answer)["id"]
    banner = stop(process)
    assert files_in(venv) == as_installed
    where = home / ".local" / "share" / "scopa-companion" / "scopa.sqlite"
    assert f"scores kept in {where}" in banner and where.is_file()

    base, process = serve(installed, home)
    try:
        with urllib.request.urlopen(f"{base}/api/v1/matches/{match_id}") as answer:
            assert json.load(answer)["sides"][0]["name"] == "Anna"
        serves_its_pages_files_and_languages(base)      # for the wheel's test below: a start saved
    finally:
        stop(process)


def serves_its_pages_files_and_languages(base: str) -> None:
    """The installed companion at ``base`` serves its pages, their files and a language other
    than English from inside the package."""
    request = urllib.request.Request(base + "/", headers={"Accept-Language": "fr"})
    with urllib.request.urlopen(request) as answer:
        page = answer.read().decode()
    assert "<title>Parties" in page
    stylesheet = page.split('href="/static/companion.', 1)[1].split('"', 1)[0]
    with urllib.request.urlopen(f"{base}/static/companion.{stylesheet}") as answer:
        assert answer.status == 200 and b"{" in answer.read()


def test_the_wheel_carries_the_pages_their_files_and_the_catalogues(wheel):
    """What ``pipx install .`` installs (docs/running.md, "With pipx"): the command, and a
    companion that serves its pages, their files and every language from inside the package.
    The files are read here from the wheel; the installed command serving them
    (``serves_its_pages_files_and_languages``) is checked on the second start of
    test_reinstalling_keeps_every_match, the same installation (a start of its own cost a
    second of CPU)."""
    import zipfile
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    for lang in ("it", "en", "fr", "es"):
        assert f"companion/translations/{lang}/LC_MESSAGES/messages.mo" in names
    assert {"companion/templates/base.html", "companion/static/companion.css"} <= names
    commands = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    assert "scopa-companion = companion" in archive.read(commands).decode()        # the command


def test_the_wheel_says_its_licence(wheel):
    """Whoever installs it may lawfully run it at their club: the MIT licence in the wheel and in
    its metadata, as in the checkout's LICENSE."""
    import zipfile
    archive = zipfile.ZipFile(wheel)
    metadata = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
    said = archive.read(metadata).decode()
    assert "License-Expression: MIT" in said or "License: MIT" in said
    assert "License-File: LICENSE" in said.splitlines()
    carried = [name for name in archive.namelist() if name.rsplit("/", 1)[-1] == "LICENSE"]
    assert carried and archive.read(carried[0]) == (ROOT / "LICENSE").read_bytes()


def test_the_wheel_says_where_the_project_lives(wheel):
    """Its metadata names the project's home, documentation, source and issues (issue 35), each
    an https address: what pip show and a package index show a newcomer."""
    import email
    import zipfile
    archive = zipfile.ZipFile(wheel)
    metadata = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
    said = email.message_from_bytes(archive.read(metadata))
    urls = dict(line.split(", ", 1) for line in said.get_all("Project-URL", []))
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues"}
    assert all(url.startswith("https://") and " " not in url for url in urls.values()), urls
    assert urls["Issues"].startswith(urls["Source"]) and urls["Documentation"].startswith(urls["Source"])
