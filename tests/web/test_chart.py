"""The game page draws the running totals, with the same numbers in words."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.rules import get_system, read_game, replay
from scorekeeper.web.chart import HEIGHT, running_totals

from .conftest import GOES_OUT, STAYS_IN, Actions

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
    assert chart.description == "Us: 1,500, 1,540; Them: -470, 3,030"
    for line in chart.lines:
        for point in line.points.split():
            y = float(point.split(",")[1])
            assert 0 <= y <= HEIGHT
    below_zero = chart.lines[1].points.split()[0]
    assert float(below_zero.split(",")[1]) > chart.zero


def test_every_hand_of_the_game_explains_its_score_on_the_game_page(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = actions.scoreboard(game_id)
    assert page.count("Why hand") == 2
    assert page.count("Going out") >= 2
    assert f'href="/games/{game_id}/rules#going-out"' in page
