"""Small helpers for the tests: cards written as in RULES §1, and a real server."""

import socket
import subprocess
import sys
import time
import urllib.request

from companion.rules import deck, parse_cards


def cards(text: str):
    """cards("7d 7c 6b 1s") -> the list of Cards."""
    return parse_cards(text.split())


def split_deck(first: str, size: int = 40):
    """Two piles: the cards named, and every other card of the deck."""
    pile = cards(first)
    return pile, [card for card in deck(size) if card not in pile]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_companion(*args: str, env: dict[str, str], command: str | None = None,
                    output=subprocess.DEVNULL) -> tuple[subprocess.Popen, str]:
    """The companion as a player starts it (``python -m companion``, or an installed
    ``command``) on 127.0.0.1 and a free port; returns it and its address once it answers.
    ``output``: where its messages go (a pipe must be read, or a chatty server blocks on it)."""
    port = free_port()
    started = [command] if command else [sys.executable, "-m", "companion"]
    process = subprocess.Popen([*started, "--host", "127.0.0.1", "--port", str(port), *args],
                               env=env, stdout=output, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).close()
            return process, base
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"the companion stopped: {process.stdout.read() if process.stdout else ''}")
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the companion did not answer within 30 s")
