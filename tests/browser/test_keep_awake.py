"""Keep the screen on: a switch near the top of every following page, off until this phone
switches it on, kept by this phone, asked for again whenever the page is shown; the table
display keeps itself on, and the hand form keeps the phone's choice without showing the switch;
hidden where the browser cannot keep a screen on (over plain http:// the page names the phone's
own setting instead) and without JavaScript."""

from __future__ import annotations

from typing import Any

from .helpers import new_page
from .pages import game_file, import_game

# A Screen Wake Lock the test can watch: each request is counted and gives a lock that the test
# can take away, as the browser does when the page is hidden.
WATCHED_WAKE_LOCK = """
window.locks = {asked: 0, released: 0, held: []};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request(type) {
    locks.asked += 1;
    const lock = new EventTarget();
    lock.type = type;
    lock.release = () => { locks.released += 1; lock.dispatchEvent(new Event("release"));
                           return Promise.resolve(); };
    locks.held.push(lock);
    return Promise.resolve(lock);
  },
})});
"""
NO_WAKE_LOCK = 'delete Navigator.prototype.wakeLock; delete Navigator.prototype["wakeLock"];'


def scoreboard(
    browser: Any, server: str, script: str | None, javascript: bool = True, suffix: str = ""
) -> Any:
    page = new_page(browser, javascript=javascript)
    if script:
        page.context.add_init_script(script=script)
    page.goto(server + import_game(page, server, game_file()) + suffix)
    return page


def asked(page: Any) -> int:
    return int(page.evaluate("locks.asked"))


def test_the_switch_starts_off_and_keeps_the_screen_on_once_switched(
    browser: Any, server: str
) -> None:
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK)
    switch = page.get_by_role("switch", name="Keep the screen on")
    assert switch.is_visible()
    assert not switch.is_checked()
    assert asked(page) == 0
    switch.check()
    page.wait_for_function("locks.asked === 1")
    switch.uncheck()
    page.wait_for_function("locks.released === 1")
    page.context.close()


def test_the_phone_remembers_the_switch_and_asks_again_when_shown(
    browser: Any, server: str
) -> None:
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK)
    page.get_by_role("switch").check()
    page.wait_for_function("locks.asked === 1")
    page.reload()
    assert page.get_by_role("switch").is_checked()
    page.wait_for_function("locks.asked === 1")  # a new page: counted afresh
    # Hidden, the browser drops the lock; shown again, the page asks for it again.
    page.evaluate("locks.held[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("locks.asked === 2")
    page.context.close()


def test_the_switch_is_hidden_where_the_browser_cannot_keep_the_screen_on(
    browser: Any, server: str
) -> None:
    page = scoreboard(browser, server, NO_WAKE_LOCK)
    assert page.evaluate("'wakeLock' in navigator") is False
    assert page.locator("#keep-awake").count() == 1
    assert not page.locator("#keep-awake").is_visible()
    assert page.get_by_role("link", name="Record hand 3").is_visible()
    page.context.close()


def test_the_switch_is_hidden_without_javascript(browser: Any, server: str) -> None:
    page = scoreboard(browser, server, None, javascript=False)
    assert not page.locator("#keep-awake").is_visible()
    page.context.close()


def test_chromium_on_this_machine_offers_the_switch_as_its_api_allows(
    browser: Any, server: str
) -> None:
    """127.0.0.1 is a secure context: the real API decides, and the page follows it."""
    page = scoreboard(browser, server, None)
    supported = page.evaluate("'wakeLock' in navigator && window.isSecureContext")
    assert page.locator("#keep-awake").is_visible() is supported
    page.context.close()


def test_the_switch_is_near_the_top_of_every_following_page(browser: Any, server: str) -> None:
    for suffix in ("", "/follow"):
        page = scoreboard(browser, server, WATCHED_WAKE_LOCK, suffix=suffix)
        switch = page.get_by_role("switch", name="Keep the screen on")
        box = switch.bounding_box()
        assert box is not None and box["y"] < 300, (suffix, box)  # on the first screen, high
        page.context.close()


def test_the_hand_form_keeps_the_screen_on_as_switched_elsewhere_without_the_switch(
    browser: Any, server: str
) -> None:
    """One types on the hand form, whose rows need the height (two screens at most): it shows no
    switch, and keeps the screen on when this phone switched it on on another page."""
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK)
    page.get_by_role("switch", name="Keep the screen on").check()
    page.wait_for_function("locks.asked === 1")
    page.goto(page.url + "/hands/new")
    page.wait_for_function("locks.asked === 1")  # asked again on this page, as chosen
    assert not page.get_by_role("switch").is_visible()
    assert not page.locator(".keep-awake-hint").count()
    page.context.close()


def test_the_table_display_keeps_itself_on(browser: Any, server: str) -> None:
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK, suffix="/display")
    page.wait_for_function("locks.asked === 1")
    assert not page.get_by_role("switch").is_visible()  # nothing to switch: it stays on
    page.evaluate("locks.held[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("locks.asked === 2")
    page.context.close()


def test_over_plain_http_the_page_names_the_phones_own_setting(browser: Any, server: str) -> None:
    """No browser offers the Wake Lock API to a page that is not a secure context (a family's
    server on its Wi-Fi, http://192.168.…); the test makes 127.0.0.1 look like one."""
    insecure = NO_WAKE_LOCK + "Object.defineProperty(window, 'isSecureContext', {value: false});"
    page = scoreboard(browser, server, insecure)
    hint = page.locator(".keep-awake-hint")
    assert hint.is_visible()
    assert "screen timeout" in hint.inner_text()
    assert not page.locator("#keep-awake").is_visible()
    page.context.close()
