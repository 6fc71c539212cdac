"""What every part of the suite shares: the reliability figures, gathered from every worker when
the suite runs in parallel, the rule texts of ../shared, which CI must have, and the run's
throw-away PostgreSQL (tests/postgres.py), which CI must have too."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import postgres
from tests.figures import FIGURES

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
"""The rule texts the systems were written from: beside the project, not in a user's clone."""


@pytest.fixture
def seeds() -> Path:
    """../shared/seeds; without it a test is skipped, and under CI (`CI` set) fails."""
    if not SEEDS.is_dir():
        reason = f"the rule texts are not here ({SEEDS})"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the tests that read them", pytrace=False)
        pytest.skip(reason)
    return SEEDS


@pytest.fixture(autouse=True)
def untouched_logging() -> Iterator[logging.Logger]:
    """The app's logger (`scorekeeper`) as Python makes it, and put back afterwards: an app built
    outside a test sets its level and handler for the whole process (request_log.py), which
    would write every later test's requests to its captured output."""
    logger = logging.getLogger("scorekeeper")
    kept = logger.level, list(logger.handlers), logger.propagate
    logger.setLevel(logging.NOTSET)
    logger.handlers.clear()
    logger.propagate = True
    # A logging configuration read by an earlier test (Alembic's, Flask's) may have switched off
    # or quietened the loggers below it (`scorekeeper.web` is the app's own): each test starts
    # with them as Python makes them.
    for name, below in list(logging.root.manager.loggerDict.items()):
        if name.startswith("scorekeeper.") and isinstance(below, logging.Logger):
            below.disabled = False
            below.setLevel(logging.NOTSET)
    yield logger
    level, handlers, propagate = kept
    logger.setLevel(level)
    logger.handlers[:] = handlers
    logger.propagate = propagate


CLUSTER = pytest.StashKey[postgres.Cluster]()


def pytest_configure(config: pytest.Config) -> None:
    """The run's throw-away PostgreSQL, started once by the run that starts the workers (they
    inherit its URL), unless SCOREKEEPER_TEST_POSTGRES_URL already names one."""
    if hasattr(config, "workerinput") or postgres.server_url():
        return
    try:
        cluster = postgres.start()
    except RuntimeError as error:
        if postgres.on_postgresql():
            raise pytest.UsageError(f"{postgres.DATABASE_SETTING}=postgresql: {error}") from error
        # The tests that need it skip, or under CI fail (the `postgresql_url` fixture).
        print(f"No throw-away PostgreSQL ({error}): its tests will be SKIPPED.", flush=True)
        return
    config.stash[CLUSTER] = cluster
    os.environ[postgres.URL_SETTING] = cluster.url


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop and remove the throw-away PostgreSQL, also after a failure or Ctrl-C."""
    cluster = config.stash.get(CLUSTER, None)
    if cluster is not None:
        del config.stash[CLUSTER]
        os.environ.pop(postgres.URL_SETTING, None)
        cluster.stop()


ON_BOTH = ("tests/web/", "tests/reliability/")
"""The suites that run on PostgreSQL as well (`SCOREKEEPER_TEST_DATABASE=postgresql`)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, only the web and reliability suites run, without their SQLite tests (and
    those marked `once`): the rest does not touch a database or has run already."""
    if not postgres.on_postgresql():
        return
    root = Path(str(config.rootpath))
    kept, left = [], []
    for item in items:
        where = Path(str(item.path)).relative_to(root).as_posix()
        on_both = where.startswith(ON_BOTH) and not any(
            item.get_closest_marker(marker) for marker in ("sqlite", "once")
        )
        (kept if on_both else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.fixture(autouse=True)
def dropped_databases() -> Iterator[None]:
    """The PostgreSQL databases a test made are dropped when it ends (their apps with them)."""
    yield
    postgres.drop_made_databases()


@pytest.fixture
def postgresql_url() -> str:
    """A new, empty database on the throw-away PostgreSQL; without one the test is skipped,
    and under CI fails."""
    return postgres.database_or_skip()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker of pytest-xdist hands its figures to the run that started it."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["figures"] = dict(FIGURES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    FIGURES.update(getattr(node, "workeroutput", {}).get("figures", {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES or hasattr(terminalreporter.config, "workeroutput"):
        return
    terminalreporter.section("reliability figures")
    for name in sorted(FIGURES):
        terminalreporter.write_line(f"{name}: {FIGURES[name]}")
