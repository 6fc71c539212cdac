"""docs/game-file.md, "house_rules": a table's own numbers replace the system's."""

import pytest

from scorekeeper.rules import GameFileError, check_game_data
from tests.rules.helpers import BOOK, check, codes, game, hand, minimum, score, stock


def test_a_lower_target_ends_the_game_sooner():
    result = check(
        "classic", stock({"melded_points": 1000}, {}), start=[4000, 0], house_rules={"target": 5000}
    )
    assert result["game_over"] is True
    assert result["winner"] == 0


def test_a_higher_target_lets_play_go_on_past_10000():
    result = check(
        "fournier",
        stock({"melded_points": 1000}, {}),
        start=[9000, 0],
        house_rules={"target": 20000},
    )
    assert result["game_over"] is False
    assert result["winner"] is None


def test_a_house_set_bonus_replaces_the_systems_bonus_for_that_set_only():
    result = check(
        "denexa",
        stock(
            {"sets": {"samba": 1}, "melded_points": 200},
            {"sets": {"natural_canasta": 1}, "melded_points": 100},
        ),
        house_rules={"set_bonuses": {"samba": 1500}},
    )
    assert score(result, side=0) == 200 + 1500
    assert score(result, side=1) == 100 + 500


def test_super_samba_takes_house_set_bonuses():
    result = check(
        "super-samba",
        stock({"sets": {"super_samba": 1}, "melded_points": 200}, {}),
        house_rules={"set_bonuses": {"super_samba": 3000}},
    )
    assert score(result) == 200 + 3000


def test_a_house_going_out_bonus_replaces_the_systems():
    out = {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 200}
    result = check("classic", hand(out, {}), house_rules={"going_out_bonus": 500})
    assert score(result) == 200 + 1000 + 500


def test_super_samba_takes_a_house_going_out_bonus():
    out = {"went_out": True, "sets": BOOK, "melded_points": 1000}
    result = check("super-samba", hand(out, {}), house_rules={"going_out_bonus": 1000})
    assert score(result) == 1000 + 2000 + 2000 + 5 * 500 + 300 + 2000 + 1000
    assert codes(result) == set()


@pytest.mark.parametrize(
    ("variant", "sets_to_go_out", "sets", "allowed"),
    [
        ("classic", 1, {"natural_canasta": 1}, True),
        ("classic", 1, {}, False),
        ("classic", 3, {"natural_canasta": 2}, False),
        ("classic", 3, {"natural_canasta": 2, "samba": 1}, True),
        ("fournier", 2, {"natural_canasta": 1}, False),
        ("fournier", 2, {"natural_canasta": 2}, True),
        ("denexa", 1, {"samba": 1}, True),
    ],
)
def test_house_sets_to_go_out_changes_what_going_out_needs(variant, sets_to_go_out, sets, allowed):
    out = {"went_out": True, "sets": sets, "melded_points": 300}
    result = check(variant, hand(out, {}), house_rules={"sets_to_go_out": sets_to_go_out})
    assert (("went-out-without-sets", 0) not in codes(result)) is allowed
    assert codes(result) <= {("went-out-without-sets", 0)}


def test_house_sets_to_go_out_does_not_change_when_red_threes_count_plus():
    out = {"went_out": True, "sets": {"natural_canasta": 1}, "melded_points": 100, "red_threes": 2}
    result = check("classic", hand(out, {}), house_rules={"sets_to_go_out": 1})
    assert score(result) == 100 + 500 + 200 - 200
    assert codes(result) == set()


HOUSE_MINIMUMS = [[0, 60], [3000, 100], [5000, 200]]


@pytest.mark.parametrize(
    ("start", "needed"),
    [(-100, 60), (2995, 60), (3000, 100), (4995, 100), (5000, 200)],
)
def test_house_opening_minimums_apply_the_last_pair_the_total_reaches(start, needed):
    result = check(
        "classic", stock({}, {}), start=[start, 0], house_rules={"opening_minimums": HOUSE_MINIMUMS}
    )
    assert minimum(result) == needed


@pytest.mark.parametrize(("start", "needed"), [(-500, 70), (0, 70), (995, 70), (1000, 70)])
def test_a_total_below_every_row_of_house_opening_minimums_takes_the_first_rows_minimum(
    start, needed
):
    house_rules = {"opening_minimums": [[1000, 70], [3000, 100]]}
    result = check("classic", stock({}, {}), start=[start, 0], house_rules=house_rules)
    assert minimum(result) == needed


@pytest.mark.parametrize(("opening", "too_low"), [(100, False), (95, True)])
def test_house_opening_minimums_are_checked(opening, too_low):
    result = check(
        "denexa",
        stock({"opening_meld": opening, "melded_points": opening}, {}),
        start=[3000, 0],
        house_rules={"opening_minimums": HOUSE_MINIMUMS},
    )
    assert (("opening-meld-too-low", 0) in codes(result)) is too_low


def test_a_house_rule_name_changes_no_score():
    entries = (
        {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 200},
        {"melded_points": 60, "hand_points": 20},
    )
    named = check("classic", hand(*entries), house_rules={"name": "Grandma's table"})
    plain = check("classic", hand(*entries))
    assert named["totals"] == plain["totals"] == [200 + 1000 + 200, 60 - 20]


@pytest.mark.parametrize(
    "house_rules",
    [{"target": 5000}, {"sets_to_go_out": 1}, {"opening_minimums": [[0, 50]]}],
)
def test_super_samba_refuses_house_rules_it_cannot_have(house_rules):
    with pytest.raises(GameFileError):
        check_game_data(game("super-samba", house_rules=house_rules))


def test_an_unknown_house_rule_is_refused():
    with pytest.raises(GameFileError, match="lucky_sevens"):
        check_game_data(game("classic", house_rules={"lucky_sevens": 700}))


def test_a_house_bonus_for_an_unknown_set_is_refused():
    with pytest.raises(GameFileError, match="triple_canasta"):
        check_game_data(game("classic", house_rules={"set_bonuses": {"triple_canasta": 100}}))
