"""Who deals: the first dealer the table chose, then round the table in the order of play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.rules import GameFileError, game_data, read_game, replay
from tests.rules.helpers import game, hand, stock

OUT = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
IN = {"melded_points": 50}


def dealers(data: dict[str, Any]) -> list[tuple[int, int]]:
    """Who deals each hand of the game and the one after, as (side, player)."""
    read = read_game(data)
    seats = [
        replay(replace(read, hands=read.hands[:played])).next_dealer
        for played in range(len(read.hands) + 1)
    ]
    return [(seat.side, seat.player) for seat in seats]


@pytest.mark.parametrize(
    ("sides", "players", "first", "expected"),
    [
        # 2x2: the order of play is Us 1, Them 1, Us 2, Them 2.
        (2, 2, None, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 0)]),
        (2, 2, 0, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 0)]),
        (2, 2, 2, [(0, 1), (1, 1), (0, 0), (1, 0), (0, 1)]),
        (2, 2, 3, [(1, 1), (0, 0), (1, 0), (0, 1), (1, 1)]),
        # Five players alone: the deal goes 4, 0, 1, ... from the fifth player.
        (5, 1, 4, [(4, 0), (0, 0), (1, 0), (2, 0), (3, 0)]),
        # 3x2: six seats.
        (3, 2, 5, [(2, 1), (0, 0), (1, 0), (2, 0), (0, 1)]),
    ],
)
def test_the_deal_starts_at_the_first_dealer_and_passes_round_the_table(
    sides: int, players: int, first: int | None, expected: list[tuple[int, int]]
) -> None:
    entries = [OUT] + [IN] * (sides - 1)
    data = game("classic", hand(*entries), stock(*[IN] * sides), sides=sides, players=players)
    data["hands"] *= 2  # four hands
    if first is not None:
        data["first_dealer"] = first
    assert dealers(data) == expected


@pytest.mark.parametrize("first", [0, 1, 3])
def test_a_game_file_keeps_its_first_dealer(first: int) -> None:
    data = game("classic", hand(OUT, IN))
    data["first_dealer"] = first
    written = game_data(read_game(data))
    assert written.get("first_dealer", 0) == first
    assert ("first_dealer" in written) == (first != 0)  # left out at its default
    assert read_game(written).first_dealer == first


@pytest.mark.parametrize("value", [4, -1, "1", 1.5, True, None])
def test_a_first_dealer_that_is_no_seat_is_refused(value: object) -> None:
    data = game("classic", hand(OUT, IN))
    data["first_dealer"] = value
    with pytest.raises(GameFileError) as caught:
        read_game(data)
    assert caught.value.where == "first_dealer"
