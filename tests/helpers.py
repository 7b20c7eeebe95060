"""Small helpers for the tests of every room: cards written as in RULES §1, forms and hands as a
phone sends them, how many generated cases to try, and a real server. (pyproject puts tests/ on
the import path: ``from helpers import ...`` works from any folder.)"""

import json
import os
import queue
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from companion.rules import deck, parse_cards
from companion.table.forms import NewMatchForm
from markup import form_data, nodes, words

# The generated cases (property tests, the API fuzzer) are the same on every run, so CI cannot
# fail on a draw nobody ran before it. SCOPA_FUZZ=10 explores fresh cases, ten times as many
# (docs/development.md, "Fuzzing"); a failure it finds becomes a plain test. (tests/conftest.py loads the
# Hypothesis profile that follows from it.)
FUZZ = int(os.environ.get("SCOPA_FUZZ") or 0)


def examples(count: int) -> int:
    """``count`` generated cases in the suite, ``SCOPA_FUZZ`` times as many when fuzzing."""
    return count * max(FUZZ, 1)


def cards(text: str):
    """cards("7d 7c 6b 1s") -> the list of Cards."""
    return parse_cards(text.split())


def split_deck(first: str, size: int = 40):
    """Two piles: the cards named, and every other card of the deck."""
    pile = cards(first)
    return pile, [card for card in deck(size) if card not in pile]


def match_form(preset="classica", **changes):
    """The new match page's form, as a phone sends it, for the preset's rules; ``changes`` set
    fields (None leaves one out)."""
    data = {"layout": "2", "player1": "Anna", "player2": "Bruno", "first_dealer": "0",
            "preset": preset, "team1": "Noi", "team2": "Voi"}
    for name, value in NewMatchForm.preset_data(preset).items():
        if isinstance(value, bool):
            if value:
                data[name] = "y"
        elif value is not None:
            data[name] = str(value)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


