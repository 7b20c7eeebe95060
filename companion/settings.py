"""The companion's settings from the environment, read in one place: the ``scopa-companion``
command takes its options' defaults from here, and ``create_app`` its configuration (docs/running.md,
*Options*, lists them).

What wins: a test's configuration (``create_app(test_config)``), then the command's flag, then
the environment variable, then the default. The command passes the settings its flags changed to
``create_app``, which reads the environment itself only when nobody passes any (a test, ``flask
run``).

One small dataclass rather than Flask's ``app.config.from_prefixed_env("SCOPA")``: that names a
key after its variable (``SCOPA_DB`` would be ``DB``, not ``DATABASE``), reads every ``SCOPA_``
variable (the tests' ``SCOPA_FUZZ`` too) and parses values as JSON, and the command needs the
same values before there is any app.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class Settings:
    """Each field with its variable and its default. Those that tell "unset" from "empty"
    (``db``, ``data``) keep the variable's text as it is: ``None`` when it is not set."""

    host: str = "0.0.0.0"                   # SCOPA_HOST: every IPv4 interface (and [::1])
    port: int = 8000                        # SCOPA_PORT
    db: str | None = None                   # SCOPA_DB: else scopa.sqlite in the data folder
    urls: tuple[str, ...] = ()              # SCOPA_URL: addresses the phones use, space-separated
    trust_proxy: str | None = None          # SCOPA_TRUST_PROXY: the one reverse proxy's address
    lang: str = "it"                        # SCOPA_LANG: for a phone that asks for none of ours
    threads: int = 8                        # SCOPA_THREADS: waitress's worker threads
    processes: int | None = None            # SCOPA_PROCESSES: serving processes, else one a core
    connection_limit: int = 8000            # SCOPA_CONNECTION_LIMIT: open connections at once
    organiser_pin: str | None = None        # SCOPA_ORGANISER_PIN: the club's own organiser's code
    organiser_pin_file: str | None = None   # SCOPA_ORGANISER_PIN_FILE: a file holding it
    data: str | None = None                 # SCOPA_DATA: the data folder, else the user's
    # SCOPA_PIN_HASH_METHOD: how PINs are hashed (werkzeug's generate_password_hash), else
    # werkzeug's default (scrypt). The tests set a cheap one (tests/conftest.py); a store's
    # restore must accept what it makes (web.access.check_hash_method).
    pin_hash_method: str | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment gives (``os.environ`` unless another is given).

        >>> Settings.from_environ({"SCOPA_PORT": "8001", "SCOPA_URL": "scopa.lan  192.168.1.5"})
        Settings(host='0.0.0.0', port=8001, db=None, urls=('scopa.lan', '192.168.1.5'), ...)
        >>> empty = Settings.from_environ({"SCOPA_TRUST_PROXY": "", "SCOPA_LANG": "", "SCOPA_DB": ""})
        >>> empty.trust_proxy, empty.lang, empty.db
        (None, 'it', '')
        """
        get = (os.environ if environ is None else environ).get
        return cls(host=get("SCOPA_HOST", cls.host),
                   port=int(get("SCOPA_PORT", cls.port)),
                   db=get("SCOPA_DB"),
                   urls=tuple(get("SCOPA_URL", "").split()),
                   trust_proxy=get("SCOPA_TRUST_PROXY") or None,
                   lang=get("SCOPA_LANG") or cls.lang,
                   threads=int(get("SCOPA_THREADS", cls.threads)),
                   processes=int(get("SCOPA_PROCESSES")) if get("SCOPA_PROCESSES") else None,
                   connection_limit=int(get("SCOPA_CONNECTION_LIMIT", cls.connection_limit)),
                   organiser_pin=get("SCOPA_ORGANISER_PIN") or None,
                   organiser_pin_file=get("SCOPA_ORGANISER_PIN_FILE") or None,
                   data=get("SCOPA_DATA"),
                   pin_hash_method=get("SCOPA_PIN_HASH_METHOD") or None)
