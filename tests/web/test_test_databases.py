"""The tests' databases: migrated once a run and copied for each test, they are what the
migrations build (tests/web/test_migrations.py runs the migrations themselves); on PostgreSQL a
copy is lent again to a later test, emptied."""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path
from typing import Any

import flask_migrate
import psycopg
import pytest
from flask import Flask
from sqlalchemy import select, text
from sqlalchemy.engine import make_url

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Side
from tests import postgres

from .apps import TEST_CONFIG, built_app, migrated_postgresql, stored_games
from .helpers import Actions


def schema(app: Flask) -> list[Any]:
    """Every table, index and trigger as SQLite keeps it, the migration it is at, its mode."""
    with app.app_context():
        rows = db.session.execute(text("SELECT type, name, tbl_name, sql FROM sqlite_master"))
        version = db.session.execute(text("SELECT version_num FROM alembic_version")).all()
        mode = db.session.execute(text("PRAGMA journal_mode")).scalar()
        keys = db.session.execute(text("PRAGMA foreign_keys")).scalar()
        return [
            sorted((kind, name, table, lines(sql)) for kind, name, table, sql in rows),
            version,
            mode,
            keys,
        ]


def lines(sql: str | None) -> list[str]:
    """A statement's lines, sorted: Alembic's batch mode writes constraints in no fixed order."""
    return sorted(line.strip().rstrip(",") for line in (sql or "").splitlines())


def migrated(path: Path) -> Flask:
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        flask_migrate.upgrade()
    return app


@pytest.mark.sqlite  # reads sqlite_master
def test_a_copied_file_is_the_database_the_migrations_build(tmp_path: Path) -> None:
    copy = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.db'}"})
    assert schema(copy) == schema(migrated(tmp_path / "migrated.db"))
    assert schema(copy)[2] == "wal"


@pytest.mark.sqlite  # reads sqlite_master
def test_a_copied_database_in_memory_is_the_one_the_migrations_build(tmp_path: Path) -> None:
    in_memory = create_app(dict(TEST_CONFIG))
    with in_memory.app_context():
        flask_migrate.upgrade()
    assert schema(built_app(TEST_CONFIG)) == schema(in_memory)
    file_schema = schema(migrated(tmp_path / "migrated.db"))
    assert schema(built_app(TEST_CONFIG))[:2] == file_schema[:2]


def test_each_test_has_a_database_of_its_own() -> None:
    first, second = built_app(TEST_CONFIG), built_app(TEST_CONFIG)
    Actions(first.test_client()).new_game()
    assert (stored_games(first), stored_games(second)) == (1, 0)
    assert stored_games(built_app(TEST_CONFIG)) == 0


@pytest.mark.sqlite  # a file of its own
def test_a_database_file_that_is_already_there_is_migrated_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "kept.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE kept (what TEXT)")
        connection.execute("INSERT INTO kept VALUES ('a row of its own')")
    connection.close()
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        assert db.session.execute(text("SELECT what FROM kept")).scalar() == "a row of its own"
    assert stored_games(app) == 0


@pytest.mark.once  # about the throw-away PostgreSQL's copies, which it asks for itself
def test_a_postgresql_copy_lent_again_is_as_empty_as_a_new_one(postgresql_server: str) -> None:
    """A test's copy of the migrated database is put back when the test ends, closed to
    connections, and lent to a later test emptied: no row, ids numbered from 1 again."""
    url = postgres.fresh_database(template=migrated_postgresql())
    first = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    Actions(first.test_client()).new_game()
    assert (stored_games(first), side_ids(first)) == (1, [1, 2])
    postgres.drop_made_databases()  # as at the end of a test
    with pytest.raises(psycopg.OperationalError, match="not currently accepting connections"):
        psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(False))
    again = postgres.fresh_database(template=migrated_postgresql())
    assert again == url
    second = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": again})
    assert stored_games(second) == 0
    Actions(second.test_client()).new_game()
    assert side_ids(second) == [1, 2]


@pytest.mark.once  # about the throw-away PostgreSQL's copies, which it asks for itself
def test_an_app_that_outlives_its_database_leaves_no_connection_open(
    postgresql_server: str,
) -> None:
    """An app whose engine no one disposes (built outside `built_app`, or a module's that
    outlives its test) still holds a pooled connection when its copy is put back; this side of
    it is closed then, so that the collector, whenever it comes, finds nothing to warn about
    (its ResourceWarning would fail whichever later test it landed in)."""
    url = postgres.fresh_database(template=migrated_postgresql())
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    assert stored_games(app) == 0  # a connection taken and given back to the pool
    postgres.drop_made_databases()
    name = make_url(url).database
    still_open = [
        found
        for found in gc.get_objects()
        if isinstance(found, psycopg.Connection) and not found.closed and found.info.dbname == name
    ]
    assert still_open == []  # while the app that holds it is still there


def side_ids(app: Flask) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(select(Side.id).order_by(Side.id)))


@pytest.mark.once  # about the throw-away PostgreSQL's copies, which it asks for itself
def test_each_example_of_a_property_test_takes_the_same_copy_again(postgresql_server: str) -> None:
    taken = []
    for _ in range(2):
        with postgres.databases_of_one_example():
            taken.append(postgres.fresh_database(template=migrated_postgresql()))
    assert taken[0] == taken[1]
