"""After a refused Save, the first screen of a 360x740 phone says what is wrong, each problem in
words with its side and the rule's name, above the Save bar; a tap on one brings its field into
view. The Save bar never takes a third of the screen, and the form's rows keep at least half of
it, upright or on its side."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import new_page
from .pages import import_game

GAME = {
    "variant": "classic",
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
}

WORDS = {
    "en": ("This hand was not saved.", "Us: a first meld of 45 is too low", "Samba Rules"),
    "es": ("Esta mano no se ha guardado.", "Us: una primera salida de 45", "Samba Rules"),
}

ABOVE_THE_BAR = """selector => {
  const bar = document.querySelector(".bar").getBoundingClientRect();
  return [...document.querySelectorAll(selector)].map(el => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= bar.top;
  });
}"""

BAR_SHARE = """() => document.querySelector(".bar").getBoundingClientRect().height
  / window.innerHeight"""

FIELDS_SHARE = """() => (document.querySelector(".bar").getBoundingClientRect().top
  - document.querySelector(".side-names").getBoundingClientRect().bottom) / window.innerHeight"""


def refused_save(browser: Any, server: str, size: str, language: str, javascript: bool) -> Any:
    """A hand form whose Save was refused: Us went out with a first meld of 45 and no sets."""
    page = new_page(browser, size, javascript=javascript, language=language)
    page.goto(server + "/")
    scoreboard = import_game(page, server, GAME)
    page.goto(server + scoreboard + "/hands/new")
    page.locator("#ending-0").check()
    page.locator("#sides-0-opening_meld").fill("45")
    page.locator("#sides-0-melded_points").fill("100")
    save = page.locator(".bar button[value=save]")
    if javascript:
        with page.expect_response(lambda r: r.request.method == "POST" and r.status == 422):
            save.click()
        page.locator(".refusals").wait_for()
    else:
        with page.expect_event("load"):
            save.click()
    return page


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_a_refused_save_says_what_is_wrong_in_the_first_screen(
    browser: Any, server: str, language: str, javascript: bool
) -> None:
    page = refused_save(browser, server, "360x740", language, javascript)
    not_saved, too_low, rule = WORDS[language]
    assert page.evaluate("window.scrollY") == 0
    problems = page.locator(".refusals li")
    texts = problems.all_inner_texts()
    assert any(too_low in text and rule in text for text in texts), texts
    assert not_saved in page.locator("#problems").inner_text()
    shown = page.evaluate(ABOVE_THE_BAR, ".refusals li")
    assert shown and all(shown), f"a problem is below the first screen or under the bar: {shown}"
    assert page.evaluate(BAR_SHARE) < 1 / 3
    problems.filter(has_text=too_low).get_by_role("link").first.tap()
    assert page.evaluate(ABOVE_THE_BAR, "#sides-0-opening_meld") == [True]
    page.context.close()


@pytest.mark.parametrize("size", ["360x740", "740x360"])
def test_the_save_bar_leaves_most_of_the_screen_to_the_form(
    browser: Any, server: str, size: str
) -> None:
    page = refused_save(browser, server, size, "en", javascript=True)
    share = page.evaluate(BAR_SHARE)
    print(f"the Save bar at {size} after a refused Save: {share:.0%} of the screen")
    assert share < 1 / 3
    page.locator("#sides-1-melded_points").scroll_into_view_if_needed()  # the names stick
    fields = page.evaluate(FIELDS_SHARE)
    print(f"the rows between the sides' names and the Save bar at {size}: {fields:.0%}")
    assert fields >= 1 / 2
    page.context.close()
