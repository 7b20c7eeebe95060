"""Found in review (issue 41, finding 3): every URL took a body of up to 8 MiB (the restore's), and
waitress spools one past 512 KiB to a deleted file in /tmp, kept while its sender trickles a
byte every 20 s: 200 guests' connections held 1.6 GB, invisible to ``du``. Now no request
carries more than 64 KiB (waitress's max_request_body_size): nothing is spooled, and 200
trickling connections hold a few MiB of memory. The organiser's restore comes in parts of
64 KiB (backup.parts), so a backup of several MiB still restores from a phone.

Measured through a real server: the deleted files its descriptors hold (bytes) and its
resident memory, once the kernel says it has read all that was sent (no receive queue left)."""

import http.client
import json
import os
import re
import socket
import sqlite3
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from big_stores import padded

from companion import create_app, store
from companion.backup import parts
from helpers import (
    ORGANISER_LINK,
    new_match,
    open_link_over_http,
    organiser,
    serving,
    start_companion,
)

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc (Linux)")

MiB = 1024 * 1024
HAND = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "sweeps": 1},
                    {"cards": 18, "coins": 4, "settebello": False, "sweeps": 0}]}


def held(pid: int) -> tuple[int, int]:
    """(bytes of the deleted files the process holds open, its resident memory in bytes)."""
    deleted = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd).endswith("(deleted)"):
                deleted += fd.stat().st_size
        except OSError:
            pass
    rss = int(re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()).group(1)) * 1024
    return deleted, rss


def unread(port: int) -> int:
    """Bytes sent to ``port`` over loopback that its server has not read yet (the receive queues
    of its established connections, /proc/net/tcp)."""
    waiting = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
            waiting += int(fields[4].split(":")[1], 16)
    return waiting


def all_read(port: int) -> None:
    """Until the server has read everything sent to it (a bound only for a stuck server)."""
    deadline = time.monotonic() + 60
    while unread(port) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert unread(port) == 0


