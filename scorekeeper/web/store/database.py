"""How the app holds its database: SQLite's settings, and write transactions one at a time.

Every write goes through `writing()`. On SQLite it begins `BEGIN IMMEDIATE`, so a writer takes
the database's write lock before it reads what it will check, and a second writer waits for the
first to commit (busy_timeout) instead of reading a state that is about to change. On a server
database the services also lock the game's row (`SELECT … FOR UPDATE`, which SQLite ignores) in
a statement of its own, and read the game after it (services/loading.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine import Connection

from ..extensions import db

WRITE = "scorekeeper_write"
"""Execution option of a connection whose transaction will write."""
BUSY_TIMEOUT_MS = 20_000
"""How long a writer waits for another one before giving up (twenty phones at once wait less)."""


def _on_connect(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy, not the sqlite3 module, begins transactions (see _on_begin): the module's own
    # BEGIN comes only before the first INSERT/UPDATE, after the reads a write depends on.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # WAL: readers never block the writer nor it them. synchronous=FULL: a commit is on disk
    # before the app answers, so no acknowledged hand is lost, even to a power cut.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


def _on_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(WRITE)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def set_up(engine: Engine) -> None:
    """SQLite's settings for every connection of `engine` (the documented pysqlite recipe)."""
    if engine.dialect.name != "sqlite":
        return
    event.listen(engine, "connect", _on_connect)
    event.listen(engine, "begin", _on_begin)


@contextmanager
def writing() -> Iterator[None]:
    """One write transaction: begun as the writer, committed at the end, rolled back on error."""
    session = db.session
    # What the request read before is of an earlier moment: the write reads again inside its lock.
    session.rollback()
    options: dict[str, Any] = {WRITE: True}
    if db.engine.dialect.name == "postgresql":
        # Each statement reads what was committed before it began, so what a write reads after
        # the game's lock is what the write before it left: a REPEATABLE READ snapshot (the
        # door's for a read, or a server's default) would be older than the lock.
        options["isolation_level"] = "READ COMMITTED"
    session.connection(execution_options=options)
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
