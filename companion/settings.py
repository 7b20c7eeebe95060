"""The companion's settings, read in one place: the ``scopa-companion`` command's flags over the
environment's ``SCOPA_*`` variables over the defaults, and ``create_app`` reads the same
(docs/running.md, *Options*, lists them).

One pydantic-settings model, ``Settings``: each field is the variable named ``SCOPA_`` and the
field's name in capitals (``port`` is ``SCOPA_PORT``), and most are also a flag of the command
(``cli.FLAGS``). The command hands the flags it was given to the model, which takes them over
the variables; a flag and its variable are checked by the same validator, so that a value the
one refuses the other refuses too, and each refusal is said in one line naming the flag or the
variable that was given and what it takes (``refusals``), where a Python traceback or nothing
at all was said before (``SCOPA_PORT=80O0``, ``SCOPA_LANG=de``). A variable set to nothing is
taken as unset (compose writes ``${X:-}`` so).

What wins overall: a test's configuration (``create_app(test_config)``), then the command's
flag, then the variable, then the default.

Not Flask's ``app.config.from_prefixed_env("SCOPA")``: that names a key after its variable
(``SCOPA_DB`` would be ``DB``, not ``DATABASE``), reads every ``SCOPA_`` variable (the tests'
``SCOPA_FUZZ`` too), checks nothing, and the command needs the values before there is any app.
The settings are checked against what the app itself takes: its languages (``i18n``) and the PIN
hashes a restore accepts (``store.checks``), hence this layer's place above them.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Callable, Mapping, TypeVar
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, ValidationError
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .i18n import LANGUAGES
from .store.checks import hash_method_fits

PREFIX = "SCOPA_"

# A club's own organiser's PIN is at least this long: wrong codes are limited per address only,
# so that no guest can lock the organiser out (web.limits), and a short one would be guessed.
ORGANISER_PIN_MIN = 6


def refused(takes: str) -> PydanticCustomError:
    """What a validator raises: ``takes`` says what the setting takes, in the words the one line
    of the refusal ends with (``refusals``)."""
    return PydanticCustomError("setting", "{takes}", {"takes": takes})


def normalised_code(code: str) -> str:
    """The organiser's code as typed (lower case, spaces, dashes) as it is compared:
    "k7p 2qx" is K7P-2QX."""
    return "".join(ch for ch in code.upper() if not ch.isspace() and ch != "-")


# -- What each setting takes ----------------------------------------------------------------

def _whole(least: int, most: int, takes: str) -> Callable[[object], int]:
    def whole(value: object) -> int:
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and least <= value <= most:
            return value
        raise refused(takes)
    return whole


port_number = _whole(0, 65535, "a port number from 0 to 65535 (0: any free port)")
thread_count = _whole(1, 1000, "a number of worker threads from 1 to 1000")
process_count = _whole(1, 64, "a number of serving processes from 1 to 64")
connection_count = _whole(1, 1_000_000, "a number of connections served at once, from 1 to 1000000")


def listening_address(value: object) -> str:
    """An address of this machine to listen on, as waitress takes it (``[::1]`` as ``::1``),
    or a name.

    >>> listening_address("0.0.0.0"), listening_address("[::1]"), listening_address("scopa-box.local")
    ('0.0.0.0', '::1', 'scopa-box.local')
    """
    text = str(value)
    try:
        return str(ipaddress.ip_address(text.strip("[]")))
    except ValueError:
        pass
    label = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
    if re.fullmatch(rf"{label}(\.{label})*\.?", text) and not re.fullmatch(r"[\d.]+", text):
        return text
    raise refused("an address of this machine to listen on, without a port: 0.0.0.0 (every "
                  "interface), 127.0.0.1 (this machine alone), :: or the machine's name")


def full_url(given: str, port: int) -> str:
    """An address given with --url as phones open it: ``http://`` when no scheme is given, the
    companion's port when neither scheme nor port is, and a path. ValueError for one that names
    no host, or a port that is not one.

    >>> full_url("scopa.lan", 8000), full_url("192.168.1.5:80", 8000)
    ('http://scopa.lan:8000/', 'http://192.168.1.5:80/')
    >>> full_url("https://scopa.example", 8000)
    'https://scopa.example/'
    """
    if "//" not in given:
        parsed = urlsplit(f"//{given}")
        netloc = parsed.netloc if parsed.port is not None else f"{parsed.netloc}:{port}"
        given = f"http://{netloc}{parsed.path}"
    parsed = urlsplit(given)
    if not parsed.hostname or parsed.scheme not in ("http", "https"):
        raise ValueError(f"no host in {given!r}" if not parsed.hostname else f"not http(s): {given!r}")
    parsed.port                     # noqa: B018  (raises ValueError for a port that is not one)
    return given if parsed.path else f"{given}/"


def addresses(value: object) -> tuple[str, ...]:
    """The addresses phones open, separated by spaces in one value (SCOPA_URL, or one --url) or
    given one by one (--url repeated): a URL holds no space, so both read alike.

    >>> addresses("scopa.lan  192.168.1.5:80"), addresses(["a.lan b.lan", "c.lan"])
    (('scopa.lan', '192.168.1.5:80'), ('a.lan', 'b.lan', 'c.lan'))
    """
    given = value if isinstance(value, (list, tuple)) else [value]     # one value, or --url's
    words = [word for item in given for word in str(item).split()]
    for word in words:
        try:
            full_url(word, 8000)
        except ValueError:
            raise refused(f"{word!r} is not an address: the addresses the phones open, separated by "
                          f"spaces, each a name or an address with its port where it is not the "
                          f"companion's (scopa.lan, 192.168.1.23:8000, https://scopa.example/)") from None
    return tuple(words)


def proxy_address(value: object) -> str:
    """The trusted proxy's address as waitress compares it (``::1``, not ``[::1]``); anything
    else is refused: ``*`` or ``1`` would trust whoever connects."""
    try:
        return str(ipaddress.ip_address(str(value).strip("[]")))
    except ValueError:
        raise refused("the address of the one reverse proxy in front, such as 127.0.0.1 (an "
                      "address, not a name)") from None


def language(value: object) -> str:
    if value in LANGUAGES:
        return str(value)
    raise refused(f"one of {', '.join(LANGUAGES)}: the pages' language for a phone that asks for "
                  f"none of them")


def store_file(value: object) -> str:
    """The store's file, made absolute (a service's working folder is not the user's)."""
    path = Path(str(value)).expanduser()
    if path.is_dir():
        raise refused(f"the store's file, not a folder: such as {path / 'scopa.sqlite'}")
    return str(path.resolve())


