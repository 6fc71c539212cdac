"""The disputes of tests/disputes.py put to a phone at 360x740, from a game's scoreboard, in both
languages: two taps (Rules, then the search field) and the words typed, and the right answer of
the game's own system, cited, is the first found, on screen above where a phone's keyboard opens
(issue 27)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import rules
from tests.disputes import DISPUTES

from .helpers import PHONES, Player, new_page, screenshot
from .pages import import_game

KEYBOARD = 300
"""A phone keyboard's height, about, at 360x740: what lies below 740 − 300 is hidden by it."""

LANGUAGES = {"en-US": "en", "es": "es"}


def game_of(system_id: str) -> dict[str, Any]:
    return {
        "variant": system_id,
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        "hands": [],
    }


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("system_id", list(rules.SYSTEMS))
def test_each_dispute_is_settled_within_two_taps_of_the_scoreboard(
    browser: Any, server: str, system_id: str, language: str
) -> None:
    page = new_page(browser, "360x740", language=language)
    scoreboard = import_game(page, server, game_of(system_id))
    said = LANGUAGES[language]
    source = rules.SYSTEMS[system_id].source
    for number, dispute in enumerate(d for d in DISPUTES if d.system == system_id):
        player = Player(page, server)
        player.open(scoreboard)
        player.tap(page.locator(f'main a[href="{scoreboard}/rules"]').first)
        field = page.locator("#rules-q")
        player.tap(field, navigates=False)
        field.press_sequentially(dispute.typed[said])
        first = page.locator("#search-results ol.found li").first
        # The answer to the first letters typed may show before the whole question's; the
        # first search of a server reads every system's page in both languages, which on a
        # loaded machine takes a few seconds.
        expect(first).to_contain_text(dispute.says[said], timeout=30_000)
        expect(first).to_contain_text(source)
        link = first.locator("a")
        assert link.get_attribute("href").startswith(f"{scoreboard}/rules#q-")
        top, bottom = first.evaluate(
            "item => { const box = item.getBoundingClientRect(); return [box.top, box.bottom]; }"
        )
        height = PHONES["360x740"][1]
        assert top >= 0 and bottom <= height - KEYBOARD, (dispute.typed[said], top, bottom)
        assert player.interactions == 2
        if number == 0:
            screenshot(page, f"dispute-{system_id}-{said}")
    page.context.close()
