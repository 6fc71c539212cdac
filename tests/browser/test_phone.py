"""On a phone at the table: the totals read at arm's length, dark mode follows the phone, and
a whole game loads nothing from elsewhere. (That no page scrolls sideways, every control is
big enough for a thumb and no page points elsewhere is checked on every page, in
test_every_page.py.)"""

from __future__ import annotations

from typing import Any

from .helpers import LARGER_PHONE, SMALLER_PHONE, Player, laid_out_at, new_page
from .pages import finished_game_file, import_game


def test_the_totals_are_readable_at_arms_length(browser: Any, server: str) -> None:
    """At each phone's size: drawn at the smaller, then laid out again at the larger."""
    page = new_page(browser, SMALLER_PHONE)
    page.goto(server + import_game(page, server, finished_game_file()))
    totals_are_readable_at_arms_length(page)
    with laid_out_at(page, LARGER_PHONE):
        totals_are_readable_at_arms_length(page)
    page.context.close()


def totals_are_readable_at_arms_length(page: Any) -> None:
    totals = page.locator(".big-number").evaluate_all(
        """els => els.map(el => ({text: el.textContent.trim(),
            size: parseFloat(getComputedStyle(el).fontSize),
            lines: Math.round(el.getBoundingClientRect().height
                / parseFloat(getComputedStyle(el).lineHeight)),
            fits: el.getBoundingClientRect().right
                <= el.parentElement.getBoundingClientRect().right}))"""
    )
    assert [total["text"] for total in totals] == ["10,260", "8,520"]
    for total in totals:
        assert total["size"] >= 32, total
        assert total["lines"] == 1, total  # never "10,5" over "60"
        assert total["fits"], total


def test_dark_mode_follows_the_phone(browser: Any, server: str) -> None:
    backgrounds = []
    for dark in (False, True):
        page = new_page(browser, dark=dark)
        page.goto(server + "/")
        backgrounds.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        page.context.close()
    light, dark_background = backgrounds
    assert light != dark_background
    assert light != "rgba(0, 0, 0, 0)"


def test_a_whole_game_loads_nothing_from_another_site(browser: Any, server: str) -> None:
    page = new_page(browser)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    player = Player(page, server)
    scoreboard = player.start_game("Samba (classic", "2 teams of 2")
    player.tap(player.link("Record hand 1"))
    page.locator("#ending-0").check()
    player.fill(page.locator("#sides-0-set_samba"), "1")
    player.fill(page.locator("#sides-0-set_natural_canasta"), "1")
    player.fill(page.locator("#sides-0-melded_points"), "260")
    player.fill(page.locator("#sides-1-melded_points"), "150")
    # The summary scores the hand as it is typed: the form asked its own address for it.
    page.locator("#summary .hand-score", has_text="+").first.wait_for()
    assert any(url.endswith("/hands/new") for url in requested)
    player.tap(player.button("Save hand"))
    assert page.url.startswith(server + scoreboard)
    assert page.locator("table.hands tbody tr").count() == 1
    assert any(url.endswith(".css") for url in requested)
    elsewhere = [url for url in requested if not url.startswith(server + "/")]
    assert elsewhere == []
    page.context.close()
