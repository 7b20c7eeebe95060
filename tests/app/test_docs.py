"""The README and docs/ as a newcomer reads them (issue 25): every link and picture they name is
there, their commands are those CI runs and name files that exist, their API examples answer,
the pictures are the screenshot script's and show the pages as they are today (the answers they
were drawn from asked again; the pictures taken again with SCOPA_FUZZ set), and the container's
files do what docs/running.md says. They read the files: no image is built."""

import json
import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from helpers import FUZZ
from markup import nodes

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
import make_screenshots  # noqa: E402  (a script of tests/tools/, not a package)

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def prose(path: Path) -> str:
    """A page's text without its code: fenced blocks and `code spans` name no link."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", path.read_text(encoding="utf-8")))


def code_blocks(path: Path, language: str = "sh") -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes.

    >>> slug("The phones on the club's network"), slug("Only the organiser, the store")
    ('the-phones-on-the-clubs-network', 'only-the-organiser-the-store')
    """
    text = re.sub(r"[*_`]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", prose(path), re.M)}


def links(path: Path) -> list[str]:
    """Every address a page names: [words](target), ![words](target), <img src> and <a href>
    (the page's HTML read by a parser)."""
    text = prose(path)
    return (re.findall(r"\]\(([^)\s]+)\)", text)
            + [node.attributes.get("src") or node.attributes["href"] for node in nodes(text, "img[src], a[href]")])


def pictures() -> dict[str, list[Path]]:
    """Every picture of docs/screenshots/ a page shows, and the pages that show it."""
    shown: dict[str, list[Path]] = {}
    for page in DOCS:
        for target in links(page):
            found = (page.parent / target.split("#")[0]).resolve()
            if found.parent == ROOT / "docs" / "screenshots":
                shown.setdefault(found.name, []).append(page)
    return shown


@pytest.mark.parametrize("page", DOCS, ids=lambda page: page.name)
def test_every_link_leads_to_a_file_and_heading_of_the_checkout(page):
    named = links(page)
    for target in named:
        if re.match(r"(https?|mailto):", target):
            continue
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        assert found.is_relative_to(ROOT) and found.exists(), (page.name, target)
        if anchor:
            assert found.suffix == ".md" and anchor in anchors(found), (page.name, target)


def test_the_pages_show_every_picture_the_script_makes_and_no_other():
    shown = pictures()
    assert set(shown) == set(make_screenshots.PICTURES)
    assert "match-and-hand.png" in {name for name, pages in shown.items() if ROOT / "README.md" in pages}
    kept = {path.name for path in (ROOT / "docs" / "screenshots").iterdir()}
    assert kept == {*make_screenshots.PICTURES, make_screenshots.RECORD.name}, (
        "docs/screenshots/ holds only the script's pictures and the record of what they are drawn from")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


def check_pictures(folder: Path, small: bool = True) -> None:
    """Each picture the pages show is in ``folder``: small (unless not ``small``: made only to be
    compared), a phone at 390 px drawn at twice the density (two side by side for the first),
    the boards at the screen's size."""
    for name in pictures():
        path = folder / name
        assert path.is_file(), name
        assert not small or path.stat().st_size < make_screenshots.PICTURE_LIMIT, (name, path.stat().st_size)
        width, height = png_size(path)
        if name in ("board.png", "board-60-720p.png"):
            assert (width, height) == (1280, 720)
        elif name == "board-60-1080p.png":
            assert (width, height) == (1920, 1080)
        elif name == "match-and-hand.png":
            assert width > 2 * 780 and height > 1688, (name, width, height)
        else:
            assert (width, height) == (780, 1688), (name, width, height)


def test_the_pictures_kept_are_small_and_at_their_size():
    check_pictures(ROOT / "docs" / "screenshots")


def test_the_pictures_kept_are_drawn_from_the_pages_as_they_are_today():
    """Each picture kept is drawn from the answers docs/screenshots/drawn-from.json records: the
    companion filled with the script's evening by a test client (no server, no browser) and
    each request the pictures were taken with asked again, in order, its answer's digest
    compared (make_screenshots.drawn_from_today). A page changed and its picture not taken again
    (new-match.png without the "Chance to win" the form shows, issue 35) fails here, as a style
    changed does (companion.css: every picture) or the script's taps: a tenth of the time of
    taking the pictures again. What the record cannot see, another Chromium or other fonts, the
    pictures' own comparison does: make_screenshots.py --check, and the two tests below with
    SCOPA_FUZZ set."""
    assert make_screenshots.drawn_from_today() == [], (
        "drawn from pages that have changed since: run .venv/bin/python tests/tools/make_screenshots.py "
        "(it takes them again and records what they are drawn from)")


