"""A whole game of each system, recorded through the forms to its winner."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers import Actions

QUIET_HAND = [{"melded_points": "100"}, {"melded_points": "50"}]

# system, table, the hand that wins it for "Us" (starting at 9,800), Us's total after it.
TARGET_GAMES = [
    (
        "classic",
        "2x2",
        {"set_samba": "1", "set_natural_canasta": "1", "melded_points": "260"},
        9800 + 100 + 260 + 1500 + 500 + 200,
    ),
    (
        "denexa",
        "2x2",
        {"set_samba": "1", "set_natural_canasta": "1", "melded_points": "260"},
        9800 + 100 + 260 + 500 + 500 + 200,
    ),
    (
        "black-samba",
        "2x1",
        {"set_black_samba": "1", "set_natural_canasta": "1", "melded_points": "200"},
        9800 + 100 + 200 + 1000 + 500 + 200,
    ),
    (
        "fournier",
        "2x2",
        {"set_natural_canasta": "1", "melded_points": "100"},
        9800 + 100 + 100 + 500 + 200,
    ),
]


def assert_won(client: FlaskClient, actions: Actions, game_id: str, total: str) -> None:
    page = actions.scoreboard(game_id)
    assert f"Us won with {total}." in page
    assert "Record hand" not in page
    response = client.get(f"/games/{game_id}/hands/new")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}"


@pytest.mark.parametrize(("system", "table", "winning", "total"), TARGET_GAMES)
def test_a_game_is_won_by_the_side_that_reaches_the_target(
    client: FlaskClient,
    actions: Actions,
    system: str,
    table: str,
    winning: dict[str, Any],
    total: int,
) -> None:
    game_id = actions.new_game(system, table, start_scores=(9800, 9700))
    actions.record_hand(game_id, QUIET_HAND, ending="stock")
    assert "Record hand 2" in actions.scoreboard(game_id)
    actions.record_hand(game_id, [winning, {"melded_points": "60", "hand_points": "40"}])
    result = actions.result(game_id)
    assert (result["game_over"], result["winner"]) == (True, 0)
    assert result["totals"][0] == total
    assert_won(client, actions, game_id, f"{total:,}")


def test_a_super_samba_game_is_won_by_the_highest_total_after_four_hands(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("super-samba", "2x2")
    for number in range(1, 4):
        actions.record_hand(game_id, QUIET_HAND, ending="stock")
        assert f"Record hand {number + 1}" in actions.scoreboard(game_id)
    actions.record_hand(
        game_id,
        [{"set_natural_canasta": "1", "melded_points": "100"}, {"melded_points": "50"}],
        ending="stock",
    )
    result = actions.result(game_id)
    assert (result["game_over"], result["winner"]) == (True, 0)
    assert result["totals"] == [300 + 100 + 500, 200]
    assert [h["sides"][0]["min_opening_meld"] for h in result["hands"]] == [50, 90, 120, 150]
    assert_won(client, actions, game_id, "900")
