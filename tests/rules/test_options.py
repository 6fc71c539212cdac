"""docs/game-file.md, "options": black-samba's three options, and options that cannot be."""

import pytest

from scorekeeper.rules import GameFileError, check_game_data
from tests.rules.helpers import check, codes, game, hand, score, stock


def test_black_samba_low_samba_bonus_lowers_both_samba_bonuses():
    sets = {"samba": 1, "black_samba": 1}
    low = check(
        "black-samba",
        stock({"sets": sets, "melded_points": 200}, {}),
        options={"low_samba_bonus": True},
    )
    usual = check("black-samba", stock({"sets": sets, "melded_points": 200}, {}))
    assert score(low) == 200 + 1000 + 700
    assert score(usual) == 200 + 1500 + 1000


@pytest.mark.parametrize(("one_red_set", "refused"), [(True, True), (False, False)])
def test_black_samba_one_red_set_to_go_out_refuses_a_black_samba_and_a_mixed_canasta(
    one_red_set, refused
):
    out = {"went_out": True, "sets": {"black_samba": 1, "mixed_canasta": 1}, "melded_points": 200}
    result = check("black-samba", hand(out, {}), options={"one_red_set_to_go_out": one_red_set})
    assert (("went-out-without-sets", 0) in codes(result)) is refused


@pytest.mark.parametrize(("nine_jokers", "too_many"), [(True, False), (False, True)])
def test_black_samba_nine_jokers_allows_three_more_wild_card_sets(nine_jokers, too_many):
    entries = (
        {"sets": {"mixed_canasta": 11}, "melded_points": 1000},
        {"sets": {"black_samba": 10}, "melded_points": 1000},
    )
    result = check("black-samba", stock(*entries), options={"nine_jokers": nine_jokers})
    assert (("too-many-sets", None) in codes(result)) is too_many


def test_black_samba_options_can_be_combined():
    out = {"went_out": True, "sets": {"samba": 1, "black_samba": 1}, "melded_points": 200}
    result = check(
        "black-samba",
        hand(out, {}),
        options={"low_samba_bonus": True, "one_red_set_to_go_out": True, "nine_jokers": True},
    )
    assert score(result) == 200 + 1000 + 700 + 200
    assert codes(result) == set()


@pytest.mark.parametrize(
    ("variant", "option"),
    [
        ("classic", "low_samba_bonus"),
        ("denexa", "nine_jokers"),
        ("super-samba", "one_red_set_to_go_out"),
        ("fournier", "low_samba_bonus"),
    ],
)
def test_an_option_of_another_system_is_refused(variant, option):
    with pytest.raises(GameFileError, match=option):
        check_game_data(game(variant, options={option: True}))


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_an_option_that_is_not_true_or_false_is_refused(value):
    with pytest.raises(GameFileError, match="low_samba_bonus"):
        check_game_data(game("black-samba", options={"low_samba_bonus": value}))


def test_an_unknown_option_is_refused():
    with pytest.raises(GameFileError, match="jokers_wild"):
        check_game_data(game("black-samba", options={"jokers_wild": True}))