def trickle(port: int, number: int, announced: int, sent: int) -> socket.socket | None:
    """A guest's POST that announces ``announced`` bytes and sends ``sent`` of them, then stops
    (as one sending a byte every 20 s does); None if the server closed it meanwhile."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(f"127.0.0.{10 + number % 200}", 0))
    try:
        sock.sendall(f"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                     f"Content-Length: {announced}\r\n\r\n".encode())
        sock.sendall(b"x" * sent)
    except OSError:             # refused at once (413) and closed: nothing of it is held
        sock.close()
        return None
    return sock


def test_200_trickling_connections_hold_no_disk_and_a_few_mib(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOPA_")}
    env["SCOPA_DATA"] = str(tmp_path)
    process, base = start_companion(env=env)
    port = urlsplit(base).port
    kept = []
    try:
        urllib.request.urlopen(base + "/healthz", timeout=10).close()
        _, before = held(process.pid)
        # As in the review: each announces a restore's size and sends 600 KB of it, past the
        # 512 KiB that waitress keeps in memory; then the most a guest may send now, 64 KiB.
        for number in range(200):
            kept.append(trickle(port, number, 8 * MiB, 600 * 1024))
        for number in range(200):
            kept.append(trickle(port, number, 64 * 1024, 64 * 1024 - 1))
        all_read(port)
        deleted, rss = held(process.pid)
        assert sum(sock is not None for sock in kept) >= 200      # the second 200 are held open
        assert deleted + (rss - before) < 64 * MiB, (deleted, rss - before)
        assert deleted == 0
    finally:
        for sock in kept:
            if sock is not None:
                sock.close()
        process.terminate()
        process.wait(timeout=30)


def test_a_body_past_64_kib_is_refused_on_every_url(live_server):
    base, _ = live_server
    conn = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=10)
    conn.request("POST", "/api/v1/score", body=b"{" + b" " * (64 * 1024) + b"}",
                 headers={"Content-Type": "application/json"})
    assert conn.getresponse().status == 413
    conn.close()


# -- The organiser's restore, in parts ------------------------------------------------------------

def large_store(path: Path, app_config: dict, copy_of_migrated) -> tuple[Path, int]:
    """A real store of more than 3 MiB: a match of 8 hands, the rest of its size the free pages
    of a table dropped (big_stores.padded: the parts carry a file's bytes whatever they hold, and
    some 600 copies of the match were 600 matches' rows checked by the restore). Its matches."""
    made = path.parent / "made.sqlite"
    copy_of_migrated(str(made))
    client = organiser(create_app({**app_config, "DATABASE": str(made)}))
    match_id = new_match(client, options={"target": 1000})
    for _ in range(8):
        assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    store.backup_to(str(made), str(path))
    padded(path, 3 * MiB)
    return path, 1


class Browser:
    """A phone's browser on a real server: its cookies kept, and the page's CSRF token."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def open(self, path: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes, str]:
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.read(), answer.url
        except urllib.error.HTTPError as error:
            return error.code, error.read(), path

    def token(self) -> str:
        _, page, _ = self.open("/organiser")
        return re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page).group(1).decode()


def send_parts(browser: Browser, data: bytes, token: str) -> tuple[int, dict]:
    """What restore.js does: the file in parts of 64 KiB; the last answer."""
    upload, status, said = "", 0, {}
    for offset in range(0, len(data), parts.PART):
        part = data[offset:offset + parts.PART]
        status, body, _ = browser.open(f"/backup/restore/parts?{urlencode({'upload': upload, 'offset': offset})}",
                                       part, {"Content-Type": "application/octet-stream", "X-CSRFToken": token})
        said = json.loads(body) if body.startswith(b"{") else {}
        if status != 200:
            return status, said
        upload = said["upload"]
    return status, said


def test_the_organisers_restore_of_a_store_of_several_mib_comes_in_parts(tmp_path, live_config, copy_of_migrated):
    backup, matches = large_store(tmp_path / "big.sqlite", {"TESTING": True, "SECRET_KEY": "t",
                                                             "WTF_CSRF_ENABLED": False}, copy_of_migrated)
    copy_of_migrated(live_config["DATABASE"])
    app = create_app(live_config)
    data = backup.read_bytes()
    with serving(app, threads=4) as base:
        guest = Browser(base)
        assert send_parts(guest, data[:1000], guest.token())[0] == 403       # a guest writes nothing
        assert not (Path(live_config["DATABASE"]).parent / "restore-parts").exists()
        phone = Browser(base)
        assert open_link_over_http(phone.opener, phone.base + ORGANISER_LINK)[0] == 200
        token = phone.token()
        status, said = send_parts(phone, data, token)
        assert status == 200 and said["received"] == len(data) > 3 * MiB
        status, page, url = phone.open("/backup/restore", urlencode(
            {"csrf_token": token, "upload": said["upload"], "confirm": "y"}).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 200 and urlsplit(url).path == "/", page[:300]
        assert b"Restored. The matches there before were saved to before-restore-" in page
    with sqlite3.connect(live_config["DATABASE"]) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == matches
        assert conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 8 * matches
    assert list((Path(live_config["DATABASE"]).parent / "restore-parts").iterdir()) == []


def test_a_part_that_does_not_follow_or_passes_the_limit_is_refused(app, client):
    first = client.post("/backup/restore/parts?offset=0", data=b"a" * 1000)
    upload = first.get_json()["upload"]
    assert first.get_json()["received"] == 1000
    gap = client.post(f"/backup/restore/parts?upload={upload}&offset=5000", data=b"b" * 10)
    assert gap.status_code == 409 and gap.get_json()["received"] == 1000
    again = client.post(f"/backup/restore/parts?upload={upload}&offset=500", data=b"c" * 500)     # sent again
    assert again.get_json()["received"] == 1000
    app.config["RESTORE_LIMIT"] = 2000
    large = client.post(f"/backup/restore/parts?upload={upload}&offset=1000", data=b"d" * 1001,
                        headers={"Accept-Language": "it"})
    assert large.status_code == 413 and large.get_json()["error"].startswith("Nessun ripristino")
    unknown = client.post("/backup/restore/parts?upload=" + "0" * 32 + "&offset=10", data=b"e")
    assert unknown.status_code == 409
    assert client.post("/backup/restore/parts?upload=../../x&offset=10", data=b"e").status_code == 409
    assert client.post("/backup/restore/parts?offset=-1", data=b"e").status_code == 400
