"""Fixtures for the web app, flaskr style: `app`, `client`, `runner` and `actions`.

Each test's app has a database of its own: by default a copy of an empty migrated SQLite
database in memory, and when the run is on PostgreSQL (`SCOREKEEPER_TEST_DATABASE=postgresql`,
as `python3 dev.py test`'s second pass sets it), a copy of a migrated template database on the
throw-away server (tests/postgres.py). Tests of what only SQLite has (its files, WAL, `BEGIN
IMMEDIATE`) are marked `sqlite` and run only on it."""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate
import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import select
from sqlalchemy.engine import make_url
from werkzeug.test import TestResponse

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Game
from tests import postgres

TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "WTF_CSRF_ENABLED": False,
}


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once a run and shared by every test's app (Jinja checks the source)."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = CompiledTemplates()


@functools.cache
def migrated_database() -> bytes:
    """An empty database as the migrations build it: migrated once a run, copied for each test."""
    app = create_app(dict(TEST_CONFIG))
    with app.app_context():
        flask_migrate.upgrade()  # the migrations, not create_all, build the schema
        with _connection() as connection:
            return connection.serialize()


@functools.cache
def migrated_postgresql() -> str:
    """The name of a database on the throw-away PostgreSQL as the migrations build it, the
    template of each test's copy: migrated by the first worker that needs it."""
    template = "migrated"
    with postgres.advisory_lock("migrated template"):
        if not postgres.database_exists(template):
            postgres.create_database(template)
            url = make_url(postgres.server_url()).set(database=template)
            app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
            with app.app_context():
                flask_migrate.upgrade()
                db.engine.dispose()  # a template with a connection open cannot be copied
    return template


def database_url(tmp_path: Path, name: str) -> str:
    """A database of the test's own that more than one app may open: the SQLite file `name` in
    `tmp_path`, or, when the run is on PostgreSQL, a new database on the throw-away server."""
    if postgres.on_postgresql():
        return postgres.fresh_database(template=migrated_postgresql())
    return f"sqlite:///{tmp_path / name}"


def _built(config: Mapping[str, Any]) -> Flask:
    """An app on its own copy of the migrated database; a file that exists is migrated in place."""
    url = make_url(config["SQLALCHEMY_DATABASE_URI"])
    in_memory = url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")
    if in_memory and postgres.on_postgresql():
        copy = postgres.fresh_database(template=migrated_postgresql())
        return _app({**config, "SQLALCHEMY_DATABASE_URI": copy})
    if url.get_backend_name() == "postgresql":
        app = _app(config)
        with app.app_context():
            flask_migrate.upgrade()
        return app
    already_there = not in_memory and not _is_new(Path(str(url.database)))
    if not in_memory and not already_there:
        Path(str(url.database)).write_bytes(migrated_database())
    app = _app(config)
    with app.app_context():
        if in_memory:
            with _connection() as connection:
                connection.deserialize(migrated_database())
        elif already_there:
            flask_migrate.upgrade()
    return app


