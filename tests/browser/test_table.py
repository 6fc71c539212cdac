"""The hand form at a real table, at 360×740: the Go key, a lost connection, a lost session.

Enter (a phone keyboard's Go) never changes a counter; a Save that cannot reach the server
keeps the hand as typed and says so; a Save after the session cookie was lost comes back with
everything typed and is recorded once when pressed again.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .helpers import SCREENSHOTS, axe_violations, expect_as_typed, new_page, type_a_hand
from .pages import game_file, import_game

NOT_SAVED = "Not saved yet: no connection. The hand stays here: tap Save again once back online."
EXPIRED = "Your session expired; press “Save hand” again."


@dataclass(frozen=True)
class Table:
    """A phone at the table, with or without JavaScript, and the server it talks to."""

    page: Any
    javascript: bool
    server: str

    def open_hand_form(self) -> str:
        """A classic game with two hands played, its form for hand 3 open; the scoreboard."""
        scoreboard = import_game(self.page, self.server, game_file())
        self.page.goto(f"{self.server}{scoreboard}/hands/new")
        return scoreboard

    def hands_recorded(self, scoreboard: str) -> int:
        """How many hands the game has, asked of the server beside the browser."""
        with urllib.request.urlopen(f"{self.server}{scoreboard}/result.json") as answer:
            return len(json.load(answer)["hands"])

    def save(self, *, navigates: bool) -> None:
        button = self.page.get_by_role("button", name="Save hand", exact=True)
        if navigates:
            # With JavaScript the save goes in the background and the page then goes to the
            # scoreboard: two round trips, within the navigation's bound (helpers.patient).
            with self.page.expect_event("load"):
                button.tap()
        else:
            button.tap()


@pytest.fixture(params=[True, False], ids=["js", "no-js"])
def table(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Table]:
    page = new_page(browser, "360x740", javascript=request.param)
    yield Table(page, request.param, server)
    page.context.close()


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Table]:
    page = new_page(browser, "360x740")
    yield Table(page, True, server)
    page.context.close()


SUBMITS = """() => {
  window.submits = 0;
  document.addEventListener("submit", () => { window.submits += 1; }, true);
}"""
"""The forms the page sends, counted: a form is sent (its submit event fired, whether the page
then posts it in the background or the browser navigates) while the key that sends it is
handled, before Playwright's key press returns, so a count of 0 afterwards proves that nothing
was sent, with no time waited."""


FETCHES = """() => {
  window.fetches = {made: 0, answered: 0};
  const fetch = window.fetch;
  window.fetch = (...args) => {
    window.fetches.made += 1;
    return fetch(...args).finally(() => { window.fetches.answered += 1; });
  };
}"""
"""The page's questions to the server in the background (the live summary's, Save's), counted
as it asks them and as they are answered."""


def sends_the_hand(request: Any) -> bool:
    """A POST of the form, but not the live summary's question (a fetch asking for a Preview)."""
    live = request.resource_type == "fetch" and 'name="action"\r\n\r\npreview' in (
        request.post_data or ""
    )
    return request.method == "POST" and not live


@pytest.mark.parametrize(
    ("field", "next_field"),
    [
        ("sides-0-set_natural_canasta", "sides-1-set_natural_canasta"),
        ("sides-0-melded_points", "sides-1-melded_points"),
    ],
    ids=["counter", "points"],
)
def test_enter_in_a_field_changes_no_counter(table: Table, field: str, next_field: str) -> None:
    page = table.page
    scoreboard = table.open_hand_form()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if sends_the_hand(r) else None)
    type_a_hand(page)
    page.locator(f"#{field}").focus()
    if table.javascript:
        page.evaluate(SUBMITS)
        page.keyboard.press("Enter")
        assert page.evaluate("() => window.submits") == 0
    else:
        with page.expect_event("load"):
            page.keyboard.press("Enter")
    expect_as_typed(page)
    assert table.hands_recorded(scoreboard) == 2
    if table.javascript:  # on to the next field, nothing sent
        expect(page.locator(f"#{next_field}")).to_be_focused()
        assert not [url for url in sent if url.endswith("/hands/new")]
    else:  # the browser pressed the form's default button, a Preview
        expect(page.locator("#breakdown .side-score").first).to_be_visible()
        expect(page.locator("#summary .hand-score").first).to_have_text("+3,100")


def test_enter_in_the_last_field_does_nothing(phone: Table) -> None:
    page = phone.page
    scoreboard = phone.open_hand_form()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if sends_the_hand(r) else None)
    type_a_hand(page)
    last = page.locator("form.hand-form input:not([type=hidden]):visible").last
    picked = last.get_attribute("type") == "radio"  # a count picked in one tap (red threes)
    if picked:
        last.check()
    else:
        last.fill("1")
    last.focus()
    page.evaluate(SUBMITS)
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.submits") == 0
    expect(last).to_be_focused()
    if picked:
        expect(last).to_be_checked()
    else:
        expect(last).to_have_value("1")
    expect_as_typed(page)
    assert not [url for url in sent if url.endswith("/hands/new")]
    assert phone.hands_recorded(scoreboard) == 2


