"""The pages' files as phones fetch them: few, compressed, kept for good, and served before Flask.

At the arrival of a club night every phone fetches its page's files at once, over the same server
as everyone's polls. So:

- **Few.** A page names one stylesheet and one script (the guide's pages a second stylesheet):
  ``bundle.js`` is htmx, ``companion.js`` and ``sending.js`` joined in the order the page ran
  them as three deferred scripts. The sources stay in ``static/`` as they are written; the bundle
  is made from them when the app is made (``build``), so it cannot fall behind them, and a wheel
  carries the sources only.
- **Versioned.** Every file is served under a name with its content's hash
  (``companion.1a2b3c4d5e.css``), which ``url_for('static', filename='companion.css')`` gives,
  and is kept a year by the phones (``Cache-Control: public, max-age=31536000, immutable``): a
  phone that has them asks nothing more at its next page. A file by its plain name
  (``/static/companion.css``, as an older page names it) is still served, and kept a minute.
- **Compressed.** Beside each text file a gzip copy, made once at the build (phones accept gzip
  over plain HTTP): the stylesheet and the script are sent at a fifth of their size.
- **Served before Flask.** WhiteNoise, as WSGI middleware around the app, answers them from
  its table of files (headers worked out once at start-up) before Flask makes a request context:
  no host check, session, language, limiter or security hook runs for them, nor any Flask
  thread time beyond waitress's. They are the same public bytes for every host and every phone.
  Their security headers are set once with the rest (``errors.SECURITY_HEADERS``).

The build goes to the user's cache folder (``~/.cache/scopa-companion/static/<key>`` on Linux),
one folder per set of sources: each file is written only when it is not there already as it
should be (a temporary file renamed), so processes started together, or a checkout beside an
installed copy, share it safely. Where that folder cannot be written (a read-only home), a
temporary folder of this process is used, and removed at exit.
"""

from __future__ import annotations

import atexit
import gzip
import hashlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from flask import Flask
from whitenoise import WhiteNoise

from .errors import SECURITY_HEADERS
from .pages import YEAR

# What is joined into one file, and from which sources, in order. The sources are each written
# in strict mode; the bundle says it once at its top, where a directive counts (a "use strict"
# inside a joined file is then a plain string: the code runs as strict as it did alone). htmx
# keeps its version in its own name, and in the bundle's first line.
BUNDLES: dict[str, tuple[str, ...]] = {
    "bundle.js": ("htmx-2.0.11.min.js", "companion.js", "sending.js"),
}
STRICT = '"use strict";\n'

# Kept compressed beside the file: the types that shrink (PNG icons are compressed already).
COMPRESSED = (".css", ".js", ".svg", ".json", ".txt", ".webmanifest")
FOREVER = f"public, max-age={YEAR}, immutable"
PRUNED_AFTER = 30 * 24 * 3600       # a build not used for a month is taken away


def joined(static: Path, parts: tuple[str, ...]) -> bytes:
    """A bundle's bytes: its sources in order, each named in a comment and ended with a line
    break and a semicolon, so that no statement runs on into the next file.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.js").write_text('"use strict";\\nconst a = 1')
    >>> _ = (folder / "b.js").write_text("(() => a)()\\n")
    >>> print(joined(folder, ("a.js", "b.js")).decode(), end="")
    "use strict";
    /* a.js */
    "use strict";
    const a = 1
    ;
    /* b.js */
    (() => a)()
    ;
    """
    text = STRICT.encode()
    for name in parts:
        text += f"/* {name} */\n".encode() + (static / name).read_bytes().rstrip(b"\n") + b"\n;\n"
    return text


def hashed_name(name: str, data: bytes) -> str:
    """``name`` with its content's hash before its extension.

    >>> hashed_name("icons/icon-192.png", b"x")
    'icons/icon-192.2d711642b7.png'
    """
    stem, dot, extension = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}{dot}{extension}"


@dataclass(frozen=True)
class Built:
    """Where the built files are, and each file's served name by its plain name
    (``companion.css`` -> ``companion.1a2b3c4d5e.css``; ``bundle.js`` -> ``bundle.<hash>.js``)."""

    folder: Path
    names: dict[str, str]


def sources(static: Path) -> dict[str, bytes]:
    """Every file to serve by its plain name: each file of ``static`` and each bundle."""
    found = {path.relative_to(static).as_posix(): path.read_bytes()
             for path in sorted(static.rglob("*")) if path.is_file()}
    for name, parts in BUNDLES.items():
        found[name] = joined(static, parts)
    return found


def _keep(path: Path, data: bytes, same) -> None:
    """``path`` holds ``data`` afterwards: written whole (a temporary file renamed) unless
    ``same(bytes there)`` says it already does."""
    try:
        if same(path.read_bytes()):
            return
    except (OSError, EOFError, gzip.BadGzipFile):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def build(static: Path, cache: Path) -> Built:
    """Each file of ``static`` and each bundle written under its hashed name, with its gzip copy
    when that is smaller, in a folder of ``cache`` named after them all. Raises OSError when
    that folder cannot be written."""
    files = {name: (hashed_name(name, data), data) for name, data in sources(static).items()}
    key = hashlib.sha256("\n".join(sorted(served for served, _ in files.values())).encode()).hexdigest()[:16]
    folder = cache / key
    for served, data in files.values():
        _keep(folder / served, data, lambda there, data=data: there == data)
        if served.endswith(COMPRESSED):
            packed = gzip.compress(data, 9, mtime=0)
            if len(packed) < len(data) * 0.95:
                _keep(folder / f"{served}.gz", packed,
                      lambda there, data=data: gzip.decompress(there) == data)
    os.utime(folder)
    _prune(cache, keep=folder)
    return Built(folder, {name: served for name, (served, _) in files.items()})


def _prune(cache: Path, keep: Path) -> None:
    """The builds of other versions not used for a month taken away (at worst one is left)."""
    try:
        for other in cache.iterdir():
            if other != keep and other.is_dir() and time.time() - other.stat().st_mtime > PRUNED_AFTER:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        pass


def cache_folder() -> Path:
    return platformdirs.user_cache_path("scopa-companion", appauthor=False) / "static"


def built(static: Path) -> Built:
    """The build, in the user's cache folder or, where it cannot be written, a folder of this
    process's own (removed at exit)."""
    try:
        return build(static, cache_folder())
    except OSError:
        own = Path(tempfile.mkdtemp(prefix="scopa-companion-static-"))
        atexit.register(shutil.rmtree, own, ignore_errors=True)
        return build(static, own)


def init_app(app: Flask) -> None:
    """WhiteNoise in front of the app for ``/static/``, and ``url_for('static', ...)`` giving
    each file's hashed name."""
    assert app.static_folder is not None, "create_app() gives the app its static folder"
    static = Path(app.static_folder)
    done = built(static)
    immutable = {f"/static/{served}" for served in done.names.values()}

    def headers(answer, path: str, url: str) -> None:
        if url in immutable:
            answer["Cache-Control"] = FOREVER
        for name, value in SECURITY_HEADERS.items():
            answer[name] = value

    served = WhiteNoise(app.wsgi_app, max_age=60, allow_all_origins=False, add_headers_function=headers,
                        immutable_file_test=lambda path, url: url in immutable)
    served.add_files(static, prefix="static/")          # plain names, as older pages ask
    served.add_files(done.folder, prefix="static/")
    app.wsgi_app = served  # type: ignore[method-assign]  # WSGI middleware, as Flask's docs wrap it
    app.extensions["scopa.assets"] = done

    @app.url_defaults
    def hashed_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = done.names.get(values["filename"], values["filename"])
