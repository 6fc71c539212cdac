"""Event streams as a real server holds them: `scorekeeper serve` (waitress) answers a stream
over its cap at once so that the page polls, and streams never take the threads that answer a
save; the README's nginx (both of its blocks, as printed) passes a stream and a save with 1,000
streams open through it, and the save reaches every one of them."""

from __future__ import annotations

import resource
import socket
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import free_port, scorekeeper_serve, unavailable
from tests.reverse_proxy import nginx_binary, nginx_in_front
from tests.web.helpers import GOES_OUT, STAYS_IN

from .live import Browser

pytestmark = [pytest.mark.slow, pytest.mark.once]

WITHIN = 30.0
"""Seconds a socket waits for its next bytes before the test gives up: a bound for a loaded
machine, not a wait (each step goes on as soon as its bytes are there)."""


def serve(database: Path, port: int, streams: int) -> subprocess.Popen[bytes]:
    """`scorekeeper serve` on `port`, holding `streams` streams; started when it answers."""
    settings = {
        "DATABASE_URL": f"sqlite:///{database}",
        "SCOREKEEPER_SECRET_KEY": "streams",
        "SCOREKEEPER_STREAMS": str(streams),
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
    }
    return scorekeeper_serve(port, settings)


class Stream:
    """An event stream on a socket of its own: its status, and the revisions it names."""

    def __init__(self, port: int, game_id: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WITHIN)
        self.sock.sendall(
            f"GET /games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.pending = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split()[1])

    def _until(self, end: bytes) -> bytes:
        while end not in self.pending:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the stream ended")
            self.pending += chunk
        found, self.pending = self.pending.split(end, 1)
        return found

    def next_revision(self) -> str:
        """The revision the next event names (heartbeats and chunk sizes passed over)."""
        while True:
            line = self._until(b"\n").strip()
            if line.startswith(b"data: "):
                return line.removeprefix(b"data: ").decode()

    def close(self) -> None:
        self.sock.close()


def new_game(browser: Browser) -> str:
    fields = browser.form("/games/new?system=classic&table=2x2")
    fields.update({"side_list-0-name": "Us", "side_list-1-name": "Them"})
    status, where = browser.send("POST", "/games/new?system=classic&table=2x2", fields)
    assert status == 302, where
    return where.rsplit("/", 1)[1]


def save_a_hand(browser: Browser, game_id: str) -> None:
    fields = browser.form(f"/games/{game_id}/hands/new")
    for index, side in enumerate((GOES_OUT, STAYS_IN)):
        fields.update({f"sides-{index}-{name}": value for name, value in side.items()})
    fields.update({"ending": "out-0", "action": "save"})
    status, where = browser.send("POST", f"/games/{game_id}/hands/new", fields)
    assert status == 302, where


@pytest.fixture
def descriptors() -> Iterator[None]:
    """Room for a few thousand sockets in this process (and the servers it starts)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(8192, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_over_its_cap_waitress_refuses_a_stream_at_once_and_a_save_is_still_answered(
    tmp_path: Path, descriptors: None, figures: Counter[str]
) -> None:
    port = free_port()
    server = serve(tmp_path / "games.sqlite3", port, streams=16)
    streams: list[Stream] = []
    try:
        browser = Browser(port)
        game_id = new_game(browser)
        streams = [Stream(port, game_id) for _ in range(16)]
        assert [stream.status for stream in streams] == [200] * 16
        first = {stream.next_revision() for stream in streams}
        over = Stream(port, game_id)
        assert over.status == 204  # the page polls
        over.close()
        save_a_hand(browser, game_id)  # the eight threads of pages are free
        assert {stream.next_revision() for stream in streams} - first
        figures["streams held by waitress"] += len(streams)
    finally:
        for stream in streams:
            stream.close()
        server.terminate()
        server.wait(timeout=30)


def test_the_readme_nginx_passes_a_stream_and_a_save_with_1000_streams_open(
    tmp_path: Path, descriptors: None, figures: Counter[str]
) -> None:
    if nginx_binary() is None:
        unavailable("nginx is not installed (Debian: apt-get install nginx)")
    app_port = free_port()
    server = serve(tmp_path / "games.sqlite3", app_port, streams=1_010)
    streams: list[Stream] = []
    try:
        with nginx_in_front(app_port, tmp_path / "nginx", tls=False) as port:
            browser = Browser(port)
            game_id = new_game(browser)
            for _ in range(1_000):
                streams.append(Stream(port, game_id))
                assert streams[-1].status == 200
                streams[-1].next_revision()  # passed on at once, not held by nginx
            another = Stream(port, game_id)  # one more, through nginx, with 1,000 open
            assert another.status == 200
            before = another.next_revision()
            save_a_hand(browser, game_id)
            after = another.next_revision()
            assert after != before
            told = sum(stream.next_revision() == after for stream in streams)
            figures["streams open through nginx"] += len(streams)
            assert told == 1_000
            streams.append(another)
    finally:
        for stream in streams:
            stream.close()
        server.terminate()
        server.wait(timeout=30)