def data_folder(value: object) -> str:
    path = Path(str(value)).expanduser()
    if path.exists() and not path.is_dir():
        raise refused("a folder for the store and the secret key (made if missing), not a file")
    return str(path.resolve())


def club_pin(value: object) -> str:
    """The club's own organiser's code: typed on any phone, and not to be guessed."""
    pin = str(value)
    if not (pin.isascii() and pin.isprintable()):
        raise refused("letters, digits and signs of a plain keyboard only (A-Z, 0-9...): every "
                      "phone's keyboard types those")
    if len(normalised_code(pin)) < ORGANISER_PIN_MIN:
        raise refused(f"at least {ORGANISER_PIN_MIN} characters (not counting spaces and dashes), "
                      f"so that it cannot be guessed")
    return pin


@dataclass(frozen=True)
class PinFile:
    """A file whose first line is the club's organiser's code, read once, when the settings are."""

    path: str
    pin: str = field(repr=False)


def pin_file(value: object) -> PinFile:
    if isinstance(value, PinFile):
        return value
    path = Path(str(value)).expanduser()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError) as error:
        raise refused(f"a file whose first line is the organiser's code: cannot read it "
                      f"({getattr(error, 'strerror', None) or error})") from None
    try:
        pin = club_pin(lines[0].strip() if lines else "")
    except PydanticCustomError as error:
        raise refused(f"a file whose first line is the organiser's code: "
                      f"{error.context['takes'] if error.context else error}") from None
    return PinFile(str(path.resolve()), pin)


def hash_method(value: object) -> str:
    if isinstance(value, str) and hash_method_fits(value):
        return value
    raise refused("a method of werkzeug's whose hashes a restore accepts, such as scrypt or "
                  "pbkdf2:sha256:600000 (leave it unset: scrypt)")


def service_name(value: object) -> str:
    if re.fullmatch(r"[a-zA-Z0-9][a-zA-Z0-9_.-]*", str(value)):
        return str(value)
    raise refused("the name of the compose service this companion runs as (compose.yaml's "
                  "companion): letters, digits, '.', '_' and '-'")


T = TypeVar("T")


