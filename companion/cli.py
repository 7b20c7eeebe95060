"""``scopa-companion``: serve the companion on the local network with waitress.

The Flask development server never faces the network; waitress runs on Windows, macOS and Linux.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit


def parse_ip_addr(output: str) -> list[str]:
    """The IPv4 addresses in the output of ``ip -4 -o addr show scope global``."""
    return [match.group(1) for match in re.finditer(r"\binet (\d+\.\d+\.\d+\.\d+)/", output)
            if not match.group(1).startswith("127.")]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that phones on the same network can reach.

    Read from the interfaces (Linux's ``ip``), else from the host name's addresses (macOS and
    Windows list the LAN address there); nothing is sent on the network."""
    found: list[str] = []
    if shutil.which("ip"):
        try:
            output = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"],
                                    capture_output=True, text=True, timeout=5).stdout
            found = parse_ip_addr(output)
        except (OSError, subprocess.SubprocessError):
            found = []
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        except OSError:
            infos = []
        for info in infos:
            address = info[4][0]
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return found


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scopa-companion",
        description="Keep the score of a real game of Scopa: open the address it prints on "
                    "every phone at the table.")
    parser.add_argument("--host", default=os.environ.get("SCOPA_HOST", "0.0.0.0"),
                        help="address to listen on (default 0.0.0.0: every interface; "
                             "env SCOPA_HOST)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("SCOPA_PORT", "8000")),
                        help="port to listen on (default 8000; env SCOPA_PORT)")
    parser.add_argument("--db", default=os.environ.get("SCOPA_DB"),
                        help="the SQLite file that keeps the matches (default: scopa.sqlite in "
                             "the user's data folder; env SCOPA_DB)")
    parser.add_argument("--url", action="append", default=[u for u in os.environ.get("SCOPA_URL", "").split() if u],
                        help="an address the phones use to reach the companion other than this "
                             "machine's own (a name on the network, or a reverse proxy's public "
                             "address): requests naming any other host are refused (repeatable; "
                             "env SCOPA_URL, space-separated)")
    parser.add_argument("--trust-proxy", action="store_true",
                        default=os.environ.get("SCOPA_TRUST_PROXY", "") not in ("", "0", "false", "no"),
                        help="the companion runs behind one reverse proxy: take each phone's "
                             "address from its X-Forwarded-For header (off by default: a request "
                             "with forwarding headers is then never taken as this machine's; env "
                             "SCOPA_TRUST_PROXY=1)")
    parser.add_argument("--lang", choices=("it", "en", "fr"),
                        default=os.environ.get("SCOPA_LANG") if os.environ.get("SCOPA_LANG") in ("it", "en", "fr") else "it",
                        help="the pages' language for a phone that asks for none of Italian, "
                             "English and French (default it; env SCOPA_LANG); each player can "
                             "switch on any page")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("SCOPA_THREADS", "8")),
                        help="worker threads (default 8; env SCOPA_THREADS): a request takes a "
                             "few milliseconds of CPU, so more threads than this only help "
                             "while saves wait for SQLite's write lock")
    parser.add_argument("--connection-limit", type=int,
                        default=int(os.environ.get("SCOPA_CONNECTION_LIMIT", "4000")),
                        help="open connections served at once (default 4000; env "
                             "SCOPA_CONNECTION_LIMIT): a phone's browser keeps 4 to 6 open "
                             "to the companion, so 600 phones hold 2,400 to 3,600; past the "
                             "limit a phone waits, and its page may never load")
    return parser.parse_args(argv)


# An idle keep-alive connection is closed after this many seconds: browsers keep theirs about
# 5 minutes, but a phone polls every 2 s, so one of its connections is always fresh.
CHANNEL_TIMEOUT = 120


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


def allowed_hosts(host: str, addresses: list[str], urls: list[str]) -> list[str]:
    """The host names a request may name: this machine's (its addresses, its name, loopback)
    and those given with --url. Any other is a page of another site pointed at this one (DNS
    rebinding), and is refused."""
    names = {"localhost", "127.0.0.1", *addresses}
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
    args = parse_args(argv)
    if args.trust_proxy:
        os.environ["SCOPA_TRUST_PROXY"] = "1"
    os.environ["SCOPA_LANG"] = args.lang
    if args.db:
        path = Path(args.db).expanduser().resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        os.environ["SCOPA_DB"] = str(path)

    from waitress import serve

    from . import create_app, store

    try:
        app = create_app()
    except store.StorageError as failure:
        print(f"scopa-companion: cannot open the store: {str(failure.message)} ({failure})",
              file=sys.stderr)
        return 1
    except OSError as error:
        print(f"scopa-companion: cannot open the store: {error}", file=sys.stderr)
        return 1
    if app.config.get("STORE_NOTE"):
        print(f"Scopa companion: {app.config['STORE_NOTE']}", flush=True)
    print(f"Scopa companion: scores kept in {app.config['DATABASE']} "
          f"(back it up from the home page, Backup, or copy the file while the companion is "
          f"stopped)", flush=True)
    addresses = lan_addresses() if args.host in ("0.0.0.0", "::", "") else []
    if addresses:
        urls = [f"http://{address}:{args.port}/" for address in addresses]
    else:
        urls = [f"http://{args.host}:{args.port}/"]
    app.config["LAN_URLS"] = urls
    app.config["TRUSTED_HOSTS"] = allowed_hosts(args.host, addresses, args.url)
    for url in urls:
        print(f"Open on the phones at the table: {url}", flush=True)
    if urls:
        import segno
        segno.make(urls[0], error="m").terminal(compact=True)
    print(f"On this machine: http://127.0.0.1:{args.port}/", flush=True)
    files = raise_open_file_limit(args.connection_limit + 64)
    connections = min(args.connection_limit, max(16, files - 64))
    if connections < args.connection_limit:
        print(f"scopa-companion: this system allows {files} open files: serving "
              f"{connections} connections at once", file=sys.stderr)
    try:
        # asyncore_use_poll: select() cannot watch a file descriptor past 1,024.
        serve(app, host=args.host, port=args.port, threads=args.threads, ident="scopa-companion",
              connection_limit=connections, channel_timeout=CHANNEL_TIMEOUT,
              asyncore_use_poll=True)
    except OSError as error:
        print(f"scopa-companion: cannot listen on {args.host}:{args.port}: {error.strerror}",
              file=sys.stderr)
        return 1
    return 0
