"""The settings: the environment read in one place (companion/settings.py) for the command and
the app, a flag winning over its variable and a test's configuration over both; and how a PIN is
hashed (PIN_HASH_METHOD), which the tests make cheap through the same code."""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from command_here import main_here
from werkzeug.security import check_password_hash

from companion import cli, create_app
from companion.cli import parse_args
from companion.i18n import LANGUAGES
from companion.settings import PinFile, Settings
from companion.store.checks import pin_hash_fits
from companion.web.access import hash_pin

EVERY = {"SCOPA_HOST": "127.0.0.1", "SCOPA_PORT": "8001", "SCOPA_DB": "/srv/x.sqlite",
         "SCOPA_URL": "scopa.lan  192.168.1.5:80", "SCOPA_TRUST_PROXY": "127.0.0.1", "SCOPA_LANG": "fr",
         "SCOPA_THREADS": "4", "SCOPA_PROCESSES": "2", "SCOPA_CONNECTION_LIMIT": "100", "SCOPA_ORGANISER_PIN": "scopa-club",
         "SCOPA_ORGANISER_PIN_FILE": "PIN FILE", "SCOPA_DATA": "/srv/data",
         "SCOPA_PIN_HASH_METHOD": "scrypt", "SCOPA_COMPOSE_SERVICE": "companion"}


