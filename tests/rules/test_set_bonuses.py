"""docs/scoring.md, *The bonuses, system by system*: each set's bonus is added to its cards."""

import pytest

from tests.rules.helpers import check, codes, score, stock

SET_BONUSES = [
    ("classic", "natural_canasta", 500),
    ("classic", "mixed_canasta", 300),
    ("classic", "samba", 1500),
    ("denexa", "natural_canasta", 500),
    ("denexa", "mixed_canasta", 300),
    ("denexa", "samba", 500),
    ("black-samba", "natural_canasta", 500),
    ("black-samba", "mixed_canasta", 300),
    ("black-samba", "samba", 1500),
    ("black-samba", "black_samba", 1000),
    ("super-samba", "natural_canasta", 500),
    ("super-samba", "mixed_canasta", 300),
    ("super-samba", "samba", 2000),
    ("super-samba", "super_samba", 5000),
    ("super-samba", "wild_canasta", 2000),
    ("super-samba", "sevens_canasta", 2000),
    ("fournier", "natural_canasta", 500),
    ("fournier", "mixed_canasta", 300),
    ("fournier", "samba", 1500),
]


@pytest.mark.parametrize(
    ("variant", "kind", "bonus"),
    SET_BONUSES,
    ids=[f"{variant}-{kind}-{bonus}" for variant, kind, bonus in SET_BONUSES],
)
def test_each_set_scores_its_systems_bonus_on_top_of_its_card_values(variant, kind, bonus):
    result = check(variant, stock({"sets": {kind: 1}, "melded_points": 200}, {}))
    assert score(result) == 200 + bonus
    assert codes(result) == set()


def test_denexa_scores_a_samba_500():
    result = check("denexa", stock({"sets": {"samba": 2}, "melded_points": 200}, {}))
    assert score(result) == 200 + 500 + 500


def test_super_samba_scores_a_samba_2000_and_a_super_samba_5000():
    result = check(
        "super-samba", stock({"sets": {"samba": 1, "super_samba": 1}, "melded_points": 300}, {})
    )
    assert score(result) == 300 + 2000 + 5000


def test_several_sets_each_score_their_bonus():
    sets = {"natural_canasta": 2, "mixed_canasta": 1, "samba": 1}
    result = check("classic", stock({"sets": sets, "melded_points": 400}, {}))
    assert score(result) == 400 + 500 + 500 + 300 + 1500
    assert codes(result) == set()


@pytest.mark.parametrize(
    ("options", "kind", "bonus"),
    [
        ({"low_samba_bonus": True}, "samba", 1000),
        ({"low_samba_bonus": True}, "black_samba", 700),
        ({"low_samba_bonus": False}, "samba", 1500),
        ({"low_samba_bonus": False}, "black_samba", 1000),
    ],
)
def test_black_samba_low_samba_bonus_scores_a_samba_1000_and_a_black_samba_700(
    options, kind, bonus
):
    result = check(
        "black-samba", stock({"sets": {kind: 1}, "melded_points": 200}, {}), options=options
    )
    assert score(result) == 200 + bonus
    assert codes(result) == set()


def test_low_samba_bonus_leaves_canastas_alone():
    sets = {"natural_canasta": 1, "mixed_canasta": 1}
    result = check(
        "black-samba",
        stock({"sets": sets, "melded_points": 200}, {}),
        options={"low_samba_bonus": True},
    )
    assert score(result) == 200 + 500 + 300


def test_super_samba_adds_the_red_three_canasta_1000_to_the_red_threes_own_100_each():
    result = check("super-samba", stock({"sets": {"red_three_canasta": 1}, "red_threes": 7}, {}))
    assert score(result) == 1000 + 7 * 100
    assert codes(result) == set()


def test_super_samba_counts_a_sevens_canasta_once_not_also_as_a_natural_canasta():
    result = check("super-samba", stock({"sets": {"sevens_canasta": 1}, "melded_points": 100}, {}))
    assert score(result) == 100 + 2000


def test_super_samba_pays_2000_more_for_all_four_sambas_with_one_super_samba():
    sets = {"samba": 3, "super_samba": 1}
    result = check("super-samba", stock({"sets": sets, "melded_points": 500}, {}))
    assert score(result) == 500 + 3 * 2000 + 5000 + 2000
    assert codes(result) == set()


@pytest.mark.parametrize(
    ("sets", "expected"),
    [
        ({"samba": 4}, 500 + 4 * 2000),
        ({"samba": 3}, 500 + 3 * 2000),
        ({"samba": 2, "super_samba": 1}, 500 + 2 * 2000 + 5000),
        ({"super_samba": 1}, 500 + 5000),
    ],
)
def test_super_samba_pays_no_four_samba_extra_without_four_sambas_one_of_them_super(sets, expected):
    result = check("super-samba", stock({"sets": sets, "melded_points": 500}, {}))
    assert score(result) == expected
    assert codes(result) == set()


def test_only_super_samba_pays_an_extra_for_four_sambas():
    result = check("classic", stock({"sets": {"samba": 4}, "melded_points": 400}, {}))
    assert score(result) == 400 + 4 * 1500
