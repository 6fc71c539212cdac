"""Real-browser fixtures: the app served on 127.0.0.1 with a fresh database, Debian's Chromium
driven by Playwright at phone size with touch, axe-core injected for accessibility.

Without Chromium (or axe-core) these tests are skipped with the reason; under CI (`CI` set) a
missing browser is a failure instead, so the browser suite cannot silently stop running; so it
is when `python3 dev.py screenshots` takes the README's pictures again (SCOREKEEPER_SCREENSHOTS).
What the tests share besides these fixtures is in helpers.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import unavailable

from .helpers import (
    AXE,
    CHROMIUM,
    PATIENCE,
    REFRESHING,
    SCREENSHOTS,
    WHOLE_CHROMIUM,
    launched,
    served,
)


@pytest.fixture(scope="session", autouse=True)
def temporary_pictures() -> Iterator[None]:
    """The pictures a test run takes are thrown away at its end (each worker has its own)."""
    yield
    if not REFRESHING:
        shutil.rmtree(SCREENSHOTS, ignore_errors=True)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, started once a worker."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed", required=REFRESHING)
    from playwright.sync_api import expect

    # An expectation waits for its condition as long as a step does (helpers.PATIENCE).
    expect.set_options(timeout=PATIENCE)
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """The browser of the browser tests (helpers.CHROMIUM: the headless shell where installed)."""
    yield from launched(playwright, CHROMIUM)


@pytest.fixture(scope="session")
def whole_browser(playwright: Any) -> Iterator[Any]:
    """The whole of Debian's Chromium, for what its headless shell does not have."""
    yield from launched(playwright, WHOLE_CHROMIUM)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, with an empty database of its own."""
    yield from served(tmp_path)


@pytest.fixture
def axe() -> str:
    """The axe-core script, to inject into pages."""
    if not AXE.exists():
        unavailable(
            f"axe-core is not installed at {AXE} (python3 dev.py test installs it)",
            required=REFRESHING,
        )
    return AXE.read_text(encoding="utf-8")
