"""The reliability suite: what a real table does to the app, counted.

Each test adds what it tried and what it saw to `figures` (a name → number tally); at the end of
the run pytest prints the tally, so the suite's figures (inputs tried, 5xx seen, rounds run,
hands lost or doubled, totals that differ from the replay) are on every CI log.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

FIGURES: Counter[str] = Counter()


@pytest.fixture
def figures() -> Counter[str]:
    """The run's tally: `figures["inputs tried"] += 1`."""
    return FIGURES


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for name in sorted(FIGURES):
        terminalreporter.write_line(f"{name}: {FIGURES[name]}")
