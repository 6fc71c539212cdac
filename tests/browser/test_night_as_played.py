"""The issue's club night, run as a director runs it, in real browsers (issue 34): nine pairs
over three rounds at five tables, a phone at each table card, the standings on the room's screen;
pair 5 leaves after round 1 and a tenth pair arrives for round 3; in round 2 one table records no
hand and another is ended unfinished. Every ending is asked once, and a stray tap on "End round"
or "End the night" ends nothing; the director's page says how each table stopped; the room's
screen shows every pair without scrolling; the standings' points are the sums of the games as
played; axe-core finds nothing on the pages the evening ends on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .helpers import axe_violations, new_page, screenshot, served, set_up_night, type_a_hand

PAIRS = [
    ("Ana", "Beto"),
    ("Carla", "Dani"),
    ("Elena", "Fabián"),
    ("Gloria", "Hugo"),
    ("Inés", "Julián"),
    ("Karina", "Lucho"),
    ("María", "Nico"),
    ("Olga", "Pedro"),
    ("Quique", "Rosa"),
]
ARRIVING = ("Sara", "Tomás")
MOVED_ON = 15_000  # ms: the night's stream names the new round, the phone loads its game


def ask_and_confirm(director: Any, link: str, button: str) -> None:
    """A director's control that ends something: it asks, and is pressed again on its page."""
    with director.expect_event("load"):
        director.get_by_role("link", name=link, exact=True).tap()
    with director.expect_event("load"):
        director.get_by_role("button", name=button, exact=True).tap()


def tapped_by_mistake(director: Any, link: str) -> None:
    """A control of the director's page that ends something, tapped once: it asks, and the
    director goes back (to the page the link was on)."""
    home = director.url
    with director.expect_event("load"):
        director.get_by_role("link", name=link, exact=True).tap()
    expect(director.get_by_role("heading", name=f"{link}?")).to_be_visible()
    director.goto(home)


def save_hands(phone: Any, count: int) -> None:
    game = phone.url.split("?")[0]
    for _ in range(count):
        phone.goto(game + "/hands/new")
        type_a_hand(phone)
        with phone.expect_event("load"):
            phone.get_by_role("button", name="Save hand", exact=True).tap()


def playing_tables(director: Any) -> list[int]:
    """The tables with a game in the round being played, as the director's page lists them."""
    tables = director.locator("ul.director-tables li[data-table]")
    return [int(tables.nth(i).get_attribute("data-table") or 0) for i in range(tables.count())]


