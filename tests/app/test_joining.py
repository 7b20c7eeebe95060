"""Joining from the phones: the address printed first and drawn as the QR code, --url, a
terminal that cannot draw, and the mDNS name scopa-companion.local."""

import io
import socket
import sys
import urllib.request

import pytest
from command_here import main_here, main_serving

from companion import cli
from companion.cli import allowed_hosts, full_url, lan_addresses, parse_ip_addr, print_join
from companion.web import welcome

# As ``ip -4 -o addr show scope global`` prints it: one interface a line, its name in field 2.
IP_OUTPUT = (
    "3: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\"
    "       valid_lft forever preferred_lft forever\n"
    "4: br-5f2a9c1e0b7d    inet 172.18.0.1/16 brd 172.18.255.255 scope global br-5f2a9c1e0b7d\\"
    "       valid_lft forever preferred_lft forever\n"
    "5: wg0    inet 10.8.0.2/24 scope global wg0\\       valid_lft forever preferred_lft forever\n"
    "6: eth0    inet 10.0.0.7/8 brd 10.255.255.255 scope global eth0\\"
    "       valid_lft forever preferred_lft forever\n"
    "7: virbr0    inet 192.168.122.1/24 brd 192.168.122.255 scope global virbr0\\"
    "       valid_lft forever preferred_lft forever\n"
    "8: wlp2s0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic wlp2s0\\"
    "       valid_lft 85000sec preferred_lft 85000sec\n")


# -- Which address comes first -------------------------------------------------------------

def test_virtual_adapters_come_after_the_real_ones():
    assert parse_ip_addr(IP_OUTPUT) == ["10.0.0.7", "192.168.1.23",
                                        "172.17.0.1", "172.18.0.1", "10.8.0.2", "192.168.122.1"]


def test_the_default_routes_address_leads_the_real_ones():
    assert parse_ip_addr(IP_OUTPUT, default="192.168.1.23")[:2] == ["192.168.1.23", "10.0.0.7"]


def test_a_vpns_default_route_does_not_put_it_before_the_wi_fi():
    order = parse_ip_addr(IP_OUTPUT, default="10.8.0.2")
    assert order[:2] == ["10.0.0.7", "192.168.1.23"]
    assert order[2] == "10.8.0.2"       # first of the virtual ones


class RoutedSocket:
    """A UDP socket whose route goes out through 192.168.1.23."""
    connected_to = None

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, address):
        RoutedSocket.connected_to = address

    def getsockname(self):
        return ("192.168.1.23", 54321)


class NoRouteSocket(RoutedSocket):
    def connect(self, address):
        raise OSError(101, "Network is unreachable")


def test_the_default_route_is_read_from_a_udp_socket(monkeypatch):
    monkeypatch.setattr(cli.socket, "socket", RoutedSocket)
    assert cli.default_route_address() == "192.168.1.23"
    assert RoutedSocket.connected_to[0] == "192.0.2.1"


def test_without_a_route_there_is_no_default_address(monkeypatch):
    monkeypatch.setattr(cli.socket, "socket", NoRouteSocket)
    assert cli.default_route_address() is None


def test_the_default_routes_address_is_printed_first(monkeypatch):
    monkeypatch.setattr(cli, "ip_addr_output", lambda: IP_OUTPUT)
    monkeypatch.setattr(cli.socket, "socket", RoutedSocket)
    addresses = lan_addresses()
    assert addresses[0] == "192.168.1.23"
    assert addresses[-4:] == ["172.17.0.1", "172.18.0.1", "10.8.0.2", "192.168.122.1"]


def test_without_ip_the_default_route_leads_the_host_names_addresses(monkeypatch):
    monkeypatch.setattr(cli, "ip_addr_output", lambda: "")
    monkeypatch.setattr(cli.socket, "socket", RoutedSocket)
    monkeypatch.setattr(cli.socket, "getaddrinfo", lambda *args: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, 0))
        for address in ("172.17.0.1", "127.0.1.1", "192.168.1.23")])
    assert lan_addresses() == ["192.168.1.23", "172.17.0.1"]


def test_without_any_network_the_list_is_as_before(monkeypatch):
    monkeypatch.setattr(cli, "ip_addr_output", lambda: IP_OUTPUT)
    monkeypatch.setattr(cli.socket, "socket", NoRouteSocket)
    assert lan_addresses() == parse_ip_addr(IP_OUTPUT)
    monkeypatch.setattr(cli, "ip_addr_output", lambda: "")
    monkeypatch.setattr(cli.socket, "getaddrinfo", lambda *args: (_ for _ in ()).throw(OSError()))
    assert lan_addresses() == []


