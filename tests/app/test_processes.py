"""Serving with several processes on Linux (issue 45, a championship on one box): the command
forks one waitress per core (at most 4) on the sockets it bound, starts again a process that
died, stops them all on SIGTERM with the store left whole; the limits' counts are one for all
processes (a SQLite file: web/limit_store.py), and a restore in one makes the others forget the
matches they built."""

import fcntl
import multiprocessing
import os
import signal
import socket
import threading
import time
import urllib.request
import zlib
from pathlib import Path

import pytest
from command_here import main_here
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from companion import cli, processes
from companion.store import db as store_db
from companion.upkeep import stopped_by_signals
from companion.web import limits
from companion.web.limit_store import SQLiteStorage
from helpers import STARTING, children_by_parent, new_match, phone, start_companion

pytestmark = [pytest.mark.skipif(not processes.available(), reason="several processes on Linux only"),
              pytest.mark.usefixtures("fresh_rate_limit")]

fork = multiprocessing.get_context("fork")


def children_of(pid: int) -> list[int]:
    return children_by_parent().get(pid, [])


def until(check):
    """``check()``'s answer once it is true, asked again every 50 ms: the wait ends when the
    condition holds. Its only bound is a hang's (STARTING, as a start's), never a claim about
    how soon: a 20 s bound was missed on a loaded machine."""
    deadline = time.monotonic() + STARTING
    while not (found := check()):
        assert time.monotonic() < deadline, f"not within {STARTING} s"
        time.sleep(0.05)
    return found


# -- How many ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cores, count", [(1, 1), (2, 2), (4, 4), (16, 4)])
def test_one_process_a_core_up_to_four(monkeypatch, cores, count):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cores)))
    assert processes.default_count() == count
    monkeypatch.setattr(processes.sys, "platform", "win32")
    assert processes.default_count() == 1


def test_a_number_of_processes_that_is_none_is_refused(capsys, monkeypatch):
    for given in ("0", "two"):
        assert cli.main(["--processes", given]) == 2
        assert "a number of serving processes from 1 to 64" in capsys.readouterr().err
    monkeypatch.setenv("SCOPA_PROCESSES", "3")
    assert cli.parse_args([]).settings.processes == 3


# -- The parent and its children ---------------------------------------------------------------

def watched(folder: Path, count: int, news, said) -> None:
    """A parent serving ``count`` children that each say their pid (``news``, a pipe's end
    written under the lock ``said``) and wait to be stopped; the first child asks the others to
    forget (``tell_siblings``), and each says that it did. Runs in a process of its own:
    processes.serve forks the process it runs in."""
    def say(*words) -> None:
        with said:
            news.send(words)

    def run() -> None:
        say("started", os.getpid())
        (folder / f"child-{os.getpid()}").write_text("")
        while len(list(folder.glob("child-*"))) < count:         # its siblings started
            time.sleep(0.05)
        try:
            os.close(os.open(folder / "told", os.O_CREAT | os.O_EXCL))
            processes.tell_siblings()                             # the first to get there
        except FileExistsError:
            pass
        while True:
            time.sleep(0.05)

    def forget() -> None:
        say("forgot", os.getpid())

    with stopped_by_signals():              # as the command: SIGTERM is a stop, in each child too
        processes.serve(count, run, forget)
    (folder / "stopped").write_text("")


def heard(news, wanted) -> dict[str, set[int]]:
    """What the children said (``watched``), read as it comes until ``wanted(said)`` holds:
    each word and the pids that said it. No deadline but a hang's (STARTING): the wait ends
    when they say it, however loaded the machine."""
    said: dict[str, set[int]] = {}
    while not wanted(said):
        assert news.poll(STARTING), f"the children said only {said} in {STARTING} s"
        word, pid = news.recv()
        said.setdefault(word, set()).add(pid)
    return said


def test_the_parent_restarts_a_child_that_died_and_stops_them_all(tmp_path):
    news, told = fork.Pipe(duplex=False)
    parent = fork.Process(target=watched, args=(tmp_path, 2, told, fork.Lock()))
    parent.start()
    try:
        first = sorted(heard(news, lambda said: len(said.get("started", ())) == 2)["started"])
        assert sorted(children_of(parent.pid)) == first         # each said so once forked
        # The first child's word reached both, through the parent.
        heard(news, lambda said: said.get("forgot", set()) >= set(first))
        os.kill(first[0], signal.SIGKILL)                       # a child dies
        [new] = heard(news, lambda said: "started" in said)["started"]     # and another is forked
        again = children_of(parent.pid)
        assert sorted(again) == sorted([first[1], new]) and first[0] not in again
        os.kill(parent.pid, signal.SIGTERM)                     # the stop
        parent.join(STARTING)                                   # ends when it stops
        assert parent.exitcode == 0 and (tmp_path / "stopped").exists()
        assert not any(Path(f"/proc/{pid}").exists() for pid in again)        # none left behind
    finally:
        if parent.is_alive():
            parent.kill()


