"""Idle and half-open connections cannot lock the table out of the server for long."""

from __future__ import annotations

import resource
import socket
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper.web.serving import PHONES_AT_A_CLUB_NIGHT, WAITRESS

from .live import database_app, served

pytestmark = pytest.mark.once  # about connections, not the database


@pytest.fixture(autouse=True)
def descriptors_for_both_ends() -> Iterator[None]:
    """The test holds both ends of every connection in one process: past the limit that is more
    than the 1,024 descriptors many systems allow a process unless it asks for more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * WAITRESS["connection_limit"]
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@contextmanager
def idle_connections(base_url: str, count: int) -> Iterator[list[socket.socket]]:
    """`count` connections that say (almost) nothing: half of them stop mid-request."""
    port = int(base_url.rsplit(":", 1)[1])
    opened = []
    try:
        for number in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            if number % 2:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
            opened.append(sock)
        yield opened
    finally:
        for sock in opened:
            sock.close()


def answered_in(url: str, limit: float) -> float:
    """Seconds until a real request is answered (fails past `limit`)."""
    began = time.monotonic()
    with urllib.request.urlopen(url, timeout=limit) as response:
        assert response.status == 200
    return time.monotonic() - began


def still_open(sock: socket.socket) -> bool:
    """Whether the server has kept the connection (it has neither closed it nor answered)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def test_a_club_nights_phones_holding_connections_do_not_keep_another_waiting(
    tmp_path: Path, figures: Counter[str]
) -> None:
    """100 tables of five phones, each holding a connection: one more phone is answered while all
    of them are still open, without waiting for the server to drop any (which it does only after
    `channel_timeout` seconds of silence)."""
    phones = PHONES_AT_A_CLUB_NIGHT
    assert phones < WAITRESS["connection_limit"]
    app = database_app(tmp_path / "games.sqlite3")
    with served(app) as base_url, idle_connections(base_url, phones) as idle:
        waited = answered_in(base_url + "/", limit=WAITRESS["channel_timeout"])
        kept = sum(still_open(sock) for sock in idle)
    figures["idle connections opened"] += phones
    figures["idle connections still open when a phone was answered"] += kept
    figures[f"milliseconds a phone waited beside {phones} idle connections"] += round(waited * 1000)
    assert kept == phones


def test_more_idle_connections_than_the_limit_lock_others_out_only_briefly(
    tmp_path: Path, figures: Counter[str]
) -> None:
    app = database_app(tmp_path / "games.sqlite3")
    bound = WAITRESS["channel_timeout"] + WAITRESS["cleanup_interval"] + 5
    count = WAITRESS["connection_limit"] + 10
    with served(app) as base_url, idle_connections(base_url, count) as idle:
        # No wait for the server to take them: it accepts connections in the order they came
        # (the kernel's queue), so the phone's comes after every idle one, and the server takes
        # it only once it has dropped silent ones, within `bound` (urlopen's timeout).
        waited = answered_in(base_url + "/", limit=bound)
        dropped = sum(not still_open(sock) for sock in idle)
    figures["idle connections opened"] += count
    figures["idle connections dropped to let a phone in"] += dropped
    figures["seconds locked out past the connection limit"] += round(waited)
    assert dropped > 0
