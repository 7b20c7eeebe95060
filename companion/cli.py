"""``scopa-companion``: serve the companion on the local network with waitress.

The Flask development server never faces the network; waitress runs on Windows, macOS and Linux.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Callable, TextIO
from urllib.parse import quote, urlsplit

from pydantic import ValidationError

from .i18n import LANGUAGES
from .listening import bind, open_connections, refusal
from .organiser.command import organiser_options
from .processes import default_count as default_processes, served
from .settings import ORGANISER_PIN_MIN, Settings, full_url, refusals
from .web import welcome

# Interfaces of containers, virtual machines and VPNs: phones at the table seldom reach these.
VIRTUAL_INTERFACES = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg",
                      "zt", "tailscale", "utun", "lxc", "lxd", "cni", "flannel", "podman")

# The name the companion announces over mDNS when the zeroconf extra is installed.
MDNS_HOST = "scopa-companion.local"


def parse_ip_addr(output: str, default: str | None = None) -> list[str]:
    """The IPv4 addresses in the output of ``ip -4 -o addr show scope global``: ``default`` (the
    default route's) first, those of virtual adapters (containers, virtual machines, VPNs) last.

    >>> parse_ip_addr("3: docker0    inet 172.17.0.1/16 scope global docker0\\n"
    ...               "4: eth0    inet 10.0.0.7/8 scope global eth0\\n"
    ...               "5: wlan0    inet 192.168.1.23/24 scope global wlan0", default="192.168.1.23")
    ['192.168.1.23', '10.0.0.7', '172.17.0.1']
    """
    found = [(name.lower().startswith(VIRTUAL_INTERFACES), address != default, address)
             for name, address in re.findall(r"\d+:\s+(\S+)\s+inet (\d+\.\d+\.\d+\.\d+)/", output)
             if not address.startswith("127.")]
    return [address for *_, address in sorted(found, key=lambda item: item[:2])]


def default_route_address() -> str | None:
    """This machine's address on the route to the internet: the one phones on the same Wi-Fi
    reach. A UDP socket's connect() sends nothing, it only picks the route; None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))       # TEST-NET-1: reserved, so routed by default
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def ip_addr_output() -> str:
    """What Linux's ``ip`` lists of the interfaces' IPv4 addresses; empty without ``ip``."""
    if not shutil.which("ip"):
        return ""
    try:
        return subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"],
                              capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that phones on the same network can reach, the default
    route's first (unless it is a VPN's), those of virtual adapters last.

    Read from the interfaces (Linux's ``ip``), else from the host name's addresses (macOS and
    Windows list the LAN address there); nothing is sent on the network."""
    default = default_route_address()
    found = parse_ip_addr(ip_addr_output(), default)
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        except OSError:
            infos = []
        for info in infos:
            address = str(info[4][0])      # an IPv4 address (AF_INET): a str already
            if not address.startswith("127.") and address not in found and address != default:
                found.append(address)
    if default and default not in found:
        found.insert(0, default)
    return found


def printable(text: str, stream: TextIO) -> bool:
    """Whether ``stream`` can print ``text`` (one with no encoding, such as StringIO, takes any)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        text.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def print_join(urls: list[str], local_url: str, stream: TextIO | None = None, *,
               qr: str | None = None) -> None:
    """The addresses the phones open, the first also as a QR code when the terminal can draw
    one (``qr``: it with the token of the night, ``web.welcome``), and this machine's own."""
    stream = stream if stream is not None else sys.stdout

    def say(line: str) -> None:
        if not printable(line, stream):
            line = line.encode("ascii", "backslashreplace").decode("ascii")
        print(line, file=stream, flush=True)

    for number, url in enumerate(urls):
        say(f"{'Open on the phones at the table' if number == 0 else '  or'}: {url}")
    if urls:
        import segno
        drawing = io.StringIO()
        segno.make(qr or urls[0], error="m").terminal(out=drawing, compact=True)
        if printable(drawing.getvalue(), stream):
            stream.write(drawing.getvalue())
            if qr:
                say("(Scanned, it lets a phone in as the club's for 12 hours: show it to the club only.)")
        else:
            say(f"(This terminal cannot draw the QR code: open {local_url} on this machine, "
                f"the home page shows it; or type {urls[0]} on the phones.)")
    say(f"On this machine: {local_url}")


def organiser_line(url: str, code: str, fixed: bool) -> str:
    """What the terminal says to the organiser: the link with the fresh code (the join address's
    /organiser), or, for a club's own PIN, where to type it (the PIN itself is never printed: the
    screen may be shared, and the PIN lasts from week to week).

    >>> organiser_line("http://192.168.1.23:8000/", "K7P-2QX", fixed=False)
    'Organiser: open http://192.168.1.23:8000/organiser?code=K7P-2QX on your phone'
    >>> organiser_line("http://192.168.1.23:8000/", "scopa-club", fixed=True)
    "Organiser: open http://192.168.1.23:8000/organiser on your phone and type the club's organiser PIN"
    """
    page = f"{url.rstrip('/')}/organiser"
    if fixed:
        return f"Organiser: open {page} on your phone and type the club's organiser PIN"
    return f"Organiser: open {page}?code={quote(code, safe='')} on your phone"


def print_organiser(url: str, code: str, fixed: bool, qr: bool = False,
                    stream: TextIO | None = None) -> None:
    """The organiser's line, and with ``qr`` (--organiser-qr) its link as a QR code, code and
    all: off by default, since the screen the join code is shown on may be shared."""
    stream = stream if stream is not None else sys.stdout
    line = organiser_line(url, code, fixed)
    if not printable(line, stream):
        line = line.encode("ascii", "backslashreplace").decode("ascii")
    print(line, file=stream, flush=True)
    if qr:
        import segno
        drawing = io.StringIO()
        link = f"{url.rstrip('/')}/organiser?code={quote(code, safe='')}"
        segno.make(link, error="m").terminal(out=drawing, compact=True)
        if printable(drawing.getvalue(), stream):
            stream.write(drawing.getvalue())
        else:
            print("(This terminal cannot draw the organiser's QR code.)", file=stream, flush=True)


def announce(address: str, port: int, stream: TextIO | None = None) -> Callable[[], None] | None:
    """Announce the companion over mDNS as scopa-companion.local, when the zeroconf extra is
    installed. Returns what withdraws the announcement, or None when nothing was announced
    (a line says why)."""
    stream = stream if stream is not None else sys.stdout
    try:
        import zeroconf
    except ImportError:
        from .upkeep import install_command
        print(f"(To be found as {MDNS_HOST} too: {install_command('zeroconf')}, then start it again.)",
              file=stream, flush=True)
        return None
    info = zeroconf.ServiceInfo("_http._tcp.local.", "Scopa companion._http._tcp.local.",
                                addresses=[socket.inet_aton(address)], port=port,
                                server=f"{MDNS_HOST}.", properties={"path": "/"})
    try:
        responder = zeroconf.Zeroconf()
    except (OSError, RuntimeError) as error:        # no network interface to announce on
        print(f"(Not announced as {MDNS_HOST}: {error})", file=stream, flush=True)
        return None
    try:
        responder.register_service(info)
    except zeroconf.NonUniqueNameException:
        responder.close()
        print(f"(Not announced as {MDNS_HOST}: another companion on this network already is.)",
              file=stream, flush=True)
        return None
    except (OSError, RuntimeError, zeroconf.Error) as error:
        responder.close()
        print(f"(Not announced as {MDNS_HOST}: {error})", file=stream, flush=True)
        return None

    def withdraw() -> None:
        try:
            responder.unregister_service(info)
        except (OSError, zeroconf.Error):
            pass            # phones forget the name within two minutes anyway
        responder.close()
    return withdraw


def version() -> str:
    """The installed package's version (its metadata), else the checkout's own."""
    from importlib.metadata import PackageNotFoundError, version as installed
    try:
        return installed("scopa-companion")
    except PackageNotFoundError:
        from . import __version__
        return __version__


# Each flag that sets a setting, by the field of ``Settings`` it sets: a flag and its variable
# are checked by the same validator (companion/settings.py).
FLAGS = {"host": "--host", "port": "--port", "db": "--db", "url": "--url", "trust_proxy": "--trust-proxy",
         "lang": "--lang", "threads": "--threads", "processes": "--processes",
         "connection_limit": "--connection-limit",
         "organiser_pin_file": "--organiser-pin-file", "organiser_pin": "--organiser-pin"}


class Refused(Exception):
    """Settings refused, one line each (``settings.refusals``): exit 2, as for a bad flag."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The flags, and ``settings``: the flags given over the environment's variables, checked
    (Refused). The flags default to nothing, so that a variable applies unless its flag is given."""
    parser = argparse.ArgumentParser(
        prog="scopa-companion",
        description="Keep the score of a real game of Scopa: open the address it prints on "
                    "every phone at the table.")
    parser.add_argument("--version", action="version", version=f"scopa-companion {version()}")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface; "
                                       "env SCOPA_HOST)")
    parser.add_argument("--port", help="port to listen on (default 8000; env SCOPA_PORT)")
    parser.add_argument("--db", help="the SQLite file that keeps the matches (default: scopa.sqlite "
                                     "in the user's data folder; env SCOPA_DB)")
    parser.add_argument("--url", action="append",
                        help="an address the phones use to reach the companion other than this "
                             "machine's own (a name on the network, or a reverse proxy's public "
                             "address): the first is the address printed first and drawn as the "
                             "QR code; a host or host:port becomes http://host:port/ (the "
                             "companion's port if none); requests naming any other host are "
                             "refused (repeatable, or several separated by spaces; env SCOPA_URL)")
    parser.add_argument("--trust-proxy", metavar="ADDRESS",
                        help="the address of the one reverse proxy in front (such as 127.0.0.1): "
                             "each phone's address is taken from its X-Forwarded-For, and only "
                             "from it (env SCOPA_TRUST_PROXY); bind with --host 127.0.0.1 so that "
                             "no phone bypasses it")
    parser.add_argument("--lang", metavar="{" + ",".join(LANGUAGES) + "}",
                        help="the pages' language for a phone that asks for none of "
                             f"{', '.join(LANGUAGES)} (default it; env SCOPA_LANG); each player "
                             "can switch on any page")
    parser.add_argument("--threads", help="worker threads (default 8; env SCOPA_THREADS): a request "
                                          "takes a few milliseconds of CPU, so more threads than "
                                          "this only help while saves wait for SQLite's write lock")
    parser.add_argument("--processes", help="serving processes on Linux (default one a core, up to 4; "
                                            "env SCOPA_PROCESSES; docs/running.md)")
    parser.add_argument("--connection-limit",
                        help="open connections served at once (default 8000; env "
                             "SCOPA_CONNECTION_LIMIT): a phone's browser keeps 4 to 6 open "
                             "to the companion, so 600 phones hold 2,400 to 3,600; past the "
                             "limit a new phone waits, and its page may never load "
                             "(docs/running.md)")
    parser.add_argument("--organiser-pin-file", metavar="FILE",
                        help="a file whose first line is the organiser's code, the same at every "
                             f"start (at least {ORGANISER_PIN_MIN} characters; env "
                             "SCOPA_ORGANISER_PIN_FILE, or the code itself in SCOPA_ORGANISER_PIN); "
                             "by default a fresh code is printed at each start. A phone that "
                             "opens the organiser's link or types the code is the organiser's "
                             "until it logs out, or 12 hours after its last use")
    parser.add_argument("--organiser-pin", help="the same code given on the command line, where "
                        "every user of this machine sees it (ps): a warning says so")
    parser.add_argument("--organiser-qr", action="store_true",
                        help="also draw the organiser's link, code and all, as a QR code (off by "
                             "default: the screen may be shared; refused with a club's own PIN, "
                             "which would be drawn)")
    from .upkeep import add_commands
    add_commands(parser)
    args = parser.parse_args(argv)
    given = {name: getattr(args, name) for name in FLAGS if getattr(args, name, None) not in (None, "")}
    try:
        args.settings = Settings(**given)
    except ValidationError as error:
        raise Refused(refusals(error, {name: FLAGS[name] for name in given})) from None
    return args


