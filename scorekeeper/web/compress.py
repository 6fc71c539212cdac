"""Gzip for pages, styles and scripts, so a phone on weak Wi-Fi loads less.

Flask-Compress would pull in brotli, a compiled module; the app must stay pure Python to run
under Termux, and the standard library's gzip is all this needs.
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

TYPES = ("text/html", "text/css", "text/javascript", "application/javascript", "application/json")
SMALLEST = 500


def _wanted(response: Response) -> bool:
    return (
        "gzip" in request.headers.get("Accept-Encoding", "")
        and 200 <= response.status_code < 300
        and "Content-Encoding" not in response.headers
        and (response.mimetype or "").startswith(TYPES)
        and (not response.direct_passthrough or request.endpoint == "static")
    )


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
        if not _wanted(response):
            return response
        body = _body(response)
        if len(body) < SMALLEST:
            response.set_data(body)
            return response
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response
