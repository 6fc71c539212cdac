"""Reads on PostgreSQL: a poll answered 304 costs one statement outside any transaction, and a
page drawn reads the game in one REPEATABLE READ snapshot.

Runs on a new database of the run's throw-away PostgreSQL (tests/postgres.py); without one it
is skipped, and under CI fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import pytest
from flask import Flask
from psycopg import IsolationLevel
from sqlalchemy import event

from scorekeeper.web.extensions import db
from scorekeeper.web.store import database

from . import nights
from .apps import TEST_CONFIG, built_app
from .helpers import GOES_OUT, STAYS_IN, Actions

pytestmark = pytest.mark.once


class Statement(NamedTuple):
    sql: str
    autocommit: bool
    isolation: object


@contextmanager
def statements(app: Flask) -> Iterator[list[Statement]]:
    """Each statement the app runs, with how its connection was set when it ran."""
    seen: list[Statement] = []

    def run(connection: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        dbapi = connection.connection.dbapi_connection
        seen.append(Statement(sql, dbapi.autocommit, dbapi.isolation_level))

    def peeked(sql: str) -> None:  # the door's peek, through the driver in autocommit
        seen.append(Statement(sql, True, None))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", run)
    database.PEEKED.append(peeked)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", run)
        database.PEEKED.remove(peeked)


def test_a_poll_answered_304_runs_one_statement_outside_a_transaction(postgresql: Flask) -> None:
    client = postgresql.test_client()
    actions = Actions(client)
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    etag = client.get(f"/games/{game_id}").headers["ETag"]
    with statements(postgresql) as seen:
        again = client.get(f"/games/{game_id}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert len(seen) == 1 and seen[0].autocommit


def test_a_page_drawn_reads_the_game_in_one_repeatable_read_snapshot(
    postgresql: Flask,
) -> None:
    client = postgresql.test_client()
    actions = Actions(client)
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    # Another process, which keeps nothing of the game (the saving one draws from what it kept).
    url = postgresql.config["SQLALCHEMY_DATABASE_URI"]
    other = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    with statements(other) as seen:
        page = other.test_client().get(f"/games/{game_id}/hands/new")
    assert page.status_code == 200 and "Hand 2" in page.text
    peek, *drawn = seen
    assert peek.autocommit and len(drawn) >= 2
    # The game read whole in the page's snapshot, with the revision the page is kept under.
    assert "game.revision" in drawn[0].sql and "FROM game" in drawn[0].sql
    assert all(not s.autocommit and s.isolation == IsolationLevel.REPEATABLE_READ for s in drawn)


def test_a_night_comes_in_through_the_same_peek_and_snapshot(postgresql: Flask) -> None:
    """A night's poll is answered 304 from the door's one peek, as a game's is; its standings
    drawn are read in one REPEATABLE READ snapshot (the door is the same for both)."""
    client = postgresql.test_client()
    night_id = nights.set_up(client)
    nights.start(client, night_id, 1)
    link = nights.standings_link(client, night_id)
    etag = client.get(link).headers["ETag"]
    with statements(postgresql) as seen:
        again = client.get(link, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert len(seen) == 1 and seen[0].autocommit
    with statements(postgresql) as seen:
        page = client.get(f"{link}?by=points", headers={"If-None-Match": etag})
    assert page.status_code == 200
    peek, *drawn = seen
    assert peek.autocommit and "FROM night" in peek.sql and drawn
    assert all(not s.autocommit and s.isolation == IsolationLevel.REPEATABLE_READ for s in drawn)