def random_hand(sides: int, rng: random.Random) -> dict:
    """A hand by cards: the deck dealt at random among the sides' piles, a few sweeps."""
    cards = [f"{card.value}{card.suit}" for card in deck()]
    rng.shuffle(cards)
    cuts = sorted(rng.sample(range(1, 40), sides - 1))
    piles = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, 40])]
    return {"piles": piles, "sweeps": [min(rng.choice((0, 0, 1, 2)), len(pile) // 2) for pile in piles]}


# Names as a club writes them for a night of up to 64 (issue 40): first names, then first names
# and surnames, some of them long.
FIRST_NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gianmaria", "Francesca", "Jean-Baptiste",
               "Bartolomeo", "Massimiliana", "Amélie", "Luca", "Sara", "Paolo", "Mariagrazia"]
SURNAMES = ["Rossi", "Lombardozzi", "Castellammare", "Bianchi", "Giangiacomo", "Esposito", "Colombo", "Ferri"]


def club_names(count: int, long: bool = False) -> list[str]:
    """``count`` different names as a club writes them: first names for the first eight and a
    first name and a surname after them, or (``long``) every one a first name and a surname (the
    next surname where one would make the name longer than the 24 characters a name may have).

    >>> club_names(10)[6:]
    ['Gianmaria', 'Francesca', 'Jean-Baptiste Rossi', 'Bartolomeo Lombardozzi']
    >>> max(len(name) for name in club_names(64, long=True))
    24
    """
    names: list[str] = []
    for i in range(count):
        first = FIRST_NAMES[i % len(FIRST_NAMES)]
        if not long and i < 8:
            names.append(first)
            continue
        turn = i // len(FIRST_NAMES) + i
        fitting = [f"{first} {SURNAMES[(turn + k) % len(SURNAMES)]}" for k in range(len(SURNAMES))]
        names.append(next(name for name in fitting if len(name) <= 24 and name not in names))
    return names


FULL = [str(card) for card in deck()]
HAND = {"piles": [FULL[:22], FULL[22:]], "sweeps": [1, 0]}     # 5 - 0 (denari, 7d, 76...)


# The organiser's code of every app the tests make (conftest), and the header a program sends
# it in. The ``client`` fixture sends it with every request: the test client is the organiser,
# needs no PIN, and may do what only the organiser may. A test of what a phone may do asks for
# one (``phone``), which does not send it. ``ORGANISER_LINK``: the link that logs a browser in.
ORGANISER_CODE = "T3S-TKY"
ORGANISER = {"HTTP_X_SCOPA_ORGANISER": ORGANISER_CODE}
ORGANISER_HEADERS = {"X-Scopa-Organiser": ORGANISER_CODE}
ORGANISER_LINK = f"/organiser?code={ORGANISER_CODE}"
PHONE = {"REMOTE_ADDR": "192.168.1.23"}


def organiser(app):
    """A test client that is the organiser's, as the ``client`` fixture is: it sends the app's
    organiser's code (``ORGANISER_CODE`` given to an app made without one)."""
    app.config["ORGANISER_CODE"] = app.config.get("ORGANISER_CODE") or ORGANISER_CODE
    client = app.test_client()
    client.environ_base["HTTP_X_SCOPA_ORGANISER"] = app.config["ORGANISER_CODE"]
    return client


def phone(app, address: str = PHONE["REMOTE_ADDR"]):
    """A test client that is a phone at ``address`` on the network: not the organiser."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def open_link(client, link: str, headers: dict | None = None):
    """A link that carries a code (the organiser's link, a scorer's QR link) opened as a phone
    opens it: its page (a GET checks nothing), then the form that page sends itself
    (templates/link_opened.html), the CSRF token with it. The POST's answer; the page's when it
    holds no such form (the phone was the organiser's already, or the link was refused)."""
    page = client.get(link, headers=headers)
    if page.status_code != 200 or not nodes(page, "form[data-sends-itself]"):
        return page
    form = nodes(page, "form[data-sends-itself]")[0]
    return client.post(form.attributes["action"], data=dict(form_data(form.html)), headers=headers)



def open_link_over_http(opener, url: str) -> tuple[int, bytes, str]:
    """``open_link`` on a real server: urllib's ``opener`` (with a cookie jar, as a browser
    keeps its cookies) opens the link, then POSTs the form its page sends itself. The last
    answer's status, body and address (redirects followed)."""
    def opened(request) -> tuple[int, bytes, str]:
        try:
            with opener.open(request, timeout=10) as answer:
                return answer.status, answer.read(), answer.url
        except urllib.error.HTTPError as error:
            return error.code, error.read(), error.url
    status, page, address = opened(url)
    forms = nodes(page.decode(), "form[data-sends-itself]") if status == 200 else []
    if not forms:
        return status, page, address
    target = urllib.parse.urljoin(address, forms[0].attributes["action"])
    body = urllib.parse.urlencode(form_data(forms[0].html)).encode()
    return opened(urllib.request.Request(target, data=body, headers={
        "Content-Type": "application/x-www-form-urlencoded"}))


# -- Playing a match: through the JSON API, or as a phone posts the pages' forms -----------------
#
# ``client`` is a Flask test client, or the address of a real server (``http://127.0.0.1:PORT``,
# as ``serving`` and ``start_companion`` give it), which is then called over HTTP as the organiser.

# A hand by counts (the API's tallies) that Anna (the first side) wins 4 to 0: carte, denari,
# settebello and primiera.
FOUR_NIL = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 0},
                        {"cards": 18, "coins": 4, "settebello": False, "primiera": False, "sweeps": 0}]}


