"""Phones at a table with a PIN, in Chromium: a fresh phone sees nothing; a follow link watches
one game; a join link records hands in its game and no other; a hand typed on a phone whose
link was renewed meanwhile is saved once the PIN is entered, with and without JavaScript."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import new_page, served
from .pages import game_file, import_game

PIN = "2468"


@pytest.fixture
def pin_server(tmp_path: Path) -> Iterator[str]:
    yield from served(tmp_path, PIN=PIN)


def enter_pin(page: Any) -> None:
    page.locator("#pin").fill(PIN)
    with page.expect_event("load"):
        page.get_by_role("button", name="Enter").click()


def share_links(page: Any, server: str, scoreboard: str) -> dict[str, str]:
    page.goto(f"{server}{scoreboard}/share")
    return {
        kind: str(page.locator(f"a[data-share={kind}]").get_attribute("href"))
        for kind in ("follow", "join")
    }


def type_a_hand(page: Any) -> None:
    """Us went out with a samba and a natural canasta; Them held 30 points."""
    page.locator("input[name=ending][value=out-0]").check()
    for name, value in {
        "sides-0-set_samba": "1",
        "sides-0-set_natural_canasta": "1",
        "sides-0-melded_points": "260",
        "sides-1-melded_points": "150",
        "sides-1-hand_points": "30",
    }.items():
        page.locator(f"[name='{name}']").fill(value)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_phones_get_what_their_pin_or_link_allows(
    browser: Any, pin_server: str, javascript: bool
) -> None:
    table = new_page(browser)
    table.goto(pin_server + "/")
    expect(table.locator("h1")).to_have_text("This table has a PIN")
    enter_pin(table)
    scoreboard = import_game(table, pin_server, game_file())
    other = import_game(table, pin_server, game_file(("Ana", "Bea")))
    links = share_links(table, pin_server, scoreboard)
    assert links["join"].startswith(pin_server + "/join/")

    watcher = new_page(browser, javascript=javascript)
    watcher.goto(pin_server + "/stats")
    expect(watcher.locator("h1")).to_have_text("This table has a PIN")
    watcher.goto(links["follow"])
    expect(watcher.locator(".totals")).to_be_visible()
    watcher.goto(f"{pin_server}{scoreboard}/hands/new")
    expect(watcher.locator("h1")).to_have_text("This table has a PIN")

    joiner = new_page(browser, javascript=javascript)
    joiner.goto(links["join"])
    joiner.goto(f"{pin_server}{scoreboard}/hands/new")
    type_a_hand(joiner)
    with joiner.expect_event("load"):
        joiner.get_by_role("button", name="Save hand", exact=True).click()
    expect(joiner.locator(".notice")).to_have_text("Hand 3 saved.")
    joiner.goto(f"{pin_server}{other}/hands/new")
    expect(joiner.locator("h1")).to_have_text("This table has a PIN")

    # The table makes new links while the joiner types hand 4: Save is refused, the hand kept.
    joiner.goto(f"{pin_server}{scoreboard}/hands/new")
    type_a_hand(joiner)
    table.goto(f"{pin_server}{scoreboard}/share")
    with table.expect_event("load"):
        table.get_by_role("button", name="Make new links").click()
    save = joiner.get_by_role("button", name="Save hand", exact=True)
    if javascript:
        save.click()  # sent in the background: the answer replaces the page
    else:
        with joiner.expect_event("load"):
            save.click()
    expect(joiner.locator("h1")).to_have_text("This table has a PIN")
    expect(joiner.get_by_text("What you typed is kept")).to_be_visible()
    enter_pin(joiner)
    expect(joiner.locator(".notice")).to_have_text("Hand 4 saved.")
    for page in (table, watcher, joiner):
        page.context.close()
