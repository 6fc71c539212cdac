"""Red threes on the table and red threes caught in hand, as each system's `red_threes`
(scorekeeper/rules/systems.py) scores them: docs/scoring.md, *A hand score*, lines 5 and 7."""

import pytest

from tests.rules.helpers import check, codes, hand, score, stock

TWO_SETS = {"natural_canasta": 2}
ONE_SET = {"natural_canasta": 1}

RED_THREES_ON_THE_TABLE = [
    ("classic", TWO_SETS, 200, 1, 200 + 1000 + 100),
    ("classic", TWO_SETS, 200, 6, 200 + 1000 + 1000),
    ("classic", ONE_SET, 100, 1, 100 + 500 - 100),
    ("classic", ONE_SET, 100, 6, 100 + 500 - 600),
    ("classic", {}, 0, 2, -200),
    ("denexa", TWO_SETS, 200, 6, 200 + 1000 + 1000),
    ("denexa", ONE_SET, 100, 2, 100 + 500 - 200),
    ("denexa", {}, 0, 6, -1000),
    ("black-samba", {}, 5, 2, 5 + 200),
    ("black-samba", {}, 5, 6, 5 + 1200),
    ("black-samba", ONE_SET, 100, 1, 100 + 500 + 100),
    ("black-samba", {}, 0, 2, -200),
    ("black-samba", {}, 0, 6, -1200),
    ("super-samba", {}, 0, 3, 300),
    ("super-samba", {}, 0, 12, 1200),
    ("super-samba", TWO_SETS, 200, 6, 200 + 1000 + 600),
    ("fournier", TWO_SETS, 200, 6, 200 + 1000 + 1000),
    ("fournier", ONE_SET, 100, 2, 100 + 500 - 500 - 500),
    ("fournier", ONE_SET, 100, 6, 100 + 500 - 6 * 500),
    ("fournier", {}, 0, 1, -500),
    ("fournier", {}, 0, 6, -3000),
]


@pytest.mark.parametrize(
    ("variant", "sets", "melded", "red_threes", "expected"), RED_THREES_ON_THE_TABLE
)
def test_red_threes_on_the_table_score_as_their_system_says(
    variant, sets, melded, red_threes, expected
):
    entry = {"sets": sets, "melded_points": melded, "red_threes": red_threes}
    result = check(variant, stock(entry, {}))
    assert score(result) == expected
    assert codes(result) == set()


def test_classic_scores_all_six_red_threes_1000():
    result = check("classic", stock({"sets": TWO_SETS, "melded_points": 200, "red_threes": 6}, {}))
    assert score(result) == 200 + 1000 + 1000


def test_denexa_takes_1000_for_all_six_red_threes_without_two_sets():
    result = check("denexa", stock({"red_threes": 6}, {}))
    assert score(result) == -1000


def test_black_samba_counts_red_threes_plus_once_the_side_has_recorded_a_set():
    result = check("black-samba", stock({"sets": ONE_SET, "red_threes": 2}, {}))
    assert score(result) == 500 + 200
    assert ("sets-need-more-points", 0) in codes(result)


def test_black_samba_counts_red_threes_plus_without_sets_when_the_side_melded():
    result = check(
        "black-samba", stock({}, {"melded_points": 60, "hand_points": 40, "red_threes": 3})
    )
    assert score(result, side=1) == 60 - 40 + 300


def test_super_samba_counts_red_threes_plus_without_any_meld():
    result = check("super-samba", stock({"hand_points": 50, "red_threes": 2}, {}))
    assert score(result) == -50 + 200


def test_fournier_takes_3000_for_all_six_red_threes_without_two_sets():
    result = check("fournier", stock({"red_threes": 6}, {}))
    assert score(result) == -3000


def test_fournier_counts_red_threes_plus_only_with_two_sets_though_one_set_goes_out():
    out = {"went_out": True, "sets": ONE_SET, "melded_points": 100, "red_threes": 1}
    result = check("fournier", hand(out, {}))
    assert score(result) == 100 + 500 + 200 - 500
    assert codes(result) == set()


RED_THREES_IN_HAND = [
    ("classic", 1, 1, -750),
    ("classic", 3, 2, -1500),
    ("classic", 1, 0, -750),
    ("classic", 3, 0, -750),
    ("denexa", 2, 0, -1000),
    ("denexa", 2, 2, -1000),
    ("black-samba", 2, 0, 0),
    ("super-samba", 3, 0, -300),
    ("fournier", 2, 0, -3000),
    ("fournier", 1, 2, -1500),
]


@pytest.mark.parametrize(("variant", "in_hand", "players_holding", "expected"), RED_THREES_IN_HAND)
def test_red_threes_caught_in_hand_cost_what_their_system_says(
    variant, in_hand, players_holding, expected
):
    entry = {"red_threes_in_hand": in_hand, "players_holding_red_threes": players_holding}
    result = check(variant, stock({}, entry))
    assert score(result, side=1) == expected
    assert codes(result) == set()


def test_classic_charges_750_for_each_player_holding_red_threes_in_a_three_pair_game():
    entry = {"hand_points": 60, "red_threes_in_hand": 2, "players_holding_red_threes": 2}
    result = check("classic", stock({}, {}, entry), sides=3, players=2)
    assert score(result, side=2) == -60 - 2 * 750
