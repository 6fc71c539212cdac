"""Fixtures for the web app, flaskr style: `app`, `client`, `runner` and `actions`."""

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
from scorekeeper.web.models import Game, db

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


def _built(config: Mapping[str, Any]) -> Flask:
    """An app on its own copy of the migrated database; a file that exists is migrated in place."""
    database = make_url(config["SQLALCHEMY_DATABASE_URI"]).database or ":memory:"
    in_memory = database == ":memory:"
    already_there = not in_memory and not _is_new(Path(database))
    if not in_memory and not already_there:
        Path(database).write_bytes(migrated_database())
    app = create_app(dict(config))
    app.jinja_env.bytecode_cache = TEMPLATES
    with app.app_context():
        if in_memory:
            with _connection() as connection:
                connection.deserialize(migrated_database())
        elif already_there:
            flask_migrate.upgrade()
    return app


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
