"""The hand form of every system fits in two screens of a 360x740 phone with its summary on
screen; and the pictures of the README: the form as it is filled in, and the scoreboard just
after Save, at 360 px in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import rules

from .helpers import SCREENSHOTS, new_page
from .pages import import_game

SCREENS = 2
SUMMARY_ON_SCREEN = """() => {
  const box = document.querySelector("#summary").getBoundingClientRect();
  return box.top > 0 && box.bottom <= window.innerHeight;
}"""


def game_of(system: str, names: tuple[str, str] = ("Us", "Them")) -> dict[str, Any]:
    _sides, players = next(t for t in rules.SYSTEMS[system].tables if t[0] == 2)
    return {"variant": system, "sides": [{"name": n, "players": players} for n in names]}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("system", list(rules.SYSTEMS))
def test_the_hand_form_fits_in_two_screens(
    browser: Any, server: str, system: str, javascript: bool
) -> None:
    page = new_page(browser, "360x740", javascript=javascript)
    page.goto(server + "/")
    scoreboard = import_game(page, server, game_of(system))
    page.goto(server + scoreboard + "/hands/new")
    screen = page.viewport_size["height"]
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"hand form of {system} at 360x740, JavaScript {javascript}: {height} px")
    assert height <= SCREENS * screen
    assert page.evaluate(SUMMARY_ON_SCREEN)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(SUMMARY_ON_SCREEN)
    page.context.close()


@pytest.mark.screenshots
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_readme_pictures_of_a_hand(browser: Any, server: str, language: str) -> None:
    page = new_page(browser, "360x740", language=language)
    page.goto(server + "/")
    names = ("Ana & Bo", "Carla & Dani")
    scoreboard = import_game(page, server, game_of("classic", names))
    page.goto(server + scoreboard + "/hands/new")
    page.locator("#ending-0").check()
    page.locator("#sides-0-opening_meld").fill("60")
    for button in ("#cell-sides-0-set_natural_canasta", "#cell-sides-0-set_samba"):
        page.locator(f"{button} button[value$=':1']").tap()
    page.locator("#sides-0-melded_points").fill("310")
    page.locator("#cell-sides-0-red_threes").get_by_text("2", exact=True).tap()
    page.locator("#cell-sides-1-set_mixed_canasta button[value$=':1']").tap()
    page.locator("#sides-1-melded_points").fill("150")
    page.locator("#sides-1-hand_points").fill("85")
    page.locator("#cell-sides-1-red_threes").get_by_text("1", exact=True).tap()
    scores = ["+2.710", "+265"] if language == "es" else ["+2,710", "+265"]
    expect(page.locator("#summary .hand-score")).to_have_text(scores)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"hand-form-360-{language}.png"))
    with page.expect_event("load"):
        page.locator(".bar button[value=save]").tap()
    # Past the highlight of the totals that moved: the picture shows the page at rest.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.total')].every(t => !t.getAnimations().length)"
    )
    page.screenshot(path=str(SCREENSHOTS / f"after-save-360-{language}.png"))
    page.context.close()