# -- --url ---------------------------------------------------------------------------------

@pytest.mark.parametrize("given, url", [
    ("scopa.lan", "http://scopa.lan:8000/"),
    ("192.168.1.5", "http://192.168.1.5:8000/"),
    ("192.168.1.5:8080", "http://192.168.1.5:8080/"),
    ("scopa.lan:80/", "http://scopa.lan:80/"),
    ("http://192.168.1.5:8000", "http://192.168.1.5:8000/"),
    ("https://scopa.example", "https://scopa.example/"),
    ("https://scopa.example/", "https://scopa.example/"),
])
def test_a_url_given_becomes_one_phones_open(given, url):
    assert full_url(given, 8000) == url


@pytest.mark.parametrize("given", ["scopa.lan:port", "http://"])
def test_a_url_that_names_no_host_is_refused(given):
    with pytest.raises(ValueError):
        full_url(given, 8000)


def test_the_first_url_given_is_printed_first_and_drawn(monkeypatch, tmp_path):
    """main() with waitress replaced: the first --url leads LAN_URLS (the home page's QR) and
    the terminal's lines; the machine's addresses follow."""
    import waitress
    served = {}
    monkeypatch.setattr(waitress, "serve", lambda app, sockets, **options: served.update(
        app=app, port=sockets[0].getsockname()[1]))
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.168.1.23"])
    monkeypatch.setattr(cli, "announce", lambda address, port, stream=None: None)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    monkeypatch.setenv("SCOPA_LANG", "it")      # main() sets it
    drawn, qrs = [], []
    monkeypatch.setattr(cli, "print_join", lambda urls, local, stream=None, qr=None: (
        drawn.append(urls), qrs.append(qr)))
    assert main_here(["--port", "0", "--url", "scopa.lan", "--url", "https://scopa.example"]) == 0
    port = served["port"]                       # the one the system gave for port 0
    urls = served["app"].config["LAN_URLS"]
    assert urls == [f"http://scopa.lan:{port}/", "https://scopa.example/", f"http://192.168.1.23:{port}/"]
    assert drawn == [urls]
    # The QR drawn is the first address with the token of the night (web.welcome), which the
    # companion served takes.
    [link] = qrs
    assert link.startswith(f"http://scopa.lan:{port}/?welcome=")
    assert welcome.lets_in(link.split("welcome=")[1], served["app"])
    assert {"scopa.lan", "scopa.example", "192.168.1.23"} <= set(served["app"].config["ALLOWED_HOSTS"])
    with served["app"].test_request_context("/", base_url=f"http://127.0.0.1:{port}/"):
        from companion.web.pages import join_url
        assert join_url() == f"http://scopa.lan:{port}/"


# -- The QR code in the terminal -----------------------------------------------------------

def test_the_qr_code_is_drawn_where_the_terminal_can():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    print_join(["http://192.168.1.23:8000/", "http://10.0.0.7:8000/"], "http://127.0.0.1:8000/", stream)
    stream.flush()
    text = stream.buffer.getvalue().decode("utf-8")
    assert text.startswith("Open on the phones at the table: http://192.168.1.23:8000/\n")
    assert "  or: http://10.0.0.7:8000/" in text
    assert "\u2588" in text and "cannot draw" not in text
    assert text.rstrip().endswith("On this machine: http://127.0.0.1:8000/")


def test_an_ascii_terminal_gets_the_address_and_no_drawing():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    print_join(["http://192.168.1.23:8000/"], "http://127.0.0.1:8000/", stream)
    stream.flush()
    text = stream.buffer.getvalue().decode("ascii")
    assert "Open on the phones at the table: http://192.168.1.23:8000/" in text
    assert "This terminal cannot draw the QR code" in text
    assert "the home page shows it" in text
    assert "On this machine: http://127.0.0.1:8000/" in text


def test_a_name_the_terminal_cannot_print_is_escaped():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    print_join(["http://caff\u00e8.lan:8000/"], "http://127.0.0.1:8000/", stream)
    stream.flush()
    assert "http://caff\\xe8.lan:8000/" in stream.buffer.getvalue().decode("ascii")