def allowed_hosts(host: str, addresses: list[str], urls: list[str]) -> list[str]:
    """The host names a request may name: this machine's (its addresses, its name, loopback in
    IPv4 and IPv6, scopa-companion.local) and those given with --url. Any other is a page of
    another site pointed at this one (DNS rebinding), and is refused."""
    names = {"localhost", "127.0.0.1", "::1", MDNS_HOST, *addresses}
    if host not in ("0.0.0.0", "::", ""):
        names.add(host)
    hostname = socket.gethostname()
    if hostname:
        names.update({hostname, hostname.lower(), f"{hostname.lower()}.local"})
    for url in urls:
        parsed = urlsplit(url if "//" in url else f"//{url}")
        if parsed.hostname:
            names.add(parsed.hostname)
    return sorted(names)


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
    except Refused as refused:
        for line in refused.args[0]:
            print(f"scopa-companion: {line}", file=sys.stderr)
        return 2
    if hasattr(sys.stdout, "reconfigure"):      # a path or a name this console cannot print
        sys.stdout.reconfigure(errors="backslashreplace")
    if args.command:                            # backup FILE, restore FILE: no serving
        from .upkeep import run
        return run(args)
    problem = organiser_options(args)
    if problem:
        print(f"scopa-companion: {problem}", file=sys.stderr)
        return 2
    # The port first: nothing is printed for a server that cannot start.
    settings = args.settings
    try:
        sockets = bind(settings.host, settings.port)
    except OSError as error:
        print(refusal(settings.host, settings.port, error), file=sys.stderr)
        return 1
    try:
        return serve_on(sockets, args)
    finally:
        for sock in sockets:
            sock.close()


