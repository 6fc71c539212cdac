"""`scorekeeper serve`'s event loop (serving.Turns): a turn asks only the connections that may
have changed, so an idle connection costs nothing at each request served, and nothing a
request's thread writes waits for the loop's next timeout. waitress's own loop asked every
connection at every turn (benchmarks/idle_connections.py measures what that cost).

The servers here wait an hour between turns when nothing happens, so that an answer which
arrives at all was sent because the loop was woken for it."""

from __future__ import annotations

import contextlib
import http.client
import os
import select
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from scorekeeper.web import serving

Start = Callable[[str, list[tuple[str, str]]], Any]
ASLEEP = 3600
"""Seconds the loop waits for an event before turning anyway: an hour."""
WITHIN = 20.0
"""Seconds a client waits for an answer that must come at once, at most (a busy machine)."""


@pytest.fixture
def released() -> Iterator[threading.Event]:
    """What the streaming app waits for before its last chunk (set at the end, whatever)."""
    event = threading.Event()
    yield event
    event.set()


BIG = 16 * 1024 * 1024
"""A chunk more than a socket takes at once: the loop writes what the request's thread could
not."""


def app_of(
    released: threading.Event, entered: threading.Event
) -> Callable[[dict[str, Any], Start], Iterable[bytes]]:
    def app(environ: dict[str, Any], start_response: Start) -> Iterable[bytes]:
        if environ["PATH_INFO"] == "/stream":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return streamed(released)
        if environ["PATH_INFO"] == "/slow":
            entered.set()
            released.wait(WITHIN)
        body = b"answered"
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "8")])
        return [body]

    return app


def streamed(released: threading.Event) -> Iterator[bytes]:
    yield b"x" * BIG + b"first chunk"
    released.wait(WITHIN)
    yield b"last chunk"


@pytest.fixture
def entered() -> threading.Event:
    """Set when the slow request has begun."""
    return threading.Event()


@pytest.fixture
def server(released: threading.Event, entered: threading.Event) -> Iterator[Any]:
    served = serving.waitress_server(
        app_of(released, entered),
        host="127.0.0.1",
        port=0,
        threads=4,
        asyncore_use_poll=True,
        asyncore_loop_timeout=ASLEEP,
        connection_limit=500,
        ident="",
    )
    with running(served):
        yield served


@contextlib.contextmanager
def running(served: Any) -> Iterator[None]:
    """`served` running in a thread of its own while the block runs, stopped after it."""
    runner = threading.Thread(target=served.run, daemon=True)
    runner.start()
    try:
        yield
    finally:
        # Its requests' threads done first: the last thing each does is to wake the loop, which
        # a server closed cannot be (and one that sleeps an hour would then sleep). Then closed
        # in the loop's own thread.
        served.task_dispatcher.shutdown()
        served.trigger.pull_trigger(served.close)
        runner.join(WITHIN)  # no loop left behind, its poll set holding descriptors given back
    assert not runner.is_alive(), "the server did not stop"


def connect(server: Any) -> socket.socket:
    return socket.create_connection((server.effective_host, server.effective_port), WITHIN)


def read_until(client: socket.socket, wanted: bytes) -> bytes:
    """What the client reads until `wanted` has come (a socket timeout if it never does)."""
    got = b""
    while wanted not in got:
        chunk = client.recv(65536)
        assert chunk, got  # the server closed the connection first
        got += chunk
    return got


def test_what_a_running_request_wrote_goes_out_whole_at_once(
    server: Any, released: threading.Event
) -> None:
    with connect(server) as client:
        client.sendall(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        read_until(client, b"first chunk")  # all of it, while the request still runs
        released.set()
        read_until(client, b"last chunk")


def test_a_connection_closed_after_its_answer_is_closed_at_once(
    server: Any, released: threading.Event, entered: threading.Event
) -> None:
    with connect(server) as client:
        client.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert entered.wait(WITHIN)
        # The loop has asked the connection since it read the request, and waits: only the
        # request's thread can tell it that the connection is to be closed now.
        wait_for(lambda: server.asyncore.waiting)
        released.set()
        read_until(client, b"answered")
        assert client.recv(65536) == b""  # closed by the server, not left open till a turn


def wait_for(condition: Callable[[], bool]) -> None:
    """Return once `condition` holds (looked at every millisecond, for WITHIN seconds)."""
    looking = threading.Event()
    for _ in range(int(WITHIN * 1000)):
        if condition():
            return
        looking.wait(0.001)
    raise AssertionError("never")


def test_an_idle_connection_is_not_asked_anything_at_each_request(server: Any) -> None:
    idle = [connect(server) for _ in range(100)]
    try:
        with connect(server) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            read_until(client, b"answered")  # every idle connection accepted by now
            turns = server.asyncore
            before = turns.asked
            for _ in range(20):
                client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                read_until(client, b"answered")
            asked = turns.asked - before
    finally:
        for connection in idle:
            connection.close()
    # Each request: the connection itself, the listening socket and the trigger, a few turns
    # each; fewer than one for each idle connection. waitress's own loop asked all 103 at
    # every turn: some 10,000.
    assert asked < 20 * 50, asked


def test_a_trigger_pulled_after_its_server_closed_writes_nowhere() -> None:
    """A request's thread may wake the loop as the server stops (the end of every request
    does): the trigger, closed by then, must not write to its descriptor, closed too or
    already another file's."""
    served = serving.waitress_server(
        app_of(threading.Event(), threading.Event()), host="127.0.0.1", port=0
    )
    pulled = served.trigger
    served.close()
    taken, other = os.pipe()  # given the lowest descriptors free: the trigger's own
    try:
        served.pull_trigger()  # neither EBADF nor a byte written into the new pipe
        os.set_blocking(taken, False)
        with pytest.raises(BlockingIOError):
            os.read(taken, 1)
    finally:
        os.close(taken)
        os.close(other)
    assert pulled.shut


class Reader:
    """A dispatcher as the loop sees one: waits to read, counts the times it was told to, and
    does `then` when told."""

    accepting = False

    def __init__(self, then: Callable[[], None] = lambda: None) -> None:
        self.reads = 0
        self.then = then

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return False

    def handle_read_event(self) -> None:
        self.reads += 1
        self.then()


def test_an_event_goes_only_to_the_dispatcher_the_poll_set_was_asked_of() -> None:
    """A connection closed by an event of the turn, its descriptor given at once to the next
    connection accepted (the lowest free), while the old one's event waits in the turn's list:
    that event is not the new connection's, which is asked what it waits for at the next turn."""
    turns = serving.Turns()
    pipes = [os.pipe(), os.pipe()]
    try:
        served: dict[int, Any] = {}
        (one, _), (other, _) = pipes
        taken = {one: Reader(), other: Reader()}
        # Whichever is told first closes the other, whose descriptor another connection takes.
        served[one] = Reader(then=lambda: served.update({other: taken[other]}))
        served[other] = Reader(then=lambda: served.update({one: taken[one]}))
        told = list(served.values())
        for _, writer in pipes:
            os.write(writer, b"x")
        turns.turn(0, served, True)
        assert sorted(reader.reads for reader in told) == [0, 1]
        assert [reader.reads for reader in taken.values()] == [0, 0]
        turns.turn(0, served, False)  # the event marked its descriptor: asked, then told
        assert sum(reader.reads for reader in taken.values()) == 1
    finally:
        for pipe in pipes:
            for fd in pipe:
                os.close(fd)


class Answer:
    """An answer of 23 KB, as a scoreboard's, with the app's teardown after it (its `close`)."""

    def __iter__(self) -> Iterator[bytes]:
        yield b"x" * 23000

    def close(self) -> None:
        sum(range(100_000))


def answer(environ: dict[str, Any], start_response: Start) -> Answer:
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "23000")])
    return Answer()


