"""The game page draws the running totals, with the same numbers in words."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.rules import get_system, read_game, replay
from scorekeeper.web.extensions import db
from scorekeeper.web.presenters.chart import HEIGHT, MOST_TICKS, nice_scale, running_totals
from scorekeeper.web.store.models import Side

from .helpers import GOES_OUT, STAYS_IN, Actions

TWO_HANDS = {
    "variant": "classic",
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2, "start_score": -500}],
    "hands": [
        {
            "entries": [
                {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 300},
                {"melded_points": 50, "hand_points": 20},
            ]
        },
        {
            "entries": [
                {"melded_points": 60, "hand_points": 20},
                {"went_out": True, "sets": {"samba": 2}, "melded_points": 300},
            ]
        },
    ],
}


def test_there_is_no_chart_before_the_first_hand(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    assert "<svg" not in actions.scoreboard(game_id)


def test_the_chart_has_a_line_per_side_and_its_totals_in_words(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = actions.scoreboard(game_id)
    assert page.count('<polyline class="series') == 2
    description = re.search(r'<desc id="chart-desc">(.*?)</desc>', page, re.S)
    assert description is not None
    assert "Us: 2,460" in description.group(1) and "Them: 420" in description.group(1)
    assert 'aria-labelledby="chart-title chart-desc"' in page


def test_a_negative_total_puts_the_zero_line_in_the_chart_and_points_inside_it() -> None:
    game = read_game(TWO_HANDS)
    chart = running_totals(["Us", "Them"], [0, -500], replay(game), get_system("classic").target)
    assert chart is not None
    assert chart.zero is not None
    assert chart.description == "Us: 1,500, 1,540; Them: −470, 3,030"
    for line in chart.lines:
        for point in line.points.split():
            y = float(point.split(",")[1])
            assert 0 <= y <= HEIGHT
    below_zero = chart.lines[1].points.split()[0]
    assert float(below_zero.split(",")[1]) > chart.zero


def test_a_line_s_points_are_written_to_a_tenth_and_end_where_its_label_goes() -> None:
    game = read_game(TWO_HANDS)
    chart = running_totals(["Us", "Them"], [0, -500], replay(game), get_system("classic").target)
    assert chart is not None
    for line in chart.lines:
        points = line.points.split()
        assert len(points) == 3  # the start and each hand
        assert all(re.fullmatch(r"\d+\.\d,\d+\.\d", point) for point in points), points
        assert points[-1] == f"{line.last[0]},{line.last[1]}"


def test_every_hand_of_the_game_links_from_the_game_page_to_why_it_scored_what_it_did(
    client: FlaskClient, actions: Actions
) -> None:
    # The breakdowns are on the hands' own pages: rendering every one made the game page slow.
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = actions.scoreboard(game_id)
    hand_ids = actions.hand_ids(game_id)
    assert len(hand_ids) == 2
    assert "Tap a hand to see why it scored what it did" in page
    for hand_id in hand_ids:
        assert f'href="/games/{game_id}/hands/{hand_id}"' in page
        why = client.get(f"/games/{game_id}/hands/{hand_id}").text
        assert "Going out" in why
        assert f'href="/games/{game_id}/rules#going-out"' in why


@pytest.mark.parametrize(
    ("low", "high"),
    [
        (0, 0),
        (0, 90),
        (0, 2460),
        (-500, 3030),
        (0, 10_000),
        (-3000, 12_345),
        (-(10**6), 10**6),
        (0, 10**10 + 2460),
        (0, 10**18),
        (-(10**18), 0),
        (-(2**63), 2**63 - 1),
        (0, 10**30),
    ],
)
def test_the_score_axis_has_a_few_nice_ticks_whatever_the_totals(low: int, high: int) -> None:
    bottom, top, step = nice_scale(low, high)
    assert bottom <= low and high <= top and bottom < top
    assert (top - bottom) % step == 0 and bottom % step == 0
    assert (top - bottom) // step + 1 <= MOST_TICKS
    magnitude = 10 ** (len(str(step)) - 1)
    assert step >= 100 and step / magnitude in (1, 2, 2.5, 5)


def test_the_step_is_the_smallest_nice_one_that_fits() -> None:
    assert nice_scale(0, 2460) == (0, 2500, 500)
    assert nice_scale(-500, 3030) == (-1000, 4000, 1000)
    assert nice_scale(0, 10_000) == (0, 10_000, 2000)
    assert nice_scale(0, 1_200) == (0, 1_200, 200)
    assert nice_scale(0, 1_700) == (0, 1_750, 250)


@pytest.mark.sqlite  # an INTEGER column of PostgreSQL never held such a start
@pytest.mark.parametrize("start", [10**10, 10**18, -(10**18)])
def test_a_game_that_starts_at_a_huge_score_renders_a_few_ticks_in_a_small_page(
    app: Flask, client: FlaskClient, actions: Actions, start: int
) -> None:
    """As a restored backup or an old import can leave it: the chart took 11 s and 13 MB at
    10^10 and never finished at 10^18 (one tick every 100,000). The time went into the ticks,
    so they and the page's bytes are counted, not seconds."""
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    with app.app_context():
        db.session.execute(
            update(Side)
            .where(Side.game_id == game_id, Side.position == 0)
            .values(start_score=start)
        )
        db.session.commit()
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    assert len(response.data) < 100_000
    ticks = re.findall(r'<text class="tick" x="40"', response.text)
    assert 2 <= len(ticks) <= MOST_TICKS
    for y in re.findall(r'<polyline[^>]*points="([^"]*)"', response.text):
        assert all(0 <= float(p.split(",")[1]) <= HEIGHT for p in y.split())
