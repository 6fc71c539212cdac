"""Accessibility in a real browser: axe-core on every page in both languages and both colour
schemes, labels on every field, named counter buttons, visible focus and a sane tab order."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import axe_violations, new_page
from .pages import NO_JS_PAGES, pages, set_up_games

COMBINATIONS = [
    pytest.param(language, dark, id=f"{language}-{'dark' if dark else 'light'}")
    for language, dark in (("en-US", False), ("es", True))
]
"""Each theme and each language once: colours (contrast) come with the theme, words and their
lengths with the language, and neither depends on the other; each walk of every page costs a
minute of the suite."""


def without_script(browser: Any, *, dark: bool, language: str) -> Any:
    """A page on which the scripts (static/js/) never arrive: what a browser without
    JavaScript shows.

    (axe itself needs JavaScript, so the script is kept out instead of switched off.)
    """
    page = new_page(browser, dark=dark, language=language)
    page.route("**/static/**/*.js", lambda route: route.abort())
    return page


@pytest.mark.parametrize(("language", "dark"), COMBINATIONS)
def test_axe_finds_nothing_wrong_on_any_page(
    browser: Any, server: str, axe: str, language: str, dark: bool
) -> None:
    page = new_page(browser, dark=dark, language=language)
    found: dict[str, list[str]] = {}
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == language.split("-")[0]
    found["home-empty"] = axe_violations(page, axe)
    every_page = pages(set_up_games(page, server))
    for name, open_page in every_page.items():
        open_page(page, server)
        found[name] = axe_violations(page, axe)
    plain = without_script(browser, dark=dark, language=language)
    for name in NO_JS_PAGES:
        every_page[name](plain, server)
        assert plain.locator("button[name=count]").count() == (4 if "hand" in name else 0)
        found[f"{name}-without-js"] = axe_violations(plain, axe)
    problems = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert not problems, "\n".join(problems)
    page.context.close()
    plain.context.close()


def test_every_visible_field_has_a_visible_label(browser: Any, server: str) -> None:
    page = new_page(browser)
    unlabelled: dict[str, list[str]] = {}
    every_page = pages(set_up_games(page, server))
    for name, open_page in every_page.items():
        open_page(page, server)
        for details in page.locator("details").all():
            details.evaluate("d => d.open = true")
        # On the hand form's sheet a cell's field is labelled by its row's legend and its side's
        # name heading the column; the field's own label says that name to a screen reader.
        missing = page.evaluate(
            """() => {
            const shown = el => { const r = el.getBoundingClientRect();
                return r.width > 0 && r.height > 0
                    && getComputedStyle(el).visibility !== 'hidden'; };
            const column = input => {
                const cell = input.closest('.cells > .cell');
                const heads = input.closest('form')?.querySelector('.side-names');
                if (!cell || !heads) return null;
                const head = heads.children[[...cell.parentElement.children].indexOf(cell)];
                const legend = cell.closest('fieldset').querySelector('legend');
                return head && shown(head) && shown(legend) ? head.textContent.trim() : null;
            };
            const labelled = input => [...input.labels].some(label =>
                label.textContent.trim().length > 0 && (shown(label)
                    || (column(input) && label.textContent.trim().startsWith(column(input)))));
            return [...document.querySelectorAll('input:not([type=hidden])')]
              .filter(shown)
              .filter(input => !labelled(input))
              .map(input => input.id || input.name);
            }"""
        )
        if missing:
            unlabelled[name] = missing
    assert unlabelled == {}
    page.context.close()


def test_counter_buttons_say_what_they_count_and_for_whom(browser: Any, server: str) -> None:
    page = new_page(browser)
    games = set_up_games(page, server)
    page.goto(server + games.playing + "/hands/new")
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
    games = set_up_games(page, server)
    page.goto(server + games.playing + "/hands/new")
    seen = set()
    for _ in range(8):
        page.keyboard.press("Tab")
        ring = outline(page)
        seen.add(ring["tag"])
        shown = ring["style"] != "none" and float(ring["width"].removesuffix("px")) > 0
        assert shown or ring["shadow"] != "none", ring
    assert {"A", "BUTTON", "INPUT"} <= seen
    page.context.close()


def test_no_element_jumps_the_tab_order(browser: Any, server: str) -> None:
    page = new_page(browser)
    every_page = pages(set_up_games(page, server))
    jumping = {}
    for name, open_page in every_page.items():
        open_page(page, server)
        count = page.locator("[tabindex]").evaluate_all(
            "els => els.filter(e => e.tabIndex > 0).length"
        )
        if count:
            jumping[name] = count
    assert jumping == {}
    page.context.close()


FOCUSABLE = (
    "a[href], button:not([disabled]):not([hidden]), input:not([type=hidden]):not([disabled]),"
    " summary, select, textarea"
)


def test_tab_goes_through_the_hand_form_in_reading_order(browser: Any, server: str) -> None:
    page = new_page(browser)
    games = set_up_games(page, server)
    page.goto(server + games.playing + "/hands/new")
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
