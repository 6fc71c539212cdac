"""At 200% text size (Chromium's own font-size setting, as a person with weaker eyes sets it), on
a 360 px phone: the setting is in force, large totals stay inside their cards and the hand form's
save bar on the screen. (That no page scrolls sideways and nothing is cut off at this text size,
and at a root font size of 200%, a reader's own style sheet, is checked with the other checks of
every page, on the pages test_every_page.py draws for them: drawing each page again here cost
more than all of this file's other tests.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import unavailable

from .helpers import (
    CHROMIUM_FLAGS,
    CUT_OFF,
    PHONES,
    REFRESHING,
    TEXT_SIZE,
    WHOLE_CHROMIUM,
    patient,
)
from .pages import import_game

NUMBERS_IN_CARDS = """() => [...document.querySelectorAll('.big-number')].map(el => ({
  text: el.textContent.trim(),
  fits: el.getBoundingClientRect().right <= el.parentElement.getBoundingClientRect().right
    && el.scrollWidth <= el.clientWidth + 1,
}))"""


@pytest.fixture(scope="module")
def large_text_chromium(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium with a profile whose text size is 200%, at 360×740 with touch: a browser of its
    own (a persistent context), started once for this file's tests: the whole Chromium, whose
    profile's preferences the headless shell does not read."""
    if WHOLE_CHROMIUM is None:  # the headless shell alone
        unavailable("Chromium is not installed (apt-get install chromium)", required=REFRESHING)
    profile = tmp_path_factory.mktemp("large-text") / "profile"
    (profile / "Default").mkdir(parents=True)
    preferences = {"webkit": {"webprefs": {"default_font_size": TEXT_SIZE}}}
    (profile / "Default" / "Preferences").write_text(json.dumps(preferences))
    width, height = PHONES["360x740"]
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=WHOLE_CHROMIUM,
        args=CHROMIUM_FLAGS,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
    )
    yield patient(context)
    context.close()


@pytest.fixture
def large_text(large_text_chromium: Any) -> Iterator[Any]:
    """A page of that Chromium, as if it were new: no cookie an earlier test left (a language
    chosen); each test's server is another origin, with storage of its own."""
    large_text_chromium.clear_cookies()
    page = large_text_chromium.new_page()
    yield page
    page.close()


def test_the_text_size_setting_is_in_force(large_text: Any, server: str) -> None:
    large_text.goto(server + "/")
    body = large_text.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert body >= 2 * 16


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
