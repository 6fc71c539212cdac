"""Hosted for a club as the README's "Host it for a club" says: `scorekeeper upgrade`, then
gunicorn with several workers on the WSGI entry point, one secret key for all; a table plays a
hand through it, on PostgreSQL (the throw-away server of the test command) and on SQLite."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import postgres
from tests.helpers import free_port, unavailable, wait_until_answering

pytestmark = pytest.mark.slow

GAME = {
    "variant": "classic",
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [],
}
HAND = {
    "ending": "out-0",
    "action": "save",
    "sides-0-set_samba": "1",
    "sides-0-set_natural_canasta": "1",
    "sides-0-melded_points": "260",
    "sides-1-melded_points": "150",
    "sides-1-hand_points": "30",
}


@pytest.fixture(params=["postgresql", "sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The club's database: a new one on the throw-away PostgreSQL, or a SQLite file."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'club.sqlite3'}"
        return
    yield postgres.database_or_skip()


@pytest.fixture
def gunicorn(tmp_path: Path, database_url: str) -> Iterator[str]:
    """gunicorn with three gthread workers on 127.0.0.1, holding streams as the README runs it;
    its address."""
    binary = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    if binary is None:
        unavailable("gunicorn is not installed (the server extra)")
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "one key for every worker",
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_STREAMS": "10",
    }
    scorekeeper = Path(sys.executable).parent / "scorekeeper"
    subprocess.run([str(scorekeeper), "upgrade"], env=env, check=True, capture_output=True)
    port = free_port()
    log = tmp_path / "gunicorn.log"  # a file, not a pipe: a full pipe would stop the server
    with log.open("wb") as written:
        server = subprocess.Popen(
            [
                *(binary, "-w", "3", "--worker-class", "gthread", "--threads", "16"),
                # A stream ends only with its lifetime: a stop waits 3 s for them, not 30.
                *("--graceful-timeout", "3"),
                *("-b", f"127.0.0.1:{port}", "scorekeeper.web:create_app()"),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=written,
        )
    address = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(server, port, "/healthz", log=log)
        yield address
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_gunicorn_serves_a_table_that_plays_a_hand(gunicorn: str) -> None:
    phone = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    request = urllib.request.Request(
        gunicorn + "/games/import",
        data=json.dumps(GAME).encode(),
        headers={"Content-Type": "application/json"},
    )
    with phone.open(request) as answer:
        scoreboard = json.load(answer)["location"]
    # Another phone follows the game by its stream, held by whichever worker it reached.
    follower = urllib.request.urlopen(f"{gunicorn}{scoreboard}/events", timeout=30)
    assert follower.headers["Content-Type"].startswith("text/event-stream")
    first = next_revision(follower)
    # Each request may reach another worker: the session and the CSRF token hold across them.
    with phone.open(f"{gunicorn}{scoreboard}/hands/new") as answer:
        form = answer.read().decode()
    fields = {
        name: re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', form).group(1)  # type: ignore[union-attr]
        for name in ("csrf_token", "token", "after")
    }
    body = urllib.parse.urlencode({**HAND, **fields}).encode()
    with phone.open(f"{gunicorn}{scoreboard}/hands/new", data=body) as answer:
        page = answer.read().decode()
    assert "Hand 1 saved." in page
    # The save reached the stream, from whichever worker saved it (NOTIFY, or the watcher).
    assert next_revision(follower) != first
    follower.close()
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")


def next_revision(stream: Any) -> str:
    """The revision the stream's next event names."""
    while True:
        line = stream.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return str(line.removeprefix(b"data: ").strip().decode())