def serve_on(sockets: list[socket.socket], args: argparse.Namespace) -> int:
    """The store opened, the banner and the addresses printed, then waitress on ``sockets``
    until Ctrl-C."""
    port = sockets[0].getsockname()[1]          # the one taken, for --port 0
    from .upkeep import while_held
    # The store's lock held while serving: no restore command runs under a serving companion.
    return while_held(args.settings, lambda: _serve_store(sockets, args, port))


def _serve_store(sockets: list[socket.socket], args: argparse.Namespace, port: int) -> int:
    from . import store
    from .upkeep import backup_command, opened_app, restore_command, stopped_by_signals
    from .web.organiser import new_code

    settings = args.settings
    app = opened_app(settings)
    if app is None:             # said why, in one line
        return 1
    if app.config.get("STORE_NOTE"):
        print(f"Scopa companion: {app.config['STORE_NOTE']}", flush=True)
    # A command pasted as it is printed (issue 45: a bare scopa-companion was not on the PATH).
    print(f"Scopa companion: scores kept in {app.config['DATABASE']} (back it up with "
          f"{backup_command(settings, Path(app.config['DATABASE']))}, or from the home page, "
          f"Backup)", flush=True)
    given = [full_url(url, port) for url in settings.url]
    addresses = lan_addresses() if settings.host in ("0.0.0.0", "::", "") else []
    if addresses:
        urls = [f"http://{address}:{port}/" for address in addresses]
    else:
        shown = f"[{settings.host}]" if ":" in settings.host else settings.host
        urls = [f"http://{shown}:{port}/"]
    # Not from compose's container: its addresses are the container's, which phones never reach.
    withdraw = announce(addresses[0], port) if addresses and not settings.compose_service else None
    if withdraw:        # after the address: not every phone resolves .local
        urls.insert(1, f"http://{MDNS_HOST}:{port}/")
    urls = list(dict.fromkeys(given + urls))
    app.config["LAN_URLS"] = urls
    app.config["RESTORE_COMMAND"] = restore_command(settings)      # the backup page says it
    app.config["ALLOWED_HOSTS"] = allowed_hosts(settings.host, addresses, settings.url)
    app.config["ORGANISER_CODE"] = args.organiser_pin or new_code()
    # This machine is the organiser as a phone is, by the link (no address is: a relay on the
    # machine would make every phone it). A club's own PIN is typed on the page it opens.
    here = "next=/" if args.organiser_pin else f"code={quote(app.config['ORGANISER_CODE'], safe='')}&next=/"
    print_join(urls, f"http://127.0.0.1:{port}/organiser?{here}", qr=welcome.link(urls[0], app))
    print_organiser(urls[0], app.config["ORGANISER_CODE"], args.organiser_pin is not None, args.organiser_qr)
    connections = open_connections(settings.connection_limit)
    try:
        with stopped_by_signals():      # SIGTERM as Ctrl-C: waitress finishes what it serves
            served(app, sockets, settings.processes or default_processes(), settings.threads, connections)
    except KeyboardInterrupt:           # a stop before waitress's own loop took it: still a stop
        pass
    finally:
        if withdraw:
            withdraw()
        store.stop_cleanly(app.config["DATABASE"])     # the store one whole file, no WAL
    return 0
