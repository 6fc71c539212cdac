"""Event streams as real servers hold them, `scorekeeper serve` (waitress) and gunicorn's gthread
reached without a proxy, each phone on an address of its own (127.x.y.z, all of it loopback):
over its cap a server answers a stream at once so that the page polls, and streams never take the
threads that answer a save; the streams of one address, one share link or one night's standings
take only a share, so that the table's phones keep theirs; a stream whose phone left gives its
place back at its next wake. And (slow) the README's nginx, both of its blocks as printed,
passes a stream and a save with 1,000 streams open through it.

Each test ends the streams it opened from the server's side (the game or night deleted: each
stream says `gone` and ends), so that the next test finds every place free."""

from __future__ import annotations

import json
import re
import resource
import socket
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper.web.http.stream import SHARE, SHARE_AT_LEAST
from tests.club_backup import club_backup
from tests.command import scorekeeper
from tests.helpers import free_port, scorekeeper_serve, unavailable
from tests.reverse_proxy import nginx_binary, nginx_in_front
from tests.web.helpers import GOES_OUT, STAYS_IN

from .live import Browser, new_game, real_server, settings_for

pytestmark = pytest.mark.once

CAP = 40
"""The streams each server holds here: a quarter of it is a share."""
PER_SHARE = max(CAP // SHARE, SHARE_AT_LEAST)
WITHIN = 30.0
"""Seconds a socket waits for its next bytes before the test gives up: a bound for a loaded
machine, not a wait (each step goes on as soon as its bytes are there)."""
ENDS_WITHIN = 10.0
"""Seconds a stream whose end is due may take to end: it ends at its next wake, which the test
brings at once (a save, a deletion); a stream that waited for its heartbeat (15 s) to notice
has failed."""


def address(n: int, network: int = 10) -> str:
    """The `n`th phone's address on loopback network 127.`network`."""
    return f"127.{network}.{n // 200}.{n % 200 + 1}"


class Stream:
    """An event stream on a socket of its own, from `source`: its status, and the revisions it
    names."""

    def __init__(self, port: int, path: str, source: str = "127.0.0.1", cookie: str = "") -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=WITHIN, source_address=(source, 0)
        )
        # Connection: close: the end of a stream is the end of its connection.
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        head += "Accept: text/event-stream\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "")
        self.sock.sendall(f"{head}\r\n".encode())
        self.pending = b""
        self.status = int(self._until(b"\r\n\r\n").split()[1])

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
            if line.startswith(b"data: ") and line != b"data: beat":
                return line.removeprefix(b"data: ").decode()

    def ends(self) -> bool:
        """Whether the server ends the stream within ENDS_WITHIN seconds: its last chunk, or
        the end of the connection."""
        self.sock.settimeout(ENDS_WITHIN)
        try:
            while not self.pending.endswith(b"\r\n0\r\n\r\n"):
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
                self.pending += chunk
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self.sock.close()


def open_until_refused(
    port: int, path: str, sources: list[str], cookie: str = ""
) -> tuple[list[Stream], int]:
    """Streams of `path` from each of `sources` in turn until one is refused: those let in (each
    told its revision), and the refusal's status (0: none was refused)."""
    streams: list[Stream] = []
    for source in sources:
        stream = Stream(port, path, source, cookie)
        if stream.status != 200:
            stream.close()
            return streams, stream.status
        streams.append(stream)
        stream.next_revision()
    return streams, 0


def save_a_hand(browser: Browser, game_id: str) -> None:
    fields = browser.form(f"/games/{game_id}/hands/new")
    for index, side in enumerate((GOES_OUT, STAYS_IN)):
        fields.update({f"sides-{index}-{name}": value for name, value in side.items()})
    fields.update({"ending": "out-0", "action": "save"})
    status, where = browser.send("POST", f"/games/{game_id}/hands/new", fields)
    assert status == 302, where


def delete(browser: Browser, path: str) -> None:
    """Delete the game or night at `path`, as its page's confirmation does."""
    status, where = browser.send("POST", f"{path}/delete", browser.form(f"{path}/delete"))
    assert status == 302, where


def all_end(streams: list[Stream]) -> bool:
    """Whether every stream ends, each closed as soon as it did: gunicorn's main thread waits up
    to 2 s on each connection it closes for the phone to close its own end, answering no one
    meanwhile (a phone's browser closes its end at once)."""
    ended = []
    for stream in streams:
        ended.append(stream.ends())
        stream.close()
    return all(ended)


@dataclass
class Served:
    """A server and what its database holds for the tests: a club night's id and standings."""

    port: int
    night_id: str
    standings: str