def unless_none(check: Callable[[object], T]) -> Callable[[object], T | None]:
    """``check`` for a setting that may be left unset (None: ``Settings(db=None)``)."""
    return lambda value: None if value is None else check(value)


class Settings(BaseSettings):
    """Each field with its variable (``SCOPA_`` and its name) and its default. Made from the
    environment (``Settings()``) or with the command's flags over it (``Settings(port=...)``);
    ValidationError for a value refused (``refusals`` words it)."""

    # The defaults are the companion's own, not checked as a value given is (pydantic-settings
    # checks them by default).
    model_config = SettingsConfigDict(env_prefix=PREFIX, env_ignore_empty=True, frozen=True,
                                      extra="forbid", validate_default=False)

    # SCOPA_HOST: every IPv4 interface (and [::1])
    host: Annotated[str, BeforeValidator(listening_address)] = "0.0.0.0"
    port: Annotated[int, BeforeValidator(port_number)] = 8000
    # SCOPA_DB: else scopa.sqlite in the data folder
    db: Annotated[str | None, BeforeValidator(unless_none(store_file))] = None
    # SCOPA_URL: the addresses the phones use, separated by spaces
    url: Annotated[tuple[str, ...], NoDecode, BeforeValidator(addresses)] = ()
    # SCOPA_TRUST_PROXY: the one reverse proxy's address
    trust_proxy: Annotated[str | None, BeforeValidator(unless_none(proxy_address))] = None
    # SCOPA_LANG: for a phone that asks for none of the pages' languages
    lang: Annotated[str, BeforeValidator(language)] = "it"
    threads: Annotated[int, BeforeValidator(thread_count)] = 8
    # SCOPA_PROCESSES: serving processes on Linux, else one a core (up to 4)
    processes: Annotated[int | None, BeforeValidator(unless_none(process_count))] = None
    connection_limit: Annotated[int, BeforeValidator(connection_count)] = 8000
    # SCOPA_ORGANISER_PIN: the club's own organiser's code (never printed)
    organiser_pin: Annotated[str | None, BeforeValidator(unless_none(club_pin)), Field(repr=False)] = None
    # SCOPA_ORGANISER_PIN_FILE: a file holding it, read once
    organiser_pin_file: Annotated[PinFile | None, NoDecode, BeforeValidator(unless_none(pin_file))] = None
    # SCOPA_DATA: the data folder, else the user's
    data: Annotated[str | None, BeforeValidator(unless_none(data_folder))] = None
    # SCOPA_PIN_HASH_METHOD: how PINs are hashed (werkzeug's generate_password_hash), else
    # werkzeug's default (scrypt). The tests set a cheap one (tests/conftest.py).
    pin_hash_method: Annotated[str | None, BeforeValidator(unless_none(hash_method))] = None
    # SCOPA_COMPOSE_SERVICE: the compose service it runs as (compose.yaml sets it), so that the
    # commands it prints are docker compose's (upkeep.Commands)
    compose_service: Annotated[str | None, BeforeValidator(unless_none(service_name))] = None

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Each field's variable.

        >>> Settings.variables()["connection_limit"]
        'SCOPA_CONNECTION_LIMIT'
        """
        return {name: f"{PREFIX}{name.upper()}" for name in cls.model_fields}


# Settings whose value is never said back (the refusal names the variable alone).
SECRET = {"organiser_pin"}


def refusals(error: ValidationError, flags: Mapping[str, str] | None = None) -> list[str]:
    """One line for each setting refused: the flag given (``flags`` maps a field to the flag the
    command was given it by) or else the variable, its value (a secret's left out), and what it
    takes.

    >>> try:
    ...     Settings(port="80O0", threads="eight")
    ... except ValidationError as error:
    ...     print("\\n".join(refusals(error, {"threads": "--threads"})))
    SCOPA_PORT=80O0: a port number from 0 to 65535 (0: any free port)
    --threads=eight: a number of worker threads from 1 to 1000
    """
    lines = []
    variables = Settings.variables()
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else ""
        said = (flags or {}).get(name) or variables.get(name, name)
        given = problem.get("input")
        if name not in SECRET and given is not None:
            words = " ".join(given) if isinstance(given, (list, tuple)) else str(given)
            said = f"{said}={shlex.quote(words)}"
        takes = (problem.get("ctx") or {}).get("takes") or problem["msg"]
        lines.append(f"{said}: {takes}")
    return lines

