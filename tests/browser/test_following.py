"""Every phone at the table follows the game: one phone records a hand, and the others (each a
browser of its own) see the new totals without reloading, on the scoreboard, the follow page
and the table display; a phone put away catches up when it is shown again; a phone filling in
the hand form is told of the hand recorded elsewhere and keeps what it typed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import EVERY, HIDE, Phones, expect_as_typed, new_page, totals_on, type_a_hand
from .pages import game_file, import_game


@pytest.fixture
def phones(browser: Any, server: str) -> Iterator[Phones]:
    table = Phones(browser, server)
    yield table
    table.close()


def test_every_phone_sees_a_hand_recorded_elsewhere_without_reloading(phones: Phones) -> None:
    watchers = [phones.watching(suffix) for suffix in ("", "/follow", "/display")]
    before = [totals_on(page).all_inner_texts() for page in watchers]
    loads = {id(page): 0 for page in watchers}
    for page in watchers:
        page.on("load", lambda _event, page=page: loads.__setitem__(id(page), 1))
    totals = phones.record_a_hand()
    assert [totals] * 3 != before
    for page in watchers:
        page.clock.run_for(EVERY)  # the next poll
        expect(totals_on(page)).to_have_text(totals)
    expect(watchers[2].locator(".table-last").first).to_contain_text("Hand 3")
    assert loads == {id(page): 0 for page in watchers}  # none of them reloaded


def test_a_phone_put_away_catches_up_when_it_is_shown_again(phones: Phones) -> None:
    page = phones.watching("/follow")
    before = totals_on(page).all_inner_texts()
    page.evaluate(HIDE, True)
    # A poll made just before the page was put away is let finish: from then on it asks nothing.
    page.wait_for_function("() => window.polls.made === window.polls.answered")
    made = page.evaluate("() => window.polls.made")
    totals = phones.record_a_hand()
    page.clock.run_for(3 * EVERY)  # three polls' time, on the page's clock
    assert page.evaluate("() => window.polls.made") == made
    assert totals_on(page).all_inner_texts() == before
    page.evaluate(HIDE, False)
    expect(totals_on(page)).to_have_text(totals)


def test_the_hand_form_tells_of_a_hand_recorded_elsewhere_and_keeps_what_was_typed(
    phones: Phones,
) -> None:
    page = phones.watching("/hands/new")
    type_a_hand(page)
    phones.record_a_hand()
    page.clock.run_for(EVERY)  # the next poll
    notice = page.locator("#elsewhere")
    expect(notice).to_contain_text("Hand 3 was just recorded on another phone")
    expect(notice).to_contain_text("saved as hand 4")
    expect(notice.get_by_role("link", name="See hand 3")).to_be_visible()
    expect_as_typed(page)
    # Save still asks first (409), with both hands shown and what was typed still there.
    page.get_by_role("button", name="Save hand", exact=True).tap()
    expect(page.locator("#problems")).to_contain_text("Someone else saved hand 3")
    expect_as_typed(page)


def test_a_phone_following_a_game_deleted_elsewhere_is_told_it_is_gone(phones: Phones) -> None:
    page = phones.watching("/follow")
    expect(page.locator("#gone")).to_be_hidden()
    phones.recorder.goto(phones.server + phones.game + "/delete")
    with phones.recorder.expect_event("load"):
        phones.recorder.locator("main form button[type=submit]").tap()
    page.clock.run_for(EVERY)  # the next poll
    expect(page.locator("#gone")).to_be_visible()
    expect(page.locator("#gone").get_by_role("link", name="Your games")).to_have_attribute(
        "href", "/"
    )


def test_the_table_display_is_readable_across_the_table_in_landscape(
    browser: Any, server: str
) -> None:
    for dark in (False, True):
        context = browser.new_context(
            viewport={"width": 1280, "height": 720}, color_scheme="dark" if dark else "light"
        )
        page = context.new_page()
        page.goto(server + import_game(page, server, game_file()) + "/display")
        sizes = page.locator(".table-total").evaluate_all(
            "totals => totals.map(t => parseFloat(getComputedStyle(t).fontSize))"
        )
        assert len(sizes) == 2 and min(sizes) >= 72, sizes  # about 2 cm tall on a TV
        side_by_side = page.locator(".table-side").evaluate_all(
            "sides => sides.map(s => s.getBoundingClientRect().top)"
        )
        assert side_by_side[0] == side_by_side[1]
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
        context.close()


def test_the_follow_page_works_without_javascript(browser: Any, server: str) -> None:
    page = new_page(browser, javascript=False)
    scoreboard = import_game(page, server, game_file())
    page.goto(server + scoreboard + "/follow")
    assert page.locator("main form").count() == 0
    with page.expect_event("load"):
        page.get_by_role("link", name="Refresh").tap()
    assert page.url == server + scoreboard + "/follow"
    page.context.close()