def test_an_answers_digest_leaves_out_what_changes_at_every_run_and_nothing_else():
    """drawn-from.json's digests (make_screenshots.digest): the same page from another run (its
    server's port, its CSRF token, a new hand's random key, the moments and times of day it was
    made, zipped or not) has the same digest; a word of it changed has another."""
    import gzip
    page = (b'<form action="http://127.0.0.1:41234/matches/1/hands">'
            b'<input id="csrf_token" name="csrf_token" type="hidden" value="ImIw.axdQng.f90">'
            b'<input id="key" name="key" type="hidden" value="dcb94c343955417baeeeaf7b16e15a98">'
            b'<small>#3 \xc2\xb7 00:29</small> "created": "2026-12-08T00:24:34+00:00" Hand 3 saved</form>')
    again = (page.replace(b"41234", b"40001").replace(b"ImIw.axdQng.f90", b"IjA1.axdQ1g.hBO")
             .replace(b"dcb94c34", b"84cb5ca8").replace(b"00:29", b"21:03").replace(b"00:24:34", b"19:02:11"))
    one = make_screenshots.digest(page, None, "http://127.0.0.1:41234")
    assert make_screenshots.digest(gzip.compress(again), "gzip", "http://127.0.0.1:40001") == one
    assert make_screenshots.digest(page.replace(b"Hand 3", b"Hand 4"), None, "http://127.0.0.1:41234") != one
    assert make_screenshots.digest(page.replace(b'type="hidden"', b'type="text"', 1), None,
                                   "http://127.0.0.1:41234") != one


@pytest.fixture(scope="module")
def taken(tmp_path_factory) -> Path:
    """tests/tools/make_screenshots.py, as its --check runs it, into a throwaway folder (once for
    the module's tests): each picture the palette of 256 colours the kept one has, saved by
    zlib's quickest (a fifth of the time of its best, which docs/screenshots/ keep: their size
    is checked there, by test_the_pictures_kept_are_small_and_at_their_size). With SCOPA_FUZZ
    set only: the suite checks the answers the pictures are drawn from (above), a tenth of the
    time."""
    if not FUZZ:
        pytest.skip("the pictures taken again with SCOPA_FUZZ set (the suite compares what they are drawn from)")
    pytest.importorskip("playwright.sync_api")
    if not shutil.which(make_screenshots.CHROMIUM):
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium for the browser tests (.ci/run)")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("screenshots")
    made = make_screenshots.main(folder, kept=False)
    assert {path.name for path in made} == set(make_screenshots.PICTURES)
    return folder


@pytest.mark.browser
def test_the_script_makes_every_picture_the_pages_show(taken):
    assert {path.name for path in taken.iterdir()} == {*pictures(), make_screenshots.RECORD.name}
    check_pictures(taken, small=False)


@pytest.mark.browser
def test_the_pictures_kept_show_the_pages_as_they_are_today(taken):
    """make_screenshots.py --check, run by CI: a page changed and its picture not taken again
    (new-match.png without the "Chance to win" the form shows, issue 35) fails here."""
    assert make_screenshots.stale(taken) == [], (
        "out of date in docs/screenshots/: run .venv/bin/python tests/tools/make_screenshots.py")


