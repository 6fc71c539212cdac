"""What every part of the suite shares: the reliability figures, gathered from every worker when
the suite runs in parallel, the rule texts of ../shared, which CI must have, and the run's
throw-away PostgreSQL (tests/postgres.py), started when a test first needs it, which CI must
have too."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import postgres
from tests.figures import FIGURES
from tests.helpers import SEEDS, unavailable


@pytest.fixture
def seeds() -> Path:
    """../shared/seeds; without it a test is skipped, and under CI (`CI` set) fails."""
    if not SEEDS.is_dir():
        unavailable(f"the rule texts are not here ({SEEDS})")
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


FOLDER = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    """A folder for the run's throw-away PostgreSQL, made by the run that starts the workers
    (they inherit its name); the first test that needs the server starts it there
    (tests/postgres.py), unless SCOREKEEPER_TEST_POSTGRES_URL already names one. So it is on
    PostgreSQL too (`SCOREKEEPER_TEST_DATABASE=postgresql`): a run whose tests all run on SQLite
    only (`python3 dev.py test tests/rules`, whose second pass selects none) starts none."""
    if hasattr(config, "workerinput") or os.environ.get(postgres.URL_SETTING):
        return
    if os.environ.get(postgres.FOLDER_SETTING):
        return  # a run started by a test of another run, which owns the folder
    folder = postgres.reserve()
    config.stash[FOLDER] = folder
    os.environ[postgres.FOLDER_SETTING] = str(folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop and remove the throw-away PostgreSQL, also after a failure or Ctrl-C."""
    folder = config.stash.get(FOLDER, None)
    if folder is not None:
        del config.stash[FOLDER]
        postgres.remove(folder)


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


SPREAD = frozenset(
    {
        "tests/test_benchmarks.py",
        "tests/reliability/test_fuzz.py",
        "tests/reliability/test_pin_guesses.py",
        "tests/reliability/test_processes.py",
        "tests/browser/test_disputes.py",
        "tests/browser/test_play.py",
    }
)
"""Files handed to the workers one test at a time. The suite hands out a file at a time
(`--dist loadfile`, so that a module's server or world is made once); these files' tests
share nothing but what a worker makes for itself (the fuzzing's world, a module fixture, made
once by each worker it is spread to: xdist hands a file's tests out one after the other) and
keep no tally across tests, and each file was minutes of one worker: the fuzzing 600 s (its
inputs are counted by each test: test_fuzz.py), the benchmarks 500 s, a browser's disputes in
two languages, its games played at every phone size, the PIN's guesses and two processes
behind a server 3-5 minutes each under load. The files are handed out in the order they are
collected (pyproject.toml's `--no-loadscope-reorder`): the browser and reliability suites,
whose files are few tests of seconds to minutes each, start first, and the web suite's many
quick files fill the workers at the end."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadFileScheduling

    class Spread(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            where = nodeid.split("::", 1)[0]
            return nodeid if where in SPREAD else where

    return Spread(config, log) if config.getvalue("dist") == "loadfile" else None


@pytest.fixture(autouse=True)
def dropped_databases() -> Iterator[None]:
    """The PostgreSQL databases a test made are dropped when it ends (their apps with them)."""
    yield
    postgres.drop_made_databases()


@pytest.fixture(scope="session")
def postgresql_server() -> str:
    """The run's throw-away PostgreSQL (its URL), started when the first test that needs it
    asks; without one the test is skipped, and under CI fails."""
    return postgres.server_or_skip()


@pytest.fixture
def postgresql_url(postgresql_server: str) -> str:
    """A new, empty database on the throw-away PostgreSQL."""
    return postgres.fresh_database()


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