def config(tmp_path, **more) -> dict:
    return {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.sqlite"), **more}


@pytest.fixture
def environ(monkeypatch, tmp_path):
    """Sets the variables given, every other SCOPA_* unset; a PIN FILE is a file holding one."""
    def set_to(values: dict[str, str]) -> None:
        for name in Settings.variables().values():
            monkeypatch.delenv(name, raising=False)
        for name, value in values.items():
            if value == "PIN FILE":
                value = str(tmp_path / "pin")
                Path(value).write_text("circolo-77\n")
            monkeypatch.setenv(name, value)
    return set_to


def test_each_setting_is_read_from_its_variable_else_its_default(environ, tmp_path):
    environ({})
    assert Settings() == Settings(host="0.0.0.0", port=8000, db=None, url=(), trust_proxy=None, lang="it",
                                  threads=8, connection_limit=8000, organiser_pin=None,
                                  organiser_pin_file=None, data=None, pin_hash_method=None,
                                  compose_service=None)
    assert set(EVERY) == set(Settings.variables().values()), "a variable this test does not set"
    environ(EVERY)
    assert Settings() == Settings.model_construct(
        host="127.0.0.1", port=8001, db="/srv/x.sqlite", url=("scopa.lan", "192.168.1.5:80"),
        trust_proxy="127.0.0.1", lang="fr", threads=4, processes=2, connection_limit=100, organiser_pin="scopa-club",
        organiser_pin_file=PinFile(str(tmp_path / "pin"), "circolo-77"), data="/srv/data",
        pin_hash_method="scrypt", compose_service="companion")
    # Set but empty: as if unset (compose writes ${X:-} so).
    environ({name: "" for name in EVERY})
    assert Settings() == Settings.model_construct()


def test_a_flag_wins_over_its_variable_and_the_variable_over_the_default(environ):
    environ({})
    settings = parse_args([]).settings
    assert (settings.host, settings.port, settings.lang, settings.threads, settings.db, settings.url) == (
        "0.0.0.0", 8000, "it", 8, None, ())
    environ({"SCOPA_LANG": "fr", "SCOPA_PORT": "8001", "SCOPA_URL": "scopa.lan"})
    settings = parse_args([]).settings
    assert (settings.lang, settings.port, settings.url) == ("fr", 8001, ("scopa.lan",))
    assert settings == Settings()       # read once, kept for the app
    settings = parse_args(["--lang", "en", "--port", "9000", "--url", "other.lan"]).settings
    assert (settings.lang, settings.port, settings.url) == ("en", 9000, ("other.lan",))
    assert parse_args(["--lang", "es"]).settings.lang == "es"    # issue 43: Spanish, the fourth
    environ({"SCOPA_LANG": "es"})
    assert parse_args([]).settings.lang == "es"


def test_a_flag_given_wins_over_its_variable_even_a_refused_one(environ):
    environ({"SCOPA_PORT": "80O0"})
    assert parse_args(["--port", "8001"]).settings.port == 8001
    with pytest.raises(cli.Refused):
        parse_args([])


# A value each variable refuses, and the words of what it takes that the refusal says. The test
# reads the variables from the model: a new one without its bad value here fails.
REFUSED = {
    "SCOPA_HOST": ("0.0.0.0:8000", "an address of this machine to listen on, without a port"),
    "SCOPA_PORT": ("80O0", "a port number from 0 to 65535"),
    "SCOPA_DB": ("FOLDER", "the store's file, not a folder"),
    "SCOPA_URL": ("192.168.1.23:8000 scopa.lan:80o0", "'scopa.lan:80o0' is not an address"),
    "SCOPA_TRUST_PROXY": ("*", "the address of the one reverse proxy in front"),
    "SCOPA_LANG": ("de", f"one of {', '.join(LANGUAGES)}: the pages' language"),
    "SCOPA_THREADS": ("eight", "a number of worker threads from 1 to 1000"),
    "SCOPA_PROCESSES": ("0", "a number of serving processes from 1 to 64"),
    "SCOPA_CONNECTION_LIMIT": ("0", "a number of connections served at once, from 1 to 1000000"),
    "SCOPA_ORGANISER_PIN": ("12-34", "at least 6 characters"),
    "SCOPA_ORGANISER_PIN_FILE": ("MISSING", "a file whose first line is the organiser's code: cannot read it"),
    "SCOPA_DATA": ("FILE", "a folder for the store and the secret key (made if missing), not a file"),
    "SCOPA_PIN_HASH_METHOD": ("md5", "a method of werkzeug's whose hashes a restore accepts"),
    "SCOPA_COMPOSE_SERVICE": ("my companion", "the name of the compose service"),
}


def bad_value(name: str, tmp_path) -> str:
    value = REFUSED[name][0]
    places = {"FOLDER": tmp_path, "FILE": tmp_path / "a-file", "MISSING": tmp_path / "missing"}
    if value in places:
        (tmp_path / "a-file").write_text("")
        return str(places[value])
    return value


@pytest.mark.parametrize("variable", sorted(Settings.variables().values()))
def test_a_variable_refused_is_said_in_one_line_with_exit_2(environ, tmp_path, capsys, monkeypatch, variable):
    """Issue 45: SCOPA_PORT=80O0 was a traceback from settings.py, SCOPA_LANG=de was taken
    silently (where --lang de was refused). Every variable's refusal is one line that names it,
    its value (never a PIN) and what it takes; nothing is served, and the exit is a bad flag's."""
    import waitress
    monkeypatch.setattr(waitress, "serve", lambda app, **options: pytest.fail("served"))
    environ({"SCOPA_DATA": str(tmp_path / "data"), variable: bad_value(variable, tmp_path)})
    # Listening on loopback, any port, but for the variable under test (a flag would win over it).
    flags = {"SCOPA_HOST": ["--host", "127.0.0.1"], "SCOPA_PORT": ["--port", "0"]}
    assert cli.main([word for name, words in flags.items() if name != variable for word in words]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    line = f"scopa-companion: {variable}"
    if variable != "SCOPA_ORGANISER_PIN":
        line += "=" + shlex.quote(bad_value(variable, tmp_path))
    assert said.err == f"{line}: " + said.err.split(": ", 2)[2] and said.err.count("\n") == 1
    assert REFUSED[variable][1] in said.err
    if variable == "SCOPA_ORGANISER_PIN":
        assert "12-34" not in said.err


@pytest.mark.parametrize("field, flag", sorted(cli.FLAGS.items()))
def test_a_flag_refuses_what_its_variable_refuses_in_the_same_words(environ, tmp_path, capsys, field, flag):
    environ({})
    variable = Settings.variables()[field]
    assert cli.main(["--host", "127.0.0.1", "--port", "0", flag, bad_value(variable, tmp_path)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"scopa-companion: {flag}") and said.count("\n") == 1
    assert REFUSED[variable][1] in said


def test_a_bad_variable_stops_the_command_with_exit_2_and_no_traceback(tmp_path):
    """As a user meets it: the installed command, in a shell."""
    env = {**os.environ, "SCOPA_PORT": "80O0", "SCOPA_DATA": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "companion"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("scopa-companion: SCOPA_PORT=80O0: a port number from 0 to 65535 (0: any free "
                           "port)\n")


def test_several_addresses_in_one_url_as_in_scopa_url(environ):
    """compose.yaml's comment said SCOPA_URL may hold several addresses separated by spaces, but
    the command it ran, --url "a:8000 b:8000", exited 2: a URL holds no space, so both read alike."""
    environ({})
    assert parse_args(["--url", "192.168.1.23:8000 scopa.lan:8000", "--url", "x.lan"]).settings.url == (
        "192.168.1.23:8000", "scopa.lan:8000", "x.lan")


def test_a_phone_that_asks_for_none_of_the_four_gets_the_commands_lang(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOPA_LANG", "fr")
    app = create_app(config(tmp_path), settings=Settings(lang="es"))
    page = app.test_client().get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="es"' in page.get_data(as_text=True)


def test_a_tests_configuration_wins_over_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOPA_LANG", "fr")
    monkeypatch.setenv("SCOPA_TRUST_PROXY", "10.0.0.1")
    monkeypatch.setenv("SCOPA_DB", str(tmp_path / "elsewhere.sqlite"))
    app = create_app(config(tmp_path, LANG="en"))
    assert (app.config["LANG"], app.config["TRUST_PROXY"]) == ("en", "10.0.0.1")
    assert app.config["DATABASE"] == str(tmp_path / "t.sqlite")


def test_the_app_takes_the_settings_it_is_given_over_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOPA_LANG", "fr")
    app = create_app(config(tmp_path), settings=Settings(lang="en", trust_proxy="127.0.0.1"))
    assert (app.config["LANG"], app.config["TRUST_PROXY"]) == ("en", "127.0.0.1")


def test_the_command_hands_its_flags_to_the_app_and_sets_no_variable(monkeypatch, tmp_path):
    """Before, main() wrote its flags into os.environ (SCOPA_LANG, SCOPA_DB, SCOPA_TRUST_PROXY)
    for create_app to read them again; it now hands create_app its settings."""
    import waitress
    served = {}
    monkeypatch.setattr(waitress, "serve", lambda app, **options: served.update(app=app))
    monkeypatch.setattr(cli, "print_join", lambda urls, local, stream=None, qr=None: None)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("SCOPA_DB", raising=False)
    monkeypatch.delenv("SCOPA_TRUST_PROXY", raising=False)
    before = dict(os.environ)
    database = tmp_path / "here" / "club.sqlite"
    assert main_here(["--host", "127.0.0.1", "--port", "0", "--lang", "fr", "--db", str(database),
                     "--trust-proxy", "127.0.0.1"]) == 0
    app = served["app"]
    assert (app.config["LANG"], app.config["TRUST_PROXY"]) == ("fr", "127.0.0.1")
    assert app.config["DATABASE"] == str(database.resolve()) and database.is_file()
    assert dict(os.environ) == before


def test_a_clubs_pins_are_hashed_by_werkzeugs_default_scrypt(monkeypatch, tmp_path):
    monkeypatch.delenv("SCOPA_PIN_HASH_METHOD")
    app = create_app(config(tmp_path))
    assert app.config["PIN_HASH_METHOD"] is None
    with app.app_context():
        hashed = hash_pin("2468")
    assert hashed.startswith("scrypt:") and check_password_hash(hashed, "2468")
    assert pin_hash_fits(hashed)


def test_the_tests_cheap_hash_is_checked_by_the_same_code_and_a_restore_takes_it(app):
    assert app.config["PIN_HASH_METHOD"] == "pbkdf2:sha256:1000"       # tests/conftest.py
    with app.app_context():
        hashed = hash_pin("2468")
    assert hashed.startswith("pbkdf2:sha256:1000$") and check_password_hash(hashed, "2468")
    assert not check_password_hash(hashed, "2469")
    assert pin_hash_fits(hashed)


@pytest.mark.parametrize("method", ["pbkdf2:sha256:2000000", "scrypt:65536:8:1", "scrypt:1000:8:1",
                                    "pbkdf2:md5", "md5", "plain"])
def test_a_hash_method_whose_hashes_a_restore_refuses_is_refused_at_start(tmp_path, method):
    with pytest.raises(ValueError, match="PIN_HASH_METHOD"):
        create_app(config(tmp_path, PIN_HASH_METHOD=method))
    assert not Path(tmp_path / "t.sqlite").exists()
