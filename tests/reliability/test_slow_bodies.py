"""POSTs that send their bodies slowly, with no proxy in front: under gunicorn each once held one
of the database pool's 15 connections while its body trickled in, and a hundred of them (a join
link from a table card is enough to send them) left scoreboards, saves and `/healthz` to time out
with a 500. Each body is read whole before the app touches the database now (http/body.py): more
slow POSTs than the pool has connections leave every page answered, under gunicorn and under
`scorekeeper serve` (waitress reads each body whole itself); under gunicorn a body that stops
arriving, or comes a byte now and then, is answered 408 at its deadline."""

from __future__ import annotations

import socket
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest

from .live import Browser, new_game, real_server, settings_for

pytestmark = pytest.mark.once

SLOW = 20
"""Slow POSTs at once: more than the pool's 15 connections."""
BODY_SECONDS = 5
WITHIN = 10.0
"""Seconds a page may take to be answered while the slow POSTs wait: a bound for a loaded
machine (a page is answered in milliseconds; one waiting for the pool waits 30 s)."""
HAND = {"ending": "stock", "sides-0-melded_points": "60", "sides-1-melded_points": "60"}


@dataclass
class Served:
    port: int
    kind: str


@pytest.fixture(scope="module", params=["gunicorn", "serve"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """gunicorn (one gthread worker, more threads than the slow POSTs) or `scorekeeper serve`,
    on 127.0.0.1 with nothing in front, bodies given BODY_SECONDS."""
    folder = tmp_path_factory.mktemp(request.param)
    settings = settings_for(folder, SCOREKEEPER_BODY_SECONDS=str(BODY_SECONDS))
    with real_server(request.param, folder, settings, threads=SLOW + 16) as port:
        yield Served(port, request.param)


def hand(phone: Browser, path: str) -> bytes:
    """The hand form at `path` filled in, as the phone would send it (its CSRF token, the
    hand's own token)."""
    return urlencode({**phone.form(path), **HAND, "action": "save"}).encode()


class SlowPost:
    """A POST of `body` whose headers and first bytes are sent, the rest not yet."""

    def __init__(self, phone: Browser, path: str, body: bytes, length: int | None = None) -> None:
        port = phone.port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WITHIN + BODY_SECONDS)
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {phone.cookie}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
        )
        self.sock.sendall(head.encode() + body[:10])
        self.rest = body[10:]

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def status(self) -> int:
        """The answer's status, once it comes (0: the connection closed without one)."""
        answer = b""
        while b"\r\n" not in answer:
            chunk = self.sock.recv(4096)
            if not chunk:
                return 0
            answer += chunk
        return int(answer.split()[1])

    def close(self) -> None:
        self.sock.close()


def test_more_slow_posts_than_the_pool_has_connections_leave_every_page_answered(
    server: Served, figures: Counter[str]
) -> None:
    phone = Browser(server.port)
    forms = [f"/games/{new_game(phone)}/hands/new" for _ in range(SLOW)]  # a table each
    slow = [SlowPost(phone, path, hand(phone, path)) for path in forms]
    try:
        assert phone.send("GET", "/healthz")[0] == 200
        game_id = new_game(phone)
        assert phone.send("GET", f"/games/{game_id}")[0] == 200
        path = f"/games/{game_id}/hands/new"
        fields = {**phone.form(path), **HAND, "action": "save"}
        assert phone.send("POST", path, fields)[0] == 302  # a hand saved
        figures["slow POSTs held while pages were answered"] += SLOW
        for post in slow:  # and each slow one is saved once its body is whole
            post.send(post.rest)
        assert [post.status() for post in slow] == [302] * SLOW
    finally:
        for post in slow:
            post.close()


# waitress reads a body itself, and drops one silent for 20 s unanswered.
@pytest.mark.parametrize("server", ["gunicorn"], indirect=True)
def test_under_gunicorn_a_body_that_stops_or_trickles_is_answered_408_at_its_deadline(
    server: Served,
) -> None:
    phone = Browser(server.port)
    path = f"/games/{new_game(phone)}/hands/new"
    stopped = SlowPost(phone, path, hand(phone, path))
    trickling = SlowPost(phone, path, hand(phone, path), length=10_000)
    answered = threading.Event()

    def trickle() -> None:  # a byte every 0.2 s until answered, or until WITHIN is past
        for _ in range(int((BODY_SECONDS + WITHIN) / 0.2)):
            if answered.wait(0.2):
                return
            trickling.send(b"x")

    sender = threading.Thread(target=trickle)
    sender.start()
    try:
        assert stopped.status() == 408
        assert trickling.status() == 408
    finally:
        answered.set()
        sender.join(WITHIN)
        stopped.close()
        trickling.close()
