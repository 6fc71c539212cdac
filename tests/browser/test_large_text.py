"""At 200% text size (Chromium's own font-size setting, as a person with weaker eyes sets it), on
a 360 px phone: no page scrolls sideways, nothing is cut off except a word too long for its line,
which ends in "…" with the whole of it in a title, and totals stay inside their cards."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import CHROMIUM_FLAGS, PHONES, new_page, patient
from .pages import LONG_NAMES, import_game, pages, set_up_games, walk_page

TEXT_SIZE = 32
"""Chromium's default font size at 200% of its usual 16 px (Settings → Appearance → Font size)."""

CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const name = el =>
      `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
  const found = [];
  if (document.scrollingElement.scrollWidth > width) {
    const wide = [...document.querySelectorAll('body *')].filter(el =>
        el.getBoundingClientRect().right > width + 1 || (el.scrollWidth > el.clientWidth + 1
            && getComputedStyle(el).overflowX === 'visible' && !el.closest('svg')));
    found.push(`the page scrolls sideways: ${document.scrollingElement.scrollWidth} > ${width}`
        + ` (${wide.slice(-3).map(name).join(', ')})`);
  }
  for (const el of document.querySelectorAll('body *')) {
    // The file chooser draws its own text (the chosen file's name) and elides it itself, and a
    // field scrolls what was typed into it; a placeholder must fit.
    // Text for screen readers only (.sr-only) is never seen, so never cut off.
    if (el.getClientRects().length === 0 || el.matches('input[type=file], .sr-only')) continue;
    if (el.matches('input') && el.value !== '') continue;
    const style = getComputedStyle(el);
    const control = el.matches('button, .button, input, select');
    const clips = control || style.overflowX !== 'visible';
    if (el.scrollWidth <= el.clientWidth + 1 || !clips) continue;
    const titled = el.closest('[title]');
    const elided = style.textOverflow === 'ellipsis' && titled
        && titled.title.replace(/\\s+/g, ' ').includes(el.textContent.trim().replace(/\\s+/g, ' '));
    if (!elided) found.push(`cut off: ${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return found;
}"""

NUMBERS_IN_CARDS = """() => [...document.querySelectorAll('.big-number')].map(el => ({
  text: el.textContent.trim(),
  fits: el.getBoundingClientRect().right <= el.parentElement.getBoundingClientRect().right
    && el.scrollWidth <= el.clientWidth + 1,
}))"""


@pytest.fixture
def large_text(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A 360×740 touch page of a Chromium profile whose text size is 200%."""
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    preferences = {"webkit": {"webprefs": {"default_font_size": TEXT_SIZE}}}
    (profile / "Default" / "Preferences").write_text(json.dumps(preferences))
    width, height = PHONES["360x740"]
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=shutil.which("chromium"),
        args=CHROMIUM_FLAGS,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
    )
    patient(context)
    page = context.pages[0] if context.pages else context.new_page()
    yield page
    context.close()


def test_the_text_size_setting_is_in_force(large_text: Any, server: str) -> None:
    large_text.goto(server + "/")
    body = large_text.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert body >= 2 * 16


@pytest.mark.parametrize("language", ["en", "es"])
def test_nothing_scrolls_sideways_or_is_cut_off_at_200_percent(
    large_text: Any, server: str, language: str
) -> None:
    if language == "es":
        large_text.goto(server + "/")
        with large_text.expect_navigation():
            large_text.get_by_role("button", name="Español").click()
    found = walk_page(large_text, server, CUT_OFF)
    problems = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert {"scoreboard", "hand-form", "stats", "rules"} <= found.keys()
    assert not problems, "\n".join(problems)


ROOT_AT_200 = (
    """() => document.documentElement.style.setProperty('font-size', '200%', 'important')"""
)
"""A root font size of 200% (a reader's own style sheet), which media queries' em do not see."""


@pytest.mark.parametrize("language", ["en-US", "es"])
def test_nothing_scrolls_sideways_at_a_200_percent_root_font_size(
    browser: Any, server: str, language: str
) -> None:
    page = new_page(browser, language=language)
    page.goto(server + "/")
    found = {}
    for name, open_page in pages(set_up_games(page, server, LONG_NAMES)).items():
        open_page(page, server)
        page.evaluate(ROOT_AT_200)
        found[name] = page.evaluate(CUT_OFF)
    problems = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert {"home", "scoreboard", "hand-form", "hand-form-refused"} <= found.keys()
    assert not problems, "\n".join(problems)
    page.context.close()


def test_large_totals_stay_in_their_cards(large_text: Any, server: str) -> None:
    game = {
        "variant": "classic",
        "sides": [
            {"name": "Us", "players": 2, "start_score": -12_345},
            {"name": "Them", "players": 2, "start_score": 99_995},
        ],
        "hands": [],
    }
    large_text.goto(server + "/")
    scoreboard = import_game(large_text, server, game)
    large_text.goto(server + scoreboard)
    totals = large_text.evaluate(NUMBERS_IN_CARDS)
    assert [total["text"].lstrip("−-") for total in totals] == ["12,345", "99,995"]
    assert all(total["fits"] for total in totals), totals
    assert large_text.evaluate(CUT_OFF) == []


def test_the_save_bar_stays_on_screen(large_text: Any, server: str) -> None:
    game = {"variant": "classic", "sides": [{"name": n, "players": 2} for n in ("Us", "Them")]}
    large_text.goto(server + "/")
    hand_form = import_game(large_text, server, game) + "/hands/new"
    large_text.goto(server + hand_form)
    # From the moment the form is on screen (the bar cannot rise above the form's top) to the
    # last field.
    top = large_text.evaluate("document.querySelector('.hand-form').offsetTop")
    for scrolled in (top, top + 1500, 100_000):
        large_text.evaluate(f"window.scrollTo(0, {scrolled})")
        bar = large_text.evaluate(
            """() => { const box = document.querySelector('.actions').getBoundingClientRect();
                       return {top: box.top, bottom: box.bottom, height: window.innerHeight}; }"""
        )
        assert bar["top"] >= 0 and bar["bottom"] <= bar["height"], bar
        assert bar["bottom"] - bar["top"] <= bar["height"] / 3, bar
