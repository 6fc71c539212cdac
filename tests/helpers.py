"""What tests of every folder use: the rule texts of ../shared, and what a test does when a
component it needs (Chromium, nginx, PostgreSQL, …) is missing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
"""The rule texts the systems were written from: beside the project, not in a user's clone."""


def unavailable(reason: str, *, required: bool = False) -> NoReturn:
    """Skip the test for want of a component (`reason` says which and how to install it); under
    CI (`CI` set), which installs every one of them (.ci/run), or when `required`, fail instead:
    a test that needs a component cannot silently stop running there."""
    if os.environ.get("CI") or required:
        pytest.fail(f"{reason}; CI must run this test", pytrace=False)
    pytest.skip(reason)