def _post(client, path: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    """POST ``body`` as JSON to the API's ``path``: (the status, the answer's JSON)."""
    if isinstance(client, str):
        request = urllib.request.Request(client + "/api/v1" + path, method="POST", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  **ORGANISER_HEADERS, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")
    answer = client.post("/api/v1" + path, json=body, headers=headers or {})
    return answer.status_code, answer.get_json()


def new_match(client, **extra) -> int:
    """A match of Anna and Bruno made through the JSON API, Anna dealing first (``extra`` joins
    its body and may replace either: ``players=[...]``, ``options={"target": 1000}``): its id."""
    status, answer = _post(client, "/matches", {"players": ["Anna", "Bruno"], "first_dealer": 0, **extra})
    assert status == 201, answer
    return answer["id"]


def play(client, body: dict | list, rng: random.Random | None = None, *, hands: int | None = None,
         hand: dict | None = None, pin: str | None = None, **extra) -> int:
    """A match made through the JSON API and played: its id.

    ``body`` is the new match's body (``players`` or ``teams``, ``variant``, ``options``...; Anna
    deals first unless it says ``first_dealer``), or just the players' names; ``extra`` joins it
    (``options={"target": 51}``). Each hand is
    ``hand`` if given, else a random hand by cards drawn from ``rng`` (``random_hand``). Hands are
    saved until the match is over, which it must be within 200 hands; or, with ``hands``, until
    that many are saved or the match is over, whichever comes first. ``pin``: the match's PIN,
    set when it is made and sent with every hand. For example ``play(client, {"players":
    ["Anna", "Bruno"]}, random.Random(7))`` plays to the end, ``play(client, ["Anna", "Bruno"],
    hands=2, hand=HAND)`` saves two hands at most."""
    body = {"first_dealer": 0, **({"players": list(body)} if isinstance(body, (list, tuple)) else body), **extra}
    headers = {}
    if pin:
        body["pin"] = pin
        headers["X-Scopa-PIN"] = pin
    status, match = _post(client, "/matches", body)
    assert status == 201, match
    played = 0
    while not match["outcome"]["over"] and played < (200 if hands is None else hands):
        entry = hand if hand is not None else random_hand(len(match["sides"]), rng)
        status, saved = _post(client, f"/matches/{match['id']}/hands", entry, headers)
        assert status == 201, saved
        match, played = saved["match"], played + 1
    assert hands is not None or match["outcome"]["over"], f"match {match['id']} not over after 200 hands"
    return match["id"]


def finish(client, match_id: int, hand: dict = FOUR_NIL) -> dict:
    """``hand`` saved through the JSON API until the match is over (Anna's 4 to 0 unless told
    otherwise; a hand the first side wins is saved at least once): the match as the API gives it
    then."""
    while True:
        status, saved = _post(client, f"/matches/{match_id}/hands", hand)
        assert status == 201, saved
        if saved["match"]["outcome"]["over"]:
            return saved["match"]


def one_hand_match(client, players=("Anna", "Bruno"), hand: dict = HAND) -> int:
    """A match of one hand (``options.hands`` 1), Anna dealing first: ``hand`` decides it. Its id."""
    match_id = new_match(client, players=list(players), options={"hands": 1})
    status, saved = _post(client, f"/matches/{match_id}/hands", hand)
    assert status == 201, saved
    return match_id


def counts_form(cards: int | None = None, coins: int | None = None, settebello: int | None = 0,
                primiera: int | None = 0, sweeps=(0, 0), **fields) -> dict:
    """The hand form by counts as a phone posts it (Save pressed, the second side's counts
    worked out from the first's): ``cards`` and ``coins`` the first side's, ``settebello`` and
    ``primiera`` the side that has each, ``sweeps`` each side's. ``fields`` add or replace
    fields (``version=1``, ``t_sevens_0=3``, ``key="k"``); None leaves one out, as a phone
    that sends no such field. ``counts_form(22, 6, sweeps=(1, 0))``: Anna 22 cards, 6 denari, the
    settebello and the primiera (side 0: hers) and a sweep, 5 to 0.

    >>> counts_form(22, 6, sweeps=(1, 0))["sweeps_0"], "primiera" in counts_form(primiera=None)
    ('1', False)"""
    data = {"mode": "tallies", "rest": "1", "t_cards_0": cards, "t_coins_0": coins,
            "settebello": settebello, "primiera": primiera,
            **{f"sweeps_{side}": count for side, count in enumerate(sweeps)}, "save": "1", **fields}
    return {name: str(value) for name, value in data.items() if value is not None}


def restore_backup(client, data: bytes, headers: dict | None = None, **form):
    """A backup restored as the organiser's page sends it (static/restore.js): in parts of
    64 KiB (backup.parts; no request carries more), then the form naming the upload, with
    ``form``'s fields (``confirm``, ``csrf_token``: sent with each part too, as the page's
    script sends it), and ``headers`` with every request. The last answer: a part refused, or
    the form's."""
    from companion.backup.parts import PART
    headers = {**(headers or {}), **({"X-CSRFToken": form["csrf_token"]} if "csrf_token" in form else {})}
    follow = form.pop("follow_redirects", False)
    upload = ""
    for offset in range(0, len(data), PART):
        answer = client.post(f"/backup/restore/parts?upload={upload}&offset={offset}", headers=headers,
                             data=data[offset:offset + PART], content_type="application/octet-stream")
        if answer.status_code != 200:
            return answer
        upload = answer.get_json()["upload"]
    return client.post("/backup/restore", data={"upload": upload, **form}, headers=headers,
                       follow_redirects=follow)


@contextmanager
def serving(app, threads: int = 8):
    """``app`` served by waitress as the command serves it (``listening.waitress_options``: the
    forwarding headers left for the app, the body limit...), in a thread of this process, on
    127.0.0.1 and a free port; yields its address (``http://127.0.0.1:PORT``).

    On the way out it stops in an order that leaves no socket closed under a running loop: the
    task dispatcher's worker threads finish the answers under way while the loop still sends them
    (queued ones are cancelled); then the loop, which this helper runs itself one poll of at
    most 50 ms at a time, is told to stop and waited for; only then are the listening socket,
    the trigger and every connection closed, from this thread, with no loop left to use them.
    Closing them from another thread while the loop polled them was an intermittent
    ``OSError: Bad file descriptor`` at teardown, and so was pulling waitress's trigger to have
    the loop close them (a CI run found the trigger closed already)."""
    from companion.listening import make_server, waitress_options

    server = make_server(app, host="127.0.0.1", port=0, **waitress_options(app, threads, 1000))
    with waitress_looping(server, server._map):
        yield f"http://127.0.0.1:{server.effective_port}"


@contextmanager
def waitress_looping(server, served: dict):
    """waitress's loop over the sockets ``served`` (its server's map, or a MultiSocketServer's)
    run in a thread, one poll of at most 50 ms at a time, while the block runs; then stopped in
    ``serving``'s order: the answers under way finished, the loop stopped and waited for, and
    only then every socket closed, from this thread."""
    from waitress import wasyncore

    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=served, use_poll=True, count=1)

    loop = threading.Thread(target=run, name="waitress loop", daemon=True)
    loop.start()
    try:
        yield
    finally:
        server.task_dispatcher.shutdown(timeout=30)
        stop.set()
        loop.join(timeout=30)
        if loop.is_alive():
            raise RuntimeError("waitress's loop did not stop within 30 s")
        wasyncore.close_all(served)


class Relay:
    """A TCP relay on 127.0.0.1 and a port of its own (bound once, port 0), in front of a server
    at ``upstream`` (``http://127.0.0.1:PORT``): what a phone sees of a companion that stops and
    starts again. ``cut()`` makes it as a stopped server is: every connection open is reset and
    every new one is reset as it comes (the browser's ERR_CONNECTION_RESET; the port is never let
    go, so no test binds it later); ``join(upstream)`` puts a server (the same, or one started
    anew on a port of its own) behind it again. ``deaf``: the requests reach the server, its
    answers are lost on the way back (a Wi-Fi that drops as the answer comes)."""

    def __init__(self, upstream: str):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.cut_off = False
        self.deaf = False
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="relay", daemon=True).start()

    @staticmethod
    def _reset(sock: socket.socket) -> None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.shutdown(socket.SHUT_RDWR)         # wakes the pump reading it
        except OSError:
            pass
        sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return                              # closed
            if self.cut_off:
                self._reset(client)
                continue
            host, port = self.upstream.rsplit("/", 1)[1].split(":")
            try:
                server = socket.create_connection((host, int(port)), timeout=5)
                server.settimeout(None)
            except OSError:
                self._reset(client)
                continue
            with self.lock:
                self.open |= {client, server}
            for source, sink, answers in ((client, server, False), (server, client, True)):
                threading.Thread(target=self._pump, args=(source, sink, answers), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while data := source.recv(65536):
                if not (answers and self.deaf):
                    sink.sendall(data)
        except OSError:
            pass
        with self.lock:
            for sock in (source, sink):
                if sock in self.open:
                    self.open.discard(sock)
                    self._reset(sock)

    def cut(self) -> None:
        with self.lock:
            self.cut_off = True
            for sock in self.open:
                self._reset(sock)
            self.open.clear()

    def join(self, upstream: str) -> None:
        self.upstream = upstream
        self.cut_off = self.deaf = False

    def close(self) -> None:
        self.cut()
        self.listener.close()


def quietly_closed(file) -> None:
    try:
        file.close()
    except (OSError, ValueError):       # its reader gone: what was left unsent is dropped
        pass


class Companion(subprocess.Popen):
    """A started companion (start_companion) whose output a thread copies: once waited for
    (``wait()``, which ``communicate()`` ends with), all it said is where it was sent."""
    copier: threading.Thread | None = None

    def wait(self, timeout: float | None = None) -> int:
        code = super().wait(timeout)
        if self.copier:
            self.copier.join(timeout)       # it ends at the output's end, which the exit brings
        return code


# How long a companion started as a process may take to print its address, and then to answer:
# a bound for a start that hangs, never a claim about speed. 30 s was too short on a busy
# machine: under a load of 20 on two cores, `import companion` alone took 18 s of wall time, and
# test_joining's ASCII console and test_install's reinstall both failed to start in 30 s
# (n44-fast's run of the suite without the browser, Dec 7), where they pass alone.
STARTING = 180


def start_companion(*args: str, env: dict[str, str], command: str | None = None,
                    output=subprocess.DEVNULL) -> tuple[subprocess.Popen, str]:
    """The companion as a player starts it (``python -m companion``, or an installed
    ``command``) on 127.0.0.1 and port 0: it takes a free port itself, and the address is read
    from the line it prints ("On this machine: http://127.0.0.1:PORT/..."), printed once its
    socket listens (cli.main binds before printing), so nothing here picks a port that another
    process could take before the companion binds it. Returns it and its address once it
    answers (``args`` come last: a ``--host`` among them wins; the address stays 127.0.0.1's).

    A thread reads everything it says, to its end, and copies it to ``output``: DEVNULL, a file
    (the thread writes to a copy of its descriptor; all is there once ``process.wait()``
    returns), or PIPE, where ``process.stdout`` then gives every line, those read here included
    (such a pipe must be read, or a chatty server blocks on it). Raises RuntimeError, with what it said, if it stops before printing its
    address, prints none within ``STARTING`` seconds or does not answer there within them."""
    started = [command] if command else [sys.executable, "-m", "companion"]
    process = Companion([*started, "--host", "127.0.0.1", "--port", "0", *args],
                        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said, sink = process.stdout, None
    if output == subprocess.PIPE:
        read_end, write_end = os.pipe()
        process.stdout = open(read_end, encoding=said.encoding, errors=said.errors)
        sink = open(write_end, "w", encoding=said.encoding, errors=said.errors)
    else:
        process.stdout = None
        if output != subprocess.DEVNULL:
            sink = open(os.dup(output.fileno()), "w", encoding=said.encoding, errors=said.errors)
    before: list[str] = []              # what it said before its address, for the error
    found: queue.Queue[str | None] = queue.Queue()

    def copy() -> None:
        nonlocal sink
        address = None
        with said:
            for line in said:
                if sink:
                    try:
                        sink.write(line)
                        sink.flush()
                    except (OSError, ValueError):       # the reader closed its end: drained only
                        quietly_closed(sink)
                        sink = None
                if address is None:
                    address = re.search(r"On this machine: (http://127\.0\.0\.1:\d+)/", line)
                    if address:
                        found.put(address.group(1))
                    else:
                        before.append(line)
            found.put(None)             # its end: after its address, if it printed one
            if sink:
                quietly_closed(sink)

    process.copier = threading.Thread(target=copy, name="companion's output", daemon=True)
    process.copier.start()
    try:
        base = found.get(timeout=STARTING)
    except queue.Empty:
        process.kill()
        process.wait()
        raise RuntimeError(f"the companion printed no address within {STARTING} s:\n" + "".join(before)) from None
    if base is None:
        process.wait(timeout=30)
        raise RuntimeError(f"the companion stopped (exit code {process.returncode}):\n" + "".join(before))
    # Its socket listens already: this request waits in its queue and is answered once waitress
    # serves (no polling), after which a SIGTERM stops it cleanly, as it stops a running server.
    try:
        urllib.request.urlopen(base + "/healthz", timeout=STARTING).close()
    except OSError as error:
        process.kill()
        process.wait()
        raise RuntimeError(f"the companion did not answer at {base}: {error}\n" + "".join(before)) from None
    return process, base


def api(base: str, path: str, body: dict | None = None, method: str | None = None,
        organiser: bool = True) -> dict:
    """A JSON API call to a real server at ``base``: POST ``body`` when given, else GET; the
    answer's JSON. As the organiser (its code in X-Scopa-Organiser) unless told otherwise."""
    request = urllib.request.Request(base + "/api/v1" + path,
                                     method=method or ("POST" if body is not None else "GET"),
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json",
                                              **(ORGANISER_HEADERS if organiser else {})})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def phone_context(browser, server: str, scripts: bool = True, locale: str = "en-GB"):
    """A browser context as a phone at 360 px (touch, mobile), on ``server``, with JavaScript
    or without."""
    return browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, locale=locale,
                               is_mobile=True, base_url=server, java_script_enabled=scripts)