# -- The limits' counts, one for all processes ---------------------------------------------------

class Unswept(MemoryStorage):
    """limits' memory storage without its sweeping thread. Every 10 ms after a try it drops the
    moments past their time, and a key's lock with them: a try in between took a new lock and
    was lost (under load, 5 runs in 200 of the test below failed so). Its answers read the
    moments' own times, never the sweep."""

    def __init__(self) -> None:
        super().__init__()
        self.timer.cancel()

    def _MemoryStorage__schedule_expiry(self) -> None:      # the name the class calls it by
        pass


def test_the_sqlite_storage_counts_as_limits_memory_storage_does(tmp_path, monkeypatch):
    """The same tries, at the same moments, through limits' moving window on each storage."""
    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    ours = MovingWindowRateLimiter(SQLiteStorage(f"scopa-sqlite://{tmp_path}/limits.sqlite"))
    theirs = MovingWindowRateLimiter(Unswept())
    item = parse("5/minute")
    said = {id(ours): [], id(theirs): []}
    for step in range(40):
        clock[0] += [1, 2, 3, 1, 20][step % 5]
        for limiter in (ours, theirs):
            key = "10.0.0.1" if step % 4 else "10.0.0.2"
            stats = limiter.get_window_stats(item, "tries", key)
            said[id(limiter)].append((limiter.test(item, "tries", key), limiter.hit(item, "tries", key),
                                      round(stats.reset_time, 3), stats.remaining))
    assert said[id(ours)] == said[id(theirs)]
    assert any(not hit for _test, hit, _reset, _left in said[id(ours)])      # some were refused


def tries(path: str, count: int, answers) -> None:
    storage = SQLiteStorage(f"scopa-sqlite://{path}")
    answers.put([storage.acquire_entry("10.0.0.9/tries", 10, 3600) for _ in range(count)])


def test_two_processes_count_the_same_tries(tmp_path):
    path = str(tmp_path / "limits.sqlite")
    SQLiteStorage(f"scopa-sqlite://{path}")                      # made before the fork, as served
    answers = fork.Queue()
    both = [fork.Process(target=tries, args=(path, 8, answers)) for _ in range(2)]
    for process in both:
        process.start()
    taken = [answers.get(timeout=30) for _ in both]
    for process in both:
        process.join(10)
    assert sum(sum(said) for said in taken) == 10                # 16 tries, 10 taken in all


def sixth_try(app, match_id: int, go, answers) -> None:
    # A store connection is not carried across a fork (SQLite's rule; the serving processes
    # open theirs in their own threads, after it): this process's thread opens its own.
    store_db._threads.__dict__.clear()
    go.get(timeout=30)
    answers.put(phone(app, "10.0.0.7").post(f"/matches/{match_id}/pin", data={"pin": "000000"}).status_code)


def test_a_guests_wrong_pins_in_one_process_hold_it_in_another(app, tmp_path, monkeypatch):
    """Two serving processes forked from one app: five wrong PINs from one address answered by
    this one, the sixth by the other, refused there too. (With each process's counts in its own
    memory, as before, the other took it: 403.)"""
    monkeypatch.setattr(limits, "_windows", limits._windows)      # the memory's, back after
    monkeypatch.setattr(limits, "_seen", limits._seen)
    limits.shared_between_processes(str(tmp_path))
    match_id = new_match(phone(app), pin="246813")
    go, answers = fork.Queue(), fork.Queue()
    other = fork.Process(target=sixth_try, args=(app, match_id, go, answers))
    other.start()                                   # forked before the tries, as served
    guest = phone(app, "10.0.0.7")
    assert [guest.post(f"/matches/{match_id}/pin", data={"pin": "000000"}).status_code
            for _ in range(5)] == [403] * 5
    go.put(True)
    assert answers.get(timeout=30) == 429
    other.join(10)


def five_wrong_pins(app, match_id: int, answers) -> None:
    store_db._threads.__dict__.clear()
    guest = phone(app, "10.0.0.8")
    answers.put([guest.post(f"/matches/{match_id}/pin", data={"pin": "000000"}).status_code
                 for _ in range(6)])


