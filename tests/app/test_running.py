"""Running the box for real, as docs/running.md says (issue 45): the systemd unit the docs
install, the figures the docs give that the code decides (the restore limit, the count of
variants), and the benchmarks' --help, which ran a whole benchmark."""

import getpass
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import RESTORE_LIMIT
from companion.rules.rulesets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
RUNNING = ROOT / "docs" / "running.md"
UNIT = ROOT / "docs" / "scopa-companion.service"


def install_command() -> str:
    """The sed of running.md's *At boot* that writes the unit with your folder and user."""
    found = re.search(r"^(sed -e .*? docs/scopa-companion\.service) \\\n", RUNNING.read_text(), re.M)
    assert found, "running.md installs no unit"
    return found.group(1)


def test_the_unit_says_how_it_is_installed_as_the_docs_do():
    assert install_command() in UNIT.read_text()
    unit = UNIT.read_text()
    assert re.search(r"^ExecStart=/home/pi/scopa-companion/\.venv/bin/scopa-companion$", unit, re.M)
    assert re.search(r"^User=pi$", unit, re.M)
    # A setting refused exits 2 (cli.main), which starting again would not mend.
    assert re.search(r"^RestartPreventExitStatus=2$", unit, re.M)


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd is not installed here")
def test_the_unit_as_the_docs_install_it_is_one_systemd_takes(tmp_path):
    """The docs' own command run in this checkout (its .venv from the README's command), as your
    user; systemd-analyze verify finds nothing to say of what it writes."""
    if not (ROOT / ".venv" / "bin" / "scopa-companion").exists():
        pytest.skip("the README's .venv is not in this checkout")
    written = subprocess.run(install_command(), shell=True, cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PWD": str(ROOT), "USER": getpass.getuser()}, check=True)
    unit = tmp_path / "scopa-companion.service"
    unit.write_text(written.stdout)
    assert f"ExecStart={ROOT}/.venv/bin/scopa-companion\n" in written.stdout
    assert f"User={getpass.getuser()}\n" in written.stdout
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                              timeout=60)
    assert verified.returncode == 0 and not verified.stdout + verified.stderr, verified.stdout + verified.stderr


def test_the_docs_give_the_companions_restore_limit():
    """running.md's nginx example took a restore of 400m though the companion refuses a body
    over 8 MiB: each figure said of the restore limit is the code's. A restore now comes in parts
    of 64 KiB (issue 41), so nginx takes no body larger than that anywhere."""
    mib = RESTORE_LIMIT // 2**20
    text = " ".join(RUNNING.read_text().split())
    said = re.findall(r"restore limit, (\d+) MiB", text)
    assert len(said) >= 2 and set(said) == {str(mib)}, said
    sizes = re.findall(r"client_max_body_size (\w+);", RUNNING.read_text())
    assert sizes == ["64k"], sizes


NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
           "fifteen sixteen seventeen eighteen nineteen twenty").split()


def test_the_count_of_variants_is_the_codes():
    """features.md said "Sixteen variants" where there were seventeen: every count of the
    variants in the README and docs/ is the number of presets."""
    counted = 0
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for word in re.findall(r"\b(\w+) variants\b", page.read_text(), re.I):
            number = NUMBERS.index(word.lower()) if word.lower() in NUMBERS else int(word) if word.isdigit() else None
            if number is not None:
                assert number == len(PRESETS), (page.name, word)
                counted += 1
    assert counted >= 3


# Each benchmark run as ``python bench_x.py --help`` would run it, one after the other in one
# Python (which imports the companion once, not once a benchmark): its exit status and what it
# printed, one JSON line each; on stderr the one started, to name one that runs on.
ASK_EACH_FOR_HELP = """
import contextlib, io, json, runpy, sys
for path in sys.argv[1:]:
    print(path, file=sys.stderr, flush=True)
    sys.argv, printed, status = [path, "--help"], io.StringIO(), "ran to its end"
    with contextlib.redirect_stdout(printed):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as stop:
            status = stop.code or 0
    print(json.dumps([path, status, printed.getvalue()]), flush=True)
"""


def test_each_benchmark_answers_help_without_running():
    """bench_pairing.py --help ran the benchmark: each benchmark's --help prints its usage and
    exits 0 at once (all within a short time-out)."""
    benchmarks = sorted((ROOT / "tests" / "benchmarks").glob("bench_*.py"))
    assert benchmarks
    process = subprocess.Popen([sys.executable, "-c", ASK_EACH_FOR_HELP, *map(str, benchmarks)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        out, err = process.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        process.kill()
        _out, err = process.communicate()
        pytest.fail(f"{Path(err.splitlines()[-1]).name} --help ran on")
    answered = {Path(path).name: (status, printed) for path, status, printed in map(json.loads, out.splitlines())}
    assert list(answered) == [bench.name for bench in benchmarks], err
    for name, (status, printed) in answered.items():
        assert status == 0 and printed.startswith(f"usage: {name}"), (name, status, printed[:200])


def test_the_options_table_lists_every_setting_and_its_flag():
    """Each variable of the settings' model is a row of running.md's *Options*, beside its flag."""
    from companion.cli import FLAGS
    from companion.settings import Settings
    rows = re.findall(r"^\|(.*?)\| `?(SCOPA_\w+)", RUNNING.read_text(), re.M)
    listed = {variable: flag for flag, variable in rows}
    assert set(listed) == set(Settings.variables().values())
    # Beside its variable, but the PIN's flag, on a row of its own that warns against it.
    for field, variable in Settings.variables().items():
        if field in FLAGS and field != "organiser_pin":
            assert f"`{FLAGS[field]}" in listed[variable], variable
    assert re.search(r"^\| `--organiser-pin` \| \|", RUNNING.read_text(), re.M)
