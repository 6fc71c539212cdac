"""The Back button and the Delete button on a phone: nothing recorded twice, nothing lost."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import Player, new_page


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def player(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Player]:
    javascript = request.param
    page = new_page(browser, "360x740", javascript=javascript)
    yield Player(page, server, javascript=javascript)
    page.context.close()


# Play went on after the stock ran out, and stopped with nobody out (rules/play.py, going out).
NOBODY_OUT = "Nobody went out (play stopped after the stock ran out)"


def hands_recorded(player: Player, scoreboard: str) -> int:
    result = player.page.request.get(player.base_url + scoreboard + "/result.json").json()
    return len(result["hands"])


def test_back_after_save_then_save_again_records_nothing_more(player: Player) -> None:
    page = player.page
    scoreboard = player.start_game("Samba (classic, 2–6 players)", "2 teams of 2")
    player.tap(player.link("Record hand 1"))
    player.tap(page.get_by_label(NOBODY_OUT), navigates=False)
    player.fill(page.locator("#sides-0-melded_points"), "60")
    player.tap(player.button("Save hand"))
    expect(page.locator(".notice")).to_have_text("Hand 1 saved.")

    page.go_back()  # the browser loads the hand form again
    expect(page.locator("h1")).to_have_text("Hand 2")
    # It used to tick "Nobody went out" again by itself: Save recorded an empty hand 2.
    expect(page.get_by_label(NOBODY_OUT)).not_to_be_checked()
    if player.javascript:  # the refusal is shown in place
        player.button("Save hand").tap()
    else:
        with page.expect_event("load"):
            player.button("Save hand").tap()
    expect(page.locator("#problems")).to_be_visible()
    assert hands_recorded(player, scoreboard) == 1


def test_deleting_a_hand_asks_first_and_the_hand_can_come_back(player: Player) -> None:
    page = player.page
    scoreboard = player.start_game("Samba (classic, 2–6 players)", "2 teams of 2")
    player.tap(player.link("Record hand 1"))
    player.tap(page.get_by_label(NOBODY_OUT), navigates=False)
    player.fill(page.locator("#sides-0-melded_points"), "60")
    player.tap(player.button("Save hand"))

    player.tap(page.locator("table.hands tbody th a"))
    player.tap(player.link("Delete this hand"))
    expect(page.locator("h1")).to_have_text("Delete hand 1?")
    expect(page.get_by_text("You can bring it back from the game's history.")).to_be_visible()
    player.tap(player.link("Keep it"))
    assert hands_recorded(player, scoreboard) == 1

    player.tap(player.link("Delete this hand"))
    player.tap(player.button("Delete hand 1"))
    assert hands_recorded(player, scoreboard) == 0
    player.tap(player.button("Bring it back"))
    assert hands_recorded(player, scoreboard) == 1
    expect(page.locator("table.hands tbody tr")).to_have_count(1)
