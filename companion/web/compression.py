"""Pages, fragments and JSON sent gzipped to a phone that accepts it.

A match page is about 11 KiB of HTML and the live fragment a phone fetches after a change about
6 KiB; gzip makes them a third and a quarter of that, in about 0.1 to 0.3 ms (zlib's level 6),
about 2% of what drawing them costs: on a club's Wi-Fi, where 600 phones share the air, that is
worth it. Phones accept gzip over plain HTTP (br and zstd only over HTTPS), so gzip alone, with
the standard library's zlib: no package that brings other compressors along. An answer under
1 KB is sent as it is (with its headers it fits in one packet either way), and so is a stream (a
store's download). The static files are compressed once, ahead (``web.assets``).
"""

from __future__ import annotations

import gzip

from flask import Flask, request
from werkzeug.wrappers import Response

SMALLEST = 1000
LEVEL = 6
TYPES = frozenset({"text/html", "application/json", "text/csv", "text/plain", "image/svg+xml",
                   "application/manifest+json", "application/problem+json"})


def compressed(response: Response) -> Response:
    """``response`` gzipped when the request accepts gzip and it is worth it. A strong ETag
    names the encoding (``"2"`` becomes ``"2:gzip"``: the API reads both as version 2), and
    a GET or HEAD is answered 304 when it matches the request's ``If-None-Match``."""
    if response.mimetype not in TYPES:
        return response
    response.vary.add("Accept-Encoding")
    if (not 200 <= response.status_code < 300 or response.is_streamed or response.direct_passthrough
            or "Content-Encoding" in response.headers
            or not request.accept_encodings["gzip"]
            or (response.content_length or 0) < SMALLEST):
        return response
    response.set_data(gzip.compress(response.get_data(), LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(f"{etag}:gzip")
    if etag and request.method in ("GET", "HEAD"):
        response.make_conditional(request)
    return response


def init_app(app: Flask) -> None:
    app.after_request(compressed)
