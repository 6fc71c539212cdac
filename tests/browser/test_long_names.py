"""A name too long for its place ends in "…" on a 360 px phone; a tap shows it whole, with or
without JavaScript (a phone has no pointer to hover for the title)."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new_page
from .pages import LONG_NAMES, import_game

GAME = {
    "variant": "classic",
    "sides": [
        {"name": name, "players": 2, "player_names": [name[:20], name[20:]]} for name in LONG_NAMES
    ],
}

SHOWN = """selector => {
  const el = document.querySelector(selector);
  return {cut: el.scrollWidth > el.clientWidth + 1, text: el.textContent.trim(),
          right: el.getBoundingClientRect().right, width: document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("language", ["en-US", "es"])
def test_a_tap_on_a_long_side_name_shows_it_whole(
    browser: Any, server: str, language: str, javascript: bool
) -> None:
    page = new_page(browser, language=language, javascript=javascript)
    page.goto(server + "/")
    page.goto(server + import_game(page, server, GAME))
    name = ".total .side-name"
    before = page.evaluate(SHOWN, name)
    assert before["cut"], "the name fits: nothing to show"
    page.locator(name).first.tap()
    after = page.evaluate(SHOWN, name)
    assert after["text"] == LONG_NAMES[0]
    assert not after["cut"], after
    assert after["right"] <= after["width"]
    page.context.close()
