"""The typical hand takes a few taps, from the scoreboard back to the scoreboard.

The budget is a constant so that it cannot grow without someone changing this line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Player, new_page

INTERACTION_BUDGET = 14

# Classic rules: Us goes out with a natural canasta and a samba, two red threes down.
US_HAND = 310 + 500 + 1500 + 2 * 100 + 200  # melded, sets, red threes (2 sets), going out
# Them: a mixed canasta, 150 melded, 85 caught in hand, no red threes.
THEM_HAND = 150 - 85 + 300


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def player(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Player]:
    javascript = request.param
    page = new_page(browser, "360x740", javascript=javascript)
    yield Player(page, server, javascript=javascript)
    page.context.close()


def test_the_typical_hand_is_recorded_within_the_interaction_budget(player: Player) -> None:
    page = player.page
    player.start_game("Samba (classic, 2–6 players)", "2 teams of 2")
    player.interactions = 0  # from the scoreboard on

    player.tap(player.link("Record hand 1"))
    player.tap(page.get_by_label("Us went out"), navigates=False)
    player.fill(page.locator("#sides-0-opening_meld"), "120")
    player.count(player.button("One more: Natural canasta for Us"))
    player.count(player.button("One more: Samba for Us"))
    player.fill(page.locator("#sides-0-melded_points"), "310")
    player.count(player.button("One more: Red threes on the table for Us"))
    player.count(player.button("One more: Red threes on the table for Us"))
    player.count(player.button("One more: Mixed canasta for Them"))
    player.fill(page.locator("#sides-1-melded_points"), "150")
    player.fill(page.locator("#sides-1-hand_points"), "85")
    player.tap(player.button("Save hand"))

    expect(page.locator("h1.system-name")).to_be_visible()  # the scoreboard
    row = page.locator("table.hands tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(0)).to_contain_text(f"+{US_HAND:,}")
    expect(row.locator("td").nth(1)).to_contain_text(f"+{THEM_HAND:,}")
    totals = page.locator(".totals .big-number")
    expect(totals).to_have_text([f"{US_HAND:,}", f"{THEM_HAND:,}"])
    expect(player.link("Record hand 2")).to_be_visible()

    javascript = "on" if player.javascript else "off"
    print(f"typical hand, JavaScript {javascript}: {player.interactions} interactions")
    assert player.interactions <= INTERACTION_BUDGET
