"""The reliability suite: what a real table does to the app, counted.

Each test adds what it tried and what it saw to `figures` (a name → number tally); at the end of
the run pytest prints the tally (tests/conftest.py, from every worker of a parallel run), so the
suite's figures (inputs tried, 5xx seen, rounds run, hands lost or doubled, totals that differ
from the replay) are on every CI log.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.figures import FIGURES


@pytest.fixture
def figures() -> Counter[str]:
    """The run's tally: `figures["inputs tried"] += 1`."""
    return FIGURES
