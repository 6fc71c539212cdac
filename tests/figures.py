"""The reliability suite's tally of what it tried and saw (a name → number), printed at the end
of a run by tests/conftest.py."""

from __future__ import annotations

from collections import Counter

FIGURES: Counter[str] = Counter()
