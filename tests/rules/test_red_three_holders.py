"""Classic: players caught holding red threes cost 750 each, only with red threes left in hand,
and never more of them than the side has players or red threes in hand (docs/violations.md,
*The codes*, `impossible-red-three-holders`)."""

from __future__ import annotations

import pytest

from tests.rules.helpers import check, codes, score, stock

HOLDERS = "impossible-red-three-holders"

# (players per side, red threes left in hand, players caught holding, impossible)
BOUNDARIES = [
    (2, 0, 0, False),
    (2, 0, 1, True),  # caught with no red three left in hand
    (2, 0, 2, True),
    (2, 1, 0, False),  # left at 0: the one holder is taken as caught
    (2, 1, 1, False),
    (2, 1, 2, True),  # two holders of a single red three
    (2, 2, 2, False),
    (2, 3, 2, False),
    (2, 3, 3, True),  # more holders than the side has players
    (2, 6, 123, True),
    (1, 1, 1, False),
    (1, 2, 1, False),
    (1, 2, 2, True),  # two holders on a one-player side
    (1, 0, 1, True),
]


@pytest.mark.parametrize(("players", "in_hand", "holders", "impossible"), BOUNDARIES)
def test_players_caught_holding_red_threes_are_checked_against_the_side_and_its_hand(
    players: int, in_hand: int, holders: int, impossible: bool
) -> None:
    entry = {"red_threes_in_hand": in_hand, "players_holding_red_threes": holders}
    result = check("classic", stock(entry, {}), players=players)
    assert ((HOLDERS, 0) in codes(result)) is impossible
    assert codes(result) <= {(HOLDERS, 0)}


@pytest.mark.parametrize("variant", ["denexa", "black-samba", "super-samba", "fournier"])
def test_only_classic_counts_who_held_red_threes(variant: str) -> None:
    entry = {"red_threes_in_hand": 1, "players_holding_red_threes": 2}
    players = 1 if variant != "denexa" else 2
    result = check(variant, stock(entry, {}), players=players)
    assert (HOLDERS, 0) not in codes(result)


# (players per side, red threes left in hand, players caught holding, hand score)
SCORES = [
    (2, 0, 0, 40),
    (2, 0, 1, 40),  # no red three in hand: nobody is caught, the side keeps its +40
    (2, 0, 2, 40),
    (2, 1, 0, 40 - 750),
    (2, 1, 1, 40 - 750),
    (2, 2, 2, 40 - 1500),
    (1, 3, 0, 40 - 750),
]


@pytest.mark.parametrize(("players", "in_hand", "holders", "expected"), SCORES)
def test_the_750_is_charged_only_with_red_threes_left_in_hand(
    players: int, in_hand: int, holders: int, expected: int
) -> None:
    entry = {
        "melded_points": 40,
        "red_threes_in_hand": in_hand,
        "players_holding_red_threes": holders,
    }
    assert score(check("classic", stock(entry, {}), players=players)) == expected
