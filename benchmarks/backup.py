#!/usr/bin/env python3
"""Time a club's backup and its restore at 1,000, 10,000 and 25,000 hands, and count their SQL
statements, on SQLite and on PostgreSQL.

For each size it makes up a club's backup (tests/club_backup.py: games of 25 hands, every key
a backup holds), restores it into an empty database through the restore service (as
`scorekeeper restore` and the restore page do), then downloads `/backup.json` through the app
(the streamed answer, read to its end) and checks that it holds every hand. It prints, for each
database and size: the restore's statements and seconds, and the backup's statements, seconds
and megabytes. SQLite is a file in a temporary folder; PostgreSQL the tests' throw-away cluster
(tests/postgres.py, made durable as a club's server is), skipped without Debian's postgresql.

Run: `.venv/bin/python benchmarks/backup.py [--sizes 1000,10000,25000]
[--setup sqlite|postgres|both]`
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import event
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's tests/
from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services.restore import restore
from tests import postgres
from tests.club_backup import club_backup


@contextmanager
def counted() -> Iterator[list[str]]:
    """The statements the app's engine sends meanwhile (an executemany counts once)."""
    seen: list[str] = []

    def count(*args: object) -> None:
        seen.append(str(args[2]))

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def measure(url: str, hands: int) -> str:
    """Restore a club of `hands` hands at `url` and back it up; the line that says how it went."""
    app = create_app({"SECRET_KEY": "benchmark", "SQLALCHEMY_DATABASE_URI": url})
    data = club_backup(hands)
    with app.app_context():
        upgrade()
        with counted() as statements:
            began = time.perf_counter()
            restore(data)
            restore_time = time.perf_counter() - began
        restore_statements = len(statements)
        with counted() as statements:
            began = time.perf_counter()
            answer = app.test_client().get("/backup.json")
            body = answer.get_data()  # the streamed answer, read to its end
            backup_time = time.perf_counter() - began
        backup_statements = len(statements)
        db.engine.dispose()
    restored = sum(len(game["hands"]) for game in json.loads(body)["games"])
    assert answer.status_code == 200 and restored == hands, (answer.status_code, restored)
    return (
        f"{hands:>6} hands: restore {restore_statements} statements {restore_time:6.1f} s; "
        f"backup {backup_statements} statements {backup_time:6.1f} s {len(body) / 1e6:5.1f} MB"
    )


def sqlite_runs(sizes: list[int]) -> None:
    print("SQLite")
    with tempfile.TemporaryDirectory() as folder:
        for hands in sizes:
            print(" ", measure(f"sqlite:///{Path(folder) / f'{hands}.sqlite3'}", hands), flush=True)


def postgres_runs(sizes: list[int]) -> None:
    if postgres.binaries() is None:
        print("PostgreSQL: skipped (needs Debian's postgresql)")
        return
    print("PostgreSQL")
    cluster = postgres.start(durable=True)
    try:
        for hands in sizes:
            with postgres._admin(cluster.url) as admin:
                admin.execute(f"CREATE DATABASE club_{hands}")
            url = make_url(cluster.url).set(database=f"club_{hands}")
            print(" ", measure(url.render_as_string(hide_password=False), hands), flush=True)
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,25000")
    parser.add_argument("--setup", choices=("sqlite", "postgres", "both"), default="both")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    if options.setup in ("sqlite", "both"):
        sqlite_runs(sizes)
    if options.setup in ("postgres", "both"):
        postgres_runs(sizes)


if __name__ == "__main__":
    main()
