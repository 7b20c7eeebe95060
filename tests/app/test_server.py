"""The companion as players start it: ``scopa-companion`` serving over waitress."""

import json
import os
import re
import socket
import subprocess
import urllib.error
import urllib.request
from importlib.metadata import version

import pytest

import companion
from companion.cli import parse_args
from helpers import start_companion


def test_options_come_from_flags_or_the_environment(monkeypatch):
    assert (parse_args([]).settings.host, parse_args([]).settings.port) == ("0.0.0.0", 8000)
    monkeypatch.setenv("SCOPA_PORT", "9001")
    monkeypatch.setenv("SCOPA_DB", "/tmp/x.sqlite")
    settings = parse_args([]).settings
    assert (settings.port, settings.db) == (9001, "/tmp/x.sqlite")
    assert parse_args(["--port", "8123", "--host", "127.0.0.1"]).settings.port == 8123


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One companion started as players start it, for the module's tests: each reads it without
    changing it (a page, the API, what it printed). Stopped after the last."""
    folder = tmp_path_factory.mktemp("server")
    env = dict(os.environ, SCOPA_DATA=str(folder / "instance"))
    process, base = start_companion("--db", str(folder / "data" / "scopa.sqlite"), env=env,
                                    output=subprocess.PIPE)
    yield base, process, folder
    process.terminate()
    process.communicate(timeout=60)


def test_the_companion_takes_its_own_port_and_the_test_reads_all_it_said(server):
    """No test picks a free port for a server to bind later: another program may take it
    first ("Port 58075 is in use" in a busy run). helpers.start_companion starts it on port 0
    and reads the port it took from the address it prints; all it printed before that is still
    there for the test to read."""
    base, process, _ = server
    assert process.args[process.args.index("--port") + 1] == "0"
    with urllib.request.urlopen(base + "/healthz") as answer:
        assert answer.status == 200
    said = []
    for line in process.stdout:         # still serving: read up to the line with its address
        said.append(line)
        if "On this machine:" in line:
            break
    said = "".join(said)
    assert 0 <= said.index("scores kept in") < said.index(f"On this machine: {base}/organiser?")


def test_the_server_answers_pages_and_the_api(server):
    base, _, folder = server
    with urllib.request.urlopen(base + "/") as page:
        assert page.status == 200 and b"Scopa companion" in page.read()
        assert page.headers["Server"] == "scopa-companion"   # waitress, not the dev server
    request = urllib.request.Request(
        base + "/api/v1/captures", data=json.dumps({"table": ["2c", "4s"], "played": "6d"}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        assert json.load(answer)["captures"][0]["sweep"] is True
    bad = urllib.request.Request(base + "/api/v1/score", data=b'{"piles": [["7d"], ["7d"]]}',
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(bad)
    assert refused.value.code == 400
    assert json.load(refused.value) == {"error": "7d is in both piles"}
    assert (folder / "data").is_dir()                       # --db's folder is made
    assert (folder / "instance" / "secret_key").exists()


def test_a_port_in_use_is_said_alone_with_a_free_one(monkeypatch, tmp_path, capsys):
    """The port is bound before anything is printed: no banner, no QR code for a server that
    never starts, only the reason, with a port to use instead, and exit code 1 (what cli.main
    returns, ``python -m companion`` exits with: run here, in the test's process)."""
    from companion import cli
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["--host", "127.0.0.1", "--port", str(port)]) == 1
    done = capsys.readouterr()
    assert done.out == ""                                       # no banner, no QR code
    said = re.fullmatch(rf"Port {port} is in use: is the companion already running\? "
                        r"Use --port (\d+)\n", done.err)
    assert said, done.err
    assert port < int(said.group(1)) <= port + 100              # one of the next ports
    assert not (tmp_path / "scopa.sqlite").exists()             # no store opened either


def test_the_port_offered_instead_is_the_next_free_one(monkeypatch):
    """Which port ``refusal`` offers, the machine's ports stood in for (binding the one offered
    afterwards would race with any other program on a busy machine)."""
    import errno

    from companion import listening
    monkeypatch.setattr(listening, "_free", lambda host, port: port not in (8001, 8002))
    in_use = OSError(errno.EADDRINUSE, "in use")
    assert listening.refusal("0.0.0.0", 8000, in_use).endswith("Use --port 8003")


def test_a_mistaken_option_is_said_before_the_port_is_looked_at(monkeypatch, tmp_path, capsys):
    """A usage error (exit 2) comes first, whatever the port: the port's own message is for a
    start that would otherwise go ahead."""
    from companion import cli
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert cli.main(["--host", "127.0.0.1", "--port", port, "--organiser-pin", "12-34"]) == 2
        assert cli.main(["--host", "127.0.0.1", "--port", port, "--url", "http://"]) == 2
    said = capsys.readouterr()
    assert "--organiser-pin: at least" in said.err and "--url=http://: " in said.err
    assert "in use" not in said.err and said.out == ""


def test_version_is_the_packages(capsys):
    """``--version``, as argparse answers it (exit 0), in the test's process."""
    from companion import cli
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"scopa-companion {version('scopa-companion')}\n"
    assert version("scopa-companion") == companion.__version__


def test_lan_addresses_come_from_the_interfaces():
    from companion.cli import parse_ip_addr
    output = ("1: lo    inet 127.0.0.1/8 scope host lo\\n"
              "4: eth0    inet 192.168.1.23/24 brd 192.168.1.255 scope global eth0\\n"
              "5: wlan0    inet 10.0.0.7/8 brd 10.255.255.255 scope global dynamic wlan0\\n")
    assert parse_ip_addr(output) == ["192.168.1.23", "10.0.0.7"]
