"""Fixtures for the web app, flaskr style: `app`, `client`, `runner` and `actions`.

Each test's app has a database of its own: by default a copy of an empty migrated SQLite
database in memory, and when the run is on PostgreSQL (`SCOREKEEPER_TEST_DATABASE=postgresql`,
as `python3 dev.py test`'s second pass sets it), a copy of a migrated template database on the
throw-away server (tests/postgres.py). Tests of what only SQLite has (its files, WAL, `BEGIN
IMMEDIATE`) are marked `sqlite` and run only on it."""

from __future__ import annotations

from collections.abc import Iterator

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db

from .apps import TEST_CONFIG, built_app
from .helpers import Actions


@pytest.fixture
def app() -> Iterator[Flask]:
    yield built_app(TEST_CONFIG)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def csrf_app() -> Iterator[Flask]:
    yield built_app({**TEST_CONFIG, "WTF_CSRF_ENABLED": True})


@pytest.fixture
def csrf_client(csrf_app: Flask) -> FlaskClient:
    return csrf_app.test_client()


@pytest.fixture
def actions(client: FlaskClient) -> Actions:
    return Actions(client)


@pytest.fixture
def postgresql(postgresql_url: str) -> Iterator[Flask]:
    """An app on an empty database of the throw-away PostgreSQL, migrated from empty."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": postgresql_url})
    with app.app_context():
        flask_migrate.upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()
