"""docs/scoring.md, *A hand score*: the hand score and the running total."""

import pytest

from tests.rules.helpers import check, codes, score, stock, total

VARIANTS = ["classic", "denexa", "black-samba", "super-samba", "fournier"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hand_scores_melded_points_less_points_left_in_hand(variant):
    result = check(variant, stock({}, {"melded_points": 60, "hand_points": 15}))
    assert score(result, side=1) == 60 - 15
    assert score(result, side=0) == 0
    assert codes(result) == set()


@pytest.mark.parametrize("variant", VARIANTS)
def test_incomplete_melds_score_only_their_card_values(variant):
    result = check(variant, stock({"melded_points": 120}, {}))
    assert score(result) == 120


def test_the_running_total_adds_each_hand_score_to_the_start_score():
    result = check(
        "classic",
        stock({"melded_points": 300, "hand_points": 20}, {"hand_points": 50}),
        stock({"melded_points": 100}, {"melded_points": 400, "hand_points": 10}),
        start=[1000, -200],
    )
    assert total(result, hand=0, side=0) == 1000 + 280
    assert total(result, hand=0, side=1) == -200 - 50
    assert total(result, hand=1, side=0) == 1000 + 280 + 100
    assert total(result, hand=1, side=1) == -200 - 50 + 390
    assert result["totals"] == [1000 + 280 + 100, -200 - 50 + 390]


def test_the_start_score_defaults_to_zero():
    result = check("fournier", stock({"melded_points": 70}, {"hand_points": 35}))
    assert result["totals"] == [70, -35]


def test_a_total_can_go_negative():
    result = check("classic", stock({}, {"hand_points": 200}), stock({}, {"hand_points": 45}))
    assert total(result, hand=1, side=1) == -245
    assert result["totals"] == [0, -245]


def test_a_game_without_hands_keeps_its_start_scores():
    result = check("denexa", start=[2500, 3000])
    assert result["hands"] == []
    assert result["totals"] == [2500, 3000]


def test_classic_scores_every_part_of_a_hand():
    result = check(
        "classic",
        {
            "ended_by": "going_out",
            "entries": [
                {
                    "went_out": True,
                    "sets": {"natural_canasta": 1, "mixed_canasta": 1},
                    "melded_points": 250,
                    "red_threes": 2,
                },
                {
                    "sets": {"natural_canasta": 1},
                    "melded_points": 150,
                    "hand_points": 85,
                    "red_threes": 1,
                    "red_threes_in_hand": 1,
                    "players_holding_red_threes": 1,
                },
            ],
        },
    )
    assert score(result, side=0) == 250 + 500 + 300 + 200 + 200
    assert score(result, side=1) == 150 - 85 + 500 - 100 - 750
    assert codes(result) == set()


def test_denexa_scores_every_part_of_a_hand():
    result = check(
        "denexa",
        {
            "ended_by": "going_out",
            "entries": [
                {
                    "went_out": True,
                    "sets": {"samba": 1, "mixed_canasta": 1},
                    "melded_points": 200,
                    "red_threes": 1,
                    "penalties": {"went_out_after_refusal": 1},
                },
                {
                    "melded_points": 120,
                    "hand_points": 40,
                    "red_threes": 1,
                    "red_threes_in_hand": 1,
                    "penalties": {"took_unusable_upcard": 2},
                },
            ],
        },
    )
    assert score(result, side=0) == 200 + 500 + 300 + 200 + 100 - 100
    assert score(result, side=1) == 120 - 40 - 100 - 500 - 2 * 50
    assert codes(result) == set()


def test_black_samba_scores_every_part_of_a_hand():
    result = check(
        "black-samba",
        {
            "ended_by": "going_out",
            "entries": [
                {
                    "went_out": True,
                    "sets": {"black_samba": 1, "natural_canasta": 1},
                    "melded_points": 250,
                    "red_threes": 1,
                },
                {"hand_points": 60, "red_threes": 2, "red_threes_in_hand": 1},
            ],
        },
    )
    assert score(result, side=0) == 250 + 1000 + 500 + 200 + 100
    assert score(result, side=1) == -60 - 200 - 0
    assert codes(result) == set()


def test_super_samba_scores_every_part_of_a_hand():
    result = check(
        "super-samba",
        stock(
            {
                "sets": {"samba": 1, "sevens_canasta": 1},
                "melded_points": 300,
                "hand_points": 45,
                "red_threes": 3,
                "red_threes_in_hand": 1,
            },
            {
                "sets": {"red_three_canasta": 1},
                "melded_points": 80,
                "hand_points": 20,
                "red_threes": 7,
            },
        ),
    )
    assert score(result, side=0) == 300 - 45 + 2000 + 2000 + 300 - 100
    assert score(result, side=1) == 80 - 20 + 1000 + 700
    assert codes(result) == set()


def test_fournier_scores_every_part_of_a_hand():
    result = check(
        "fournier",
        {
            "ended_by": "going_out",
            "entries": [
                {
                    "went_out": True,
                    "sets": {"mixed_canasta": 1},
                    "melded_points": 150,
                    "red_threes": 2,
                    "penalties": {"three_wilds_in_canasta": 1},
                },
                {
                    "sets": {"natural_canasta": 2},
                    "melded_points": 200,
                    "hand_points": 30,
                    "red_threes": 1,
                    "red_threes_in_hand": 1,
                    "penalties": {"melded_out_of_turn": 1},
                },
            ],
        },
    )
    assert score(result, side=0) == 150 + 300 + 200 - 500 - 500 - 100
    assert score(result, side=1) == 200 - 30 + 1000 + 100 - 1500 - 100
    assert codes(result) == set()
