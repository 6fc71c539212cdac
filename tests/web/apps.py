"""Apps for the web tests, each on a database of its own, and what their databases hold.

Each test's app has a database of its own: by default a copy of an empty migrated SQLite
database in memory, and when the run is on PostgreSQL (`SCOREKEEPER_TEST_DATABASE=postgresql`,
as `python3 dev.py test`'s second pass sets it), a copy of a migrated template database on the
throw-away server (tests/postgres.py). Tests of what only SQLite has (its files, WAL, `BEGIN
IMMEDIATE`) are marked `sqlite` and run only on it."""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate
import jinja2
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, event, select
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.util import LRUCache
from werkzeug import security
from werkzeug.routing import BaseConverter, Map, Rule

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.http import access as http_access
from scorekeeper.web.services import backup, push
from scorekeeper.web.services.figures import games_differing_from_replay
from scorekeeper.web.store import database
from scorekeeper.web.store.models import Game
from tests import postgres
from tests.web import streams

TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "WTF_CSRF_ENABLED": False,
}


class ReadToTheEnd(FlaskClient):
    """A test client that reads every answer to its end and closes it, as a server does: a
    streamed answer (`/backup.json`) whose test looks only at the status would otherwise keep
    its reads and its request's context open until the garbage collector closes them, in the
    middle of another test (on PostgreSQL: a stray "Working outside of request context").
    A test of the stream itself asks for `buffered=False`."""

    def open(self, *args: Any, buffered: bool = True, **kwargs: Any) -> Any:
        return super().open(*args, buffered=buffered, **kwargs)


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


_compiled: dict[Hashable, Rule] = {}
_compile = Rule.compile


def _compiled_once(rule: Rule) -> None:
    """Werkzeug's `Rule.compile`, each rule compiled once a run: every test's app has the same
    rules, and werkzeug parsed each rule's text again for every app and wrote and compiled
    Python for it (two functions a rule; compiling was two thirds of the time of making an
    app). A rule of the same text, domain, defaults and converters as one compiled before is
    given that one's parts and functions (which read the rule only through the argument they
    are bound to) and converters of its own, bound to its own map."""
    domain = (rule.host if rule.map.host_matching else rule.subdomain) or ""
    defaults = tuple(sorted((str(k), repr(v)) for k, v in (rule.defaults or {}).items()))
    converters = tuple(rule.map.converters.items())
    key = (type(rule), rule.rule, domain, rule.merge_slashes, defaults, converters)
    done = _compiled.get(key)
    if done is None:
        _compile(rule)
        _compiled[key] = rule
        return
    rule._parts = list(done._parts)
    rule._trace = list(done._trace)
    rule._converters = {name: _bound(c, rule.map) for name, c in done._converters.items()}
    rule.arguments |= done.arguments
    rule._build = done._build.__func__.__get__(rule, None)  # type: ignore[attr-defined]
    rule._build_unknown = done._build_unknown.__func__.__get__(rule, None)  # type: ignore[attr-defined]


def _bound(converter: BaseConverter, to: Map) -> BaseConverter:
    """A copy of a rule's converter, for a rule of another map."""
    made = object.__new__(type(converter))  # as copy.copy does, in a fifth of its time
    vars(made).update(vars(converter), map=to)
    return made


Rule.compile = _compiled_once  # type: ignore[method-assign,assignment]


@functools.cache
def _pin_hashed_once(pin: str) -> str:
    """The hash of a server's PIN (`PIN`), made once a run for each PIN: the app hashes it when
    it is made (http/access.py), a slow hash on purpose (a tenth of a second of CPU), and the
    tests' apps with a PIN are made with the same few. Each is still werkzeug's hash of that
    PIN by its default method, with its own salt; the PINs a phone sets and the guesses it sends
    are hashed and checked as ever."""
    return security.generate_password_hash(pin)


http_access.generate_password_hash = _pin_hashed_once  # type: ignore[attr-defined]


STATEMENTS: dict[type[Dialect], LRUCache[Any, Any]] = {}
"""The statements every test's app compiled, kept for the whole run by the kind of database
(`_statements_compiled_once`)."""