def test_a_picture_with_a_line_taken_out_is_out_of_date_one_drawn_with_softer_edges_is_not(tmp_path):
    """The comparison of --check: the same page drawn with other antialiasing (another Chromium
    or font build; here the kept picture blurred, up to 131 grey levels off on a glyph's edge) is
    the same picture; with one line of text taken out (60 rows: a line at twice the density),
    the rest moved up, or missing, it is out of date."""
    from PIL import Image, ImageFilter
    name = "new-match.png"
    kept = ROOT / "docs" / "screenshots" / name
    with Image.open(kept) as picture:
        picture = picture.convert("RGB")
        picture.filter(ImageFilter.GaussianBlur(1)).save(tmp_path / "softer.png")
        width, height = picture.size
        middle = height // 2
        cut = Image.new("RGB", picture.size, picture.getpixel((width // 2, height - 1)))
        cut.paste(picture.crop((0, 0, width, middle)), (0, 0))
        cut.paste(picture.crop((0, middle + 60, width, height)), (0, middle))
        cut.save(tmp_path / "cut.png")
    with Image.open(kept) as picture:       # the same pixels, saved quickly (as --check makes them)
        picture.save(tmp_path / "quick.png", compress_level=1)
    assert (tmp_path / "quick.png").read_bytes() != kept.read_bytes()
    assert not make_screenshots.differs(tmp_path / "quick.png", kept)
    assert not make_screenshots.differs(kept, kept)
    assert not make_screenshots.differs(tmp_path / "softer.png", kept)
    assert make_screenshots.differs(tmp_path / "cut.png", kept)
    made = shutil.copytree(kept.parent, tmp_path / "made")
    shutil.copy(tmp_path / "cut.png", made / name)
    assert make_screenshots.stale(made, kept.parent) == [name]
    assert make_screenshots.stale(made, tmp_path / "none") == list(make_screenshots.PICTURES)


def test_the_screenshots_script_answers_help_without_taking_any(tmp_path):
    """`make_screenshots.py --help` once made a folder named --help and filled it (issue 35)."""
    script = ROOT / "tests" / "tools" / "make_screenshots.py"
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--check" in done.stdout and "usage:" in done.stdout
    assert list(tmp_path.iterdir()) == []


def readme_command(heading: str) -> str:
    match = re.search(rf"^{heading}.*?```sh\n(.+?)\n```", (ROOT / "README.md").read_text(), re.S | re.M)
    assert match, heading
    return match.group(1)


def test_the_docs_give_the_readmes_commands_word_for_word():
    """docs/development.md's test command is the README's, which CI runs (tests/app/test_project.py
    checks .ci/run); docs/running.md's install is the README's run command."""
    assert readme_command("Test it") in code_blocks(ROOT / "docs" / "development.md")[0]
    assert readme_command("Run it") in code_blocks(ROOT / "docs" / "running.md")[0]


@pytest.mark.parametrize("page", DOCS, ids=lambda page: page.name)
def test_every_file_a_command_names_exists(page):
    """A command copied from the docs runs: each script, folder or file it names is there."""
    for block in code_blocks(page):
        for line in block.replace("\\\n", " ").splitlines():
            if line.lstrip().startswith("#"):
                continue
            line = line.split(" #")[0]
            for word in shlex.split(line):
                if word.startswith(("tests/", ".ci/", "companion/", "docs/")):
                    assert (ROOT / word.split("::")[0]).exists(), (page.name, word)


def test_the_api_examples_answer(app):
    """Each curl of docs/api.md, sent as it is written, its headers and all (from the machine
    itself, which is no organiser: issue 32)."""
    client = app.test_client()
    sent = 0
    for block in code_blocks(ROOT / "docs" / "api.md"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line)
            if not words or words[0] != "curl":
                continue
            address = next(word for word in words if word.startswith("http://"))
            body = words[words.index("-d") + 1]
            json.loads(body)
            headers = dict(words[i + 1].split(": ", 1) for i, word in enumerate(words) if word == "-H")
            answer = client.post(address.split(":8000", 1)[1], data=body, headers=headers)
            assert answer.status_code in (200, 201), (address, answer.get_json())
            sent += 1
    assert sent >= 3


# -- The container --------------------------------------------------------------------------

def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, each (KEYWORD, its arguments) with lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def one(keyword: str) -> str:
    found = [arguments for word, arguments in dockerfile() if word == keyword]
    assert len(found) == 1, (keyword, found)
    return found[0]


def test_the_image_runs_the_readmes_command_as_a_user_with_the_data_in_a_volume():
    assert re.fullmatch(r"python:3\.1[1-9]-slim", one("FROM"))
    command = json.loads(one("ENTRYPOINT"))
    program = Path(shlex.split(readme_command("Run it"))[-1]).name        # .venv/bin/scopa-companion
    assert command[0] == program
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"][program] == "companion.cli:main"
    assert command[command.index("--host") + 1] == "0.0.0.0"      # reached through Docker's network
    words = [word for word, _ in dockerfile()]
    assert one("USER") not in ("root", "0") and words.index("USER") > max(
        i for i, word in enumerate(words) if word == "RUN"), "every RUN as root, then the user"
    data = one("VOLUME")
    assert any(f"SCOPA_DATA={data}" in arguments.split() for word, arguments in dockerfile() if word == "ENV")
    health = one("HEALTHCHECK")
    assert "/healthz" in health and '"python"' in health and "curl" not in health
    assert one("EXPOSE") == "8000"
    ignored = (ROOT / ".dockerignore").read_text().split()
    for word, arguments in dockerfile():
        if word == "COPY":
            for source in arguments.split()[:-1]:
                assert (ROOT / source).exists() and source not in ignored, source
    # What `pip install .` reads besides the code must be copied into the image, or it fails.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    copied = {source for word, arguments in dockerfile() if word == "COPY" for source in arguments.split()[:-1]}
    assert {project["readme"], *project.get("license-files", [])} <= copied


def compose_service() -> tuple[str, dict]:
    yaml = pytest.importorskip("yaml")
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    assert len(services) == 1
    return next(iter(services.items()))


def interpolated(value: str, env: dict[str, str]) -> str:
    """compose's ${VAR}, ${VAR:-default} and ${VAR:?error} with the variables of .env."""
    def one(found: re.Match) -> str:
        name, sign, rest = found.group(1), found.group(2), found.group(3)
        if env.get(name):
            return env[name]
        assert sign != ":?", f"compose refuses to start without {name}: {rest}"
        return rest if sign == ":-" else ""
    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", one, value)


def the_docs_env_file() -> dict[str, str]:
    """The .env docs/running.md writes before `docker compose up`."""
    line = re.search(r"^echo (SCOPA_URL=\S+) > \.env$", (ROOT / "docs" / "running.md").read_text(), re.M)
    assert line, "running.md writes no .env"
    name, value = line.group(1).split("=", 1)
    return {name: value}


def test_compose_names_the_volume_and_the_address():
    compose = pytest.importorskip("yaml").safe_load((ROOT / "compose.yaml").read_text())
    name, service = compose_service()
    assert service["build"] == "."
    volume, mounted = service["volumes"][0].split(":")
    assert mounted == one("VOLUME") and volume in compose["volumes"]
    assert re.fullmatch(r"\$\{SCOPA_URL:\?.+\}", service["environment"]["SCOPA_URL"])
    running = (ROOT / "docs" / "running.md").read_text()
    assert "docker compose up -d" in running and "SCOPA_URL=" in running
    assert "pipx install ." in running


def test_compose_runs_a_command_the_companion_takes_with_settings_it_takes(monkeypatch):
    """Issue 45: compose.yaml said SCOPA_URL may hold several addresses separated by spaces, and
    passed it as one --url, which refused them (exit 2, and restart: unless-stopped looped).
    Every SCOPA_* it sets is a setting of the companion's model with a value it takes (the
    docs' .env, and two addresses), the entrypoint and command parse, and the service's own
    name is the one its commands print."""
    from companion import cli
    from companion.settings import Settings
    name, service = compose_service()
    environment = service.get("environment", {})
    assert set(environment) <= set(Settings.variables().values()), "a variable the companion does not read"
    entrypoint = json.loads(one("ENTRYPOINT"))
    for env_file in (the_docs_env_file(), {"SCOPA_URL": "192.168.1.23:8000 scopa.lan:8000"}):
        for variable in Settings.variables().values():
            monkeypatch.delenv(variable, raising=False)
        for variable, value in {**dockerfile_env(), **environment}.items():
            monkeypatch.setenv(variable, interpolated(str(value), env_file))
        command = [interpolated(word, env_file) for word in service.get("command", [])]
        args = cli.parse_args([*entrypoint[1:], *command])      # cli.Refused, or exit 2, otherwise
        assert args.settings.url == tuple(env_file["SCOPA_URL"].split())
        assert args.settings.compose_service == name
        # The port it listens on is the one compose publishes, and the image exposes.
        published = {port.rsplit(":", 1)[1] for port in service["ports"]}
        assert published == {str(args.settings.port)} == {one("EXPOSE")}


def dockerfile_env() -> dict[str, str]:
    return dict(pair.split("=", 1) for word, arguments in dockerfile() if word == "ENV"
                for pair in shlex.split(arguments))


def test_one_health_check_on_the_companions_port(tmp_path):
    """compose.yaml's health check asked port 8000 whatever SCOPA_PORT said, and replaced the
    Dockerfile's, which read it: compose sets none now, and the Dockerfile's, run as Docker
    runs it, answers for the port the companion listens on and not for another."""
    from companion.settings import Settings
    from helpers import start_companion
    name, service = compose_service()
    assert "healthcheck" not in service
    check = json.loads(re.sub(r"^(--\S+\s+)*CMD\s+", "", one("HEALTHCHECK")))
    assert check[0] == "python" and "SCOPA_PORT" in check[-1]
    assert f"or '{Settings.model_fields['port'].default}'" in check[-1]       # unset: the default port
    process, base = start_companion(env={**os.environ, "SCOPA_DATA": str(tmp_path)})
    try:
        port = base.rsplit(":", 1)[1]
        def health(port: str) -> int:
            return subprocess.run([sys.executable, *check[1:]], env={**os.environ, "SCOPA_PORT": port},
                                  capture_output=True, timeout=30).returncode
        assert health(port) == 0
        with socket.socket() as closed:
            closed.bind(("127.0.0.1", 0))
            assert health(str(closed.getsockname()[1])) != 0
    finally:
        process.terminate()
        process.wait(timeout=30)


# Valid requests of the calls docs/api.md may say store nothing.
ASKED = {
    "/score": {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "sweeps": 1, "primiera": True},
                           {"cards": 18, "coins": 4, "settebello": False, "sweeps": 0}]},
    "/captures": {"table": ["3c", "4s"], "played": "7d"},
    "/deal": {"table": ["1d", "2c", "3s", "4b"]},
    "/claim": {"options": {"claims": True}, "claimer": 0, "sweeps": [1, 1], "totals": [10, 10],
               "piles": [make_screenshots.DECK[:20], make_screenshots.DECK[20:]]},
    "/matches": {"players": ["Anna", "Bruno"]},
}


def test_the_calls_api_md_says_store_nothing_store_nothing(app):
    """api.md said "Nothing is stored by these calls" above POST /api/v1/matches (issue 35): each
    sentence that says so names its calls, and each of them, sent, leaves every row of the store
    as it was (as a new match would not)."""
    import sqlite_utils

    def rows() -> dict[str, int]:
        db = sqlite_utils.Database(app.config["DATABASE"])
        try:
            return {table.name: table.count for table in db.tables}
        finally:
            db.close()
    client = app.test_client()
    text = FENCE.sub("", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    sentences = [s for s in re.split(r"(?<=\.)\s", text) if re.search(r"stores? nothing|nothing is stored", s, re.I)]
    assert sentences
    for sentence in sentences:
        named = re.findall(r"`(?:POST )?(?:/api/v1)?(/[a-z]+)`", sentence)
        assert named, f"names no call: {sentence!r}"
        for call in named:
            before = rows()
            answer = client.post(f"/api/v1{call}", json=ASKED[call])
            assert answer.status_code == 200, (call, answer.get_json())
            assert rows() == before, call
    before = rows()
    assert client.post("/api/v1/matches", json=ASKED["/matches"]).status_code == 201
    assert rows() != before


def test_features_md_gives_the_boards_refresh_from_the_code():
    """features.md said the board updates "within 3 s" where ?refresh=1 reloads every 10 s
    (issue 35): the figures it gives are those of the board's template."""
    templates = ROOT / "templates" / "tournaments"
    poll = re.search(r'hx-trigger="every (\d+)s"', (templates / "_board_live.html").read_text())
    reload = re.search(r'http-equiv="refresh" content="(\d+)', (templates / "board.html").read_text())
    assert poll and reload
    said = next(said for said in (" ".join(part.split()) for part in
                                  (ROOT / "docs" / "features.md").read_text().split("\n\n"))
                if "Board for the wall" in said)
    assert f"every {poll.group(1)} s" in said
    assert re.search(rf"`\?refresh=1`[^.]* every {reload.group(1)} s", said), said
    # The match page's poll, as features.md and the README give it.
    match_poll = re.search(r'hx-trigger="every (\d+)s"', (ROOT / "templates" / "table" / "_live_poll.html").read_text())
    assert match_poll and f"A match page polls every {match_poll.group(1)} s" in (ROOT / "docs" / "features.md").read_text()
    assert f"sees each hand within {match_poll.group(1)} s" in (ROOT / "README.md").read_text()


def test_the_readme_takes_a_newcomer_from_nothing_to_the_table_in_under_80_lines():
    """Issue 35: the README assumed the code was there and Python 3.11 with venv installed. It
    says, in order, how to get the code, check Python, get venv on Debian or Raspberry Pi OS, run
    it; that phones share the machine's Wi-Fi, and the firewall's question; the lines the command
    prints, as it prints them; how to stop it; and the container's .env before compose. Details
    stay in docs/."""
    import io

    from companion import cli
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 80
    said = " ".join(text.split())
    steps = ["git clone", "Download ZIP", "python3 --version", "3.11", "Raspberry Pi OS",
             "sudo apt install python3-venv", readme_command("Run it"), "same Wi-Fi", "firewall",
             "Ctrl-C", readme_command("Test it"), "SCOPA_URL=", "docker compose up -d"]
    places = [said.find(step) for step in steps]
    assert -1 not in places and places == sorted(places), dict(zip(steps, places))
    printed = io.StringIO()
    cli.print_join(["http://192.168.1.23:8000/"], "http://127.0.0.1:8000/", printed)
    assert printed.getvalue().splitlines()[0] in said
    assert cli.organiser_line("http://192.168.1.23:8000/", "K7P-2QX", fixed=False) in said
    # The address to clone is the package's own (pyproject.toml's Source).
    source = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Source"]
    assert f"git clone {source}.git" in said
