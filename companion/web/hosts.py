"""The host check against DNS rebinding: a request must name this machine (or an address given
with --url), else it is a page of another site pointed at this one, and is refused.

``app.config["ALLOWED_HOSTS"]`` lists the names (``cli.allowed_hosts``; None, as in the tests,
lets any host through). The check is the companion's own rather than Flask's ``TRUSTED_HOSTS``:
Werkzeug compares each trusted name up to its first ":", so no IPv6 address can be trusted that
way, and ``http://[::1]:8000/`` on the machine itself was refused. Names go through Werkzeug's
own ``host_is_trusted``; an IPv6 address in brackets is compared as an address.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Collection

from flask import Flask, current_app, request
from werkzeug.exceptions import SecurityError
from werkzeug.sansio.utils import host_is_trusted

_BRACKETED = re.compile(r"\[([0-9a-fA-F:.]+)\](?::[0-9]{1,5})?")


def _address(text: str) -> ipaddress.IPv6Address | None:
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        return None


def host_allowed(host: str, allowed: Collection[str]) -> bool:
    """Whether a request's ``Host`` (``name[:port]`` or ``[IPv6][:port]``) names one of
    ``allowed``.

    >>> allowed = ["localhost", "192.168.1.5", "::1"]
    >>> [host_allowed(host, allowed) for host in ("localhost:8000", "192.168.1.5", "[::1]:8000",
    ...                                           "[0:0:0:0:0:0:0:1]", "[::1]evil", "[::2]:8000",
    ...                                           "attacker.example", "")]
    [True, True, True, True, False, False, False, False]
    """
    found = _BRACKETED.fullmatch(host)
    if found:
        address = _address(found.group(1))
        return address is not None and any(_address(name) == address for name in allowed)
    names = [name for name in allowed if ":" not in name]
    return bool(names) and host_is_trusted(host, names)     # an empty list would trust any


def init_app(app: Flask) -> None:
    """The check runs before anything else reads the request (the CSRF check included)."""
    def check_host() -> None:
        allowed = current_app.config.get("ALLOWED_HOSTS")
        if allowed is not None and not host_allowed(request.host, allowed):
            raise SecurityError()
    app.before_request_funcs.setdefault(None, []).insert(0, check_host)