@dataclass
class Notice:
    """The notice that offers one action (``action_notice`` in templates/_macros.html, such as
    the Undo after a delete), read from a page: its words, the address its form posts to, the
    fields the form sends (the CSRF token left out: a test posts them with its own client) and
    its button's words."""
    text: str
    action: str
    fields: list[tuple[str, str]]
    button: str


def notice(page) -> Notice | None:
    """The page's notice with an action (the first, if there are several), or None."""
    found = nodes(page, '[data-testid="notice-action"]')
    if not found:
        return None
    box = found[0]
    return Notice(text=words(box.css_first(".flash-text")), action=box.css_first("form").attributes["action"],
                  fields=[(name, value) for name, value in form_data(box.html) if name != "csrf_token"],
                  button=words(box.css_first("button")))


# -- What a browser test measures on a page (scripts for Playwright's page.evaluate) -------------

def words_on_two_lines(word: str, skipped: str = "", break_all: bool = False) -> str:
    """A script listing every word of the page's visible text (``word``, a JavaScript regular
    expression) drawn on more than one line: broken inside. Text a screen reader alone reads
    (.visually-hidden, and ``skipped``), addresses (which may break anywhere: a word with a
    "/") and, with ``break_all``, text in a box that breaks anywhere on purpose are left out."""
    return r"""() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const parent = node.parentElement;
    if (!parent || parent.closest(".visually-hidden, script, style, textarea, svg, noscript%s")) continue;
    if (%s && getComputedStyle(parent).wordBreak === "break-all") continue;
    for (const word of node.data.matchAll(/%s/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1 && !word[0].includes("/")) broken.push(`"${word[0]}" in <${parent.tagName.toLowerCase()} class="${parent.className}">`);
    }
  }
  return broken;
}""" % (f", {skipped}" if skipped else "", "true" if break_all else "false", word)


