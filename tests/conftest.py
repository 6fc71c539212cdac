"""What every part of the suite shares: the reliability figures, gathered from every worker when
the suite runs in parallel, and the rule texts of ../shared, which CI must have."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
