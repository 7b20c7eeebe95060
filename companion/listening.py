"""Where the companion listens and how waitress serves it: the sockets bound before anything
is printed (a port in use is said alone), and waitress's limits (the connections against the
open-file limit, how long an idle one is kept, the largest body, the forwarding headers).
docs/running.md says what these hold."""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import time
from collections import deque
from multiprocessing.synchronize import Semaphore
from typing import Callable

import waitress
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer
from waitress.task import ThreadedTaskDispatcher

from .web.precedence import CROWDED, Precedence

# -- Where it listens -----------------------------------------------------------------------

IN_USE = {errno.EADDRINUSE, 10048}          # 10048: Windows' WSAEADDRINUSE


def _listening_socket(family: int, address: tuple) -> socket.socket:
    """A TCP socket listening on ``address``, made as waitress makes its own: IPv6 ones IPv6
    only, an address left in TIME_WAIT reusable (on Windows, a port no other program may
    share). It listens at once, so that no other program takes the port meanwhile."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if family == socket.AF_INET6:
            sock.setsockopt(getattr(socket, "IPPROTO_IPV6", 41), getattr(socket, "IPV6_V6ONLY", 27), 1)
        if os.name == "nt":
            sock.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", -5), 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1024)           # waitress's backlog
    except OSError:
        sock.close()
        raise
    return sock


def bind(host: str, port: int) -> list[socket.socket]:
    """The sockets the companion listens on, bound before anything is printed (waitress is
    handed them), so that a port in use is said alone, not after a banner and a QR code for a
    server that never starts. Every address ``host`` resolves to, as waitress would bind them;
    with the default 0.0.0.0, or localhost, also IPv6's loopback (where the machine has IPv6),
    so that http://[::1]:PORT/ and a ``localhost`` resolved to ::1 first reach the companion on
    this machine. Port 0 takes a free port, the same for every address. Raises OSError, with
    nothing left bound."""
    found = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM,
                               socket.IPPROTO_TCP, socket.AI_PASSIVE)
    wanted = list(dict.fromkeys((family, address, False) for family, *_, address in found))
    if host in ("0.0.0.0", "localhost") and socket.has_ipv6 and not any(
            address[0] == "::1" for _, address, _ in wanted):
        wanted.append((socket.AF_INET6, ("::1", port, 0, 0), True))
    bound: list[socket.socket] = []
    try:
        for family, address, optional in wanted:
            if bound:           # port 0: the port the first address was given
                address = (address[0], bound[0].getsockname()[1], *address[2:])
            try:
                bound.append(_listening_socket(family, address))
            except OSError as error:
                if optional and error.errno not in IN_USE:      # no IPv6 on this machine
                    continue
                raise
    except OSError:
        for sock in bound:
            sock.close()
        raise
    return bound


def refusal(host: str, port: int, error: OSError) -> str:
    """What is said, alone, when the companion cannot listen: for a port in use, the next
    port that is free."""
    if error.errno in IN_USE:
        free = next((other for other in range(port + 1, min(port + 100, 65536)) if _free(host, other)),
                    port + 1)
        return f"Port {port} is in use: is the companion already running? Use --port {free}"
    return f"scopa-companion: cannot listen on {host}:{port}: {error.strerror or error}"


def _free(host: str, port: int) -> bool:
    try:
        for sock in bind(host, port):
            sock.close()
    except OSError:
        return False
    return True


# -- How waitress serves -------------------------------------------------------------------

# A connection that sends nothing for this many seconds is closed (waitress looks every
# CLEANUP_INTERVAL seconds): browsers keep theirs about 5 minutes, but a phone polls every 2 s,
# so one of its connections is always fresh, and those of a phone that left the Wi-Fi without a
# word free their place within 70 s. (A connection that keeps sending a line of a request that
# never ends is never idle: docs/running.md.)
CHANNEL_TIMEOUT = 60
CLEANUP_INTERVAL = 10
# A request's headers, its request line included: a phone sends 1 to 5 KiB (web.bounds).
HEADER_LIMIT = 32 * 1024


def raise_open_file_limit(wanted: int) -> int:
    """Each connection is an open file: raise this process's soft limit (often 1,024) towards
    ``wanted``, as far as the hard limit allows. Returns the limit in force."""
    try:
        import resource
    except ImportError:         # Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def body_limit(app) -> int:
    """waitress's ``max_request_body_size``: the largest body the app accepts on any URL
    (``MAX_CONTENT_LENGTH``, 64 KiB: a restore comes in parts of that size, ``backup.parts``).
    Under waitress's ``inbuf_overflow`` (512 KiB), a body is never spooled to disk: a guest who
    trickles one holds 64 KiB of memory at most, where 200 of them held 1.6 GB of deleted files
    with the restore's 8 MiB on every URL (issue 41). Without it waitress takes up to 1 GiB of
    any request before the app can refuse it; it refuses a body of this size or more, hence the
    one."""
    return app.config["MAX_CONTENT_LENGTH"] + 1


def open_connections(wanted: int) -> int:
    """The connections served at once: ``wanted``, as far as the open-file limit can be raised
    for them (with 64 files to spare for the store and the rest); said when fewer."""
    files = raise_open_file_limit(wanted + 64)
    connections = min(wanted, max(16, files - 64))
    if connections < wanted:
        print(f"scopa-companion: this system allows {files} open files: serving "
              f"{connections} connections at once", file=sys.stderr)
    return connections


# The guests' costly reads one process serves at once (web.precedence): what is beyond waits its
# turn in a queue of its own, and leaves the other threads, and most of the core, to the tables.
READS_AT_ONCE = 2
# A read is costly when its route's recent requests took this much of a core each (their own
# CPU time, not the time they waited for it): a player's page, a hand's form, the leaderboard
# over a period. A match's page at a club night, the lists, the rules cost less and are served as
# they come: with every read capped, the arrival of 600 phones at their match pages queued two at
# a time (bench_club_night: page-load p99 5.8 s against 2.7 s before).
COSTLY = 0.010
# How much each new request moves its route's cost: an average over the last ten or so.
WEIGHT = 0.2
# A costly read waits at most this long for the processes' shared bound (between_processes), then
# is served anyway: a process killed while serving one (the OOM killer) never leaves the
# others' reads waiting for a turn that is not given back.
SHARED_WAIT = 5.0


def between_processes(dispatcher: PhonesFirst, processes: int) -> None:
    """The costly reads of ``processes`` serving processes bounded together, before they fork:
    at most one fewer than the processes (one a core) at once on the machine, whatever each
    process's own bound, so that one core is always the tables'."""
    import multiprocessing
    dispatcher.shared = multiprocessing.get_context("fork").Semaphore(max(1, processes - 1))


class PhonesFirst(ThreadedTaskDispatcher):
    """waitress's task dispatcher, with two queues (``web.precedence``): the requests that go
    first, and the reads that cost little, are served by the next free thread, as waitress
    serves every request; the costly reads wait in their own queue, at most ``reads`` of them
    served at once, so that a phone's save never waits for a thread behind sixteen guests'
    pages, nor shares the core with them all. The writes to a match past a table's pace wait in
    the same queue (``precedence.CROWDED``); with several processes, their costly reads are
    bounded together too (``shared``: ``between_processes``). What a read costs it learns as it
    serves them: each route's CPU time, averaged (``costs``); a route not served yet, or once
    (its templates compiled then), costs nothing.

    waitress takes a dispatcher of one's own (``create_server``'s ``_dispatcher``); this one is
    waitress's own, with its ``add_task`` and ``handler_thread`` (the loop every worker thread
    runs) taking the two queues into account. Its threads start with its first request, in the
    process that serves it: the options are made before the serving processes fork
    (``processes.served``), and threads do not survive a fork."""

    def __init__(self, read: Callable[[str, str, str | None], str | None], threads: int,
                 reads: int = READS_AT_ONCE):
        super().__init__()
        self.read, self.wanted, self.most_reads = read, threads, reads
        self.reads: deque = deque()
        self.reading = 0            # costly reads being served
        self.costs: dict[str, float] = {}       # each read's route: its CPU seconds, averaged
        self.shared: Semaphore | None = None        # the processes' bound together (between_processes)
        self._started_in: int | None = None
        self._starting = threading.Lock()

    def read_of(self, channel) -> str | None:
        """The route of the guest's read a channel holds, or None for a request that goes
        first. One waitress could not read goes first: it is answered at once, for nothing."""
        try:
            request = channel.requests[0]
            if request.error is not None:
                return None
            return self.read(request.command, request.path, request.headers.get("COOKIE"))
        except Exception:       # noqa: BLE001 - never a request lost for its precedence
            return None

    def add_task(self, task) -> None:
        if self._started_in != os.getpid():
            with self._starting:
                if self._started_in != os.getpid():
                    self.set_thread_count(self.wanted)
                    self._started_in = os.getpid()
        route = task.scopa_route = self.read_of(task)
        with self.lock:
            costly = route == CROWDED or route is not None and self.costs.get(route, 0.0) >= COSTLY
            (self.reads if costly else self.queue).append(task)
            self.queue_cv.notify()

    def _ready(self) -> bool:
        return bool(self.queue) or (bool(self.reads) and self.reading < self.most_reads)

    def handler_thread(self, thread_no: int) -> None:
        while True:
            with self.lock:
                while not self._ready() and self.stop_count == 0:
                    self.active_count -= 1
                    self.queue_cv.wait()
                    self.active_count += 1
                if self.stop_count > 0:
                    self.active_count -= 1
                    self.stop_count -= 1
                    self.threads.discard(thread_no)
                    self.thread_exit_cv.notify()
                    break
                # A costly read takes a free slot before anything else: the other threads (all
                # but READS_AT_ONCE) serve the rest, and a stream of polls and saves never
                # starves the reads (taken only when nothing else waited, at a club night's
                # arrival they waited 30 s).
                costly = bool(self.reads) and self.reading < self.most_reads
                task = self.reads.popleft() if costly else self.queue.popleft()
                self.reading += costly
            shared = self.shared if costly else None
            if shared is not None and not shared.acquire(timeout=SHARED_WAIT):
                shared = None           # served without it (SHARED_WAIT)
            route, started = getattr(task, "scopa_route", None), time.thread_time()
            try:
                task.service()
            except BaseException:
                self.logger.exception("Exception when servicing %r", task)
            finally:
                if shared is not None:
                    shared.release()
                cost = time.thread_time() - started
                with self.lock:
                    if route is not None:       # the first one compiled its templates: not counted
                        before = self.costs.get(route)
                        self.costs[route] = 0.0 if before is None else before + WEIGHT * (cost - before)
                    if costly:
                        self.reading -= 1
                        if self.reads:
                            self.queue_cv.notify()

    def shutdown(self, cancel_pending: bool = True, timeout: int = 5) -> bool:
        stopped = super().shutdown(cancel_pending, timeout)
        if cancel_pending:
            with self.lock:
                while self.reads:
                    self.reads.popleft().cancel()
        return stopped


def waitress_options(app, threads: int, connections: int) -> dict:
    """How waitress serves the companion (besides the sockets), for the command and for the
    tests' real servers (``tests/helpers.serving``):

    - the forwarding headers: ``proxy_options``;
    - ``max_request_header_size``: the headers and the request line, 32 KiB in all (a phone
      sends 1 to 5), refused past it with 431 before the app sees them (``web.bounds``);
    - ``max_request_body_size``: the largest body the app accepts (64 KiB, ``body_limit``):
      a request that announces more is refused before any of its body is read, and one sent in
      chunks as soon as it passes it;
    - ``asyncore_use_poll``: select() cannot watch a file descriptor past 1,024;
    - the phones at the tables served before the guests' costly reads: ``PhonesFirst``;
    - the connections and how long an idle one is kept: docs/running.md."""
    return {"threads": threads, "ident": "scopa-companion", "connection_limit": connections,
            "channel_timeout": CHANNEL_TIMEOUT, "cleanup_interval": CLEANUP_INTERVAL,
            "asyncore_use_poll": True,
            "_dispatcher": PhonesFirst(Precedence(app).read, threads),
            "max_request_header_size": HEADER_LIMIT,
            "max_request_body_size": body_limit(app),
            **proxy_options(app)}


class _AfterAnAnswer(HTTPRequestParser):
    """A request read before the answer to the one before it was sent: nothing of it (or after
    it, in what was read) is taken, and its connection is closed after that answer."""

    def __init__(self, adj, channel: OneAtATime):
        super().__init__(adj)
        self.channel = channel

    def received(self, data: bytes) -> int:
        if self.channel.requests:       # read under the channel's lock (HTTPChannel.received)
            self.channel.pipelined = True
            return len(data)
        return super().received(data)


class OneAtATime(HTTPChannel):
    """A connection whose requests are answered one at a time. Several requests sent in one go,
    before the first answer is read (HTTP/1.1 pipelining, which no browser does), have the
    first answered and the connection closed, the others unanswered, as HTTP lets a server do
    (a client retries them). waitress answered every request of a read (8 KiB: 128 asking for
    the list of 200 matches, 145 KB each) into memory for a client that read none of it, up to
    16 MiB a connection (20 such connections: 275 MB more), and then held a worker thread until
    it read: with answers of more (the file of every match, at 5,000 matches), 8 connections
    held every thread of a process. Now a connection holds one answer at most (the system's
    socket buffers take most of it). waitress reads nothing more of a connection while a request
    of it is being answered, so a phone that waits for each answer is never refused one."""

    pipelined = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each request's parser knows its connection: a class of waitress's, called with adj.
        self.parser_class = lambda adj: _AfterAnAnswer(adj, self)  # type: ignore[assignment]

    def _close_if_answered(self) -> None:
        with self.requests_lock:  # type: ignore[attr-defined]  # waitress's, missing from its stubs
            if self.pipelined and not self.requests:
                self.close_when_flushed = True

    def received(self, data: bytes) -> bool:
        taken = super().received(data)
        self._close_if_answered()           # its answer sent already; or by service, below
        return taken

    def service(self) -> None:
        super().service()
        self._close_if_answered()


def make_server(app, **options):
    """waitress's ``create_server``, its connections answered one request at a time
    (``OneAtATime``): the command's one process or each of several, and the tests' servers."""
    served: dict = {}             # waitress's map of what it serves: each listening socket's server
    server = waitress.create_server(app, map=served, **options)  # type: ignore[attr-defined]  # waitress's; its stubs name only serve
    for each in list(served.values()):
        if isinstance(each, BaseWSGIServer):
            each.channel_class = OneAtATime
    return server


def proxy_options(app) -> dict:
    """With ``TRUST_PROXY`` (--trust-proxy ADDRESS) waitress takes the phone's address, scheme
    and host from X-Forwarded-For, -Proto and -Host when, and only when, the request comes from
    that address (the one hop it adds), and strips every forwarding header from anyone else.
    Without it the app reads none of them (it only says once that a proxy seems to be in
    front: ``web.limits``). No address is the organiser's either way (``web.organiser``)."""
    proxy = app.config.get("TRUST_PROXY")
    if not proxy:
        return {"clear_untrusted_proxy_headers": False}
    return {"trusted_proxy": proxy, "trusted_proxy_count": 1, "clear_untrusted_proxy_headers": True,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"}}