def test_the_organiser_sees_and_lifts_a_phone_held_by_another_process(app, tmp_path, monkeypatch):
    """A guest held by the process that counted its wrong PINs is on the organiser's list in
    the process that answers the organiser, who lifts it there. (With who was counted kept by each
    process, the list was empty there, and lifting said it was no longer held.)"""
    monkeypatch.setattr(limits, "_windows", limits._windows)      # the memory's, back after
    monkeypatch.setattr(limits, "_seen", limits._seen)
    limits.shared_between_processes(str(tmp_path))
    match_id = new_match(phone(app), pin="246813")
    answers = fork.Queue()
    other = fork.Process(target=five_wrong_pins, args=(app, match_id, answers))
    other.start()
    assert answers.get(timeout=30) == [403] * 5 + [429]
    other.join(10)
    with app.test_request_context():
        held = [h for h in limits.held() if h.key == "10.0.0.8"]
        assert [(h.kind, h.scope) for h in held] == [("pin", "address")]
        assert limits.lift(held[0].kind, held[0].scope, held[0].key) is True
        assert limits.held() == []
    assert phone(app, "10.0.0.8").post(f"/matches/{match_id}/pin", data={"pin": "000000"}).status_code == 403


# -- The command ---------------------------------------------------------------------------------

def test_the_command_serves_with_two_processes_and_stops_with_the_store_whole(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOPA_")}
    env.update(SCOPA_DATA=str(tmp_path / "data"), TMPDIR=str(tmp_path))
    store = tmp_path / "club.sqlite"
    server, base = start_companion("--db", str(store), "--processes", "2", env=env)
    try:
        serving = until(lambda: len(children_of(server.pid)) == 2 and children_of(server.pid))
        shared = [path for path in tmp_path.iterdir() if path.name.startswith("scopa-companion-")]
        assert len(shared) == 1 and (shared[0] / "limits.sqlite").exists()
        port = int(base.rsplit(":", 1)[1])
        for _ in range(20):                                       # fresh connections, any process
            with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
                conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                assert conn.recv(100).startswith(b"HTTP/1.1 200 ")
        with urllib.request.urlopen(base + "/") as answer:
            assert answer.status == 200
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0
    assert all(not Path(f"/proc/{pid}").exists() for pid in serving)
    assert not Path(f"{store}-wal").exists() and not shared[0].exists()


def test_the_command_shares_the_connections_and_the_limits_out(monkeypatch, tmp_path):
    """What main() hands each serving process (no fork here: processes.serve is replaced): its
    share of the connections, the limits' counts shared, one bound on the costly reads of all
    three (two at once: one core always the tables'), and, before the fork, the GIL handed on
    after 1 ms and the app's objects left out of the collector's passes."""
    import waitress
    forked, made, steps = {}, {}, []

    class Server:
        def __init__(self, app, **options):
            made.update(app=app, **options)

        def run(self):
            made["ran"] = True

    monkeypatch.setattr(limits, "_windows", limits._windows)      # the memory's, back after
    monkeypatch.setattr(limits, "_seen", limits._seen)
    monkeypatch.setattr(processes, "serve", lambda count, run, forget: steps.append("fork") or forked.update(
        count=count, run=run, forget=forget, storage=limits._windows.storage))
    monkeypatch.setattr(processes.sys, "setswitchinterval", lambda seconds: steps.append(seconds))
    monkeypatch.setattr(processes.gc, "freeze", lambda: steps.append("freeze"))
    monkeypatch.setattr(waitress, "create_server", Server)
    monkeypatch.setattr(cli, "print_join", lambda urls, local, stream=None, qr=None: None)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    monkeypatch.setenv("SCOPA_LANG", "it")
    assert main_here(["--host", "127.0.0.1", "--port", "0", "--connection-limit", "900",
                     "--processes", "3"]) == 0
    assert forked["count"] == 3 and isinstance(forked["storage"], SQLiteStorage)
    assert steps == [0.001, "freeze", "fork"]
    forked["run"]()
    assert made["ran"] and made["connection_limit"] == 300 and made["threads"] == 8
    shared = made["_dispatcher"].shared
    assert shared.acquire(False) and shared.acquire(False) and not shared.acquire(False)
    assert len(made["sockets"]) >= 1 and made["max_request_body_size"] == made["app"].config["MAX_CONTENT_LENGTH"] + 1


def _hold_stripe(path: str, key: str, held, go, done) -> None:
    storage = SQLiteStorage(f"scopa-sqlite://{path}")
    with storage.locked(key):
        held.set()
        go.wait(30)
    done.set()


def _waiters_on(lock_file: Path) -> int:
    """How many record locks on ``lock_file`` wait in the kernel (``/proc/locks`` marks them
    "->"), read by its inode."""
    inode = lock_file.stat().st_ino
    return sum(1 for line in Path("/proc/locks").read_text().splitlines()
               if "->" in line and line.split()[-3].endswith(f":{inode}"))


def _stripes_crossed(path: str, mine: str, theirs: str, ready, taken, go_theirs, refused) -> None:
    """Process B: a thread holds ``mine``'s stripe; once the other process waits for it, this
    one asks for ``theirs``'s, held there: the kernel sees a cycle of processes, and says so
    (``refused``, whatever the storage then does with it)."""
    lockf = fcntl.lockf

    def told(*args):
        try:
            return lockf(*args)
        except OSError:
            refused.set()
            raise
    fcntl.lockf = told              # this process's alone: it is B, forked
    storage = SQLiteStorage(f"scopa-sqlite://{path}")
    holding, go = threading.Event(), threading.Event()
    holder = threading.Thread(target=lambda: _hold(storage, mine, holding, go))
    holder.start()
    holding.wait(30)
    ready.set()
    go_theirs.wait(30)              # the other process now waits for ``mine``
    try:
        with storage.locked(theirs):
            taken.put("taken")
    except OSError as error:
        taken.put(f"OSError {error.errno}")
    go.set()
    holder.join(30)


def _hold(storage, key, holding, go) -> None:
    with storage.locked(key):
        holding.set()
        go.wait(30)


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="reads the kernel's waiting locks in /proc/locks")
def test_two_processes_crossing_stripes_wait_their_turn_never_a_false_deadlock(tmp_path):
    """Issue 41's PIN flood, two serving processes: three requests answered 500 with
    ``OSError: [Errno 35] Resource deadlock avoided``. POSIX record locks belong to a process,
    so a thread of A holding stripe 1 while another of A's waits for stripe 2, held by a thread
    of B asking for stripe 1, is a cycle to the kernel, which refuses B's wait at once. Here B
    asks last: it gets stripe 1 once A's holder gives it back, and nobody sees an error."""
    path = str(tmp_path / "limits.sqlite")
    storage = SQLiteStorage(f"scopa-sqlite://{path}")
    first, second = "10.0.0.1", next(f"10.0.0.{n}" for n in range(2, 200)
                                      if zlib.crc32(f"10.0.0.{n}".encode()) % 64 != zlib.crc32(b"10.0.0.1") % 64)
    ready, go_theirs, refused, taken = fork.Event(), fork.Event(), fork.Event(), fork.Queue()
    other = fork.Process(target=_stripes_crossed, args=(path, second, first, ready, taken, go_theirs, refused))
    holding, go = threading.Event(), threading.Event()
    holder = threading.Thread(target=lambda: _hold(storage, first, holding, go))
    holder.start()
    try:
        holding.wait(30)
        other.start()
        assert ready.wait(30)
        waiter = threading.Thread(target=lambda: _hold(storage, second, threading.Event(), go))
        waiter.start()              # this process's second thread waits for B's stripe
        lock_file = Path(f"{path}.lock")
        for _ in range(3000):       # until the kernel shows it waiting (no sleep-and-hope)
            if _waiters_on(lock_file):
                break
            time.sleep(0.01)
        assert _waiters_on(lock_file) == 1
        go_theirs.set()             # B asks for stripe 1 now: a cycle to the kernel
        assert refused.wait(30)     # which refuses it (EDEADLK) while this process holds it
        go.set()                    # this process's holder gives stripe 1 back
        assert taken.get(timeout=30) == "taken"
    finally:
        go.set()
        holder.join(30)
        other.join(30)
        if other.is_alive():
            other.kill()


