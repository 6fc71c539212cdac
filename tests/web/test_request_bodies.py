"""Every request's body is read whole before the app touches the database (http/body.py): a body
still arriving holds no connection of the pool, one that stops arriving, or arrives a byte now and
then, is answered 408 at its deadline, one larger than any page takes 413 at once, one cut short
400. Here the app is called as gunicorn calls it (its `wsgi.input` reads the connection,
`gunicorn.socket` is the connection); under gunicorn itself: tests/reliability/test_slow_bodies.py.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event
from werkzeug.test import EnvironBuilder

from scorekeeper.web.extensions import db
from scorekeeper.web.http.body import LARGEST_BODY

from .apps import TEST_CONFIG, built_app, database_url
from .helpers import Actions

BODY_SECONDS = 1
WITHIN = 10.0
"""Seconds a test waits for something that comes at once: a bound, not a wait."""
FORM = b"ending=stock&sides-0-melded_points=60&sides-1-melded_points=60&action=save"


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    url = database_url(tmp_path, "bodies.sqlite3")
    return built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url, "BODY_SECONDS": BODY_SECONDS})


@pytest.fixture
def checkouts(app: Flask) -> Iterator[list[str]]:
    """Each connection the app takes from its pool, as it takes it."""
    taken: list[str] = []
    with app.app_context():
        engine = db.engine

    def took(*_: Any) -> None:
        taken.append("checkout")

    event.listen(engine, "checkout", took)
    yield taken
    event.remove(engine, "checkout", took)


def hand_form(app: Flask) -> str:
    return f"/games/{Actions(app.test_client()).new_game()}/hands/new"


def environ_of(path: str, length: int, **more: Any) -> dict[str, Any]:
    """A POST of a form of `length` bytes to `path`, its body still to be given."""
    environ = EnvironBuilder(
        path=path, method="POST", content_type="application/x-www-form-urlencoded"
    ).get_environ()
    environ["CONTENT_LENGTH"] = str(length)
    environ.update(more)
    return environ


def call(app: Flask, environ: dict[str, Any]) -> int:
    """The app called with `environ`, as a WSGI server calls it; the answer's status."""
    said: list[str] = []
    answer = app.wsgi_app(environ, lambda status, headers, *_: said.append(status))
    try:
        b"".join(answer)
    finally:
        getattr(answer, "close", lambda: None)()
    return int(said[0].split()[0])


class Held:
    """A body given in two parts: the second once the test lets it go."""

    def __init__(self, first: bytes, rest: bytes) -> None:
        self.parts = [first, rest]
        self.waiting = threading.Event()
        self.go = threading.Event()

    def read(self, size: int = -1) -> bytes:
        if not self.parts:
            return b""
        if len(self.parts) == 1:
            self.waiting.set()
            assert self.go.wait(WITHIN)
        part = self.parts.pop(0)
        if 0 <= size < len(part):
            self.parts.insert(0, part[size:])
            part = part[:size]
        return part


def test_a_body_still_arriving_holds_no_connection_of_the_database(
    app: Flask, checkouts: list[str]
) -> None:
    path = hand_form(app)
    checkouts.clear()
    body = Held(FORM[:10], FORM[10:])
    environ = environ_of(path, len(FORM), **{"wsgi.input": body})
    status: list[int] = []
    request = threading.Thread(target=lambda: status.append(call(app, environ)))
    request.start()
    try:
        assert body.waiting.wait(WITHIN)  # the rest of the body is yet to come
        assert checkouts == []  # and the app has not touched the database
    finally:
        body.go.set()
        request.join(WITHIN)
    assert status == [302]  # the hand saved, once it all came
    assert checkouts


@pytest.fixture
def connection() -> Iterator[tuple[socket.socket, socket.socket]]:
    """The server's end of a phone's connection, and the phone's; the phone goes after WITHIN
    seconds, so that a read left waiting by a fault ends (and its test fails) rather than hang."""
    server, phone = socket.socketpair()
    goes = threading.Timer(WITHIN, lambda: phone.shutdown(socket.SHUT_WR))
    goes.start()
    yield server, phone
    goes.cancel()
    server.close()
    phone.close()


def through(server: socket.socket, path: str, length: int) -> dict[str, Any]:
    """A POST to `path` read from the connection, as gunicorn gives it."""
    return environ_of(
        path, length, **{"wsgi.input": server.makefile("rb"), "gunicorn.socket": server}
    )


def test_a_body_that_stops_arriving_is_answered_408_and_touches_no_database(
    app: Flask, checkouts: list[str], connection: tuple[socket.socket, socket.socket]
) -> None:
    server, phone = connection
    path = hand_form(app)
    checkouts.clear()
    phone.sendall(FORM[:10])  # and no more
    assert call(app, through(server, path, len(FORM))) == 408
    assert checkouts == []
    assert server.gettimeout() is None  # as the server had it


def test_a_body_sent_a_byte_now_and_then_is_answered_408_at_its_deadline(
    app: Flask, checkouts: list[str], connection: tuple[socket.socket, socket.socket]
) -> None:
    """Each byte within the time a read may wait for one, the whole never: cut at BODY_SECONDS."""
    server, phone = connection
    path = hand_form(app)
    checkouts.clear()
    answered = threading.Event()

    def trickle() -> None:  # a byte every 0.1 s until answered; after WITHIN, it goes
        for _ in range(int(WITHIN / 0.1)):
            if answered.wait(0.1):
                return
            phone.sendall(b"x")
        phone.shutdown(socket.SHUT_WR)

    sender = threading.Thread(target=trickle)
    sender.start()
    try:
        assert call(app, through(server, path, 10_000)) == 408
    finally:
        answered.set()
        sender.join(WITHIN)
    assert checkouts == []


def test_a_body_cut_short_is_answered_400_and_touches_no_database(
    app: Flask, checkouts: list[str], connection: tuple[socket.socket, socket.socket]
) -> None:
    server, phone = connection
    path = hand_form(app)
    checkouts.clear()
    phone.sendall(FORM[:10])
    phone.shutdown(socket.SHUT_WR)  # the phone went
    assert call(app, through(server, path, len(FORM))) == 400
    assert checkouts == []


def test_a_body_larger_than_any_page_takes_is_answered_413_unread(
    app: Flask, checkouts: list[str], connection: tuple[socket.socket, socket.socket]
) -> None:
    server, _phone = connection
    path = hand_form(app)
    checkouts.clear()
    assert call(app, through(server, path, LARGEST_BODY + 1)) == 413  # not a byte sent
    assert checkouts == []


def test_a_body_sent_in_chunks_is_read_to_its_end(app: Flask) -> None:
    path = hand_form(app)
    environ = environ_of(
        path, 0, **{"wsgi.input": Held(FORM[:10], FORM[10:]), "HTTP_TRANSFER_ENCODING": "chunked"}
    )
    del environ["CONTENT_LENGTH"]
    environ["wsgi.input"].go.set()
    assert call(app, environ) == 302
