"""``scopa-companion`` run in the test's process: ``cli.main`` as the command runs it (its
settings, the sockets it binds before printing anything, the store opened, the banner and the
links printed, the store stopped cleanly), serving for as long as the test asks.

A process of its own costs a second of CPU on a small machine (Python, the companion's imports
and its libraries'), for what the same ``cli.main`` does here; a test keeps a real process only
where the process is the property (a signal, the exit of the interpreter, a lock held by another
process, a console's encoding, the installed command's path). ``python -m companion`` exits with
what ``cli.main`` returns (companion/__main__.py)."""

import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from io import StringIO
from unittest import mock

import waitress
from waitress.server import MultiSocketServer

from companion import cli
from helpers import waitress_looping


@contextmanager
def umask_given_back() -> Iterator[None]:
    """The process's umask as it was before, after code that closes it: the command makes
    whatever it writes its user's alone from its start (upkeep.private_from_now: umask 077),
    which in the test's process reached every later test of the worker (their files made
    private) unless given back."""
    umask = os.umask(0o077)
    os.umask(umask)
    try:
        yield
    finally:
        os.umask(umask)


def main_here(argv: list[str]) -> int:
    """``cli.main(argv)`` in this process, the umask given back after it: its exit code."""
    with umask_given_back():
        return cli.main(argv)


def command(*args, data) -> subprocess.CompletedProcess:
    """``scopa-companion ARGS`` run to its end in this process, its data folder ``data``
    (SCOPA_DATA): ``cli.main``'s exit code and what it printed, as ``subprocess.run`` would
    give them for the command (backup, restore, a start refused)."""
    out, err = StringIO(), StringIO()
    with mock.patch.dict(os.environ, SCOPA_DATA=str(data)), redirect_stdout(out), redirect_stderr(err):
        code = main_here([*map(str, args)])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def main_serving(monkeypatch, argv: list[str], during: Callable[[int], None]) -> int:
    """``cli.main(argv)`` in this process, waitress serving the app it made on the very sockets
    it bound (``--port 0``: the port the system gave it), in a thread, while ``during(port)``
    runs in this one (what it raises is raised here once cli.main returns); then stopped as
    Ctrl-C stops it (the answers under way finished), after which ``cli.main`` stops the store
    cleanly and returns: its exit code. What it printed is where ``sys.stdout`` went
    (``capsys``). The command serves in one process in tests (conftest's
    ``one_serving_process``): ``waitress.serve`` is what it calls."""
    def serve(app, _server, **options) -> None:
        server = _server(app, **options)
        # What waitress serves: one listening socket's server, or several's (MultiSocketServer).
        served = server.map if isinstance(server, MultiSocketServer) else server._map
        with waitress_looping(server, served):
            try:
                during(options["sockets"][0].getsockname()[1])
            except BaseException as error:      # raised again once main returns (an OSError would
                failed.append(error)            # be said by main as a store it cannot open)

    failed: list[BaseException] = []
    monkeypatch.setattr(waitress, "serve", serve)
    code = main_here(argv)
    if failed:
        raise failed[0]
    return code