# Every word of the page's visible text (a hyphenated word counts as its parts, as a browser
# may break after a hyphen) broken inside.
BROKEN_WORDS = words_on_two_lines(r"[^\s\-–]+-?", break_all=True)

# Every box whose content is wider than the box itself: cut off (overflow hidden, an ellipsis)
# or spilling over what is beside it. Fields scroll their own text; text for screen readers
# only is 1 px wide on purpose; a table of figures may scroll sideways in its own box (as WCAG
# allows a data table), never the page.
SPILLING = """() => {
  const spilling = [];
  for (const e of document.querySelectorAll("body *")) {
    const style = getComputedStyle(e);
    if (style.display === "none" || style.display === "inline" || style.display === "contents") continue;
    if (e.closest(".visually-hidden, .label-hidden > label, svg, input, select, textarea")) continue;
    // A table of figures scrolls in its own box (nothing cut off): only these may.
    if (e.matches(".table-scroll, #record") && style.overflowX === "auto") continue;
    if (e.scrollWidth > e.clientWidth + 1)
      spilling.push(`<${e.tagName.toLowerCase()} class="${e.className}"> ${e.scrollWidth} > ${e.clientWidth}: ${e.textContent.trim().slice(0, 40)}`);
  }
  return spilling;
}"""


# axe-core's verdicts the tests hold a page to (tests/app/test_accessibility.py): no violation
# "moderate", "serious" or "critical".
AXE_BLOCKING = ("moderate", "serious", "critical")
# The text axe's color-contrast would judge, one element of each kind (``RUN_AXE``'s ``once``):
# elements that show text (a text node of their own with something in it, or a field's value),
# keyed by everything axe's verdict on one reads. Its own colour, size, weight, font, shadow and
# stroke; whether its text has a letter or a figure (axe leaves text of symbols alone); whether it
# is shown and not cut off by a box that clips it (axe leaves hidden and clipped text alone); and,
# for it and every box around it, what lies under its text: background colour and image, opacity,
# filter, blending, position and the ::before and ::after boxes' backgrounds. Two elements with
# the same key are the same colours on the same backgrounds at the same size, and get the same
# verdict; one of each is given to axe. Text under or over a box that is fixed, sticky or placed
# absolutely (the Save bar, a badge) is given to axe every time: what lies under it depends on
# where it is.
TEXT_KINDS = r"""() => {
  const chains = new Map();
  const chain = e => {
    if (!e) return "";
    if (!chains.has(e)) {
      const s = getComputedStyle(e), before = getComputedStyle(e, "::before"), after = getComputedStyle(e, "::after");
      chains.set(e, [s.backgroundColor, s.backgroundImage, s.opacity, s.filter, s.mixBlendMode, s.position,
                     before.content, before.backgroundColor, before.backgroundImage,
                     after.content, after.backgroundColor, after.backgroundImage].join(" ") + "/" + chain(e.parentElement));
    }
    return chains.get(e);
  };
  const overlays = [...document.querySelectorAll("body *")].filter(
    e => ["fixed", "sticky", "absolute"].includes(getComputedStyle(e).position)).map(e => [e, e.getBoundingClientRect()])
    .filter(([e, edge]) => edge.width > 1 && edge.height > 1);        // not text for screen readers alone
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const clipped = (e, box) => {
    if (box.left < 0 || box.right > document.scrollingElement.scrollWidth) return true;
    for (let a = e.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflow === "visible") continue;
      const edge = a.getBoundingClientRect();
      if (box.left < edge.left || box.right > edge.right || box.top < edge.top || box.bottom > edge.bottom) return true;
    }
    return false;
  };
  const kinds = new Map();
  for (const e of document.querySelectorAll("body *")) {
    const own = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("").trim();
    if (!own && !e.matches("input:not([type=hidden]), select, textarea")) continue;
    const s = getComputedStyle(e), box = e.getBoundingClientRect();
    if (overlays.some(([o, edge]) => !o.contains(e) && !e.contains(o) && meets(box, edge))) { kinds.set(kinds.size, e); continue; }
    const key = [e.tagName, e.type, s.color, s.fontSize, s.fontWeight, s.fontFamily, s.textShadow,
                 s.webkitTextStrokeWidth, s.webkitTextStrokeColor, /[\p{L}\p{N}]/u.test(own || e.value || ""),
                 e.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true}) && box.width > 0 && box.height > 0, clipped(e, box),
                 chain(e)].join("|");
    if (!kinds.has(key)) kinds.set(key, e);
  }
  return [...kinds.values()];
}"""
# axe.run in the page, keeping only the blocking violations and what a failure prints of them:
# axe-playwright-python's ``Axe.run`` brought back axe's whole results (every rule passed or not
# applicable, with a node each, the environment, the options), and Playwright serialising them
# was half of a check's time (1.2 s of 2.3 s, measured side by side). Null where the page has no
# axe yet. With ``once``, color-contrast (when the options run it) judges one element of each
# kind of text (``TEXT_KINDS``; axe judges them and what is inside them, a few elements more) and
# every other rule the whole page: color-contrast was two thirds of axe's time on a page, most of
# it on the same kind of text again (a hand form's 40 tiles, a list's rows: 300 to 860 elements
# of text, 44 to 61 kinds), and takes a third to a quarter of it so (measured side by side).
RUN_AXE = """async ([options, blocking, once]) => {
  if (!window.axe) return null;
  const rules = options.rules || {};
  const contrast = once && !options.runOnly && !(rules["color-contrast"] && rules["color-contrast"].enabled === false);
  const results = await axe.run(document, contrast ? {...options, rules: {...rules, "color-contrast": {enabled: false}}} : options);
  let violations = results.violations;
  if (contrast) {
    const kinds = (%s)();
    if (kinds.length) violations = violations.concat((await axe.run({include: kinds},
      {...options, runOnly: {type: "rule", values: ["color-contrast"]}})).violations);
  }
  return violations.filter(v => blocking.includes(v.impact)).map(v => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(node => ({target: node.target}))}));
}""" % TEXT_KINDS


