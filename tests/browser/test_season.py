"""A club's season in a real browser (issue 38): two nights of four pairs, Ana and Beto changing
partners between them, each hand recorded at its table through its card; the director sets the
season up on its page. The season's standings equal what points by place give from the nights'
games (computed here, from each game's totals), each player's page lists both nights, the
ratings of each finished game's players move the right way, and all of it survives a backup
and restore."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from sqlalchemy import select

from scorekeeper import nights
from scorekeeper.web.extensions import db
from scorekeeper.web.presenters.seasons import season_standings
from scorekeeper.web.services.restore import restore
from scorekeeper.web.services.seasons import season_by_link
from scorekeeper.web.store.seasons import Rating
from tests.web.apps import built_app

from .helpers import new_page, record, served

FIRST = [("Ana", "Beto"), ("Carla", "Dani"), ("Eva", "Fede"), ("Gus", "Hugo")]
SECOND = [("Ana", "Carla"), ("Beto", "Dani"), ("Eva", "Fede"), ("Gus", "Hugo")]
SEATS = nights.mitchell(4, 1)[0].seats


def play_night(page: Any, base: str, name: str, pairs: list[tuple[str, str]]) -> dict[int, str]:
    """A night of one round of one hand a table, set up, played at its cards and ended; its
    game at each table."""
    page.goto(f"{base}/nights/new?pairs=4")
    page.locator("#name").fill(name)
    page.locator("#round_count").fill("1")
    page.locator("#round_hands").fill("1")
    for i, (first, second) in enumerate(pairs):
        page.locator(f"#pairs-{i}-first").fill(first)
        page.locator(f"#pairs-{i}-second").fill(second)
    with page.expect_event("load"):
        page.get_by_role("button", name="Set up the night").tap()
    night_id = page.url.split("/")[4]
    page.goto(f"{base}/nights/{night_id}")
    with page.expect_event("load"):
        page.get_by_role("button", name="Start round 1").tap()
    page.goto(f"{base}/nights/{night_id}/cards")
    cards = {
        int(link.get_attribute("data-card") or 0): link.get_attribute("href") or ""
        for link in page.locator("a[data-card]").all()
    }
    games = {}
    for table, card in cards.items():
        page.goto(card)
        page.wait_for_url(re.compile(r"/games/[^/]+$"))
        games[table] = page.url.rsplit("/", 1)[1]
        record(page, table)
    page.goto(f"{base}/nights/{night_id}")
    with page.expect_event("load"):  # the director's page asks first, on a page of its own
        page.get_by_role("link", name="End the night", exact=True).tap()
    with page.expect_event("load"):
        page.get_by_role("button", name="End the night", exact=True).tap()
    return games


def totals(page: Any, base: str, games: dict[int, str]) -> dict[int, tuple[int, int]]:
    return {
        table: tuple(page.request.get(f"{base}/games/{game}/result.json").json()["totals"])
        for table, game in games.items()
    }


def places_points(
    played: dict[int, tuple[int, int]], pairs: list[tuple[str, str]]
) -> dict[str, Fraction]:
    """What points by place give each player of a night, computed here from its games' totals:
    pairs ranked by wins, then point difference, pairs level sharing their places' points."""
    wins = dict.fromkeys(range(1, 5), 0)
    difference = dict.fromkeys(range(1, 5), 0)
    for seat in SEATS:
        ns, ew = played[seat.table]
        wins[seat.ns] += ns > ew
        wins[seat.ew] += ew > ns
        difference[seat.ns] += ns - ew
        difference[seat.ew] += ew - ns
    key = {pair: (wins[pair], difference[pair]) for pair in wins}
    figures: dict[str, Fraction] = {}
    for pair, (first, second) in enumerate(pairs, 1):
        ahead = sum(1 for other in key if key[other] > key[pair])
        level = sum(1 for other in key if key[other] == key[pair])
        top = 4 - ahead
        figure = Fraction(sum(range(top - level + 1, top + 1)), level)
        figures[first.casefold()] = figures.get(first.casefold(), 0) + figure
        figures[second.casefold()] = figures.get(second.casefold(), 0) + figure
    return figures


def mu_of(page: Any, base: str, key: str) -> float:
    page.goto(f"{base}/players/{key}")
    return float(page.locator("#rating .rating-figure").first.get_attribute("data-mu") or 0)


def winners(played: dict[int, tuple[int, int]], pairs: list[tuple[str, str]]) -> set[str]:
    won = set()
    for seat in SEATS:
        ns, ew = played[seat.table]
        won.update(name.casefold() for name in pairs[(seat.ns if ns > ew else seat.ew) - 1])
    return won


def test_a_season_of_two_nights_with_partners_changed(browser: Any, tmp_path: Path) -> None:
    server = served(tmp_path)
    base = next(server)
    page = new_page(browser, "390x844")
    try:
        first = play_night(page, base, "First", FIRST)
        first_totals = totals(page, base, first)
        players = [name.casefold() for pair in FIRST for name in pair]
        after_first = {key: mu_of(page, base, key) for key in players}
        won = winners(first_totals, FIRST)
        assert all((after_first[key] > 25) is (key in won) for key in players), after_first

        second = play_night(page, base, "Second", SECOND)
        second_totals = totals(page, base, second)
        won_again = winners(second_totals, SECOND)
        after_second = {key: mu_of(page, base, key) for key in players}
        for key in players:  # each player's second game moved their rating its way
            assert (after_second[key] > after_first[key]) is (key in won_again), key

        page.goto(f"{base}/seasons/new")
        page.locator("#name").fill("Spring")
        for label in ("First", "Second"):
            page.get_by_label(label, exact=True).check()
        with page.expect_event("load"):
            page.get_by_role("button", name="Save the season").tap()
        standings_url = page.locator("#season-standings").get_attribute("href") or ""
        page.goto(standings_url)
        rows = page.locator("tr[data-player]")
        shown = {
            rows.nth(i).get_attribute("data-player"): rows.nth(i).get_attribute("data-figure")
            for i in range(rows.count())
        }
        expected = places_points(first_totals, FIRST)
        for key, figure in places_points(second_totals, SECOND).items():
            expected[key] += figure
        assert {key: Fraction(str(value)) for key, value in shown.items()} == expected

        for key in players:  # every player's page lists both nights
            page.goto(f"{base}/players/{key}")
            assert page.locator("#player-nights tr[data-night]").count() == 2, key

        backup = page.request.get(f"{base}/backup.json").json()
        restored = built_app(
            {
                "SECRET_KEY": "browser-tests",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'restored.sqlite3'}",
            }
        )
        token = standings_url.rsplit("/", 1)[1]
        with restored.app_context():
            restore(json.loads(json.dumps(backup)))
            season = season_by_link(token)
            assert season is not None
            again = season_standings(season)
            assert {row.who[0]: row.figure for row in again.players} == expected
            ratings = db.session.scalars(select(Rating))
            kept = {(r.pool, r.first, r.second): r.mu for r in ratings}
        assert {key: kept["all", key, ""] for key in players} == after_second
        phone = restored.test_client()
        for key in players:  # and every player's page still lists both nights
            listed = phone.get(f"/players/{key}").text
            assert len(re.findall(r'<tr data-night="', listed)) == 2, key
    finally:
        page.context.close()
        next(server, None)
