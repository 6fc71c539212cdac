"""What a table reads in its own terms: times in the phone's own time zone (in UTC, said so,
without JavaScript), and "Who deals first" by the names being typed."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import PHONES, patient
from .pages import game_file, import_game

ZONE = "America/Argentina/Buenos_Aires"  # UTC−3 all year: no daylight saving to step over

SHOWN_TIMES = """zone => [...document.querySelectorAll("time[datetime]")].map(time => ({
  shown: time.textContent.trim(),
  expected: new Intl.DateTimeFormat(document.documentElement.lang,
      {dateStyle: "medium", timeStyle: "short", timeZone: zone})
    .format(new Date(time.getAttribute("datetime"))),
}))"""


def phone(browser: Any, language: str, javascript: bool = True) -> Any:
    width, height = PHONES["360x740"]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        java_script_enabled=javascript,
        locale=language,
        timezone_id=ZONE,
        extra_http_headers={"Accept-Language": language},
    )
    patient(context)
    return context.new_page()


@pytest.mark.parametrize("language", ["en-US", "es"])
def test_times_are_in_the_phones_own_time_zone(browser: Any, server: str, language: str) -> None:
    page = phone(browser, language)
    page.goto(server + "/")
    import_game(page, server, game_file())
    page.goto(server + "/games")
    times = page.evaluate(SHOWN_TIMES, ZONE)
    assert times, "no time on the games list"
    for time in times:
        assert time["shown"] == time["expected"]
        assert "UTC" not in time["shown"]
    page.context.close()


def test_without_javascript_times_say_they_are_utc(browser: Any, server: str) -> None:
    page = phone(browser, "en-US", javascript=False)
    page.goto(server + "/")
    import_game(page, server, game_file())
    page.goto(server + "/games")
    shown = page.locator("time[datetime]").all_inner_texts()
    assert shown and all(text.endswith(" UTC") for text in shown), shown
    page.context.close()


@pytest.mark.parametrize(
    ("language", "typed", "unnamed"),
    [("en-US", "Ana (Us)", "Them, player 1"), ("es", "Ana (Nosotros)", "Ellos, jugador 1")],
)
def test_who_deals_first_follows_the_names_as_they_are_typed(
    browser: Any, server: str, language: str, typed: str, unnamed: str
) -> None:
    page = phone(browser, language)
    page.goto(server + "/games/new?system=classic&table=2x2")
    seats = page.locator("fieldset.dealer .seat")
    assert seats.nth(1).inner_text() == unnamed
    page.locator("#side_list-0-players-0").fill("Ana")
    assert seats.nth(0).inner_text() == typed
    page.locator("#side_list-1-name").fill("Los $& de $1")  # names are words, not patterns
    page.locator("#side_list-1-players-1").fill("Di")
    assert seats.nth(3).inner_text() == "Di (Los $& de $1)"
    page.get_by_label("Di (Los $& de $1)").check()
    with page.expect_event("load"):
        page.locator("main form button[type=submit]").last.click()
    assert page.locator(".next .dealer").inner_text().count("Di") == 1
    page.context.close()