def _try_stripe(path: str, stripe: int, answer) -> None:
    with open(f"{path}.lock", "a+b") as file:
        try:
            fcntl.lockf(file, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, stripe)
            answer.put("taken")
        except OSError:
            answer.put("held")


def test_a_thread_done_with_its_stripe_leaves_another_threads_stripe_held(tmp_path):
    """A record lock is the process's, and closing any descriptor of its file lets every one
    of them go: each try opened the lock file and closed it after, so one thread done with
    address 1 let the other process into address 2, which a second thread still held."""
    path = str(tmp_path / "limits.sqlite")
    storage = SQLiteStorage(f"scopa-sqlite://{path}")
    first = "10.0.0.1"
    second = next(f"10.0.0.{n}" for n in range(2, 200)
                  if zlib.crc32(f"10.0.0.{n}".encode()) % 64 != zlib.crc32(first.encode()) % 64)
    holding, go = threading.Event(), threading.Event()
    holder = threading.Thread(target=lambda: _hold(storage, first, holding, go))
    holder.start()
    try:
        assert holding.wait(30)
        with storage.locked(second):
            pass                    # another thread's try, begun and done
        answer = fork.Queue()
        other = fork.Process(target=_try_stripe, args=(path, zlib.crc32(first.encode()) % 64, answer))
        other.start()
        assert answer.get(timeout=30) == "held"
        other.join(30)
    finally:
        go.set()
        holder.join(30)
