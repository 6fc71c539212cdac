"""Gzip for pages, styles and scripts, so a phone on weak Wi-Fi loads less.

Flask-Compress would pull in brotli, a compiled module; the app must stay pure Python to run
under Termux, and the standard library's gzip is all this needs.

What browsers and caches can rely on (RFC 9110):
- gzip goes only to a client whose Accept-Encoding takes it with a quality above 0 and no lower
  than the one it gives `identity` (the uncompressed body) if any: `gzip;q=0`, `*;q=0` and
  `gzip;q=0.5, identity` are answered uncompressed.
- A request for a range, and any 206, is answered uncompressed: Content-Range counts the bytes of
  the file as it is, and ranges of a gzipped body would be a second set of offsets to keep apart.
  A gzipped response therefore does not offer ranges (no Accept-Ranges).
- Each body has its own ETag: the gzipped one is the file's ETag with `-gzip`, so that a cache
  never takes one for the other and If-None-Match with it is answered 304.
- Every response whose body may travel gzipped says `Vary: Accept-Encoding`, gzipped or not.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from typing import Protocol

from flask import Flask, Response, current_app, request
from flask_wtf.csrf import generate_csrf
from markupsafe import escape

from . import door

TYPES = ("text/html", "text/css", "text/javascript", "application/javascript", "application/json")
SMALLEST = 500


def _compressible(response: Response) -> bool:
    """A body of a kind that is gzipped for clients that take it."""
    return (
        200 <= response.status_code < 300
        and "Content-Encoding" not in response.headers
        and (response.mimetype or "").startswith(TYPES)
        and (not response.direct_passthrough or request.endpoint == "static")
    )


class Kept(Protocol):
    """A page kept drawn, with holes for what differs per visitor (`presenters/parts.py`)."""

    holes: frozenset[str]

    def text(self, values: Mapping[str, str]) -> bytes: ...
    def gzipped(self, values: Mapping[str, str]) -> bytes: ...


CSRF = "csrf"
"""The hole of the visitor's CSRF token (`csrf_token()` in a kept page)."""
REVISION = "revision"
"""The hole of the game's revision the page shows (`revision()` in a kept page: the page's
script follows the game from it), so that a page may be kept across revisions."""
ADDRESS = "address"
"""The hole of the address asked, query and all (`page_address()` in a kept page: where the language
switch brings the phone back), so that a page kept whole need not be kept per query."""


def page_address() -> str:
    """The address of this page, to come back to (a form posted comes back to its own path)."""
    return request.full_path if request.method == "GET" else request.path


def respond(page: Kept, **values: str) -> Response:
    """A kept page as this visitor gets it: its holes filled with `values`, the visitor's CSRF
    token, the address asked and the game's revision, gzipped for a client that takes gzip,
    whole for one that does not."""
    if CSRF in page.holes:
        values[CSRF] = generate_csrf()
    if ADDRESS in page.holes:
        values[ADDRESS] = str(escape(page_address()))
    if REVISION in page.holes:
        values[REVISION] = str(escape(door.revision()))
    response = current_app.response_class(content_type="text/html; charset=utf-8")
    if "Range" not in request.headers and _takes_gzip():
        response.set_data(page.gzipped(values))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
    else:
        response.set_data(page.text(values))
    return response


def _takes_gzip() -> bool:
    """The client takes gzip, and likes it no less than the uncompressed body."""
    accepted = request.accept_encodings
    wanted = accepted.quality("gzip")
    # The uncompressed body competes only where `identity` or `*` gives it a quality.
    plain = accepted.quality("identity")
    return wanted > 0 and wanted >= plain


def _body(response: Response) -> bytes:
    """The whole body; a static file is read (and closed) so that it can be compressed."""
    if not response.direct_passthrough:
        return response.get_data()
    chunks = response.response
    try:
        body = b"".join(chunks)  # type: ignore[arg-type]
    finally:
        getattr(chunks, "close", lambda: None)()
    response.direct_passthrough = False
    return body


def init_app(app: Flask) -> None:
    @app.after_request
    def compress(response: Response) -> Response:
        if not _compressible(response):
            return response
        response.vary.add("Accept-Encoding")
        if response.status_code == 206 or "Range" in request.headers or not _takes_gzip():
            return response
        body = _body(response)
        if len(body) < SMALLEST:
            response.set_data(body)
            return response
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        response.headers.pop("Accept-Ranges", None)
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}-gzip", bool(weak))
        # A browser revalidating its gzipped copy sends the gzipped ETag: answer 304 to it.
        response.make_conditional(request)
        return response
