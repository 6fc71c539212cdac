"""A club night's director in real browsers (issue 34): the director's page following every
table's score and hand as the tables play, End round and End the night pressed by mistake (once,
or twice as a double tap) ending nothing, the confirmation pressed twice ending one round, a
correction at a table told to that table's phone; and axe-core finding nothing on any night page
on a phone (360 px) or on a 1920 × 1080 screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from tests.web.nights import PAIRS, cards, set_up, standings_link, start

from .helpers import (
    axe_violations,
    browser_app,
    new_page,
    screenshot,
    serving,
    type_a_hand,
)


class Night(NamedTuple):
    base: str
    night_id: str
    tables: dict[int, str]  # each table card's path
    standings: str  # the standings' path


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    """A night of 8 pairs at 4 tables, 3 rounds of 2 hands, its round 1 started; a second night
    deleted (the nights page lists it to bring back). Set up through the test client of an app
    without CSRF on the same database, then served with it, as the director's phone uses it."""
    setup = browser_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    deleted = set_up(setup, PAIRS[:4], round_count="1", name="Last week")
    assert setup.post(f"/nights/{deleted}/delete").status_code == 302
    night_id = set_up(setup, round_hands="2")
    tables, link = cards(setup, night_id), standings_link(setup, night_id)
    start(setup, night_id, 1)
    yield from (
        Night(base, night_id, tables, link) for base in serving(browser_app(tmp_path, STREAMS=24))
    )


def save_a_hand(phone: Any) -> None:
    """On a table's phone (its game's scoreboard): one hand, typed and saved."""
    game = phone.url.split("?")[0]
    phone.goto(game + "/hands/new")
    type_a_hand(phone)
    with phone.expect_event("load"):
        phone.get_by_role("button", name="Save hand", exact=True).tap()


def test_the_director_follows_the_tables_and_ends_nothing_by_a_stray_tap(
    browser: Any, night: Night
) -> None:
    base, night_id = night.base, night.night_id
    director = new_page(browser, "390x844")
    director.goto(f"{base}/nights/{night_id}")
    director.wait_for_selector("#following[data-by=stream]", state="attached")
    phone = new_page(browser)
    phone.goto(base + night.tables[1])
    expect(phone.locator(".night-seat")).to_contain_text("round 1, table 1")
    table = director.locator('li[data-table="1"]')
    expect(table.locator(".table-state")).to_have_text("hand 1 of 2")
    expect(director.locator("#still-playing")).to_contain_text("4 tables have not finished")

    # The tables play: the director's page follows each one's score and hand, and its counts.
    save_a_hand(phone)
    totals = phone.locator(".totals .big-number").all_inner_texts()
    expect(table.locator(".table-state")).to_have_text("hand 2 of 2")
    expect(table.locator(".pair-total")).to_have_text(totals)
    save_a_hand(phone)
    expect(table.locator(".table-state")).to_have_text("finished")
    expect(director.locator("#still-playing")).to_contain_text("3 tables have not finished")
    screenshot(director, "night-director-390")

    # End round and End the night, each tapped once (and End round twice) by mistake: they ask.
    state = director.locator(".round-state")
    end_round = director.get_by_role("link", name="End round 1", exact=True)
    end_round.dblclick()
    expect(director.get_by_role("heading", name="End round 1?")).to_be_visible()
    unfinished = director.locator("fieldset[data-unfinished]")
    expect(unfinished).to_have_count(3)
    assert [unfinished.nth(i).get_attribute("data-unfinished") for i in range(3)] == ["2", "3", "4"]
    screenshot(director, "night-end-round-390")
    director.get_by_role("link", name="Go back: change nothing").tap()
    expect(state).to_have_text("Round 1 of 3 is being played.")
    director.get_by_role("link", name="End the night", exact=True).tap()
    expect(director.get_by_role("heading", name="End the night?")).to_be_visible()
    director.get_by_role("link", name="Go back: change nothing").tap()
    expect(state).to_have_text("Round 1 of 3 is being played.")
    assert director.request.get(f"{base}{night.standings}/state.json").json()["ended"] is False

    # Confirmed with a double tap: round 1 ends, once; round 2 has not started.
    end_round.tap()
    director.get_by_role("button", name="End round 1", exact=True).dblclick()
    expect(state).to_have_text("Round 1 of 3 has ended.")
    stopped = director.locator('li[data-table="2"] .table-state')
    expect(stopped).to_have_text("stopped before its first hand · counts as not played")
    expect(table.locator(".table-state")).to_have_text("finished")
    assert director.request.get(f"{base}{night.standings}/state.json").json()["round"] == 1

    # The director corrects hand 1 at table 1: the table's phone is told what changed.
    game = phone.url.split("?")[0].removeprefix(base)
    director.goto(f"{base}{game}")
    director.locator("table.hands tbody tr").first.get_by_role("link").first.tap()
    director.get_by_role("link", name="Correct this hand").tap()
    director.locator("#sides-1-hand_points").fill("45")
    with director.expect_event("load"):
        director.locator("button[name=action][value=save]").tap()
    told = phone.locator("[data-announce]")
    expect(told).to_be_visible()
    expect(told).to_contain_text("Hand 1 was corrected:")
    expect(phone.locator(".notice")).to_have_count(0)  # no "Hand 2 saved." over new totals
    screenshot(phone, "night-table-told-360")
    director.context.close()
    phone.context.close()


def night_pages(night: Night, page: Any) -> dict[str, str]:
    """Every page of a night, by name: its address (the confirmation of a round's end while
    round 1 is played, the others between rounds 1 and 2)."""
    n = f"/nights/{night.night_id}"
    game = page.request.get(night.base + night.tables[1], max_redirects=0).headers["location"]
    return {
        "nights": "/nights",
        "new night": "/nights/new",
        "new night's pairs": "/nights/new?pairs=8",
        "seating": f"{n}/seating",
        "seating's change": f"{n}/seating?round=3",
        "table cards": f"{n}/cards",
        "director": n,
        "end round?": f"{n}/end-round?round=1",
        "a night's game": game,
        "standings": night.standings,
        "results": f"{night.standings}/results",
    }


BETWEEN_ROUNDS = {
    "end the night?": "/nights/{id}/end",
    "a pair leaves?": "/nights/{id}/leaves?pair=3",
    "delete the night?": "/nights/{id}/delete",
    "director between rounds": "/nights/{id}",
}


@pytest.mark.parametrize("size", ["360x740", "1920x1080"])
def test_axe_finds_nothing_on_any_night_page(
    browser: Any, axe: str, night: Night, size: str
) -> None:
    page = new_page(browser, size)
    found: dict[str, list[str]] = {}
    for name, path in night_pages(night, page).items():
        page.goto(night.base + path)
        found[name] = axe_violations(page, axe)
    page.goto(f"{night.base}/nights/{night.night_id}/end-round?round=1")
    with page.expect_event("load"):
        page.get_by_role("button", name="End round 1", exact=True).click()
    for name, path in BETWEEN_ROUNDS.items():
        page.goto(night.base + path.format(id=night.night_id))
        found[name] = axe_violations(page, axe)
    page.goto(night.base + night.tables[2])
    expect(page.locator(".table-rounds tr.next")).to_have_count(1)
    found["a table card between rounds"] = axe_violations(page, axe)
    if size != "360x740":
        screenshot(page, f"night-table-card-{size}")
    problems = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert not problems, "\n".join(problems)
    page.context.close()
