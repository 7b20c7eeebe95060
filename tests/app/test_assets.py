"""The pages' files at the arrival of a club night (issue 45): few (one stylesheet and one script
a page, the guide's a second stylesheet), kept a year under hashed names, gzipped ahead, and
answered by WhiteNoise before any of Flask's per-request work; the script bundle made from its
sources, which stay readable in static/."""

import gzip
import re
from pathlib import Path

import pytest

from companion.web import assets
from helpers import new_match
from markup import attrs, nodes

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
HASHED = re.compile(r"^/static/(?:[\w-]+/)*[\w-]+\.[0-9a-f]{10}\.\w+$")


def files_named(page: str) -> list[str]:
    return (attrs(page, "script[src]", "src") + attrs(page, 'link[rel="stylesheet"]', "href")
            + attrs(page, 'link[rel~="icon"], link[rel="apple-touch-icon"]', "href"))


def pages(client) -> list[str]:
    match_id = new_match(client)
    return ["/", f"/matches/{match_id}", f"/matches/{match_id}/hands/new", "/rules", "/rules/classica",
            "/referee/", "/players", "/matches/new", f"/matches/{match_id}/join"]


def test_a_page_names_at_most_three_scripts_and_stylesheets(client):
    for path in pages(client):
        answer = client.get(path)
        assert answer.status_code == 200, path
        page = answer.get_data(as_text=True)
        scripts = attrs(page, "script[src]", "src")
        styles = attrs(page, 'link[rel="stylesheet"]', "href")
        assert len(scripts) + len(styles) <= 3, (path, scripts, styles)
        assert len(scripts) == 1 and scripts[0].startswith("/static/bundle."), path
        assert nodes(page, "script:not([src]), style") == [], path         # the CSP's no-inline
    guide = client.get("/rules").get_data(as_text=True)
    assert [href.split(".")[0] for href in attrs(guide, 'link[rel="stylesheet"]', "href")] == [
        "/static/companion", "/static/guide"]


def test_static_files_have_hashed_names_and_are_kept_a_year(client):
    page = client.get("/").get_data(as_text=True)
    urls = files_named(page)
    assert len(urls) == 4 and all(HASHED.match(url) for url in urls), urls
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        answer.close()
    # An older page names a file by its plain name (with ?v=): still served, not kept for good.
    plain = client.get("/static/companion.css?v=0000000000")
    assert plain.status_code == 200 and "immutable" not in plain.headers["Cache-Control"]
    assert plain.data == (STATIC / "companion.css").read_bytes()
    plain.close()
    assert client.get("/static/nothing.css").status_code == 404


def test_a_static_file_is_gzipped_for_a_phone_that_accepts_it(client):
    page = client.get("/").get_data(as_text=True)
    for url in attrs(page, "script[src]", "src") + attrs(page, 'link[rel="stylesheet"]', "href"):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
        assert "Content-Encoding" not in plain.headers and packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(packed.data) == plain.data
        assert len(packed.data) < len(plain.data) / 3, url
        assert int(packed.headers["Content-Length"]) == len(packed.data)
        plain.close()
        packed.close()


def test_a_static_file_is_answered_before_any_flask_hook(app, client):
    """WhiteNoise answers before Flask: no before- or after-request function runs (the host
    check, the limiter's, the organiser's, the security headers'), counted by wrapping each."""
    calls = []

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls.append(name)
            return function(*args, **kwargs)
        return wrapper

    for hooks in (app.before_request_funcs, app.after_request_funcs):
        for blueprint, functions in hooks.items():
            hooks[blueprint] = [counted(getattr(f, "__qualname__", repr(f)), f) for f in functions]
    url = attrs(client.get("/").get_data(as_text=True), "script[src]", "src")[0]
    assert any("proxy_in_front" in name for name in calls)             # a page runs them all
    calls.clear()
    answer = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and calls == []
    answer.close()
    assert client.get("/healthz").status_code == 200 and calls


def test_static_answers_carry_the_security_headers(client):
    url = attrs(client.get("/").get_data(as_text=True), 'link[rel~="icon"]', "href")[0]
    answer = client.get(url)
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert "Access-Control-Allow-Origin" not in answer.headers
    answer.close()


