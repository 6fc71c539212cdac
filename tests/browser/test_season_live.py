"""A season's standings follow its nights as they are played, in a real browser (issue 38,
point 2): a phone on the season's standings sees a result appear as a game of one of its nights
is saved on another phone, without reloading, told by the season's event stream (the phone's
clock stopped, so that no poll can have brought it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from scorekeeper.nights import Rule
from scorekeeper.web.http import stream
from scorekeeper.web.services import seasons
from scorekeeper.web.services.seasons import SeasonPlan

from .helpers import browser_app, new_page, record, serving, set_up_night

PAIRS = [("Ana", "Beto"), ("Carla", "Dani"), ("Eva", "Fede"), ("Gus", "Hugo")]


@pytest.fixture
def streaming(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Flask, str]]:
    monkeypatch.setattr(stream, "HEARTBEAT", 0.3)
    app = browser_app(tmp_path, STREAMS=20)
    for base in serving(app):
        yield app, base


def night_in_play(director: Any, base: str) -> tuple[str, dict[int, str]]:
    """A night set up and its first round started on the director's pages: its id and its
    table cards."""
    night_id = set_up_night(director, base, PAIRS, "Tuesday", rounds=1, hands=2)
    director.goto(f"{base}/nights/{night_id}")
    with director.expect_event("load"):
        director.get_by_role("button", name="Start round 1").tap()
    director.goto(f"{base}/nights/{night_id}/cards")
    tables = {
        int(link.get_attribute("data-card") or 0): link.get_attribute("href") or ""
        for link in director.locator("a[data-card]").all()
    }
    return night_id, tables


def test_a_phone_on_the_season_standings_sees_a_game_saved_elsewhere_without_reloading(
    browser: Any, streaming: tuple[Flask, str]
) -> None:
    app, base = streaming
    phone, table = new_page(browser), new_page(browser)
    night_id, tables = night_in_play(table, base)
    with app.app_context():
        season_id = seasons.set_up_season(SeasonPlan("Spring", Rule(), (night_id,)), "t")
        token = seasons.season_of(season_id).follow_token
    try:
        phone.clock.install()
        phone.goto(f"{base}/season/{token}")
        ana = phone.locator('tr[data-player="ana"]')
        expect(phone.locator("h1")).to_have_text("Spring")
        assert ana.count() == 0  # no game of the night has a hand yet: nothing to rank
        phone.wait_for_selector("#following[data-by=stream]", state="attached")
        phone.clock.pause_at(phone.evaluate("() => Date.now()") + 1)  # no poll from here on
        loads: list[str] = []
        phone.on("load", lambda _event: loads.append(phone.url))

        table.goto(tables[1])  # Ana and Beto's table: north-south go out
        table.wait_for_url(re.compile(r"/games/[^/]+$"))
        record(table, 1)

        expect(ana).to_have_attribute("data-nights", "1")
        assert float(ana.get_attribute("data-figure") or 0) > 0
        expect(phone.locator("#season-in-play")).to_contain_text("Tuesday")
        assert loads == []  # swapped in, not reloaded
    finally:
        phone.context.close()
        table.context.close()
