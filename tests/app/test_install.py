"""Installed as README says, the companion keeps its matches outside the virtual environment:
delete the environment, install again, and every match is still there."""

import json
import os
import shutil
import site
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from helpers import start_companion

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder), str(ROOT)],
                   check=True, capture_output=True)
    return next(folder.glob("scopa_companion-*.whl"))


def install(venv: Path, wheel: Path) -> Path:
    """A fresh virtual environment with the companion's wheel installed (not editable). Its
    dependencies are borrowed from the test environment, so nothing is downloaded."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    packages = next(venv.glob("lib/python3*/site-packages"), None) or venv / "Lib" / "site-packages"
    (packages / "borrowed.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    return venv / ("Scripts" if os.name == "nt" else "bin") / "scopa-companion"


def serve(command: Path, home: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOPA_", "XDG_"))}
    env["HOME"] = str(home)
    process, base = start_companion(env=env, command=str(command), output=subprocess.PIPE)
    return base, process


def stop(process) -> str:
    process.terminate()
    output, _ = process.communicate(timeout=10)
    return output


@pytest.mark.skipif(sys.platform != "linux", reason="the fake HOME moves the data folder on Linux")
def test_reinstalling_keeps_every_match(tmp_path, wheel):
    home, venv = tmp_path / "home", tmp_path / "venv"
    command = install(venv, wheel)
    base, process = serve(command, home)
    request = urllib.request.Request(base + "/api/v1/matches", method="POST",
                                     data=json.dumps({"players": ["Anna", "Bruno"]}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        match_id = json.load(answer)["id"]
    banner = stop(process)
    where = home / ".local" / "share" / "scopa-companion" / "scopa.sqlite"
    assert f"scores kept in {where}" in banner and where.is_file()

    shutil.rmtree(venv)
    base, process = serve(install(venv, wheel), home)
    try:
        with urllib.request.urlopen(f"{base}/api/v1/matches/{match_id}") as answer:
            assert json.load(answer)["sides"][0]["name"] == "Anna"
    finally:
        stop(process)
