"""The settings: the environment read in one place (companion/settings.py) for the command and
the app, a flag winning over its variable and a test's configuration over both; and how a PIN is
hashed (PIN_HASH_METHOD), which the tests make cheap through the same code."""

import os
from pathlib import Path

import pytest
from werkzeug.security import check_password_hash

from companion import cli, create_app
from companion.cli import parse_args
from companion.settings import Settings
from companion.store.checks import pin_hash_fits
from companion.web.access import hash_pin

EVERY = {"SCOPA_HOST": "127.0.0.1", "SCOPA_PORT": "8001", "SCOPA_DB": "/srv/x.sqlite",
         "SCOPA_URL": "scopa.lan  192.168.1.5:80", "SCOPA_TRUST_PROXY": "127.0.0.1", "SCOPA_LANG": "fr",
         "SCOPA_THREADS": "4", "SCOPA_CONNECTION_LIMIT": "100", "SCOPA_ORGANISER_PIN": "scopa-club",
         "SCOPA_ORGANISER_PIN_FILE": "/srv/pin", "SCOPA_DATA": "/srv/data",
         "SCOPA_PIN_HASH_METHOD": "scrypt"}


def config(tmp_path, **more) -> dict:
    return {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.sqlite"), **more}


def test_each_setting_is_read_from_its_variable_else_its_default():
    assert Settings.from_environ({}) == Settings()
    assert Settings() == Settings(host="0.0.0.0", port=8000, db=None, urls=(), trust_proxy=None, lang="it",
                                  threads=8, connection_limit=8000, organiser_pin=None,
                                  organiser_pin_file=None, data=None, pin_hash_method=None)
    assert Settings.from_environ(EVERY) == Settings(
        host="127.0.0.1", port=8001, db="/srv/x.sqlite", urls=("scopa.lan", "192.168.1.5:80"),
        trust_proxy="127.0.0.1", lang="fr", threads=4, connection_limit=100, organiser_pin="scopa-club",
        organiser_pin_file="/srv/pin", data="/srv/data", pin_hash_method="scrypt")
    # Set but empty: "none" for most; the store and the data folder keep it as it was given.
    empty = Settings.from_environ({name: "" for name in EVERY if name not in ("SCOPA_PORT", "SCOPA_THREADS",
                                                                              "SCOPA_CONNECTION_LIMIT")})
    assert (empty.trust_proxy, empty.lang, empty.organiser_pin, empty.pin_hash_method) == (None, "it", None, None)
    assert (empty.db, empty.data, empty.host, empty.urls) == ("", "", "", ())


def test_a_flag_wins_over_its_variable_and_the_variable_over_the_default(monkeypatch):
    for name in EVERY:
        monkeypatch.delenv(name, raising=False)
    args = parse_args([])
    assert (args.host, args.port, args.lang, args.threads, args.db, args.url) == ("0.0.0.0", 8000, "it", 8, None, [])
    monkeypatch.setenv("SCOPA_LANG", "fr")
    monkeypatch.setenv("SCOPA_PORT", "8001")
    monkeypatch.setenv("SCOPA_URL", "scopa.lan")
    args = parse_args([])
    assert (args.lang, args.port, args.url) == ("fr", 8001, ["scopa.lan"])
    assert args.settings == Settings.from_environ()     # read once, kept for the app
    args = parse_args(["--lang", "en", "--port", "9000", "--url", "other.lan"])
    assert (args.lang, args.port) == ("en", 9000)
    monkeypatch.setenv("SCOPA_LANG", "de")              # not one of the pages' languages
    assert parse_args([]).lang == "it"
    assert parse_args(["--lang", "es"]).lang == "es"    # issue 43: Spanish, the fourth
    monkeypatch.setenv("SCOPA_LANG", "es")
    assert parse_args([]).lang == "es"


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
    monkeypatch.setattr(cli, "print_join", lambda urls, local, stream=None: None)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("SCOPA_DB", raising=False)
    monkeypatch.delenv("SCOPA_TRUST_PROXY", raising=False)
    before = dict(os.environ)
    database = tmp_path / "here" / "club.sqlite"
    assert cli.main(["--host", "127.0.0.1", "--port", "0", "--lang", "fr", "--db", str(database),
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