def test_the_script_bundle_is_htmx_then_the_companions_scripts(client):
    """The bundle the pages name is its sources as they are in static/, in the order the page
    ran them as three deferred scripts, each whole."""
    url = attrs(client.get("/").get_data(as_text=True), "script[src]", "src")[0]
    answer = client.get(url, headers={"Accept-Encoding": "gzip"})
    bundle = gzip.decompress(answer.data)
    answer.close()
    assert bundle.startswith(b'"use strict";\n')
    rest = bundle
    for name in ("htmx-2.0.11.min.js", "companion.js", "sending.js"):
        source = (STATIC / name).read_bytes().rstrip(b"\n")
        marker = f"/* {name} */\n".encode()
        assert marker + source + b"\n;\n" in rest, name
        rest = rest[rest.index(marker) + len(marker) + len(source):]
    assert rest == b"\n;\n"


def test_every_script_bundled_is_written_strict():
    """The bundle says "use strict" once, at its top: a script joined to it must have been
    written strict itself, or it would run otherwise than it did alone. (htmx is strict inside
    its own function.)"""
    for name in assets.BUNDLES["bundle.js"]:
        source = (STATIC / name).read_text()
        code = "\n".join(line for line in source.splitlines() if not line.startswith("//"))
        assert code.lstrip().startswith(('"use strict";', 'var htmx=function(){"use strict";')), name


def test_a_changed_source_gets_a_new_name_and_the_build_keeps_what_is_right(tmp_path):
    static = tmp_path / "static"
    (static / "icons").mkdir(parents=True)
    for name in ("htmx-2.0.11.min.js", "companion.js", "sending.js", "companion.css"):
        (static / name).write_bytes((STATIC / name).read_bytes())
    (static / "icons" / "icon.png").write_bytes(b"\x89PNG not really")
    cache = tmp_path / "cache"
    first = assets.build(static, cache)
    css = first.folder / first.names["companion.css"]
    assert css.read_bytes() == (static / "companion.css").read_bytes()
    assert gzip.decompress((first.folder / f"{first.names['companion.css']}.gz").read_bytes()) == css.read_bytes()
    assert not (first.folder / f"{first.names['icons/icon.png']}.gz").exists()     # PNG: as it is
    # Built again, nothing is written; a damaged file is written again.
    stamps = {path: path.stat().st_mtime_ns for path in first.folder.rglob("*")}
    (first.folder / f"{first.names['bundle.js']}.gz").write_bytes(b"damaged")
    again = assets.build(static, cache)
    assert again == first
    assert gzip.decompress((first.folder / f"{first.names['bundle.js']}.gz").read_bytes()).endswith(b"\n;\n")
    assert [path for path, stamp in stamps.items() if path.stat().st_mtime_ns != stamp
            and path.is_file()] == [first.folder / f"{first.names['bundle.js']}.gz"]
    # A source changed: the bundle's name changes, the others stay.
    with open(static / "sending.js", "a") as file:
        file.write("\n// changed\n")
    changed = assets.build(static, cache)
    assert changed.names["bundle.js"] != first.names["bundle.js"]
    assert changed.names["companion.css"] == first.names["companion.css"]
    assert (changed.folder / changed.names["bundle.js"]).read_bytes().endswith(b"// changed\n;\n")


def test_without_a_writable_cache_the_files_are_built_in_a_folder_of_its_own(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setattr(assets, "cache_folder", lambda: blocked / "static")
    done = assets.built(STATIC)
    assert done.folder.is_dir() and not str(done.folder).startswith(str(blocked))
    assert (done.folder / done.names["companion.css"]).read_bytes() == (STATIC / "companion.css").read_bytes()
    assert done.folder.parent.stat().st_mode & 0o077 == 0          # this user's alone


@pytest.mark.parametrize("name", ["companion.css", "guide.css", "favicon.svg", "icons/icon-192.png"])
def test_url_for_names_the_hashed_file(app, name):
    with app.test_request_context():
        from flask import url_for
        url = url_for("static", filename=name)
    assert HASHED.match(url), url
    assert url.rsplit(".", 2)[0] == f"/static/{name.rsplit('.', 1)[0]}"
