"""A live server for the reliability suite: the app under waitress, with the settings that
`scorekeeper serve` uses, on a free port of 127.0.0.1 and a database of its own (a SQLite file,
or a database on the throw-away PostgreSQL when the run is on it)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import waitress
from flask import Flask

from scorekeeper.web.services.figures import games_differing_from_replay
from scorekeeper.web.serving import WAITRESS
from tests.web.conftest import _built, database_url


def database_app(path: Path) -> Flask:
    """The app on the SQLite file `path` (or PostgreSQL: `database_url`), migrated (CSRF off:
    phones are simulated)."""
    return _built(
        {
            "TESTING": True,
            "SECRET_KEY": "reliability",
            "SQLALCHEMY_DATABASE_URI": database_url(path.parent, path.name),
            "WTF_CSRF_ENABLED": False,
        }
    )


@contextmanager
def served(app: Flask, **settings: Any) -> Iterator[str]:
    """The app served by waitress on 127.0.0.1; yields its base URL, stops it afterwards."""
    server: Any = waitress.create_server(app, host="127.0.0.1", port=0, **{**WAITRESS, **settings})
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed in the server's own thread, whose loop then ends at once rather than after its
        # one-second poll.
        server.trigger.pull_trigger(server.close)
        server.task_dispatcher.shutdown()
        thread.join(timeout=2)
        assert not thread.is_alive(), "the server did not stop"


def games_off_the_replay(app: Flask) -> list[str]:
    """The games whose stored totals, winner or hand scores differ from their replay."""
    with app.app_context():
        return games_differing_from_replay()
