"""A club night in real browsers (issue 29): eight pairs at four tables over three rounds, each
table's phone recording through its card and moving on to each round's game by itself, the
standings open on the room's screen in another context, each page following the night or its
game by its event stream. Every round's seating follows the
movement, no pair meets another twice, the standings are the sums of the rounds' games under
both rankings, and the night survives a backup and restore."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from scorekeeper import nights
from scorekeeper.web.services.restore import restore
from tests.web.apps import built_app

from .helpers import axe_violations, new_page, record, screenshot, served, set_up_night

PAIRS = [(f"Ana{n}", f"Ben{n}") for n in range(1, 9)]
ROUNDS = 3
MOVED_ON = 8_000  # ms: the stream's event and the next page's load, on a loaded machine


def seating_shown(page: Any) -> dict[int, list[tuple[int, int, int]]]:
    rows = page.locator("tr[data-round]")
    shown: dict[int, list[tuple[int, int, int]]] = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        values = [
            int(row.get_attribute(k) or 0)
            for k in ("data-round", "data-table", "data-ns", "data-ew")
        ]
        shown.setdefault(values[0], []).append((values[1], values[2], values[3]))
    return shown


def press(director: Any, base: str, night_id: str, name: str) -> None:
    """A button of the director's page; one that ends something asks first (what each
    unfinished table counts as, too), and is pressed again on the page that asks."""
    director.goto(f"{base}/nights/{night_id}")
    ends = name.startswith("End")
    with director.expect_event("load"):
        director.get_by_role("link" if ends else "button", name=name, exact=True).tap()
    if ends:
        with director.expect_event("load"):
            director.get_by_role("button", name=name, exact=True).tap()


def standings_rows(page: Any) -> list[tuple[int, int, float, int]]:
    rows = page.locator("tr[data-pair]")
    return [
        (
            int(rows.nth(i).get_attribute("data-pair") or 0),
            int(rows.nth(i).get_attribute("data-points") or 0),
            float(rows.nth(i).get_attribute("data-wins") or 0),
            int(rows.nth(i).get_attribute("data-difference") or 0),
        )
        for i in range(rows.count())
    ]


def test_a_club_night_of_eight_pairs_at_four_tables_over_three_rounds(
    browser, axe: str, tmp_path: Path
):
    server = served(tmp_path, STREAMS=24)  # the night's and the games' streams
    problems: dict[str, list[str]] = {}
    base = next(server)
    contexts: list[Any] = []
    try:
        director = new_page(browser, "390x844")
        contexts.append(director.context)
        night_id = set_up_night(
            director, base, PAIRS, "Tuesday club", rounds=ROUNDS, hands=1, minutes=50
        )

        problems["seating"] = axe_violations(director, axe)
        # Who sits where, printed before play: the movement's, and no two pairs meet twice.
        shown = seating_shown(director)
        movement = nights.mitchell(8, ROUNDS)
        assert shown == {r.number: [(s.table, s.ns, s.ew) for s in r.seats] for r in movement}
        met = nights.meetings(movement)
        assert all(len(rounds) == 1 for rounds in met.values())
        assert not any(a <= 4 and b <= 4 for a, b in map(sorted, met))  # NS pairs never meet

        director.goto(f"{base}/nights/{night_id}/cards")
        cards = {
            int(link.get_attribute("data-card") or 0): link.get_attribute("href") or ""
            for link in director.locator("a[data-card]").all()
        }
        assert sorted(cards) == [1, 2, 3, 4]
        standings_url = director.locator("#standings-link").get_attribute("href") or ""
        problems["table cards"] = axe_violations(director, axe)

        room_context = browser.new_context(viewport={"width": 1280, "height": 720})
        contexts.append(room_context)
        room = room_context.new_page()
        room.goto(standings_url)
        expect(room.locator(".round-state")).to_have_text("Before round 1")
        room.wait_for_selector("#following[data-by=stream]", state="attached")  # the night's stream

        phones = {}
        for table, url in cards.items():
            phone = new_page(browser)
            contexts.append(phone.context)
            phone.goto(url)
            expect(phone.locator(".banner")).to_contain_text("has not started")
            phone.wait_for_selector("#following[data-by=stream]", state="attached")
            phones[table] = phone
        problems["a table card before play"] = axe_violations(phones[1], axe)

        games: dict[int, dict[int, str]] = {}
        for number in range(1, ROUNDS + 1):
            press(director, base, night_id, f"Start round {number}")
            games[number] = {}
            for table, phone in phones.items():
                # The phone moves on by itself, to this round's game at its table.
                expect(phone).to_have_url(re.compile(r"/games/[^/]+$"), timeout=MOVED_ON)
                if number > 1:
                    expect(phone).not_to_have_url(
                        re.compile(re.escape(games[number - 1][table]) + "$"), timeout=MOVED_ON
                    )
                expect(phone.locator(".night-seat")).to_contain_text(
                    f"round {number}, table {table}", timeout=MOVED_ON
                )
                games[number][table] = phone.url.rsplit("/", 1)[1]
                record(phone, table)
            # The room's screen shows the round's every game, without reloading.
            expect(room.locator(".tables-playing h2")).to_have_text(
                "Every table has finished the round", timeout=MOVED_ON
            )
            if number == 2:
                screenshot(room, "night-standings-room")
                screenshot(phones[1], "night-table-phone-360")
                director.goto(f"{base}/nights/{night_id}")
                screenshot(director, "night-director-390")
                problems["director"] = axe_violations(director, axe)
                problems["standings"] = axe_violations(room, axe)
            press(director, base, night_id, f"End round {number}")

        # The standings are the sums of the rounds' games, under both rankings.
        scored: list[nights.Game] = []
        for number, by_table in games.items():
            for table, game_id in by_table.items():
                seat = next(s for s in movement[number - 1].seats if s.table == table)
                result = director.request.get(f"{base}/games/{game_id}/result.json").json()
                ns, ew = result["totals"]
                scored.append(nights.Game(number, table, seat.ns, seat.ew, ns, ew))
        for ranking in nights.Ranking:
            expected = [
                (s.pair, s.points, s.wins, s.difference)
                for s in nights.standings(range(1, 9), scored, ranking)
            ]
            room.goto(f"{standings_url}?by={ranking.value}")
            assert standings_rows(room) == expected, ranking

        # The night and its games survive a backup and a restore into an empty database.
        backup = director.request.get(f"{base}/backup.json").json()
        assert len(backup["nights"]) == 1 and len(backup["games"]) == 4 * ROUNDS
        restored = built_app(
            {
                "SECRET_KEY": "browser-tests",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'restored.sqlite3'}",
            }
        )
        with restored.app_context():
            restore(json.loads(json.dumps(backup)))
        other = restored.test_client()
        path = standings_url.split("/", 3)[3]
        for ranking in nights.Ranking:
            room.goto(f"{standings_url}?by={ranking.value}")
            again = other.get(f"/{path}?by={ranking.value}").text
            rows = re.findall(
                r'data-pair="(\d+)" data-points="(-?\d+)" data-wins="([\d.]+)" '
                r'data-difference="(-?\d+)"',
                again,
            )
            assert [(int(p), int(t), float(w), int(d)) for p, t, w, d in rows] == standings_rows(
                room
            )
        director.goto(f"{standings_url}/results")
        problems["results"] = axe_violations(director, axe)
        assert not [f"{name}: {line}" for name, lines in problems.items() for line in lines]
    finally:
        for context in contexts:
            context.close()
        next(server, None)