def _same_kind(dialect: Dialect, other: object) -> bool:
    """Two dialects of one driver, set up alike (one server version): the SQL either compiles
    is the other's."""
    return (
        type(other) is type(dialect)
        and other.server_version_info == dialect.server_version_info  # type: ignore[attr-defined]
        and other.paramstyle == dialect.paramstyle  # type: ignore[attr-defined]
    )


def _statements_compiled_once(engine: Engine) -> Engine:
    """Each statement compiled once a run, not once an app: SQLAlchemy keeps what it compiled
    in each engine (and each mapper), under the engine's dialect, and every test's app has an
    engine of its own, so every test compiled every statement it ran again (a quarter of a web
    test's CPU). The engines share one cache for each kind of database, and their dialects
    count as one where they are of one driver set up alike (no test sets an engine up
    differently), so that the mappers' caches of writes are shared too."""
    kind = type(engine.dialect)
    if kind.__dict__.get("__eq__") is not _same_kind:
        kind.__eq__ = _same_kind  # type: ignore[method-assign,assignment]
        kind.__hash__ = lambda dialect: hash(type(dialect))  # type: ignore[method-assign,assignment]
    engine.update_execution_options(compiled_cache=STATEMENTS.setdefault(kind, LRUCache(2000)))
    return engine


_make_engine = db._make_engine


def _engine_compiling_once(*args: Any, **kwargs: Any) -> Engine:
    return _statements_compiled_once(_make_engine(*args, **kwargs))


db._make_engine = _engine_compiling_once  # type: ignore[method-assign]


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


def built_app(config: Mapping[str, Any]) -> Flask:
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
    app.test_client_class = ReadToTheEnd
    if make_url(config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "postgresql":
        postgres.close_before_dropping(functools.partial(_close, app))
    return app


def _close(app: Flask) -> None:
    push.stop(app)  # its listener would call on a dropped database for ever
    streams.end_all(app)  # and so would a stream still open, when it next draws its page
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


def stored_games(app: Flask) -> int:
    """How many games the database holds."""
    with app.app_context():
        return len(db.session.scalars(select(Game)).all())


def another_app(tmp_path: Path, name: str) -> Flask:
    """Another app, on its own empty database (a file, or on the run's PostgreSQL)."""
    return built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, name)})


def tables(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, copied totals included; not the games' revisions, which are
    new at every write, a restore's included."""
    with app.app_context():
        return {
            table.name: [
                tuple(row)
                for row in db.session.execute(
                    select(*(c for c in table.columns if c.key != "revision")).order_by(
                        *table.primary_key.columns
                    )
                )
            ]
            for table in db.metadata.sorted_tables
        }


def backup_of(app: Flask) -> dict[str, Any]:
    with app.app_context():
        return backup.backup()


def everything(app: Flask) -> dict[str, list[str]]:
    """Every row of every table, to see that nothing was written."""
    with app.app_context():
        return {
            table.name: sorted(repr(tuple(row)) for row in db.session.execute(table.select()))
            for table in db.metadata.sorted_tables
        }


def assert_figures_are_the_replays(app: Flask) -> None:
    """The invariant: the totals, winners and hand scores that lists read are the replay's."""
    with app.app_context():
        assert games_differing_from_replay() == []


ACCESS_READ = "SELECT (SELECT TABLE_SETTING.VALUE"
"""The access check's read outside a game: the stored PIN and whether the phone is signed in."""


@contextmanager
def statements(
    app: Flask, *, with_access: bool = False, thread: int | None = None
) -> Iterator[list[str]]:
    """The SQL statements run meanwhile (by `thread` alone, if given: a request's, not an event
    stream's beside it); but for `with_access`, not the access check's read of the table's PIN,
    which a page outside a game makes once whatever it shows (inside a game the door reads the
    PIN with the game: tests/web/test_access.py counts both)."""
    seen: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if thread is not None and threading.get_ident() != thread:
            return
        if with_access or not statement.lstrip().upper().startswith(ACCESS_READ):
            seen.append(statement)
        elif seen and seen[-1] == "BEGIN":
            seen.pop()  # the transaction the access check's read began

    def peeked(statement: str) -> None:  # the door's peek, past SQLAlchemy's events
        if thread is None or threading.get_ident() == thread:
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    database.PEEKED.append(peeked)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)
        database.PEEKED.remove(peeked)