@pytest.fixture(scope="module", params=["serve", "gunicorn"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """`scorekeeper serve` or gunicorn, holding CAP streams, on a database with a club night."""
    folder = tmp_path_factory.mktemp(request.param)
    settings = settings_for(folder, SCOREKEEPER_STREAMS=str(CAP))
    backup = folder / "club.json"
    backup.write_text(json.dumps(club_backup(12, hands_a_game=2, nights=True)))
    for command in (("upgrade",), ("restore", str(backup))):
        done = scorekeeper(*command, env=settings)
        assert done.returncode == 0, done.stderr
    with sqlite3.connect(folder / "games.sqlite3") as connection:
        night_id, token = connection.execute("SELECT id, follow_token FROM night").fetchone()
    # SCOREKEEPER_STREAMS under --threads, as the README says
    with real_server(request.param, folder, settings, threads=CAP + 24) as port:
        yield Served(port, str(night_id), str(token))


def test_over_its_cap_a_server_refuses_a_stream_at_once_and_a_save_is_still_answered(
    server: Served, figures: Counter[str]
) -> None:
    browser = Browser(server.port)
    game_id = new_game(browser)
    path = f"/games/{game_id}/events"
    streams, refused = open_until_refused(server.port, path, [address(n) for n in range(CAP + 1)])
    try:
        assert len(streams) == CAP
        assert refused == 204  # the page polls
        save_a_hand(browser, game_id)  # the threads of pages are free
        revisions = {stream.next_revision() for stream in streams}
        assert len(revisions) == 1  # every stream was told
        figures["streams held by a real server"] += len(streams)
    finally:
        delete(browser, f"/games/{game_id}")
        assert all_end(streams)


def test_a_stranger_holding_a_link_or_one_address_takes_only_a_share_and_the_table_keeps_its_own(
    server: Served,
) -> None:
    table = Browser(server.port)
    game_id = new_game(table)
    path = f"/games/{game_id}/events"
    share_page = table.send("GET", f"/games/{game_id}/share")[1]
    follow = re.search(r'data-share="follow" href="[^"]*(/follow/[^"]+)"', share_page)
    assert follow, "no follow link on the share page"
    stranger = Browser(server.port)
    assert stranger.send("GET", follow.group(1))[0] == 302
    by_link, by_link_refused = open_until_refused(
        server.port, path, [address(n, 11) for n in range(CAP)], stranger.cookie
    )
    by_one_address, by_one_address_refused = open_until_refused(
        server.port, path, [address(0, 12)] * CAP
    )
    standings, standings_refused = open_until_refused(
        server.port, f"/standings/{server.standings}/events", [address(n, 13) for n in range(CAP)]
    )
    try:
        assert (len(by_link), by_link_refused) == (PER_SHARE, 204)
        assert (len(by_one_address), by_one_address_refused) == (PER_SHARE, 204)
        assert (len(standings), standings_refused) == (PER_SHARE, 204)
        own = Stream(server.port, path, address(0, 14))  # the table's phone
        assert own.status == 200
        own.close()
    finally:
        delete(table, f"/games/{game_id}")
        assert all_end(by_link + by_one_address)
        delete(table, f"/nights/{server.night_id}")
        assert all_end(standings)


def test_a_stream_whose_phone_left_gives_its_place_back_at_its_next_wake(server: Served) -> None:
    browser = Browser(server.port)
    game_id = new_game(browser)
    path = f"/games/{game_id}/events"
    phones = [address(0, 15)] * (PER_SHARE + 1)
    streams, refused = open_until_refused(server.port, path, phones)
    try:
        assert (len(streams), refused) == (PER_SHARE, 204)  # the address holds its share
        streams.pop(0).close()  # a phone goes
        save_a_hand(browser, game_id)  # every stream of the game wakes
        again = None
        deadline = time.monotonic() + ENDS_WITHIN
        while again is None and time.monotonic() < deadline:
            stream = Stream(server.port, path, phones[0])
            if stream.status == 200:
                again = stream
            else:
                stream.close()
                time.sleep(0.05)
        assert again is not None, "the place of the phone that left was not given back"
        streams.append(again)
    finally:
        delete(browser, f"/games/{game_id}")
        assert all_end(streams)


@pytest.fixture
def descriptors() -> Iterator[None]:
    """Room for a few thousand sockets in this process (and the servers it starts)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(8192, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def serve_behind_a_proxy(folder: Path, port: int, streams: int) -> subprocess.Popen[bytes]:
    """`scorekeeper serve` on `port`, holding `streams` streams, believing the proxy's
    X-Forwarded-For (each phone's own address); started when it answers."""
    settings = settings_for(folder, SCOREKEEPER_STREAMS=str(streams), SCOREKEEPER_PROXY_FIX="1")
    return scorekeeper_serve(port, settings)


@pytest.mark.slow
def test_the_readme_nginx_passes_a_stream_and_a_save_with_1000_streams_open(
    tmp_path: Path, descriptors: None, figures: Counter[str]
) -> None:
    if nginx_binary() is None:
        unavailable("nginx is not installed (Debian: apt-get install nginx)")
    app_port = free_port()
    server = serve_behind_a_proxy(tmp_path, app_port, streams=1_010)
    streams: list[Stream] = []
    try:
        with nginx_in_front(app_port, tmp_path / "nginx", tls=False) as port:
            browser = Browser(port)
            game_id = new_game(browser)
            path = f"/games/{game_id}/events"
            for n in range(1_000):
                streams.append(Stream(port, path, address(n)))
                assert streams[-1].status == 200
                streams[-1].next_revision()  # passed on at once, not held by nginx
            another = Stream(port, path, address(1_000))  # one more, with 1,000 open
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