def axe_source() -> str:
    """axe-core as axe-playwright-python bundles it (its axe.min.js: nothing is fetched)."""
    from axe_playwright_python.base import AXE_SCRIPT
    return AXE_SCRIPT


def axe_violations(page, options: dict | None = None, once: bool = True) -> list[dict]:
    """axe-core's blocking violations (``AXE_BLOCKING``) on ``page`` as it is, each with its id,
    impact, help and nodes' targets; axe is given to the page first unless it has it already (an
    init script of its context: ``context.add_init_script(script=axe_source())``). It runs
    outside the page's Content-Security-Policy, as everything Playwright evaluates does. With
    ``once`` (unless told otherwise), color-contrast judges one element of each kind of text
    (``RUN_AXE``, ``TEXT_KINDS``); ``once=False`` judges every element."""
    options = options or {"resultTypes": ["violations"]}
    violations = page.evaluate(RUN_AXE, [options, AXE_BLOCKING, once])
    if violations is None:
        page.evaluate(axe_source())
        violations = page.evaluate(RUN_AXE, [options, AXE_BLOCKING, once])
    return violations


def children_by_parent() -> dict[int, list[int]]:
    """Every running process's children, by its parent's pid, from /proc (Linux): a server of
    several processes, for tests/app/test_processes.py and bench_club_night.py."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    return children
