"""Serving with several processes on Linux: one waitress each, on the same listening sockets.

One Python process answers with one core at most (its threads take turns), and a page drawn for
a phone is a few milliseconds of it: at the arrival of a championship night, 1,000 phones in 10
s, one process falls behind whatever the machine has. So on Linux the command serves with as
many processes as the machine has cores (``--processes``; at most 4, each holds its own app):
the sockets are bound once, before anything is printed (``listening.bind``), and the app is made
once; then ``serve`` forks, and each child runs waitress on those same sockets, so the system
hands each new connection to whichever process takes it first (an idle one, sooner). The parent
only watches: it starts again a child that died, and on Ctrl-C or SIGTERM stops them all and
waits for them, after which the command stops the store cleanly as with one process.

What the processes share goes through the store, as it already did between threads: every write
takes SQLite's write lock, the ratings are worked out by whichever process asks
(``store.rerating`` checks its asks are still there). What each kept in memory is made shared or
kept safe:

- the limits' counts (wrong PINs and codes, new and deleted matches): in a SQLite file of the
  parent's own temporary folder that every child uses (``web.limits.shared_between_processes``);
- the matches built once per version (``store.built``): a web restore, in one process, tells the
  others to forget theirs (SIGUSR1, through the parent), since versions start again in the
  restored file.

Why fork and waitress rather than gunicorn: waitress reads each request whole in its loop
before a thread serves it, so a phone on a slow Wi-Fi (or a guest sending slowly) holds no
thread, where gunicorn's threads read requests themselves and its documentation asks for a
buffering proxy in front; and the command keeps one server on Windows and macOS, where this
module is not used (no fork there, or not safely).
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import signal
import sys
import tempfile
import time
from typing import Callable

from .listening import between_processes, make_server, waitress_options

MOST = 4            # processes: past that, memory (each holds its app) more than speed
# How long a thread that wants the GIL back waits before the one holding it is asked to let it
# go (Python's default: 5 ms). A save lets it go at every SQLite call and socket write, then
# waits up to this for a guest's page that computes, each time.
SWITCH_INTERVAL = 0.001
_parent: int | None = None      # in a serving child, the parent that relays to its siblings


def available() -> bool:
    """Whether this system serves with several processes (Linux: fork, and each process's
    share of the listening sockets)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def default_count() -> int:
    """As many processes as cores, up to ``MOST``; one where several are not available."""
    if not available():
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MOST))


def shared_folder() -> str:
    """A folder of this server's own (its user's alone), removed when it stops: where the
    processes keep what they share besides the store."""
    return tempfile.mkdtemp(prefix="scopa-companion-")


def serve(count: int, run: Callable[[], None], forget: Callable[[], None]) -> None:
    """``run()`` (waitress serving) in ``count`` child processes, until Ctrl-C or SIGTERM, which
    each child takes as a stop (the signal handlers ``upkeep.stopped_by_signals`` set are
    inherited); a child that ends otherwise is started again. ``forget()`` runs in every child
    when one asks (``tell_siblings``)."""
    children: dict[int, float] = {}

    def start() -> None:
        pid = os.fork()
        if pid == 0:            # the child: serve, then leave without the parent's cleanup
            global _parent
            _parent = os.getppid()
            code = 0
            try:
                _end_with(_parent)
                signal.signal(signal.SIGUSR1, lambda _signal, _frame: forget())
                run()
            except KeyboardInterrupt:
                pass
            except BaseException:           # said on stderr, as one process would say it
                import traceback
                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children[pid] = time.monotonic()

    def relay(_signal, _frame) -> None:
        for pid in list(children):
            _send(pid, signal.SIGUSR1)

    before = signal.signal(signal.SIGUSR1, relay)
    try:
        for _ in range(count):
            start()
        while children:
            pid, status = os.wait()
            started = children.pop(pid, None)
            if started is None:
                continue
            print(f"scopa-companion: a serving process ended ({_said(status)}): starting another",
                  file=sys.stderr, flush=True)
            if time.monotonic() - started < 1:
                time.sleep(1)               # not in a loop of failures as fast as it can
            start()
    except KeyboardInterrupt:
        pass
    finally:
        # The stop: every child told (a Ctrl-C in a terminal reached them already), then
        # waited for, a second Ctrl-C meanwhile ignored so that no child is left behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for pid in children:
            _send(pid, signal.SIGTERM)
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        signal.signal(signal.SIGUSR1, before)


def count(given: str) -> int:
    """``--processes``: a number of processes, 1 or more (argparse's type: else exit 2)."""
    try:
        number = int(given)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{given} is not a number of processes (1 or more)")
    return number


def steadied() -> None:
    """The serving process(es) made ready, once the app is built and before any fork: the GIL
    handed on sooner (``SWITCH_INTERVAL``), and everything made so far (the app, its templates,
    the modules: some 80,000 objects) left out of the garbage collector's full passes, which
    stop every thread while they walk the heap (``gc.freeze``; forked processes then also
    share those pages of memory longer, the collector never writing to them)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()


def served(app, sockets: list, count: int, threads: int, connections: int) -> None:
    """The command's serving: waitress on ``sockets``, in one process, or in ``count`` (on
    Linux), the connections shared out between them, the limits' counts and a restore's news
    shared too."""
    from waitress import serve as serve_one

    if count > 1 and not available():
        print("scopa-companion: one serving process on this system (several on Linux only)",
              file=sys.stderr)
        count = 1
    steadied()
    if count == 1:
        # waitress.serve makes its server by _server (its own hook, as its tests use it): ours
        # answers a connection's requests one at a time (listening.OneAtATime).
        serve_one(app, _server=make_server, sockets=sockets, **waitress_options(app, threads, connections))
        return

    from . import store
    from .web.limits import shared_between_processes

    folder = shared_folder()
    try:
        shared_between_processes(folder)
        store.also_forget_elsewhere(tell_siblings)
        options = waitress_options(app, threads, max(16, connections // count))
        between_processes(options["_dispatcher"], count)
        serve(count, lambda: make_server(app, sockets=sockets, **options).run(), store.forget_built)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tell_siblings() -> None:
    """Ask every serving process to forget what it built from the store (after a restore): the
    parent relays it. Nothing when this process is not one of several."""
    if _parent is not None:
        _send(_parent, signal.SIGUSR1)


def _end_with(parent: int) -> None:
    """This child killed with its parent, should the parent be killed (a crash, the OOM killer,
    a SIGKILL): the server is one thing, and a crash of it leaves no process serving (the
    store is whole either way: SQLite's WAL). Linux's PR_SET_PDEATHSIG."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:         # 1: PR_SET_PDEATHSIG
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:          # the parent died before it was set
        os._exit(1)


def _send(pid: int, which: int) -> None:
    try:
        os.kill(pid, which)
    except ProcessLookupError:
        pass


def _said(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