def test_the_loop_does_not_turn_over_while_a_requests_thread_writes() -> None:
    """With `scorekeeper serve`'s settings (the next request read while one runs), a
    connection whose answer a request's thread was writing said it would write: every poll
    reported it at once, and the loop turned over and over for nothing, taking the interpreter
    from that thread (1,568 to 3,312 askings for these 50 answers, against some 280)."""
    served = serving.waitress_server(answer, host="127.0.0.1", port=0, **serving.WAITRESS)
    client = http.client.HTTPConnection(served.effective_host, served.effective_port)
    with running(served), contextlib.closing(client):
        turns = served.asyncore
        asked = []
        for _ in range(50):
            before = turns.asked
            client.request("GET", "/")
            assert len(client.getresponse().read()) == 23000
            asked.append(turns.asked - before)
    # Reading the request, waking at its end and sending: a few turns, each asking the
    # connection, the listening socket and the trigger.
    assert sum(asked) < 20 * len(asked), asked


MEGABYTE = 1024 * 1024
MEGABYTES = 4 * MEGABYTE


def megabytes(environ: dict[str, Any], start_response: Start) -> Iterator[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(MEGABYTES))])
    for _ in range(MEGABYTES // MEGABYTE):
        yield b"x" * MEGABYTE


WATERMARK = 64 * 1024
"""waitress's high watermark in this test: past it, a request's thread waits for the loop to
send what it wrote before it writes more."""


def test_a_thread_waiting_past_the_high_watermark_has_the_loop_send_for_it() -> None:
    """A client that reads slowly leaves more unsent than the high watermark: the request's
    thread then waits for the loop to send it, and the loop must be told to (the connection
    says it would not write while its thread writes): the answer goes out whole."""
    served = serving.waitress_server(
        megabytes,
        host="127.0.0.1",
        port=0,
        **{**serving.WAITRESS, "threads": 2, "outbuf_high_watermark": WATERMARK},
    )
    # A small send buffer on each connection accepted: a write of the loop's sends a few
    # kilobytes, never all that waits.
    small = (socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
    served.adj.socket_options = [*served.adj.socket_options, small]
    with running(served), socket.socket() as client:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)  # a slow reader's
        client.settimeout(WITHIN)
        client.connect((served.effective_host, int(served.effective_port)))
        client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        got = 0
        while got < MEGABYTES:  # the headers are counted too: it stops short of the end
            chunk = client.recv(4096)
            assert chunk, got
            got += len(chunk)


@pytest.mark.parametrize("kernels", [True, False], ids=["epoll", "poll"])
def test_a_descriptor_closed_and_taken_again_is_waited_on_for_its_new_file(kernels: bool) -> None:
    """The kernel drops a closed file from its poll set (epoll) on its own: the loop, which
    still holds its number, must add the new file that took that number, not change a watch
    that is gone; and stop waiting on a closed one without an error. The same with poll()
    (where there is no epoll)."""
    if kernels and not hasattr(select, "epoll"):
        pytest.skip("no epoll here")
    waits = serving.PollSet(kernels)
    first, first_writer = os.pipe()
    waits.watch(first, select.POLLIN)
    os.close(first)
    os.close(first_writer)
    waits.forget(first)  # closed: gone from the set already, or taken out now
    taken, writer = os.pipe()  # the lowest numbers free: the closed pipe's
    try:
        assert taken == first
        waits.watch(taken, select.POLLIN)
        os.write(writer, b"x")
        assert [fd for fd, _ in waits.wait(WITHIN)] == [taken]
    finally:
        os.close(taken)
        os.close(writer)