def test_nine_pairs_over_three_rounds_with_a_pair_leaving_and_one_arriving(
    browser: Any, axe: str, tmp_path: Path
) -> None:
    server = served(tmp_path, STREAMS=32)
    base = next(server)
    contexts: list[Any] = []
    try:
        director = new_page(browser, "390x844")
        contexts.append(director.context)
        night_id = set_up_night(director, base, PAIRS, "Martes")
        home = f"{base}/nights/{night_id}"
        director.goto(f"{home}/cards")
        cards = {
            int(link.get_attribute("data-card") or 0): link.get_attribute("href") or ""
            for link in director.locator("a[data-card]").all()
        }
        assert sorted(cards) == [1, 2, 3, 4, 5]  # nine pairs and the ghost
        standings = director.locator("#standings-link").get_attribute("href") or ""
        room = new_page(browser, "1920x1080")
        contexts.append(room.context)
        room.goto(standings)
        phones = {}
        for table, url in cards.items():
            phones[table] = new_page(browser)
            contexts.append(phones[table].context)
            phones[table].goto(url)
        state = director.locator(".round-state")
        games: dict[tuple[int, int], str] = {}

        def start(number: int) -> list[int]:
            director.goto(home)
            with director.expect_event("load"):
                director.get_by_role("button", name=f"Start round {number}").tap()
            tables = playing_tables(director)
            for table in tables:
                phone = phones[table]
                expect(phone.locator(".night-seat")).to_contain_text(
                    f"round {number}, table {table}", timeout=MOVED_ON
                )
                games[number, table] = phone.url.split("?")[0].rsplit("/", 1)[1]
            return tables

        # Round 1: every table plays its two hands. "End round 1" tapped once asks, and ends
        # nothing until it is pressed again.
        for table in start(1):
            save_hands(phones[table], 2)
        director.goto(home)
        tapped_by_mistake(director, "End round 1")
        expect(state).to_have_text("Round 1 of 3 is being played.")
        ask_and_confirm(director, "End round 1", "End round 1")
        expect(state).to_have_text("Round 1 of 3 has ended.")

        # Pair 5 leaves, asked once.
        director.locator("ul.pairs li").nth(4).get_by_role("link", name="Leaves").tap()
        expect(director.get_by_role("heading", name="Does pair 5 leave?")).to_be_visible()
        with director.expect_event("load"):
            director.get_by_role("button", name="Pair 5 leaves", exact=True).tap()
        expect(director.locator("ul.pairs li").nth(4)).to_contain_text("(left)")

        # Round 2: the first table records no hand, the second one hand, the others two. "End
        # the night" tapped once by mistake asks, and ends nothing.
        playing = start(2)
        unplayed, unfinished = playing[0], playing[1]
        for table in playing:
            save_hands(phones[table], {unplayed: 0, unfinished: 1}.get(table, 2))
        director.goto(home)
        expect(director.locator("#still-playing")).to_contain_text("2 tables have not finished")
        tapped_by_mistake(director, "End the night")
        expect(state).to_have_text("Round 2 of 3 is being played.")
        ask_and_confirm(director, "End round 2", "End round 2")
        expect(state).to_have_text("Round 2 of 3 has ended.")
        stopped = director.locator("ul.director-tables li")
        expect(
            stopped.filter(has=director.locator(f'[href$="{games[2, unplayed]}"]'))
        ).to_contain_text("stopped before its first hand")
        expect(
            stopped.filter(has=director.locator(f'[href$="{games[2, unfinished]}"]'))
        ).to_contain_text("stopped after 1 hand")

        # A tenth pair arrives for round 3, which every table plays whole; then the night ends.
        director.locator("#arriving-first").fill(ARRIVING[0])
        director.locator("#arriving-second").fill(ARRIVING[1])
        with director.expect_event("load"):
            director.get_by_role("button", name="A pair arrives").tap()
        for table in start(3):
            save_hands(phones[table], 2)
        director.goto(home)
        ask_and_confirm(director, "End round 3", "End round 3")
        ask_and_confirm(director, "End the night", "End the night")
        assert "/results" in director.url

        # The room's screen shows every pair, without scrolling; the standings' points are the
        # sums of the games as they were played.
        expect(room.locator(".round-state")).to_have_text("Final standings", timeout=MOVED_ON)
        rows = room.locator("tr[data-pair]")
        expect(rows).to_have_count(10)
        assert room.evaluate("document.documentElement.scrollHeight <= innerHeight")
        screenshot(room, "night-as-played-room")
        played: dict[int, int] = {}
        for game_id in games.values():
            board = director.request.get(f"{base}/games/{game_id}").text()
            pairs = re.findall(r'class="side-name whole"[^>]*>(\d+)\. ', board)
            totals = director.request.get(f"{base}/games/{game_id}/result.json").json()["totals"]
            for pair, total in zip(pairs, totals, strict=True):
                played[int(pair)] = played.get(int(pair), 0) + total
        shown = {
            int(row.get_attribute("data-pair") or 0): int(row.get_attribute("data-points") or 0)
            for row in rows.all()
        }
        assert shown == {pair: played.get(pair, 0) for pair in range(1, 11)}
        problems = {"results": axe_violations(director, axe), "room": axe_violations(room, axe)}
        assert not [f"{name}: {line}" for name, lines in problems.items() for line in lines]
    finally:
        for context in contexts:
            context.close()
        next(server, None)
