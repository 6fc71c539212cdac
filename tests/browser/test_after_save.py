"""After Save, the scoreboard opens at its top, and its first screen holds what the table needs
next: the new totals (the ones that moved lit up, with what the hand added), who deals, the
minimums and "Record hand N+1"."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import LARGER_PHONE, SMALLER_PHONE, axe_violations, laid_out_at, new_page
from .pages import import_game

TABLES = {"2 teams of 2": (2, 2), "3 teams of 2": (3, 2), "5 players": (5, 1)}

IN_FIRST_SCREEN = """selector => [...document.querySelectorAll(selector)].map(el => {
  const box = el.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
})"""


FIRST_SCREEN = {
    "notice": ".notice",
    "totals": ".total .big-number",
    "what the hand added": ".last-hand",
    "dealer": ".next .dealer",
    "minimums": ".total .minimum",
    "record": ".next a.button",
}
"""What the scoreboard's first screen holds after a save."""


def first_screen_shows_the_next_hand(page: Any) -> None:
    assert page.evaluate("window.scrollY") == 0
    for what, selector in FIRST_SCREEN.items():
        shown = page.evaluate(IN_FIRST_SCREEN, selector)
        assert shown and all(shown), f"{what} ({selector}) is below the first screen: {shown}"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("table", TABLES)
def test_after_save_the_first_screen_shows_the_next_hand(
    browser: Any, server: str, table: str, javascript: bool
) -> None:
    """At each phone's size: the page saved to at the smaller phone, then laid out again at
    the larger (`laid_out_at`: the same as saving at its size)."""
    sides, players = TABLES[table]
    page = new_page(browser, SMALLER_PHONE, javascript=javascript)
    game = {
        "variant": "classic",
        "sides": [
            # An individual game's sides are named after their players.
            {"name": f"Side {index + 1}", "players": players, "player_names": ["Ana", "Bo"]}
            if players == 2
            else {"name": f"Player {index + 1}", "players": 1}
            for index in range(sides)
        ],
    }
    page.goto(server + "/")
    scoreboard = import_game(page, server, game)
    page.goto(server + scoreboard + "/hands/new")
    page.locator("#ending-0").check()
    page.locator("#sides-0-set_samba").fill("1")
    page.locator("#sides-0-set_natural_canasta").fill("1")
    page.locator("#sides-0-melded_points").fill("260")
    page.locator("#sides-1-hand_points").fill("30")
    with page.expect_event("load"):
        page.locator("button[name=action][value=save]").click()
    assert page.url == f"{server}{scoreboard}?saved=1"
    first_screen_shows_the_next_hand(page)
    with laid_out_at(page, LARGER_PHONE):
        first_screen_shows_the_next_hand(page)
    assert page.locator(".next a.button").inner_text() == "Record hand 2"
    lit = page.locator(".total.changed .side-name").all_inner_texts()
    assert len(lit) == 2  # the sides that scored; the others did not move
    page.context.close()


HELD_AT = """ms => document.getAnimations().forEach(animation => {
  animation.pause();
  animation.currentTime = ms;
})"""


@pytest.mark.parametrize("language", ["en-US", "es"])
def test_the_totals_that_moved_keep_their_contrast_at_every_moment_of_their_highlight(
    browser: Any, server: str, axe: str, language: str
) -> None:
    """In both colour schemes, on the page saved to once: the dark theme is the style sheets'
    alone (`prefers-color-scheme`, the highlight's colour too), which the page follows as the
    phone's setting changes."""
    page = new_page(browser, language=language)
    page.goto(server + "/")
    scoreboard = import_game(
        page,
        server,
        {
            "variant": "classic",
            "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        },
    )
    page.goto(server + scoreboard + "/hands/new")
    page.locator("#ending-0").check()
    page.locator("#sides-0-set_samba").fill("1")
    page.locator("#sides-0-set_natural_canasta").fill("1")
    page.locator("#sides-0-melded_points").fill("260")
    with page.expect_event("load"):
        page.locator("button[name=action][value=save]").click()
    assert page.locator(".total.changed").count() >= 1
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for moment in (0, 300, 800, 1500, 2400):
            page.evaluate(HELD_AT, moment)
            found = axe_violations(page, axe)
            assert not found, f"{scheme}, at {moment} ms of the highlight: {found}"
    page.context.close()