@pytest.mark.screenshots
def test_a_save_without_a_connection_keeps_the_hand_and_saves_once_when_back(
    phone: Table, axe: str
) -> None:
    page = phone.page
    scoreboard = phone.open_hand_form()
    type_a_hand(page)
    page.route("**/hands/new", lambda route: route.abort("internetdisconnected"))
    phone.save(navigates=False)

    problem = page.get_by_role("alert").filter(has_text=NOT_SAVED)
    expect(problem).to_be_visible()
    expect(problem).to_be_in_viewport()
    expect_as_typed(page)
    assert page.url == f"{phone.server}{scoreboard}/hands/new"
    assert phone.hands_recorded(scoreboard) == 2
    assert axe_violations(page, axe) == []
    # What the phone shows (the Save bar stays at the bottom of the screen), not the whole page.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "hand-form-not-saved.png"))

    # Pressed again while still offline: the same message, still nothing recorded.
    phone.save(navigates=False)
    expect(problem).to_be_visible()
    assert phone.hands_recorded(scoreboard) == 2

    page.unroute("**/hands/new")
    phone.save(navigates=True)
    assert page.url.startswith(f"{phone.server}{scoreboard}")
    expect(page.locator("table.hands tbody tr")).to_have_count(3)
    assert phone.hands_recorded(scoreboard) == 3


def test_a_save_whose_answer_was_lost_is_recorded_once_when_pressed_again(phone: Table) -> None:
    """The hand reached the server but the answer did not reach the phone: the token holds."""
    page = phone.page
    scoreboard = phone.open_hand_form()
    type_a_hand(page)

    def lose_the_answer(route: Any) -> None:
        try:
            route.fetch(max_redirects=0)  # the server records the hand ...
            route.abort("connectionreset")  # ... and the phone never hears of it
        except PlaywrightError:
            pass  # a preview still on its way when the page moved on: nothing to lose

    page.route("**/hands/new", lose_the_answer)
    phone.save(navigates=False)
    expect(page.get_by_role("alert").filter(has_text=NOT_SAVED)).to_be_visible()
    expect_as_typed(page)
    assert phone.hands_recorded(scoreboard) == 3

    page.unroute("**/hands/new")
    phone.save(navigates=True)
    assert page.url.startswith(f"{phone.server}{scoreboard}")
    assert phone.hands_recorded(scoreboard) == 3


def test_a_save_after_the_session_was_lost_comes_back_as_typed_and_saves_once(
    table: Table, axe: str
) -> None:
    page = table.page
    if table.javascript:
        page.clock.install()
        page.add_init_script(script=f"({FETCHES})()")
    scoreboard = table.open_hand_form()
    type_a_hand(page)
    if table.javascript:
        # Every question of the live summary is answered before the cookies go: one answered
        # after would start a session of its own, and the form Save brings back would hold
        # another session's token. Typing ends out of the last field, whose change asks once
        # more 250 ms later (the page's clock runs that far at once); left to the tap on Save,
        # that question would race the save.
        page.locator("#sides-1-hand_points").blur()
        page.clock.run_for(1_000)
        page.wait_for_function("() => window.fetches.made === window.fetches.answered")
        expect(page.locator("#summary .hand-score")).to_have_text(["+3,100", "+420"])
    page.context.clear_cookies()
    table.save(navigates=not table.javascript)

    expect(page.get_by_role("alert").filter(has_text=EXPIRED)).to_be_visible()
    expect(page.get_by_text("This hand was not saved.")).to_be_visible()
    expect_as_typed(page)
    assert table.hands_recorded(scoreboard) == 2
    if table.javascript:  # axe needs it
        assert axe_violations(page, axe) == []

    table.save(navigates=True)
    assert page.url.startswith(f"{table.server}{scoreboard}")
    expect(page.locator("table.hands tbody tr")).to_have_count(3)
    assert table.hands_recorded(scoreboard) == 3


def test_a_refused_save_shows_the_servers_messages_beside_the_fields(phone: Table) -> None:
    page = phone.page
    scoreboard = phone.open_hand_form()
    page.locator("#ending-0").check()
    page.locator("#sides-0-melded_points").fill("100")
    phone.save(navigates=False)
    expect(page.locator("#ending-errors")).to_contain_text("Us went out with 0 sets")
    expect(page.locator("#sides-0-melded_points")).to_have_value("100")
    assert page.url == f"{phone.server}{scoreboard}/hands/new"

    # The page that came back works like the first: counters, Enter, Save.
    page.get_by_role("button", name="One more: Samba for Us").tap()
    page.get_by_role("button", name="One more: Natural canasta for Us").tap()
    page.locator("#sides-0-melded_points").fill("260")
    page.locator("#sides-0-melded_points").press("Enter")
    expect(page.locator("#sides-1-melded_points")).to_be_focused()
    phone.save(navigates=True)
    assert phone.hands_recorded(scoreboard) == 3


def test_a_save_the_server_fails_keeps_the_hand_and_says_so(phone: Table) -> None:
    page = phone.page
    scoreboard = phone.open_hand_form()
    type_a_hand(page)
    page.route("**/hands/new", lambda route: route.fulfill(status=502, body="Bad gateway"))
    phone.save(navigates=False)
    failed = "Not saved: the server had a problem. Try again."
    expect(page.get_by_role("alert").filter(has_text=failed)).to_be_visible()
    expect_as_typed(page)
    page.unroute("**/hands/new")
    phone.save(navigates=True)
    assert phone.hands_recorded(scoreboard) == 3
