"""Live servers for the reliability suite: the app under waitress, with the settings that
`scorekeeper serve` uses, on a free port of 127.0.0.1 and a database of its own (a SQLite file,
or a database on the throw-away PostgreSQL when the run is on it), or `scorekeeper serve` or
gunicorn in a process of its own; and a phone's browser that talks to them over HTTP."""

from __future__ import annotations

import http.client
import re
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask

from scorekeeper.web.services.figures import games_differing_from_replay
from scorekeeper.web.serving import WAITRESS, waitress_server
from tests.command import scorekeeper
from tests.helpers import free_port, gunicorn_serve, scorekeeper_serve
from tests.web.apps import built_app, database_url


def database_app(path: Path) -> Flask:
    """The app on the SQLite file `path` (or PostgreSQL: `database_url`), migrated (CSRF off:
    phones are simulated)."""
    return built_app(
        {
            "TESTING": True,
            "SECRET_KEY": "reliability",
            "SQLALCHEMY_DATABASE_URI": database_url(path.parent, path.name),
            "WTF_CSRF_ENABLED": False,
        }
    )


@contextmanager
def served(app: Flask, **settings: Any) -> Iterator[str]:
    """The app served by waitress on 127.0.0.1, with `scorekeeper serve`'s loop; yields its base
    URL, stops it afterwards."""
    server: Any = waitress_server(app, host="127.0.0.1", port=0, **{**WAITRESS, **settings})
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed in the server's own thread, whose loop then ends at once rather than after its
        # one-second poll.
        server.trigger.pull_trigger(server.close)
        server.task_dispatcher.shutdown()
        thread.join(timeout=60)  # a bound for a busy machine: it stops at once when calm
        assert not thread.is_alive(), "the server did not stop"


def settings_for(folder: Path, **more: str) -> dict[str, str]:
    """A server process's settings, on a SQLite database of its own in `folder`, and `more`."""
    return {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{folder / 'games.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "reliability",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
        **more,
    }


@contextmanager
def real_server(kind: str, folder: Path, settings: dict[str, str], threads: int) -> Iterator[int]:
    """`scorekeeper serve` (kind "serve") or gunicorn (one gthread worker of `threads` threads)
    on 127.0.0.1 with nothing in front, set by `settings`, its database upgraded first; its
    port, and it is stopped afterwards."""
    done = scorekeeper("upgrade", env=settings)
    assert done.returncode == 0, done.stderr
    port = free_port()
    if kind == "serve":
        process = scorekeeper_serve(port, settings)
    else:
        process = gunicorn_serve(port, settings, folder / "gunicorn.log", threads=threads)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def games_off_the_replay(app: Flask) -> list[str]:
    """The games whose stored totals, winner or hand scores differ from their replay."""
    with app.app_context():
        return games_differing_from_replay()


class Browser:
    """A phone's browser: keeps the session cookie and sends the page's CSRF token back."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""

    def send(self, method: str, path: str, data: dict[str, str] | None = None) -> tuple[int, str]:
        # A killed server resets the connection at once; the timeout is for a busy machine.
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            body = None
            if data is not None:
                body = urlencode(data)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                jar = SimpleCookie(header)
                self.cookie = "; ".join(f"{k}={v.value}" for k, v in jar.items())
            return response.status, response.getheader("Location") or page
        finally:
            connection.close()

    def form(self, path: str) -> dict[str, str]:
        """The hidden fields of the forms on a page (the CSRF token, the hand's token)."""
        status, page = self.send("GET", path)
        assert status == 200, page
        fields = {}
        for tag in re.findall(r"<input[^>]*>", page):
            name, value = re.search(r'name="(\w+)"', tag), re.search(r'value="([^"]*)"', tag)
            if 'type="hidden"' in tag and name:
                fields[name.group(1)] = value.group(1) if value else ""
        return fields


def new_game(browser: Browser) -> str:
    """A classic game of two sides started on the browser's phone, as its form does; its id."""
    fields = browser.form("/games/new?system=classic&table=2x2")
    fields.update({"side_list-0-name": "Us", "side_list-1-name": "Them"})
    status, where = browser.send("POST", "/games/new?system=classic&table=2x2", fields)
    assert status == 302, where
    return where.rsplit("/", 1)[1]


def start_server(database: Path, port: int) -> subprocess.Popen[bytes]:
    settings = {"DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "kill-test"}
    return scorekeeper_serve(port, settings)


def stock_hand(melded: int = 60, **extra: str) -> dict[str, str]:
    """Hand-form data: the stock ran out, each side melded `melded`."""
    return {
        "ending": "stock",
        "sides-0-melded_points": str(melded),
        "sides-1-melded_points": str(melded),
        **extra,
    }