def _app(config: Mapping[str, Any]) -> Flask:
    app = create_app(dict(config))
    app.jinja_env.bytecode_cache = TEMPLATES
    if make_url(config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "postgresql":
        postgres.close_before_dropping(functools.partial(_close, app))
    return app


def _close(app: Flask) -> None:
    with app.app_context():
        db.engine.dispose()


def _is_new(path: Path) -> bool:
    return not path.exists() or path.stat().st_size == 0


@contextmanager
def _connection() -> Iterator[sqlite3.Connection]:
    """The app's SQLite connection (in memory, Flask-SQLAlchemy keeps exactly one)."""
    connection = db.engine.raw_connection()
    try:
        driver = connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        yield driver
    finally:
        connection.close()


@pytest.fixture
def app() -> Iterator[Flask]:
    yield _built(TEST_CONFIG)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def csrf_app() -> Iterator[Flask]:
    yield _built({**TEST_CONFIG, "WTF_CSRF_ENABLED": True})


@pytest.fixture
def csrf_client(csrf_app: Flask) -> FlaskClient:
    return csrf_app.test_client()


def stored_games(app: Flask) -> int:
    """How many games the database holds."""
    with app.app_context():
        return len(db.session.scalars(select(Game)).all())


def hidden(page: str, name: str) -> str:
    """The value of a hidden input on a page."""
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert found, f"no input {name!r} on the page"
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def input_value(page: str, field_id: str) -> str | None:
    """The value an input shows, found by its id; a group of radio buttons', the one checked."""
    found = re.search(rf'<input[^>]*id="{re.escape(field_id)}"[^>]*>', page) or re.search(
        rf'<input checked[^>]*name="{re.escape(field_id)}"[^>]*>', page
    )
    assert found, f"no input #{field_id} on the page"
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else None


def errors_of(page: str, field_id: str) -> str:
    """The messages shown next to a field ('' when none)."""
    found = re.search(
        rf'<ul class="errors" id="{re.escape(field_id)}-errors">(.*?)</ul>', page, re.S
    )
    return found.group(1) if found else ""


def hand_fields(
    sides: Sequence[Mapping[str, Any]], ending: str = "out-0", **extra: Any
) -> dict[str, Any]:
    """Hand-form data: one mapping per side of field name (without the prefix) → value."""
    data: dict[str, Any] = {"ending": ending, **extra}
    for index, side in enumerate(sides):
        for name, value in side.items():
            data[f"sides-{index}-{name}"] = value
    return data


class Actions:
    """What a person at the table does: set up a game, record and correct hands."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def new_game(
        self,
        system: str = "classic",
        table: str = "2x2",
        names: Sequence[str] = ("Us", "Them"),
        start_scores: Sequence[int] = (),
        options: Sequence[str] = (),
        players: Mapping[str, str] | None = None,
    ) -> str:
        """Set up a game through the form and return its id."""
        response = self.post_new_game(system, table, names, start_scores, options, players)
        assert response.status_code == 302, response.text
        location = response.headers["Location"]
        assert location.startswith("/games/")
        return location.removeprefix("/games/")

    def post_new_game(
        self,
        system: str = "classic",
        table: str = "2x2",
        names: Sequence[str] = ("Us", "Them"),
        start_scores: Sequence[int] = (),
        options: Sequence[str] = (),
        players: Mapping[str, str] | None = None,
    ) -> TestResponse:
        data: dict[str, Any] = {f"side_list-{i}-name": name for i, name in enumerate(names)}
        for i, score in enumerate(start_scores):
            data[f"side_list-{i}-start_score"] = str(score)
        for option in options:
            data[f"option_{option}"] = "y"
        data.update(players or {})
        return self._client.post(f"/games/new?system={system}&table={table}", data=data)

    def post_hand(
        self,
        game_id: str,
        sides: Sequence[Mapping[str, Any]],
        ending: str = "out-0",
        **extra: Any,
    ) -> TestResponse:
        return self._client.post(
            f"/games/{game_id}/hands/new", data=hand_fields(sides, ending, **extra)
        )

    def record_hand(
        self, game_id: str, sides: Sequence[Mapping[str, Any]], ending: str = "out-0"
    ) -> None:
        response = self.post_hand(game_id, sides, ending)
        assert response.status_code == 302, response.text
        assert response.headers["Location"].startswith(f"/games/{game_id}")

    def scoreboard(self, game_id: str) -> str:
        response = self._client.get(f"/games/{game_id}")
        assert response.status_code == 200
        return response.text

    def result(self, game_id: str) -> dict[str, Any]:
        response = self._client.get(f"/games/{game_id}/result.json")
        assert response.status_code == 200
        data: dict[str, Any] = response.get_json()
        return data

    def hand_ids(self, game_id: str) -> list[int]:
        """The recorded hands' ids, in order, as the scoreboard links them."""
        page = self.scoreboard(game_id)
        return [int(n) for n in re.findall(r'<tr id="hand-(\d+)">', page)]


@pytest.fixture
def actions(client: FlaskClient) -> Actions:
    return Actions(client)


# Two sides that go out legally in classic/denexa: Us goes out with a samba and a canasta.
GOES_OUT = {"set_samba": "1", "set_natural_canasta": "1", "melded_points": "260"}
STAYS_IN = {"set_mixed_canasta": "1", "melded_points": "150", "hand_points": "30"}


@pytest.fixture
def postgresql(postgresql_url: str) -> Iterator[Flask]:
    """An app on an empty database of the throw-away PostgreSQL, migrated from empty."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": postgresql_url})
    with app.app_context():
        flask_migrate.upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()
