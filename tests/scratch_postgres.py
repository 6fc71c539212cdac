"""A database of its own on the throw-away PostgreSQL that the test command starts.

The test command names that server in `SCOREKEEPER_TEST_POSTGRES_URL` (e.g.
`postgresql+psycopg://postgres@/postgres?host=/tmp/pg`). The tests treat it as theirs: each
creates a database with a name of its own there and drops it afterwards, so that tests running
in parallel never see each other's games.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES_URL_VARIABLE = "SCOREKEEPER_TEST_POSTGRES_URL"


def postgres_url() -> str:
    """The throw-away server's URL; without one the test is skipped, and under CI fails."""
    url = os.environ.get(POSTGRES_URL_VARIABLE, "")
    if not url:
        reason = f"no throw-away PostgreSQL ({POSTGRES_URL_VARIABLE} is not set)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the PostgreSQL tests", pytrace=False)
        pytest.skip(reason)
    return url


@contextmanager
def scratch_database() -> Iterator[str]:
    """A new, empty database on the throw-away server; its URL. Dropped afterwards, with any
    connection a server process left open to it."""
    server = make_url(postgres_url())
    name = f"scratch_{uuid.uuid4().hex[:12]}"
    # CREATE and DROP DATABASE cannot run inside a transaction.
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
