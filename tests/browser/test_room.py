"""A club night's room's screen and its phones in real browsers (issue 34): the standings of a
night of 30 tables (60 pairs) on a TV at 1920 × 1080 and a projector at 1280 × 720, every pair
on the screen or on a page it turns to by itself, nothing cut or scrolled, the tables still
playing beside them, as readable as on a phone; on a phone the standings and the results show
place, pair, wins and points without scrolling sideways; axe finds nothing on either."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from flask import Flask
from playwright.sync_api import expect

from tests.web.helpers import GOES_OUT, STAYS_IN, Actions
from tests.web.nights import cards, play_round, set_up, standings_link, table_game

from .helpers import (
    ROOM_TURN,
    ROOMS,
    axe_violations,
    browser_app,
    new_page,
    room_pages,
    screenshot,
    serving,
)

NAMES = ["Ana", "Beto", "Carla", "Dani", "Elena", "Fabián", "Gloria", "Hugo", "Inés", "Julián"]
PAIRS = [
    (f"{NAMES[i % 10]} {'ABCDEF'[i // 10]}.", f"{NAMES[(3 * i + 1) % 10]} {i}") for i in range(60)
]


class Night(NamedTuple):
    app: Flask
    base: str  # the served app's address
    link: str  # the standings' path
    tables: dict[int, str]  # each table card's path


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Night]:
    """A night of 60 pairs: round 1 played, round 2 being played, 20 of its 30 tables still
    playing (one hand or none saved there)."""
    app = browser_app(tmp_path_factory.mktemp("room"), WTF_CSRF_ENABLED=False, STREAMS=24)
    client = app.test_client()
    night_id = set_up(client, PAIRS, round_count="3", round_hands="2", round_minutes="50")
    tables = cards(client, night_id)
    play_round(client, night_id, 1, tables, lambda table: 2)
    # Round 2: a third of the tables finished, a third at their second hand, a third at their first.
    play_round(client, night_id, 2, tables, lambda table: table % 3, ends=False)
    link = standings_link(client, night_id)
    for base in serving(app):
        yield Night(app, base, link, tables)


ON_SCREEN = """() => {
  const within = (box, frame) => box.width > 0 && box.height > 0 && box.top >= frame.top
      && box.left >= frame.left && box.bottom <= frame.bottom && box.right <= frame.right;
  const inside = box => within(box, {top: 0, left: 0, bottom: innerHeight, right: innerWidth});
  // A row is shown when it is on the screen and not cut by the board that holds it.
  const board = document.querySelector(".standings-board").getBoundingClientRect();
  const rows = [...document.querySelectorAll("tr[data-pair]")]
      .filter(row => inside(row.getBoundingClientRect())
                     && within(row.getBoundingClientRect(), board))
      .map(row => ({pair: +row.dataset.pair,
                    cut: [...row.querySelectorAll(".pair-name, td")]
                        .some(cell => cell.scrollWidth > cell.clientWidth + 1)}));
  const playing = [...document.querySelectorAll(".tables-playing li.playing")];
  const root = document.documentElement;
  return {rows, pager: document.getElementById("pager").hidden ? ""
                       : document.getElementById("pager").textContent,
          playing: playing.length,
          playingShown: playing.filter(li => inside(li.getBoundingClientRect())).length,
          overflows: root.scrollHeight > innerHeight || root.scrollWidth > innerWidth};
}"""

NAME_LINE = """() => parseFloat(getComputedStyle(document.querySelector("tr[data-pair] .pair-name"))
    .lineHeight)"""


def name_line_on_a_phone(browser: Any, url: str) -> float:
    phone = new_page(browser)
    phone.goto(url)
    line = float(phone.evaluate(NAME_LINE))
    phone.context.close()
    return line


@pytest.mark.parametrize(
    ("size", "language"), [(size, "en-US") for size in ROOMS] + [("1280x720", "es")]
)
def test_the_rooms_screen_shows_every_pair_of_sixty_on_pages_that_turn_by_themselves(
    browser: Any, axe: str, night: Night, size: str, language: str
) -> None:
    base, link = night.base, night.link
    room = new_page(browser, size, language=language)
    room.clock.install()
    room.goto(base + link)
    expect(room.locator("html.room .board-page").first).to_be_visible()
    seen: set[int] = set()
    pages = 1
    for page, pages, shown in room_pages(room, ON_SCREEN):
        assert pages <= 5, shown["pager"]  # 12 pairs or more a page
        assert not shown["overflows"]
        assert [row for row in shown["rows"] if row["cut"]] == []
        assert shown["playing"] >= 19 and shown["playingShown"] == shown["playing"]
        seen |= {row["pair"] for row in shown["rows"]}
        if page == 1:
            screenshot(room, f"night-room-{size}-{language}")
    assert seen == set(range(1, 61))
    if pages > 1:
        room.clock.run_for(ROOM_TURN)  # and round again
        expect(room.locator("#pager")).to_have_text(re.compile(rf"^\D+ 1 \D+ {pages}$"))
    # As readable as a phone from across the room: a pair's line at least as tall.
    assert room.evaluate(NAME_LINE) >= name_line_on_a_phone(browser, base + link)
    assert axe_violations(room, axe) == []
    room.context.close()


FITTED = """() => { const board = document.querySelector(".standings-board");
    return board.dataset.fitted === board.clientWidth + "x" + board.clientHeight; }"""


def test_the_rooms_screen_fits_any_size_it_is_given(browser: Any, night: Night) -> None:
    """Every row of a page on the screen whole, at heights from a projector's 720 down, each
    leaving the last row another share of the board (the page's lines measured as they are),
    and at widths down to the narrowest a room's screen is taken for."""
    room = new_page(browser, "1280x720", language="es")
    room.goto(night.base + night.link)
    sizes = [(1280, height) for height in range(720, 590, -10)]
    sizes += [(width, 720) for width in range(1240, 960, -40)]
    for width, height in sizes:
        room.set_viewport_size({"width": width, "height": height})
        room.wait_for_function(FITTED)
        shown = room.evaluate(ON_SCREEN)
        whole = room.locator(".board-page:not([hidden]) tr[data-pair]").count()
        assert len(shown["rows"]) == whole and not shown["overflows"], (width, height)
    room.context.close()


def test_the_rooms_screen_follows_the_night_and_keeps_fitting_it(
    browser: Any, night: Night
) -> None:
    room = new_page(browser, "1280x720")
    room.goto(night.base + night.link)
    playing = room.locator(".tables-playing li.playing")
    expect(playing).to_have_count(20)
    client = night.app.test_client()
    game_id = table_game(client, night.tables[1])
    assert game_id is not None
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])  # table 1's second hand
    expect(playing).to_have_count(19)
    shown = room.evaluate(ON_SCREEN)
    assert not shown["overflows"] and shown["playingShown"] == 19
    assert len(shown["rows"]) >= 20 and room.locator(".board-page").count() <= 3
    room.context.close()


@pytest.mark.parametrize("page", ["", "/results"])
def test_on_a_phone_every_pair_shows_place_wins_and_points_without_scrolling_sideways(
    browser: Any, axe: str, night: Night, page: str
) -> None:
    phone = new_page(browser)
    phone.goto(night.base + night.link + page)
    columns = phone.evaluate(
        """() => [...document.querySelectorAll("tr[data-pair]")].slice(0, 5).map(row =>
            [...row.querySelectorAll("th, td")]
                .filter(cell => cell.getBoundingClientRect().width > 0)
                .map(cell => [cell.getBoundingClientRect().right <= innerWidth,
                              cell.className]))"""
    )
    for row in columns:
        assert all(inside for inside, _ in row), row
        # Place, pair, wins and points; the score, rounds and difference under the name.
        assert [name for _, name in row] == ["place", "", "num", "num sum"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    expect(phone.locator("tr[data-pair] .by-round").first).to_contain_text("Score ")
    screenshot(phone, f"night-standings-phone{page.replace('/', '-')}")
    assert axe_violations(phone, axe) == []
    phone.context.close()