def test_the_companion_starts_on_an_ascii_console(monkeypatch, tmp_path, copy_of_migrated):
    """The whole start, its output an ASCII console (a redirected Windows console: what
    PYTHONIOENCODING=ascii makes of sys.stdout, strict errors and all): it serves, and says where
    the QR code is. The command's cli.main in the test's process (command_here.main_serving),
    on 127.0.0.1 only, so that nothing is announced on the network; a character the console
    cannot print would be the test's own UnicodeEncodeError."""
    console = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", console)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    copy_of_migrated(str(tmp_path / "scopa.sqlite"))
    served = []

    def a_phone(port: int) -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as answer:
            served.append(answer.status)

    assert main_serving(monkeypatch, ["--host", "127.0.0.1", "--port", "0", "--url", "http://192.168.1.5:8000/"],
                        a_phone) == 0
    console.flush()
    out = console.buffer.getvalue().decode("ascii")
    assert served == [200]
    assert "Open on the phones at the table: http://192.168.1.5:8000/" in out
    assert "This terminal cannot draw the QR code" in out


# -- scopa-companion.local -----------------------------------------------------------------

try:
    import zeroconf
except ImportError:
    zeroconf = None
needs_zeroconf = pytest.mark.skipif(zeroconf is None, reason="the zeroconf extra is not installed")


class FakeZeroconf:
    """Records what would be announced, without a socket."""
    made = []

    def __init__(self, *args, **kwargs):
        self.registered, self.unregistered, self.closed = [], [], False
        FakeZeroconf.made.append(self)

    def register_service(self, info, *args, **kwargs):
        self.registered.append(info)

    def unregister_service(self, info):
        self.unregistered.append(info)

    def close(self):
        self.closed = True


@needs_zeroconf
def test_the_companion_is_announced_as_scopa_companion_local(monkeypatch):
    FakeZeroconf.made = []
    monkeypatch.setattr(zeroconf, "Zeroconf", FakeZeroconf)
    withdraw = cli.announce("192.168.1.23", 8123, io.StringIO())
    assert withdraw is not None
    (responder,) = FakeZeroconf.made
    (info,) = responder.registered
    assert info.type == "_http._tcp.local."
    assert info.name == "Scopa companion._http._tcp.local."
    assert info.server == "scopa-companion.local."
    assert info.port == 8123
    assert info.addresses == [socket.inet_aton("192.168.1.23")]
    withdraw()
    assert responder.unregistered == [info] and responder.closed


@needs_zeroconf
def test_a_name_already_taken_is_not_announced(monkeypatch):
    class Taken(FakeZeroconf):
        def register_service(self, info, *args, **kwargs):
            raise zeroconf.NonUniqueNameException

    monkeypatch.setattr(zeroconf, "Zeroconf", Taken)
    said = io.StringIO()
    assert cli.announce("192.168.1.23", 8000, said) is None
    assert "another companion" in said.getvalue()


def test_without_zeroconf_nothing_is_announced(monkeypatch):
    monkeypatch.setitem(sys.modules, "zeroconf", None)      # import zeroconf raises ImportError
    said = io.StringIO()
    assert cli.announce("192.168.1.23", 8000, said) is None
    # The command that installs it, as it is typed (it only said "Install the zeroconf extra").
    assert f"(To be found as {cli.MDNS_HOST} too: " in said.getvalue()
    assert "-m pip install zeroconf, then start it again.)" in said.getvalue()


def test_the_local_name_follows_the_address_and_is_withdrawn_at_exit(monkeypatch, tmp_path):
    import waitress
    served, withdrawn = {}, []
    monkeypatch.setattr(waitress, "serve", lambda app, sockets, **options: served.update(
        app=app, port=sockets[0].getsockname()[1]))
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.168.1.23", "172.17.0.1"])
    monkeypatch.setattr(cli, "announce",
                        lambda address, port, stream=None: lambda: withdrawn.append((address, port)))
    monkeypatch.setattr(cli, "print_join", lambda urls, local, stream=None, qr=None: None)
    monkeypatch.setenv("SCOPA_DATA", str(tmp_path))
    monkeypatch.setenv("SCOPA_LANG", "it")      # main() sets it
    assert main_here(["--port", "0"]) == 0
    port = served["port"]                       # the one the system gave for port 0
    assert served["app"].config["LAN_URLS"] == [
        f"http://192.168.1.23:{port}/", f"http://scopa-companion.local:{port}/", f"http://172.17.0.1:{port}/"]
    assert withdrawn == [("192.168.1.23", port)]
    assert "scopa-companion.local" in allowed_hosts("0.0.0.0", [], [])
