"""The tests' throw-away PostgreSQL: a cluster in a temporary folder, for one test run.

It starts the first time a test of the run needs it (the `postgresql_server` fixture, or any call
here that needs the server), so that a run of tests that need none (the engine's, most web tests
on SQLite) starts none. The run that starts the workers of a parallel run (or pytest alone) makes
an empty folder for it and names it in `SCOREKEEPER_TEST_POSTGRES_FOLDER` (tests/conftest.py);
the workers inherit the name, and the first of them that needs the server makes and starts the
cluster there, under a lock, while the others wait and then read its URL. The run removes the
cluster at its end. So it is in a run on PostgreSQL (`SCOREKEEPER_TEST_DATABASE=postgresql`),
whose web and reliability tests all need it. `SCOREKEEPER_TEST_POSTGRES_URL` names a server's
database instead, and then nothing is started.

The cluster listens only on a unix socket in its own folder, with fsync off (nothing in it is
worth keeping), and runs as the unprivileged `postgres` user when the tests run as root, since
initdb and pg_ctl refuse root. Every test that wants a database of its own asks
`fresh_database()`, so that no test and no worker of a parallel run sees another's data: a new
database, dropped when the test ends; or, for a copy of a template (the migrated schema, which
most web tests get), one that this process lent to an earlier test and emptied, as a new copy
would be, when lent again (a copy costs a checkpoint of the whole server, an emptying does not).

    SCOREKEEPER_TEST_POSTGRES_URL=postgresql+psycopg://postgres@/postgres?host=/tmp/samba-pg-…
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import Pool

from tests.helpers import unavailable

URL_SETTING = "SCOREKEEPER_TEST_POSTGRES_URL"
"""Where the tests find the throw-away server (a database any test may connect to)."""

FOLDER_SETTING = "SCOREKEEPER_TEST_POSTGRES_FOLDER"
"""The folder in which the run's throw-away cluster is made when a test first needs it."""

DATABASE_SETTING = "SCOREKEEPER_TEST_DATABASE"
"""`postgresql` runs the web and reliability suites' apps on PostgreSQL instead of SQLite."""

USER = "postgres"


def on_postgresql() -> bool:
    """Whether this run puts the apps of tests/web and tests/reliability on PostgreSQL."""
    return os.environ.get(DATABASE_SETTING) == "postgresql"


