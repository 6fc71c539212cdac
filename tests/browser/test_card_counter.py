"""The card counter adds up what the page says each card is worth: the engine's CARD_POINTS."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import rules
from scorekeeper.rules import Card

from .helpers import Player, new_page

# Values no system has: a counter that typed its own values would add up something else.
PATCHED = {
    Card.JOKER: 55,
    Card.TWO: 25,
    Card.ACE: 30,
    Card.EIGHT_TO_KING: 15,
    Card.FOUR_TO_SEVEN: 7,
    Card.BLACK_THREE: 3,
}


def test_the_card_counter_adds_up_the_engines_card_values(
    browser: Any, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules, "CARD_POINTS", PATCHED)
    player = Player(new_page(browser), server)
    player.start_game("Samba (classic, 2–6 players)", "2 teams of 2")
    player.tap(player.link("Record hand 1"))
    page = player.page
    page.locator("details.cards summary").first.tap()
    page.locator("[name='sides-0-melded_cards-jokers']").fill("2")
    page.locator("[name='sides-0-melded_cards-aces']").fill("1")
    page.locator("[name='sides-0-melded_cards-black_threes']").fill("3")
    assert page.locator("[name='sides-0-melded_points']").input_value() == str(2 * 55 + 30 + 3 * 3)
