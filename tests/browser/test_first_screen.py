"""The score on a phone's first screen (360 × 740), in English and in Spanish: on the scoreboard,
the follow page, a hand's page and the table display the totals (on a hand's page, what each
side scored in it and its total after it) and the last hand's line come before anything else of
the page, and end within the screen; what the page says about itself is one line each; no
Refresh where the page follows by itself."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new_page, screenshot
from .pages import game_file, hand_paths, import_game

LANGUAGES = ("en-US", "es")

FIRST = """() => {
  const main = document.querySelector("main");
  const shown = [...main.querySelectorAll("*")].filter(el =>
      el.children.length === 0 && el.getClientRects().length > 0 && el.textContent.trim());
  return shown[0] ? shown[0].closest(".totals, .table-sides, h1, .last-hand") !== null : false;
}"""
"""Whether the first thing shown in the page's main part is the score (or the hand's title)."""

BOTTOM = "selector => document.querySelector(selector).getBoundingClientRect().bottom"


def following_pages(page: Any, server: str) -> dict[str, tuple[str, str]]:
    """Each following page's address and what its score is."""
    game = import_game(page, server, game_file())
    hand = hand_paths(page, server, game)[1]
    return {
        "scoreboard": (game, ".last-hand"),
        "follow": (game + "/follow", ".last-hand"),
        "hand": (hand, ".hand-totals"),
        "table-display": (game + "/display", ".table-sides"),
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_following_page_shows_the_score_first_and_whole(
    browser: Any, server: str, language: str
) -> None:
    page = new_page(browser, "360x740", language=language)
    for name, (path, score) in following_pages(page, server).items():
        page.goto(server + path)
        page.wait_for_load_state()
        assert page.evaluate(FIRST), f"{name}: something comes before the score"
        assert page.evaluate(BOTTOM, score) <= 740, f"{name}: the score ends below the screen"
        assert page.locator(".totals .big-number, .table-total").count() == 2
        assert not page.get_by_role("link", name="Refresh").count()  # it follows by itself
        assert not page.get_by_role("link", name="Actualizar").count()
        screenshot(page, f"first-screen-{name}-{language}")
    page.context.close()


def test_the_switch_and_the_notices_are_one_line_each(browser: Any, server: str) -> None:
    page = new_page(browser, "360x740")
    game = import_game(page, server, game_file())
    page.goto(server + game)
    page.evaluate("""() => {
      document.getElementById("gone").hidden = false;
      const offline = document.getElementById("offline");
      offline.querySelector("summary").textContent = "Offline since 2:41 PM";
      offline.hidden = false;
    }""")
    for selector in ("#gone", "#offline", ".keep-awake"):
        height = page.locator(selector).evaluate("el => el.getBoundingClientRect().height")
        line = page.locator(selector).evaluate(
            "el => parseFloat(getComputedStyle(el).lineHeight) || 26"
        )
        assert height < 2 * max(line, 48), (selector, height)  # one line (or one thumb's height)
    # The why of "offline" is one tap away.
    assert not page.get_by_text("may be out of date").is_visible()
    page.locator("#offline summary").click()
    assert page.get_by_text("may be out of date").is_visible()
    page.context.close()


def test_without_javascript_the_follow_page_offers_refresh_above_the_score(
    browser: Any, server: str
) -> None:
    page = new_page(browser, "360x740", javascript=False)
    game = import_game(page, server, game_file())
    page.goto(server + game + "/follow")
    refresh = page.get_by_role("link", name="Refresh")
    assert refresh.is_visible()
    assert refresh.bounding_box()["y"] < page.locator(".totals").bounding_box()["y"]
    page.context.close()
