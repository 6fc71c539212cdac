"""Looking back and settling disputes, at phone size with one thumb: the rules a message cites,
a table's own house rules, the games list, statistics and renaming a player."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import Player, new_page
from .pages import import_game

pytestmark = pytest.mark.browser

ANA_AND_BOB = {
    "variant": "classic",
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["Ana", "Bob"]},
        {"name": "Them", "players": 2, "player_names": ["Carla", "Dani"]},
    ],
    "hands": [
        {
            "entries": [
                {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 300},
                {"melded_points": 60, "hand_points": 20},
            ]
        }
    ],
}


def test_a_refused_hand_links_to_the_paragraph_of_the_rule_it_breaks(
    browser: Any, server: str
) -> None:
    player = Player(new_page(browser), server)
    scoreboard = player.start_game("Samba (classic, 2–6 players)", "2 teams of 2")
    player.tap(player.link("Record hand 1"))
    player.page.get_by_label("Us went out").check()
    player.fill(player.page.locator("#sides-0-melded_points"), "100")
    player.tap(player.button("Save hand"), navigates=False)  # refused, shown in place
    citation = player.page.locator("#ending-errors a")
    expect(citation).to_have_text("Samba Rules (classic), Going Out; Scoring, “In order to go out”")
    player.tap(citation)
    assert player.page.url.endswith(f"{scoreboard}/rules#going-out")
    section = player.page.locator("#going-out")
    expect(section).to_contain_text("at least 2 sets (canastas or sambas)")
    expect(section).to_contain_text("Going out earns 200")


def test_a_table_plays_a_game_by_its_own_house_rule(browser: Any, server: str) -> None:
    player = Player(new_page(browser), server)
    player.open("/house-rules/new?system=denexa")
    player.fill(player.page.locator("#name"), "Samba 1500")
    player.fill(player.page.locator("#bonus_samba"), "1500")
    player.tap(player.button("Keep these house rules"))
    player.open("/")
    player.tap(player.link("New game"))
    player.tap(player.page.get_by_role("link", name="Samba 1500"))
    player.tap(player.button("Start the game"))
    expect(player.page.locator("h1.system-name")).to_contain_text("Samba 1500")
    player.tap(player.link("Record hand 1"))
    player.page.get_by_label("Us went out").check()
    player.count(player.button("One more: Samba for Us"))
    player.count(player.button("One more: Samba for Us"))
    player.fill(player.page.locator("#sides-0-melded_points"), "200")
    player.tap(player.button("Save hand"))
    expect(player.page.locator(".totals .big-number").first).to_have_text("3,400")
    player.tap(player.link("The rules of this game"))
    expect(player.page.locator(".house")).to_contain_text("1,500")


def test_games_are_found_by_a_player_and_counted_in_the_statistics(
    browser: Any, server: str
) -> None:
    page = new_page(browser)
    player = Player(page, server)
    import_game(page, server, ANA_AND_BOB)
    import_game(page, server, {**ANA_AND_BOB, "variant": "fournier"})
    player.open("/games")
    player.fill(page.get_by_label("Player or side"), "  ana ")
    player.tap(page.get_by_role("button", name="Show"))
    expect(page.locator("main li a[href^='/games/']")).to_have_count(2)
    player.open("/stats")
    ana = page.locator("article, section, li").filter(has_text="Ana").first
    expect(ana).to_contain_text("2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_player_written_two_ways_is_renamed_into_one(browser: Any, server: str) -> None:
    page = new_page(browser)
    player = Player(page, server)
    import_game(page, server, ANA_AND_BOB)
    renamed = {
        **ANA_AND_BOB,
        "sides": [
            {"name": "Us", "players": 2, "player_names": ["Anita", "Bob"]},
            ANA_AND_BOB["sides"][1],
        ],
    }
    import_game(page, server, renamed)
    player.open("/players/anita")
    player.fill(page.get_by_label("New name"), "Ana")
    player.tap(page.get_by_role("button", name="Rename", exact=True))
    player.open("/players/ana")
    expect(page.locator("main")).to_contain_text("Ana")
    expect(page.locator("main a[href^='/games/']")).to_have_count(2)
