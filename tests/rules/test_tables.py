"""The tables each system allows, its `tables` (scorekeeper/rules/systems.py), and the check of
them (docs/violations.md, *The codes*, `wrong-player-count`)."""

import pytest

from tests.rules.helpers import check, codes, score, stock

ALLOWED = [
    ("classic", 2, 1),
    ("classic", 3, 1),
    ("classic", 5, 1),
    ("classic", 2, 2),
    ("classic", 3, 2),
    ("denexa", 2, 2),
    ("black-samba", 2, 1),
    ("black-samba", 3, 1),
    ("black-samba", 2, 2),
    ("black-samba", 2, 3),
    ("super-samba", 2, 1),
    ("super-samba", 3, 1),
    ("super-samba", 2, 2),
    ("super-samba", 2, 3),
    ("fournier", 2, 1),
    ("fournier", 3, 1),
    ("fournier", 5, 1),
    ("fournier", 2, 2),
    ("fournier", 3, 2),
    ("fournier", 2, 3),
]
REFUSED = [
    ("classic", 4, 1),
    ("classic", 2, 3),
    ("denexa", 2, 1),
    ("denexa", 3, 1),
    ("denexa", 3, 2),
    ("black-samba", 5, 1),
    ("black-samba", 3, 2),
    ("super-samba", 5, 1),
    ("super-samba", 3, 2),
    ("fournier", 4, 1),
    ("fournier", 3, 3),
]


def table_id(row):
    variant, sides, players = row
    return f"{variant}-{sides}x{players}"


@pytest.mark.parametrize(
    ("variant", "sides", "players"), ALLOWED, ids=[table_id(row) for row in ALLOWED]
)
def test_each_table_the_system_allows_is_accepted(variant, sides, players):
    result = check(variant, sides=sides, players=players)
    assert result["game_violations"] == []


@pytest.mark.parametrize(
    ("variant", "sides", "players"), REFUSED, ids=[table_id(row) for row in REFUSED]
)
def test_a_table_the_system_does_not_allow_is_reported_for_the_game(variant, sides, players):
    result = check(variant, sides=sides, players=players)
    assert {(v["code"], v["side"]) for v in result["game_violations"]} == {
        ("wrong-player-count", None)
    }


def test_a_game_at_a_wrong_table_is_still_scored():
    result = check(
        "denexa",
        stock({"melded_points": 60}, {"hand_points": 20}, {}),
        sides=3,
        players=1,
    )
    assert codes(result) == {("wrong-player-count", None)}
    assert codes(result, hand=0) == set()
    assert [score(result, side=n) for n in range(3)] == [60, -20, 0]
