"""Serving real phones: compressed answers (the static files': test_assets.py), polls
that keep their connection, and a server sized for a club night."""

import gzip
import http.client
import re
import socket
from urllib.parse import urlsplit

import pytest
from command_here import main_here

import companion
from companion import cli, create_app
from companion.cli import parse_args
from companion.listening import CHANNEL_TIMEOUT, CLEANUP_INTERVAL, make_server, raise_open_file_limit
from helpers import serving
from markup import attr, attrs


@pytest.fixture
def csrf():
    """This module's companion checks CSRF tokens, as a real server does."""
    return True


# A form's CSRF token as a page carries it: signed with the second it was made (Flask-WTF's
# timed token), so two answers a second apart differ there and nowhere else.
CSRF_TOKEN = re.compile(rb'name="csrf_token" value="[^"]*"')


def test_pages_and_fragments_are_compressed_for_phones_that_accept_it(client):
    """The same page, gzipped for a phone that accepts it. (Its CSRF tokens left out of the
    comparison: on a loaded machine the two answers were once a second apart, their tokens
    signed with two seconds.)"""
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    plain = client.get(f"/matches/{match_id}")
    packed = client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.vary
    assert CSRF_TOKEN.search(plain.data)
    assert CSRF_TOKEN.sub(b"", gzip.decompress(packed.data)) == CSRF_TOKEN.sub(b"", plain.data)
    assert len(packed.data) < len(plain.data) / 2


def test_an_unchanged_poll_keeps_its_connection_on_waitress(tmp_path):
    app = create_app({"SECRET_KEY": "serve", "DATABASE": str(tmp_path / "serve.sqlite")})
    with serving(app, threads=2) as base:
        conn = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=10)
        conn.request("POST", "/api/v1/matches", body='{"players": ["Anna", "Bruno"]}',
                     headers={"Content-Type": "application/json"})
        match_id = __import__("json").load(conn.getresponse())["id"]
        sockets = set()
        for _ in range(5):
            conn.request("GET", f"/matches/{match_id}/poll?since=0", headers={"HX-Request": "true"})
            answer = conn.getresponse()
            assert answer.status == 200 and answer.read() == b""
            assert answer.getheader("Connection") != "close"
            sockets.add(id(conn.sock))
        assert len(sockets) == 1 and conn.sock is not None     # one connection for all five
        conn.close()


def test_the_server_is_sized_for_a_club_night(monkeypatch):
    args = parse_args([]).settings
    # 600 phones, each browser keeping 4 connections (the load benchmark's 600-phone run).
    assert args.connection_limit >= 2400 and args.threads == 8 and CHANNEL_TIMEOUT >= 60
    monkeypatch.setenv("SCOPA_CONNECTION_LIMIT", "3000")
    monkeypatch.setenv("SCOPA_THREADS", "12")
    assert (parse_args([]).settings.connection_limit, parse_args([]).settings.threads) == (3000, 12)
    assert parse_args(["--connection-limit", "500"]).settings.connection_limit == 500


def test_the_open_file_limit_is_raised_for_the_connections():
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        wanted = soft + 100 if hard == resource.RLIM_INFINITY else min(soft + 100, hard)
        assert raise_open_file_limit(wanted) == wanted
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == wanted
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_companion_can_be_put_on_a_phones_home_screen(client):
    """A web app manifest with the product's name, the felt's green and icons that resolve (at
    their hashed URLs, kept a year), linked from every page with an icon for iOS."""
    page = client.get("/").get_data(as_text=True)
    linked = attr(page, 'link[rel="manifest"]', "href")
    answer = client.get(linked)
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest["name"] == "Scopa companion" and manifest["short_name"] == "Scopa"
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert manifest["background_color"] == manifest["theme_color"] == "#0f5132"
    assert {(i["sizes"], i["purpose"]) for i in manifest["icons"]} >= {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    apple = attr(page, 'link[rel="apple-touch-icon"]', "href")
    for src, size in [(i["src"], i["sizes"]) for i in manifest["icons"]] + [(apple, "180x180")]:
        assert re.search(r"\.[0-9a-f]{10}\.png$", src), src
        icon = client.get(src)
        assert icon.status_code == 200 and icon.mimetype == "image/png", src
        assert "immutable" in icon.headers["Cache-Control"]
        assert "%dx%d" % png_size(icon.data) == size, src
        icon.close()
    assert attrs(page, 'meta[name="theme-color"]', "media") == [
        "(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"]
    assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in attrs(page, 'meta[name="theme-color"]', "content"))
    italian = client.get(linked, headers={"Accept-Language": "it"}).get_json(force=True)
    assert italian["name"] == "Segnapunti di Scopa" and italian["lang"] == "it"
    spanish = client.get(linked, headers={"Accept-Language": "es-AR,es;q=0.9"}).get_json(force=True)
    assert spanish["name"] == "Anotador de Scopa" and spanish["lang"] == "es"


