"""`scorekeeper serve`'s event loop (`serving.Epoll`): waitress's loop over one epoll whose
registrations are kept between passes. Each pass must hear every connection that waits for what
came, however its wish changed since the last pass, and a connection that took over the number
of one closed must be heard as a new one. Sockets of a socketpair, written before the pass: what
the pass hears is there already, so nothing waits on time."""

from __future__ import annotations

import os
import select
import socket
from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper.web import serving
from scorekeeper.web.serving import Epoll

pytestmark = pytest.mark.skipif(not hasattr(select, "epoll"), reason="no epoll here")


class Channel:
    """What waitress's loop asks of a connection: what it waits for, and what it heard."""

    accepting = False

    def __init__(self, sock: socket.socket, reading: bool = True) -> None:
        self.socket, self.reading = sock, reading
        self.heard: list[str] = []

    def readable(self) -> bool:
        return self.reading

    def writable(self) -> bool:
        return False

    def handle_read_event(self) -> None:
        self.heard.append("read")

    def handle_write_event(self) -> None:
        self.heard.append("write")

    def handle_expt_event(self) -> None:
        self.heard.append("urgent")

    def handle_close(self) -> None:
        self.heard.append("close")

    def handle_error(self) -> None:
        self.heard.append("error")


@pytest.fixture
def loop() -> Iterator[Epoll]:
    made = Epoll()
    yield made
    made.epoll.close()


@pytest.fixture
def pairs() -> Iterator[list[tuple[socket.socket, socket.socket]]]:
    made: list[tuple[socket.socket, socket.socket]] = []
    yield made
    for ours, theirs in made:
        ours.close()
        theirs.close()


def pair(made: list[tuple[socket.socket, socket.socket]]) -> tuple[socket.socket, socket.socket]:
    made.append(socket.socketpair())
    return made[-1]


def test_a_pass_hears_each_connection_that_waits_for_what_came(
    loop: Epoll, pairs: list[tuple[socket.socket, socket.socket]]
) -> None:
    (busy, busy_phone), (idle, _idle_phone) = pair(pairs), pair(pairs)
    waiting = {busy.fileno(): Channel(busy), idle.fileno(): Channel(idle)}
    busy_phone.sendall(b"GET")
    loop.poll(0, waiting)
    assert waiting[busy.fileno()].heard == ["read"]
    assert waiting[idle.fileno()].heard == []


def test_a_connection_that_waits_for_nothing_is_not_heard_until_it_waits_again(
    loop: Epoll, pairs: list[tuple[socket.socket, socket.socket]]
) -> None:
    ours, phone = pair(pairs)
    channel = Channel(ours)
    waiting = {ours.fileno(): channel}
    loop.poll(0, waiting)  # registered, waiting to read
    channel.reading = False  # a request under way: waitress reads no more of it
    phone.sendall(b"GET")
    loop.poll(0, waiting)
    assert channel.heard == []
    channel.reading = True
    loop.poll(0, waiting)
    assert channel.heard == ["read"]


def test_a_new_connection_on_the_number_of_a_closed_one_is_heard(
    loop: Epoll, pairs: list[tuple[socket.socket, socket.socket]]
) -> None:
    old, _old_phone = pair(pairs)
    number = old.fileno()
    loop.poll(0, {number: Channel(old)})
    new, phone = pair(pairs)
    # The old connection closed, and its number given to the new one, between two passes.
    os.dup2(new.fileno(), number)
    new.close()
    old.detach()  # its number is the new connection's now
    renumbered = socket.socket(fileno=number)
    pairs.append((renumbered, phone))
    channel = Channel(renumbered)
    phone.sendall(b"GET")
    loop.poll(0, {number: channel})
    assert channel.heard == ["read"]


def test_scorekeeper_serve_runs_waitress_on_this_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []
    monkeypatch.setattr(serving.waitress, "serve", lambda app, **kw: made.append(kw["_server"]))
    monkeypatch.setattr(serving, "upgrade", lambda app: 0)
    monkeypatch.setattr(serving, "settle", lambda: None)
    monkeypatch.setattr(serving, "create_app", lambda: Flask("served"))
    monkeypatch.setattr(serving, "waitress_settings", lambda app: {"connection_limit": 10})
    serving.serve("127.0.0.1", 0)
    assert made == [serving.create_server]
    server = serving.create_server(Flask("served"), host="127.0.0.1", port=0)
    try:
        assert isinstance(server.asyncore, Epoll)
    finally:
        server.close()
