#!/usr/bin/env python3
"""Print how far each of the project's disputes (tests/disputes.py) is from a fresh game's
scoreboard, on a phone at 360 × 740, in English and Spanish: the cheapest way to its answer,
either two taps without scrolling (Rules, then a topic) or two taps and the fewest of its typed
words with the answer starting above an open keyboard (370 px from the top). Then, per
language, how many are reached by taps, how many by typing, and the worst case.

Serves the app on 127.0.0.1 (a free port, a throw-away database) and drives Chromium headless
(issue 35). Run: `.venv/bin/python benchmarks/referee_reach.py [--systems denexa fournier]
[--languages es]`. tests/browser/test_disputes.py fails when a dispute is out of reach; this
prints the figures.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's tests/
from playwright.sync_api import sync_playwright

from scorekeeper import rules
from tests.browser.helpers import CHROMIUM_FLAGS, new_page, served
from tests.browser.reach import Reach, Referee
from tests.disputes import DISPUTES

LANGUAGES = {"en": "en-US", "es": "es"}


def measure(browser: object, server: str, language: str, systems: list[str]) -> list[Reach]:
    """Every dispute of these systems, in one language, on one page."""
    page = new_page(browser, "360x740", language=LANGUAGES[language])
    found = []
    for system_id in systems:
        referee = Referee(page, server, system_id, language)
        referee.open_rules()
        for dispute in (d for d in DISPUTES if d.system == system_id):
            reached = referee.reach(dispute)
            found.append(reached)
            print(f"  {system_id:12} {dispute.typed[language]!r:44} {reached}", flush=True)
    page.context.close()
    return found


def summary(language: str, found: list[Reach]) -> str:
    """How many by taps, how many by typing, and the worst case."""
    taps = [r for r in found if r.topic is not None]
    typed = [r for r in found if r.topic is None]
    out = [r for r in found if not r.within]
    worst = max(typed, key=lambda r: (r.words or 99, r.top or 9999), default=None)
    lines = [
        f"{language}: {len(found)} disputes: {len(taps)} by two taps without scrolling, "
        f"{len(typed) - len(out)} by two taps and typed words, {len(out)} out of reach",
    ]
    if typed:
        counts = [r.words or 0 for r in typed if r.within]
        if counts:
            lines.append(
                f"  typed words: {sum(counts) / len(counts):.1f} on average, {max(counts)} at most"
            )
    if worst is not None:
        lines.append(f"  worst: {worst.dispute.system} {worst.dispute.typed[language]!r}: {worst}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", nargs="+", default=list(rules.SYSTEMS))
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES), choices=LANGUAGES)
    options = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as folder:
        serving = served(Path(folder))
        server = next(serving)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            results = {}
            for language in options.languages:
                print(f"{language}:", flush=True)
                results[language] = measure(browser, server, language, options.systems)
            browser.close()
        for language, found in results.items():
            print(summary(language, found))
        next(serving, None)  # the server stops


if __name__ == "__main__":
    main()
