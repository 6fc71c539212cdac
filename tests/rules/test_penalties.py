"""Penalties, each system's `penalties` (scorekeeper/rules/systems.py): each is charged per
occurrence to the offending side (docs/scoring.md, *A hand score*, line 8)."""

import pytest

from tests.rules.helpers import check, codes, score, stock

PENALTIES = [
    ("denexa", "went_out_after_refusal", 100),
    ("denexa", "could_not_go_out_after_asking", 100),
    ("denexa", "took_unusable_upcard", 50),
    ("fournier", "went_out_after_refusal", 100),
    ("fournier", "three_wilds_in_canasta", 100),
    ("fournier", "drew_out_of_turn", 100),
    ("fournier", "took_pile_out_of_turn", 100),
    ("fournier", "melded_out_of_turn", 100),
]
NOT_IN_VARIANT = [
    ("classic", "took_unusable_upcard"),
    ("classic", "went_out_after_refusal"),
    ("denexa", "three_wilds_in_canasta"),
    ("denexa", "melded_out_of_turn"),
    ("black-samba", "went_out_after_refusal"),
    ("black-samba", "drew_out_of_turn"),
    ("super-samba", "could_not_go_out_after_asking"),
    ("super-samba", "took_pile_out_of_turn"),
    ("fournier", "took_unusable_upcard"),
    ("fournier", "could_not_go_out_after_asking"),
]


@pytest.mark.parametrize(
    ("variant", "penalty", "each"),
    PENALTIES,
    ids=[f"{variant}-{penalty}-{each}" for variant, penalty, each in PENALTIES],
)
def test_each_penalty_is_charged_per_occurrence_to_the_offending_side(variant, penalty, each):
    result = check(
        variant, stock({"melded_points": 60, "penalties": {penalty: 2}}, {"melded_points": 60})
    )
    assert score(result, side=0) == 60 - 2 * each
    assert score(result, side=1) == 60
    assert codes(result) == set()


def test_denexa_charges_50_for_taking_an_upcard_it_could_not_use():
    result = check("denexa", stock({}, {"penalties": {"took_unusable_upcard": 1}}))
    assert score(result, side=1) == -50


def test_several_penalties_add_up():
    penalties = {"drew_out_of_turn": 2, "took_pile_out_of_turn": 1, "melded_out_of_turn": 1}
    result = check("fournier", stock({"melded_points": 90, "penalties": penalties}, {}))
    assert score(result) == 90 - 2 * 100 - 100 - 100


def test_a_penalty_that_never_happened_costs_nothing():
    result = check(
        "denexa", stock({"melded_points": 60, "penalties": {"took_unusable_upcard": 0}}, {})
    )
    assert score(result) == 60
    assert codes(result) == set()


@pytest.mark.parametrize(
    ("variant", "penalty"),
    NOT_IN_VARIANT,
    ids=[f"{variant}-{penalty}" for variant, penalty in NOT_IN_VARIANT],
)
def test_a_penalty_the_system_does_not_have_is_reported(variant, penalty):
    result = check(variant, stock({}, {"melded_points": 60, "penalties": {penalty: 1}}))
    assert ("penalty-not-in-variant", 1) in codes(result)
