"""Accessibility in a real browser, on the hand form: named counter buttons, visible focus and a
sane tab order. (What is checked on every page, axe-core in both languages and both colour
schemes, labels on every field and no jump in the tab order, is in test_every_page.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new_page
from .pages import game_file, import_game


def test_counter_buttons_say_what_they_count_and_for_whom(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + import_game(page, server, game_file()) + "/hands/new")
    for side in ("Us", "Them"):
        for what in ("Natural canasta", "Samba"):
            more = page.get_by_role("button", name=f"One more: {what} for {side}", exact=True)
            less = page.get_by_role("button", name=f"One less: {what} for {side}", exact=True)
            assert more.count() == 1
            assert less.count() == 1
    unnamed = page.locator("button.step").evaluate_all(
        "buttons => buttons.filter(b => !/^One (more|less): .+ for .+$/"
        ".test(b.getAttribute('aria-label') || '')).length"
    )
    assert unnamed == 0
    page.context.close()


def outline(page: Any) -> dict[str, str]:
    return page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
        return {tag: document.activeElement.tagName, style: s.outlineStyle,
                width: s.outlineWidth, shadow: s.boxShadow}; }"""
    )


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_keyboard_focus_is_always_visible(browser: Any, server: str, dark: bool) -> None:
    page = new_page(browser, dark=dark)
    page.goto(server + import_game(page, server, game_file()) + "/hands/new")
    seen = set()
    for _ in range(8):
        page.keyboard.press("Tab")
        ring = outline(page)
        seen.add(ring["tag"])
        shown = ring["style"] != "none" and float(ring["width"].removesuffix("px")) > 0
        assert shown or ring["shadow"] != "none", ring
    assert {"A", "BUTTON", "INPUT"} <= seen
    page.context.close()


FOCUSABLE = (
    "a[href], button:not([disabled]):not([hidden]), input:not([type=hidden]):not([disabled]),"
    " summary, select, textarea"
)


def test_tab_goes_through_the_hand_form_in_reading_order(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + import_game(page, server, game_file()) + "/hands/new")
    order = page.evaluate(
        """selector => [...document.querySelectorAll(selector)]
            .filter(el => el.getClientRects().length > 0)
            .map(el => el.id || el.getAttribute('aria-label') || el.textContent.trim())""",
        FOCUSABLE,
    )
    page.locator("#ending-0").focus()
    # The radios are one stop: Tab leaves the group for the first field after it.
    landed = []
    for _ in range(7):
        page.keyboard.press("Tab")
        landed.append(
            page.evaluate(
                """() => { const el = document.activeElement;
                return el.id || el.getAttribute('aria-label') || el.textContent.trim(); }"""
            )
        )
    assert order.index("ending-0") < order.index("ending-2") < order.index(landed[0])
    assert landed[0] == "sides-0-opening_meld"
    start = order.index(landed[0])
    assert landed == order[start : start + len(landed)]
    page.context.close()
