"""A line per request and every error with its traceback, on standard error, through the
standard `logging` module (`SCOREKEEPER_LOG_LEVEL`).

The line is written around the whole WSGI app, so that every answer has one: a 304 or a 403
given before any view, a 404 from the game's door, a 500. Flask itself logs an error's
traceback (`app.logger`, named `scorekeeper.web`). Both loggers sit under `scorekeeper`, which
gets the level and one handler, and passes nothing on to the root logger. Under a test the app
adds no handler and sets no level: pytest's own capture (caplog) takes the records, and a
test's app does not change another's logging.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask
from flask.logging import default_handler, wsgi_errors_stream

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

LOGGER = logging.getLogger("scorekeeper")
REQUESTS = logging.getLogger("scorekeeper.web.requests")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RequestLog:
    """WSGI middleware: `GET /games/7 200 12.3 ms` once the app has answered."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        began = time.perf_counter()
        status = "-"

        def started(status_line: str, headers: Any, exc_info: Any = None) -> Any:
            nonlocal status
            status = status_line.split(" ", 1)[0]
            return start_response(status_line, headers, exc_info)

        try:
            return self.app(environ, started)
        finally:
            # The path only: a query string can hold what a phone typed.
            REQUESTS.info(
                "%s %s %s %.1f ms",
                environ.get("REQUEST_METHOD", "-"),
                environ.get("PATH_INFO", "") or "/",
                status,
                (time.perf_counter() - began) * 1000,
            )


class _OurHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The one handler the app adds (a second app in the same process adds none)."""


def init_app(app: Flask) -> None:
    app.wsgi_app = RequestLog(app.wsgi_app)  # type: ignore[method-assign]
    if app.testing:
        return
    LOGGER.setLevel(app.config["LOG_LEVEL"])
    # Written here once: not again by a handler on the root logger (Alembic's logging.ini adds
    # one when `scorekeeper serve` migrates).
    LOGGER.propagate = False
    if not any(isinstance(handler, _OurHandler) for handler in LOGGER.handlers):
        # Flask's own stream: the WSGI server's error stream during a request (standard error
        # under waitress and gunicorn), standard error outside one.
        handler = _OurHandler(wsgi_errors_stream)
        handler.setFormatter(logging.Formatter(FORMAT))
        LOGGER.addHandler(handler)
    # Flask's handler on `scorekeeper.web` would write each traceback a second time.
    app.logger.removeHandler(default_handler)