def examples(count: int) -> int:
    """How many examples a property test tries: all of them on SQLite; a quarter on PostgreSQL,
    where the same inputs (derandomized) have run on SQLite already, and what is PostgreSQL's own
    (its integers' range, no NUL in text, its locks) is met by the first of them and by the
    hostile values every form field takes: the suite stays within its time."""
    return max(10, count // 4) if on_postgresql() else count


def server_url() -> str:
    """The throw-away server's URL, started now if no test of the run has needed it yet; ''
    when there is none (`why_none()` says why)."""
    url = os.environ.get(URL_SETTING, "")
    folder = os.environ.get(FOLDER_SETTING, "")
    if url or not folder or _refusal:
        return url
    try:
        url = _shared_cluster(Path(folder))
    except RuntimeError as error:
        _refusal.append(str(error))
        return ""
    # Inherited from here on by the processes a test starts (a server of its own, gunicorn).
    os.environ[URL_SETTING] = url
    return url


_refusal: list[str] = []
"""Why the run's cluster could not be started, once that was tried: it is not tried again."""


def why_none() -> str:
    """Why `server_url()` is ''."""
    if _refusal:
        return _refusal[0]
    return f"{URL_SETTING} names no throw-away PostgreSQL (nor {FOLDER_SETTING} a folder for one)"


def _shared_cluster(folder: Path) -> str:
    """The URL of the cluster in `folder`, made and started by whichever process of the run
    asks first; RuntimeError says why it could not be (once tried, for every process)."""
    import fcntl  # only where PostgreSQL's tests run: not on Windows

    with (folder / "lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
        made, refused = folder / "url", folder / "refused"
        if made.exists():
            return made.read_text()
        if refused.exists():
            raise RuntimeError(refused.read_text())
        try:
            cluster = start_in(folder)
        except RuntimeError as error:
            refused.write_text(str(error))
            raise
        made.write_text(cluster.url)
        return cluster.url


def reserve() -> Path:
    """An empty folder for a cluster that processes of a run may share (FOLDER_SETTING names
    it to them), removed with whatever is in it by `remove`, at exit at the latest."""
    folder = Path(tempfile.mkdtemp(prefix="samba-pg-"))
    atexit.register(remove, folder)
    return folder


def remove(folder: Path) -> None:
    """Stop the cluster in `folder`, if one was started there, and remove the folder; again is
    nothing."""
    if os.environ.get(FOLDER_SETTING) == str(folder):
        del os.environ[FOLDER_SETTING]
        os.environ.pop(URL_SETTING, None)
    bindir = binaries() if (folder / "data").exists() else None
    if bindir is not None:
        Cluster(folder, bindir, "").stop()
    shutil.rmtree(folder, ignore_errors=True)


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl (Debian keeps them off the PATH), or None."""
    found = shutil.which("pg_config")
    if found:
        bindir = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=False)
        folder = Path(bindir.stdout.strip())
        if bindir.returncode == 0 and (folder / "initdb").exists():
            return folder
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if candidates:
        return Path(candidates[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass
class Cluster:
    """A running throw-away cluster: its folder (data and socket) and its URL."""

    folder: Path
    bindir: Path
    url: str

    def stop(self) -> None:
        """Stop the server at once (nothing in it is kept) and remove its folder; again is
        nothing."""
        if not self.folder.exists():
            return
        as_owner(self.bindir / "pg_ctl", "stop", "-D", str(self.folder / "data"), "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def as_owner(program: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL program, as the `postgres` user when we are root (it refuses root)."""
    command = [str(program), *args]
    if os.geteuid() == 0:
        command = ["runuser", "-u", USER, "--", *command]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def start(*, durable: bool = False) -> Cluster:
    """Make and start a cluster in a new temporary folder, stopped at exit at the latest;
    RuntimeError says why it could not. A test's cluster writes nothing to disk that it need not
    (nothing in it outlives the run); a `durable` one syncs its commits, as a club's server does
    (for benchmarks)."""
    folder = Path(tempfile.mkdtemp(prefix="samba-pg-"))
    try:
        cluster = start_in(folder, durable=durable)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    # Also when pytest dies before its own clean-up (a closed pipe on its output).
    atexit.register(cluster.stop)
    return cluster


def start_in(folder: Path, *, durable: bool = False) -> Cluster:
    """Make and start a cluster in `folder` (its data in data/, its socket beside it); on failure
    nothing is left running and RuntimeError says why."""
    bindir = binaries()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    data = folder / "data"
    try:
        if os.geteuid() == 0:
            shutil.chown(folder, USER, USER)
        made = as_owner(
            bindir / "initdb", "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed: {made.stderr.strip() or made.stdout.strip()}")
        options = f"-c listen_addresses='' -k {folder} -c max_connections=500"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        log = folder / "server.log"
        started = as_owner(
            bindir / "pg_ctl", "start", "-w", "-D", str(data), "-l", str(log), "-o", options
        )
        if started.returncode != 0:
            text = log.read_text() if log.exists() else started.stderr
            raise RuntimeError(f"PostgreSQL did not start: {text.strip()}")
    except BaseException:
        as_owner(bindir / "pg_ctl", "stop", "-D", str(data), "-m", "immediate")
        shutil.rmtree(data, ignore_errors=True)
        raise
    return Cluster(folder, bindir, f"postgresql+psycopg://{USER}@/postgres?host={folder}")


_names = itertools.count()
_made: list[str] = []
_lent: list[tuple[str, str]] = []
"""(template, database): copies lent to the running test, put back when it ends."""
_spare: dict[str, list[str]] = {}
"""Copies of each template that this process's earlier tests used, closed to connections until
lent again (a process of an earlier test that outlived it cannot write into a later one's)."""
_closers: list[Callable[[], None]] = []


def close_before_dropping(close: Callable[[], None]) -> None:
    """Call `close` (an app's engine's `dispose`) before the test's databases are dropped: a
    pooled connection that the server ended would warn when it is collected."""
    _closers.append(close)


def _admin(url: str) -> psycopg.Connection[Any]:
    """An autocommitting psycopg connection to the server of `url` (CREATE DATABASE needs one)."""
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    return psycopg.connect(conninfo, autocommit=True)


def database_exists(name: str) -> bool:
    """Whether the throw-away server has a database called `name`."""
    with _admin(server_url()) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


def create_database(name: str) -> None:
    """An empty database `name` on the throw-away server, kept until the server goes."""
    with _admin(server_url()) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


@contextmanager
def advisory_lock(what: str) -> Iterator[None]:
    """Held by one process of the run at a time (the workers of a parallel run share the
    server): for making what they all use once."""
    with _admin(server_url()) as connection:
        connection.execute("SELECT pg_advisory_lock(hashtext(%s))", [what])
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(hashtext(%s))", [what])


def fresh_database(template: str | None = None, *, lasting: bool = False) -> str:
    """A database of the test's own on the throw-away server, its URL: a new one, dropped at
    the end of the test (`drop_made_databases`), or with the server when `lasting` (for a
    fixture that outlives a test); with a `template`, a copy of it, which the end of the test
    puts back for a later test of this process, emptied (`_emptied`) when lent again."""
    url = server_url()
    if not url:
        raise RuntimeError(why_none())
    if template is not None and not lasting and _spare.get(template):
        name = _spare[template].pop()
        _lent.append((template, name))
        return _emptied(url, name)
    name = f"test_{os.getpid()}_{next(_names)}"
    with _admin(url) as connection:
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            # A file copy of the small template is far quicker than PostgreSQL 15's default
            # (writing every page to the WAL).
            statement += sql.SQL(" TEMPLATE {} STRATEGY FILE_COPY").format(sql.Identifier(template))
        connection.execute(statement)
    if template is not None and not lasting:
        _lent.append((template, name))
    elif not lasting:
        _made.append(name)
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def _emptied(url: str, name: str) -> str:
    """The spare copy `name` opened to connections again and emptied, as a new copy is: no row
    in any table of its template's schema (the migrations' own, alembic_version, kept) and
    every sequence back at its start; its URL. The rows a test leaves are few, so deleting them
    (with the foreign keys' triggers off, in any order) takes a millisecond or two where
    TRUNCATE makes new files for every table and index (0.1-0.3 s here). A test that changes a
    database's schema asks for a database without a template."""
    _kept_admin(url).execute(
        sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS true").format(sql.Identifier(name))
    )
    copy = make_url(url).set(database=name).render_as_string(hide_password=False)
    with _admin(copy) as connection:
        tables = connection.execute(
            "SELECT tablename FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        ).fetchall()
        deletes = [sql.SQL("DELETE FROM {}").format(sql.Identifier(t)) for (t,) in tables]
        connection.execute(
            sql.SQL("; ").join(
                [
                    sql.SQL("SET session_replication_role = replica"),
                    *deletes,
                    sql.SQL(
                        "SELECT setval(format('%I', sequencename)::regclass, start_value, false)"
                        " FROM pg_sequences WHERE schemaname = 'public'"
                    ),
                    sql.SQL("RESET session_replication_role"),
                ]
            )
        )
    return copy


_kept: dict[str, psycopg.Connection[Any]] = {}


def _kept_admin(url: str) -> psycopg.Connection[Any]:
    """An autocommitting connection to the server of `url` that the process keeps: lending and
    putting back copies asks the server twice a test, and a connection costs a new process of
    the server's."""
    connection = _kept.get(url)
    if connection is None or connection.closed:
        connection = _kept[url] = _admin(url)
        atexit.register(connection.close)
    return connection


def server_or_skip() -> str:
    """The throw-away server's URL, started if need be; without one the test is skipped, and
    under CI fails."""
    url = server_url()
    if not url:
        unavailable(why_none())
    return url


def database_or_skip() -> str:
    """A new, empty database for the test (`fresh_database`); without the throw-away server the
    test is skipped, and under CI fails."""
    server_or_skip()
    return fresh_database()


def drop_made_databases() -> None:
    """Drop the databases made since the last call, and put back the copies lent, closed to
    connections: whatever still holds one is ended, as a drop WITH (FORCE) ends it."""
    _let_go(made=0, lent=0, closers=0)


@contextmanager
def databases_of_one_example() -> Iterator[None]:
    """The databases made and copies lent inside, dropped and put back when it ends rather than
    at the end of the test: around each example of a property test, whose next example then
    takes the same copy again instead of making one (a copy checkpoints the whole server)."""
    made, lent, closers = len(_made), len(_lent), len(_closers)
    try:
        yield
    finally:
        _let_go(made=made, lent=lent, closers=closers)


_opened: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()
"""Every connection a pool of this process opened to the throw-away server."""


@event.listens_for(Pool, "connect")
def _opened_by_a_pool(connection: Any, _record: Any) -> None:
    if isinstance(connection, psycopg.Connection):
        _opened.add(connection)


def _close_ended(name: str) -> None:
    """Close this side of every pooled connection to the database `name`, which the server has
    just ended: an app that outlived its test (a module's, or one whose engine was not
    disposed) would otherwise keep the connection until the collector deletes it, and its
    ResourceWarning ("deleted while still open") would fail whichever later test it lands in."""
    for connection in list(_opened):
        if not connection.closed and connection.info.dbname == name:
            connection.close()


def _let_go(*, made: int, lent: int, closers: int) -> None:
    """`drop_made_databases` for what was made after the first `made`, `lent` and `closers`."""
    while len(_closers) > closers:
        _closers.pop()()
    if len(_made) == made and len(_lent) == lent:
        return
    connection = _kept_admin(server_url())
    while len(_made) > made:
        name = _made.pop()
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        _close_ended(name)
    while len(_lent) > lent:
        template, name = _lent.pop()
        connection.execute(
            sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS false").format(sql.Identifier(name))
        )
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            [name],
        )
        _close_ended(name)
        _spare.setdefault(template, []).append(name)
