"""A season's standings on the room's screen and on a phone (issue 38): its 48 players of two
nights on a projector at 1280 × 720, every one on the screen or on a page it turns to by
itself, nothing cut or scrolled; on a 360 px phone, in English and Spanish, each player's place,
name and total without scrolling sideways, each night's figure in the line under the name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from scorekeeper.nights import Rule
from scorekeeper.web.services import seasons
from scorekeeper.web.services.seasons import SeasonPlan
from tests.web.nights import play_round, set_up

from .helpers import browser_app, new_page, room_pages, screenshot, serving

NAMES = ["Ana", "Beto", "Carla", "Dani", "Elena", "Fabián", "Gloria", "Hugo", "Inés", "Julián"]
FIRST = [(f"{NAMES[i % 10]} {i}", f"{NAMES[(3 * i + 1) % 10]} {i + 12}") for i in range(12)]
SECOND = [(FIRST[i][0], FIRST[(i + 1) % 12][1]) for i in range(12)]
"""Partners changed: 24 players who played both nights, 24 who played one."""
SECOND = [*SECOND, *((f"Kim {i}", f"Lola {i}") for i in range(12))]


class Season(NamedTuple):
    base: str
    link: str


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Season]:
    app = browser_app(tmp_path_factory.mktemp("season"), WTF_CSRF_ENABLED=False)
    client = app.test_client()
    played = []
    for pairs, name in ((FIRST, "Martes 3 de marzo"), (SECOND, "Martes 10 de marzo")):
        night_id = set_up(client, pairs, name=name, round_count="1", round_hands="1")
        play_round(client, night_id, 1)
        played.append(night_id)
    with app.app_context():
        season_id = seasons.set_up_season(SeasonPlan("Primavera", Rule(), tuple(played)), "t")
        link = f"/season/{seasons.season_of(season_id).follow_token}"
    for base in serving(app):
        yield Season(base, link)


ON_SCREEN = """() => {
  const within = (box, frame) => box.width > 0 && box.height > 0 && box.top >= frame.top
      && box.left >= frame.left && box.bottom <= frame.bottom && box.right <= frame.right;
  const screen = {top: 0, left: 0, bottom: innerHeight, right: innerWidth};
  const board = document.querySelector(".standings-board").getBoundingClientRect();
  const rows = [...document.querySelectorAll("tr[data-player]")]
      .filter(row => within(row.getBoundingClientRect(), screen)
                     && within(row.getBoundingClientRect(), board))
      .map(row => ({who: row.dataset.player,
                    cut: [...row.querySelectorAll(".pair-name, td")]
                        .some(cell => cell.scrollWidth > cell.clientWidth + 1)}));
  const pager = document.getElementById("pager");
  const root = document.documentElement;
  return {rows, pager: pager.hidden ? "" : pager.textContent,
          overflows: root.scrollHeight > innerHeight || root.scrollWidth > innerWidth};
}"""


@pytest.mark.parametrize("language", ["en-US", "es"])
def test_the_rooms_screen_shows_every_player_on_pages_that_turn_by_themselves(
    browser: Any, season: Season, language: str
) -> None:
    room = new_page(browser, "1280x720", language=language)
    room.clock.install()
    room.goto(season.base + season.link)
    expect(room.locator("html.room .board-page").first).to_be_visible()
    seen: set[str] = set()
    for page, pages, shown in room_pages(room, ON_SCREEN):
        assert pages <= 3, shown["pager"]  # 16 players or more a page
        assert not shown["overflows"]
        assert [row for row in shown["rows"] if row["cut"]] == []
        seen |= {row["who"] for row in shown["rows"]}
        if page == 1:
            screenshot(room, f"season-room-1280x720-{language}")
    assert len(seen) == 48
    room.context.close()


@pytest.mark.parametrize("language", ["en-US", "es"])
def test_on_a_phone_every_player_shows_place_name_and_total_without_scrolling_sideways(
    browser: Any, season: Season, language: str
) -> None:
    phone = new_page(browser, "360x740", language=language)
    phone.goto(season.base + season.link)
    cells = phone.evaluate(
        """() => [...document.querySelectorAll("tr[data-player]")].map(row =>
            [...row.querySelectorAll("th, td")]
                .filter(cell => cell.getBoundingClientRect().width > 0)
                .map(cell => [cell.getBoundingClientRect().right <= innerWidth,
                              cell.className]))"""
    )
    assert len(cells) == 48
    for row in cells:
        assert [name for _, name in row] == ["place", "", "num sum"], row
        assert all(inside for inside, _ in row), row
    line = phone.locator("tr[data-player] .by-round").first
    expect(line).to_be_visible()
    expect(line).to_contain_text(re.compile(r"^\d \S+ · N1\s\d"))
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
    screenshot(phone, f"season-phone-360-{language}")
    phone.context.close()
