"""How the app holds its database: SQLite's settings, and write transactions one at a time.

Every write goes through `writing()`. On SQLite it begins `BEGIN IMMEDIATE`, so a writer takes
the database's write lock before it reads what it will check, and a second writer waits for the
first to commit (busy_timeout) instead of reading a state that is about to change. On a server
database the services also lock the game's row (`SELECT … FOR UPDATE`, which SQLite ignores) in
a statement of its own, and read the game after it (services/loading.py).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from threading import Lock
from typing import Any, NamedTuple

from sqlalchemy import Engine, Select, event
from sqlalchemy.engine import Connection, Dialect

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


class _Peek(NamedTuple):
    """A statement compiled for the driver once: its SQL, its parameters' order (None where the
    driver takes them by name) and a row maker."""

    sql: str
    order: tuple[str, ...] | None
    defaults: dict[str, Any]
    """The values bound in the statement itself (a constant compared with)."""
    row: Callable[..., Any]


_PEEKS: dict[tuple[int, Dialect], _Peek] = {}
_PEEKS_LOCK = Lock()
PEEKED: list[Callable[[str], None]] = []
"""Who is told of each statement `peek` runs (SQLAlchemy's events never see it): the tests'
and the benchmarks' statement counts."""


def _compiled(statement: Select[Any], engine: Engine) -> _Peek:
    # Under the dialect itself, which the key keeps alive: an engine's id, once the engine is
    # gone, may be another's, of another kind of database (the tests make thousands).
    key = (id(statement), engine.dialect)
    found = _PEEKS.get(key)
    if found is None:
        compiled = statement.compile(engine)
        names = [str(column.key) for column in statement.selected_columns]
        found = _Peek(
            compiled.string,
            tuple(compiled.positiontup) if compiled.positiontup is not None else None,
            compiled.params,
            namedtuple("Peeked", names),
        )
        with _PEEKS_LOCK:
            _PEEKS[key] = found
    return found


def peek(statement: Select[Any], values: Mapping[str, Any], *, every: bool = False) -> Any:
    """The first row of `statement` (a module-level statement: it is compiled once) read
    through the driver, outside any transaction and past SQLAlchemy's machinery; None if it
    has none; `every` row, as a list, if asked (a season's, one per night). The row's values
    are the driver's own (SQLite gives a boolean as 0 or 1).

    For the one statement of every poll (`http/door.py`): a statement run through the ORM
    costs ten times what the driver takes, and a transaction (BEGIN, ROLLBACK) twice more."""
    engine = db.engine
    compiled = _compiled(statement, engine)
    parameters: Any = {**compiled.defaults, **values}
    if compiled.order is not None:
        parameters = [parameters[name] for name in compiled.order]
    connection = engine.raw_connection()
    driver: Any = connection.driver_connection
    postgresql = engine.dialect.name == "postgresql"
    try:
        if postgresql:
            driver.autocommit = True  # one statement, read as committed: no BEGIN, no ROLLBACK
        cursor = connection.cursor()
        try:
            cursor.execute(compiled.sql, parameters)
            found = cursor.fetchall() if every else cursor.fetchone()
        finally:
            cursor.close()
    finally:
        if postgresql:
            driver.autocommit = False
        connection.close()
    for told in PEEKED:
        told(compiled.sql)
    if every:
        return [compiled.row(*row) for row in found or ()]
    return None if found is None else compiled.row(*found)
