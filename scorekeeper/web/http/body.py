"""A request's body is read whole before the app sees it: no request holds one of the database's
connections while its body is still arriving.

Under gunicorn reached without a proxy, the app read a form's body from the connection as it came,
after the game's door and the access check had taken a connection of the pool: a hundred POSTs
sending their bodies slowly held the pool's fifteen, and scoreboards, saves and `/healthz` timed
out. Read here first, a slow body costs a thread at most. waitress reads each body whole before it
calls the app (reading it again here costs a copy), and a reverse proxy buffers it: there the
body is always whole already.

How much: up to LARGEST_BODY bytes, the most a page takes (a backup restored, pages/backup.py);
more is answered 413 at once. Each page's own limit (MAX_CONTENT_LENGTH) still holds after.

How long: the body is whole within BODY_SECONDS (a setting) of the request's start, or the
request is answered 408. Where the server gives the connection (gunicorn), each read of it waits
at most that long for a byte, and a phone that sends a byte now and then is cut at the
deadline (`Deadlines`); elsewhere the server's own timeouts hold.
"""

from __future__ import annotations

import heapq
import itertools
import socket
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, TYPE_CHECKING, Any

from flask import Flask

from .security import HEADERS

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

LARGEST_BODY = 16 * 1024 * 1024
"""The largest body any page takes: a backup restored (pages/backup.py, LARGEST_BACKUP)."""
IN_MEMORY = 1024 * 1024
"""A body larger than this waits in a temporary file (a form is a few kilobytes)."""
CHUNK = 64 * 1024
LATE = 0.001
"""The timeout a late body's next read gets: it fails at once, or as soon as a byte arrives."""
REFUSALS = {
    400: "400 Bad Request",
    408: "408 Request Timeout",
    413: "413 Content Too Large",
}
SAID = {
    400: "The request ended before all of it arrived. Nothing was saved: send it again.",
    408: "The request took too long to arrive. Nothing was saved: send it again.",
    413: "The request is too large. Nothing was saved.",
}


class Refused(Exception):
    """The body cannot be read whole: answered with `status`."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Deadlines:
    """Reads of bodies that have until a deadline: one thread of the process's, started with the
    first, makes the connection's next read fail once the deadline has passed (a read already
    waiting returns with the next byte, or after its own timeout)."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.due: list[tuple[float, int, socket.socket]] = []
        self.watched: set[int] = set()
        self.numbers = itertools.count()
        self.thread: threading.Thread | None = None

    @contextmanager
    def watching(self, connection: socket.socket, deadline: float) -> Iterator[None]:
        with self.changed:
            number = next(self.numbers)
            heapq.heappush(self.due, (deadline, number, connection))
            self.watched.add(number)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="body-deadlines", daemon=True)
                self.thread.start()
            self.changed.notify()
        try:
            yield
        finally:
            with self.changed:
                self.watched.discard(number)

    def _run(self) -> None:
        with self.changed:
            while True:
                while self.due and self.due[0][1] not in self.watched:
                    heapq.heappop(self.due)  # read whole in time
                if not self.due:
                    self.changed.wait()
                    continue
                deadline, number, connection = self.due[0]
                left = deadline - time.monotonic()
                if left > 0:
                    self.changed.wait(left)
                    continue
                heapq.heappop(self.due)
                self.watched.discard(number)
                with suppress(OSError):  # closed meanwhile
                    connection.settimeout(LATE)


DEADLINES = Deadlines()


class WholeBody:
    """WSGI middleware: the app gets a body read whole, or the request is refused here."""

    def __init__(self, app: WSGIApplication, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if not _has_body(environ):
            return self.app(environ, start_response)
        try:
            body = self.read(environ)
        except Refused as refused:
            return _refuse(refused.status, start_response)
        environ["wsgi.input"] = body
        environ["CONTENT_LENGTH"] = str(body.seek(0, 2))
        body.seek(0)
        environ.pop("HTTP_TRANSFER_ENCODING", None)  # read whole: a body of known length now
        environ["wsgi.input_terminated"] = True
        try:
            return self.app(environ, start_response)
        finally:
            # The request is over once the app has answered: no answer of this app reads the
            # body as it streams (the only streamed answers, a backup and the event streams,
            # are GETs).
            body.close()

    def read(self, environ: WSGIEnvironment) -> IO[bytes]:
        """The body, read whole in time; Refused if it is too large, late or cut short."""
        declared = _declared_length(environ)
        if declared is not None and declared > LARGEST_BODY:
            raise Refused(413)
        deadline = time.monotonic() + self.seconds
        # Closed once the app has answered (WholeBody), or here when the body cannot be read.
        body: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)  # noqa: SIM115
        try:
            with _timed(environ.get("gunicorn.socket"), self.seconds, deadline):
                _copy(environ["wsgi.input"], body, declared)
        except Refused:
            body.close()
            raise
        except Exception as error:  # a read timed out, or the server's reader gave up
            body.close()
            raise Refused(408 if time.monotonic() >= deadline else 400) from error
        return body


def _has_body(environ: WSGIEnvironment) -> bool:
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    return chunked or bool(_declared_length(environ))


def _declared_length(environ: WSGIEnvironment) -> int | None:
    """The body's length as the request declares it; None when it is sent in chunks."""
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return None
    try:
        return max(0, int(environ.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


def _copy(source: Any, body: IO[bytes], declared: int | None) -> None:
    """Read `declared` bytes of `source` into `body` (all of it, when in chunks); Refused(400)
    when it ends first, Refused(413) past LARGEST_BODY."""
    left = LARGEST_BODY + 1 if declared is None else declared
    while left:
        chunk = source.read(min(CHUNK, left))
        if not chunk:
            if declared is None:
                return
            raise Refused(400)
        body.write(chunk)
        left -= len(chunk)
    if declared is None:
        raise Refused(413)


@contextmanager
def _timed(connection: socket.socket | None, seconds: float, deadline: float) -> Iterator[None]:
    """Each read of `connection` waits at most `seconds` for a byte, and none goes on past
    `deadline`; the connection's timeout as it was afterwards."""
    if connection is None:
        yield
        return
    before = connection.gettimeout()
    connection.settimeout(seconds)
    try:
        with DEADLINES.watching(connection, deadline):
            yield
    finally:
        with suppress(OSError):  # closed meanwhile
            connection.settimeout(before)


def _refuse(status: int, start_response: StartResponse) -> list[bytes]:
    """A plain answer that says why, with the headers of every answer; the connection closes."""
    said = SAID[status].encode()
    headers = [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", str(len(said))),
        ("Connection", "close"),
        *HEADERS.items(),
    ]
    start_response(REFUSALS[status], headers)
    return [said]


def install(app: Flask) -> None:
    """Around the app, inside the request log (which then writes its 408s and 413s)."""
    seconds = float(app.config["BODY_SECONDS"])
    app.wsgi_app = WholeBody(app.wsgi_app, seconds)  # type: ignore[method-assign]
