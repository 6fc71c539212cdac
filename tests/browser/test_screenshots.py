"""The pictures in docs/screenshots/: each page at 390x844, light and dark, with fixed names so
they only change when the pages do."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from .helpers import SCREENSHOTS, new_page, screenshot
from .pages import correct_first_hand, game_file, hand_paths, hand_with_preview, import_game
from .pages import refused_hand as open_refused_hand

PLAYERS = (("Ana", "Bob"), ("Carla", "Dani"))


def png_size(name: str) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    header = (SCREENSHOTS / f"{name}.png").read_bytes()[:24]
    assert header.startswith(b"\x89PNG")
    width, height = struct.unpack(">II", header[16:24])
    return width, height


SCHEMES = ("light", "dark")
"""Each page is pictured in both, drawn once: the dark theme is the style sheets' alone
(`prefers-color-scheme`), which the page follows as the phone's setting changes."""


@pytest.mark.screenshots
def test_every_page_is_pictured_at_phone_size(browser: Any, server: str) -> None:
    page = new_page(browser, "390x844")
    data = game_file()
    for side, players in zip(data["sides"], PLAYERS, strict=True):
        side["player_names"] = list(players)
    scoreboard = import_game(page, server, data)
    correct_first_hand(page, server, scoreboard)
    hands = hand_paths(page, server, scoreboard)
    hand_form = scoreboard + "/hands/new"

    def shoot(name: str) -> None:
        # Scrolled to the end, the hand form's sticky buttons are drawn where they belong.
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            screenshot(page, f"{name}-{scheme}")
        page.emulate_media(color_scheme=SCHEMES[0])

    page.goto(server + "/")
    shoot("home")
    page.goto(server + "/games/new")
    shoot("new-game-system")
    page.goto(server + "/games/new?system=classic&table=2x2")
    for index, name in enumerate(player for side in PLAYERS for player in side):
        page.locator(f"#side_list-{index // 2}-players-{index % 2}").fill(name)
    shoot("new-game-names")
    page.goto(server + scoreboard)
    assert page.locator("table.hands tbody tr").count() == 2
    shoot("scoreboard")
    hand_with_preview(hand_form)(page, server)
    shoot("hand-form")
    open_refused_hand(hand_form)(page, server)
    shoot("hand-form-refused")
    page.goto(server + hands[1])
    shoot("hand")
    page.context.close()

    names = ["home", "new-game-system", "new-game-names", "scoreboard", "hand-form"]
    for name in [*names, "hand-form-refused", "hand"]:
        for scheme in SCHEMES:
            width, height = png_size(f"{name}-{scheme}")
            assert width == 390
            assert height >= 844