def test_the_command_gives_waitress_its_sockets_and_limits(monkeypatch, tmp_path):
    """What main() hands waitress: the sockets it bound before printing anything, a body
    limit that is the largest body the app accepts (64 KiB: a restore comes in parts), the forwarding
    headers left for the app to read, and the connections bounded."""
    import waitress
    served = {}
    monkeypatch.setattr(waitress, "serve", lambda app, **options: served.update(
        app=app, bound=[sock.getsockname() for sock in options["sockets"]], **options))
    monkeypatch.setattr(cli, "print_join", lambda urls, local, stream=None, qr=None: None)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    monkeypatch.setenv("SCOPA_LANG", "it")      # main() sets it
    assert main_here(["--host", "127.0.0.1", "--port", "0", "--connection-limit", "500",
                     "--processes", "1"]) == 0
    app = served["app"]
    [(host, port)] = served["bound"]                # port 0: the one the system gave
    assert host == "127.0.0.1" and port > 0
    assert app.config["LAN_URLS"] == [f"http://127.0.0.1:{port}/"]
    assert "host" not in served and "port" not in served
    # Every body under 64 KiB (a restore comes in parts), the headers under 32 KiB (issue 41)
    assert served["max_request_body_size"] == app.config["MAX_CONTENT_LENGTH"] + 1 == 64 * 1024 + 1
    assert served["max_request_header_size"] == 32 * 1024
    assert app.config["RESTORE_LIMIT"] == companion.RESTORE_LIMIT == 8 * 1024 * 1024
    assert served["clear_untrusted_proxy_headers"] is False
    assert served["connection_limit"] <= 500
    assert (served["channel_timeout"], served["cleanup_interval"]) == (CHANNEL_TIMEOUT, CLEANUP_INTERVAL)
    assert served["asyncore_use_poll"] is True
    assert served["_server"] is make_server       # a connection's requests one at a time


def test_no_url_takes_a_body_over_a_few_mib_not_even_announced(live_server):
    """Found in review: any phone could make the server hold about 200 MiB per connection, on
    any URL (the restore's limit applied to every request): waitress spooled a POST /healthz
    announcing 190 MiB to disk before the app saw it. Now a request announcing more than the
    largest a phone sends (a restore of up to 8 MiB) is refused at once, before a byte of its
    body is read, and its connection closed: nothing of it is held."""
    base, _ = live_server
    with socket.create_connection(("127.0.0.1", urlsplit(base).port), timeout=10) as conn:
        conn.sendall(b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/octet-stream\r\n"
                     b"Content-Length: 199229440\r\n\r\n")          # 190 MiB, never sent
        answer = b""
        while chunk := conn.recv(65536):                            # until waitress closes it
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b"Connection: close" in answer


def test_waitress_refuses_a_body_over_the_limit_before_reading_it(live_server):
    """Found in review: waitress took up to 1 GiB of any request on disk before the app's
    limit answered. Now a body announced over the restore's limit is refused at once. (Served
    by waitress with the options the command gives it, test_the_command_gives_waitress_its_sockets_and_limits
    holds them, in a thread of the test's process: the limit is waitress's, not the process's.)"""
    base, _ = live_server
    with socket.create_connection(("127.0.0.1", urlsplit(base).port), timeout=10) as conn:
        conn.sendall(b"POST /backup/restore HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: multipart/form-data; boundary=x\r\n"
                     b"Content-Length: 9000000\r\n\r\n")          # 8.6 MiB, never sent
        assert conn.recv(100).startswith(b"HTTP/1.1 413 ")
