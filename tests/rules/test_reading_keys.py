"""The house-rule keys that change a reading (docs/game-file.md): `red_three_values`,
`tie_at_target` and `melded_points_for`, in each system where they apply, refused elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import (
    GameFileError,
    check_game_data,
    game_data,
    get_system,
    read_game,
    read_house_rules,
    with_house_rules,
)
from tests.rules.helpers import BOOK, check, codes, game, hand, score, stock

Json = dict[str, Any]
TWO_SETS = {"sets": {"natural_canasta": 2}, "melded_points": 200}
NO_SET = {"melded_points": 0}
TARGETED = ["classic", "denexa", "black-samba", "fournier"]


# (system, red_three_values, entry, hand score) — each value changes what it names, and only that
RED_THREE_VALUES = [
    ("classic", {"each": 150}, {**TWO_SETS, "red_threes": 2}, 200 + 1000 + 300),
    ("classic", {"all": 1500}, {**TWO_SETS, "red_threes": 6}, 200 + 1000 + 1500),
    ("classic", {"each_minus": 200}, {"red_threes": 2}, -400),
    # No all-of-them value of its own: the deck's six cost six times `each_minus`.
    ("classic", {"each_minus": 50}, {"red_threes": 6}, -300),
    ("classic", {"all_minus": 900}, {"red_threes": 6}, -900),
    (
        "classic",
        {"in_hand": 500},
        {"red_threes_in_hand": 2, "players_holding_red_threes": 2},
        -1000,
    ),
    ("classic", {"in_hand": 0}, {"red_threes_in_hand": 2, "players_holding_red_threes": 2}, 0),
    ("denexa", {"each": 200}, {**TWO_SETS, "red_threes": 1}, 200 + 1000 + 200),
    ("denexa", {"all": 2000}, {**TWO_SETS, "red_threes": 6}, 200 + 1000 + 2000),
    ("denexa", {"each_minus": 150}, {"red_threes": 2}, -300),
    ("denexa", {"all_minus": 600}, {"red_threes": 6}, -600),
    ("denexa", {"in_hand": 300}, {"red_threes_in_hand": 2}, -600),
    ("black-samba", {"each": 50}, {"melded_points": 100, "red_threes": 2}, 100 + 100),
    ("black-samba", {"all": 1000}, {"melded_points": 100, "red_threes": 6}, 100 + 1000),
    ("black-samba", {"each_minus": 150}, {"red_threes": 2}, -300),
    ("black-samba", {"all_minus": 1000}, {"red_threes": 6}, -1000),
    ("super-samba", {"each": 150}, {"red_threes": 3}, 450),
    # A canasta of red threes adds its bonus to the red threes' own `each`.
    (
        "super-samba",
        {"each": 150},
        {"sets": {"red_three_canasta": 1}, "red_threes": 7},
        7 * 150 + 1000,
    ),
    ("super-samba", {"in_hand": 50}, {"red_threes_in_hand": 2}, -100),
    ("fournier", {"each": 200}, {**TWO_SETS, "red_threes": 2}, 200 + 1000 + 400),
    ("fournier", {"all": 1200}, {**TWO_SETS, "red_threes": 6}, 200 + 1000 + 1200),
    # The literal reading: −100 and a penalty of 500, −600 each.
    ("fournier", {"each_minus": 600}, {"red_threes": 1}, -600),
    ("fournier", {"each_minus": 600}, {"red_threes": 6}, -3600),
    ("fournier", {"all_minus": 2000}, {"red_threes": 6}, -2000),
    ("fournier", {"in_hand": 1000}, {"red_threes_in_hand": 1}, -1000),
]


@pytest.mark.parametrize(("variant", "values", "entry", "expected"), RED_THREE_VALUES)
def test_red_three_values_change_what_they_name(
    variant: str, values: Json, entry: Json, expected: int
) -> None:
    house = {"red_three_values": values}
    result = check(variant, stock(entry, {}), house_rules=house)
    assert codes(result) == set()
    assert score(result) == expected
    # The same entry without the house rule scores otherwise: the key is what changed it.
    assert score(check(variant, stock(entry, {}))) != expected


@pytest.mark.parametrize(
    ("values", "entry"),
    [({"all": 1500}, {**TWO_SETS, "red_threes": 5}), ({"all_minus": 900}, {"red_threes": 5})],
)
def test_all_of_them_is_for_all_the_decks_red_threes_only(values: Json, entry: Json) -> None:
    house = check("classic", stock(entry, {}), house_rules={"red_three_values": values})
    assert score(house) == score(check("classic", stock(entry, {})))


# (system, red_three_values, where the problem is, words in its message)
REFUSED = [
    ("super-samba", {"each_minus": 100}, "house_rules.red_three_values.each_minus", "has no"),
    ("super-samba", {"all_minus": 600}, "house_rules.red_three_values.all_minus", "has no"),
    ("super-samba", {"all": 1000}, "house_rules.red_three_values.all", "has no"),
    ("black-samba", {"in_hand": 500}, "house_rules.red_three_values.in_hand", "has no"),
    ("classic", {"each": 102}, "house_rules.red_three_values.each", "multiple of 5"),
    ("classic", {"each": -100}, "house_rules.red_three_values.each", "at least 0"),
    ("denexa", {"each": 1.5}, "house_rules.red_three_values.each", "whole number"),
    ("fournier", {"every": 100}, "house_rules.red_three_values.every", "unknown red-three value"),
    ("classic", [100], "house_rules.red_three_values", "expected an object"),
    ("super-samba", {"each": 100}, None, None),
]


@pytest.mark.parametrize(("variant", "values", "where", "words"), REFUSED)
def test_red_three_values_a_system_does_not_use_are_refused(
    variant: str, values: Any, where: str | None, words: str | None
) -> None:
    _, problems = read_house_rules({"red_three_values": values}, get_system(variant))
    if where is None:
        assert problems == []
        return
    assert [p.where for p in problems] == [where]
    assert words is not None and words in str(problems[0].message)
    with pytest.raises(GameFileError, match=where.replace(".", r"\.")):
        check(variant, house_rules={"red_three_values": values})


def test_refused_red_three_values_say_what_the_system_lacks() -> None:
    _, problems = read_house_rules(
        {"red_three_values": {"each_minus": 100, "in_hand": 5}}, get_system("super-samba")
    )
    assert [str(p.message) for p in problems] == [
        "super-samba has no deduction for each red three counting minus"
    ]
    _, problems = read_house_rules({"red_three_values": {"in_hand": 5}}, get_system("black-samba"))
    assert [str(p.message) for p in problems] == [
        "black-samba has no deduction for each red three left in hand"
    ]


def tied(*more: Json) -> tuple[Json, ...]:
    """A hand after which both sides stand at 10,000 (from 9,800 each), and any more hands."""
    first = stock({"melded_points": 200}, {"melded_points": 200})
    return (first, *more)


@pytest.mark.parametrize("variant", TARGETED)
@pytest.mark.parametrize(("tie", "over"), [(None, False), ("play_on", False), ("shared", True)])
def test_a_tie_at_the_target_plays_on_or_ends_shared(
    variant: str, tie: str | None, over: bool
) -> None:
    house = None if tie is None else {"tie_at_target": tie}
    data = game(variant, *tied(), start=[9800, 9800], house_rules=house)
    result = check_game_data(data)
    assert result["totals"] == [10000, 10000]
    assert (result["game_over"], result["winner"]) == (over, None)
    later = check_game_data(
        game(variant, *tied(stock({}, {})), start=[9800, 9800], house_rules=house)
    )
    assert (("hand-after-game-over", None) in codes(later)) is over


@pytest.mark.parametrize("variant", TARGETED)
def test_a_shared_tie_still_lets_a_single_leader_win(variant: str) -> None:
    data = game(
        variant,
        stock({"melded_points": 300}, {"melded_points": 200}),
        start=[9800, 9800],
        house_rules={"tie_at_target": "shared"},
    )
    result = check_game_data(data)
    assert (result["game_over"], result["winner"]) == (True, 0)


@pytest.mark.parametrize(
    ("variant", "value", "message"),
    [
        (
            "super-samba",
            "shared",
            "super-samba has no target: it ends after its last hand, where a tie stays a tie",
        ),
        ("super-samba", "play_on", "super-samba has no target"),
        ("classic", "coin", 'expected one of play_on, shared, got "coin"'),
        ("fournier", True, "expected one of play_on, shared, got true"),
    ],
)
def test_tie_at_target_is_refused_in_super_samba_and_outside_its_choices(
    variant: str, value: Any, message: str
) -> None:
    _, problems = read_house_rules({"tie_at_target": value}, get_system(variant))
    assert [p.where for p in problems] == ["house_rules.tie_at_target"]
    assert message in str(problems[0].message)


def out_with(variant: str) -> Json:
    """An entry that goes out legally in `variant`, with 300 card points melded."""
    sets = BOOK if variant == "super-samba" else {"natural_canasta": 1, "mixed_canasta": 1}
    return {"went_out": True, "sets": sets, "melded_points": 1200}


ALL_SYSTEMS = ["classic", "denexa", "black-samba", "super-samba", "fournier"]


@pytest.mark.parametrize("variant", ALL_SYSTEMS)
@pytest.mark.parametrize(
    ("reading", "counted"), [(None, True), ("every_side", True), ("side_that_went_out", False)]
)
def test_melded_points_for_gives_melded_cards_to_every_side_or_the_one_that_went_out(
    variant: str, reading: str | None, counted: bool
) -> None:
    house = None if reading is None else {"melded_points_for": reading}
    other = {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30}
    result = check(variant, hand(out_with(variant), other), house_rules=house)
    assert codes(result) == set()
    bonus = get_system(variant).set_bonuses
    # The side that went out scores its cards either way; the other keeps its set bonus.
    went_out = score(result, side=0)
    assert went_out == score(check(variant, hand(out_with(variant), other)), side=0)
    assert score(result, side=1) == (150 if counted else 0) + bonus["mixed_canasta"] - 30
    # When the stock runs out, every side scores its cards whatever the house rule.
    ran_out = check(variant, stock({"melded_points": 100}, other), house_rules=house)
    assert [score(ran_out, side=s) for s in (0, 1)] == [100, 150 + bonus["mixed_canasta"] - 30]


def test_a_side_whose_cards_do_not_count_still_has_melded_for_black_samba_red_threes() -> None:
    house = {"melded_points_for": "side_that_went_out"}
    other = {"melded_points": 100, "red_threes": 2}
    result = check("black-samba", hand(out_with("black-samba"), other), house_rules=house)
    assert score(result, side=1) == 200  # red threes count plus: the side laid cards down
    lines = result["hands"][0]["sides"][1]["lines"]
    assert lines[0]["points"] == 0
    assert lines[0]["label"] == "Cards melded (100): only the side that went out scores them"


def test_melded_points_for_takes_only_its_two_readings() -> None:
    _, problems = read_house_rules({"melded_points_for": "winners"}, get_system("fournier"))
    assert [p.where for p in problems] == ["house_rules.melded_points_for"]
    assert "expected one of every_side, side_that_went_out" in str(problems[0].message)


@pytest.mark.parametrize("variant", ALL_SYSTEMS)
def test_the_new_keys_round_trip_through_a_game_file(variant: str) -> None:
    system = get_system(variant)
    house: Json = {
        "red_three_values": {
            "each": 150,
            **({"each_minus": 200} if variant != "super-samba" else {}),
        },
        "melded_points_for": "side_that_went_out",
    }
    if variant != "super-samba":
        house["tie_at_target"] = "shared"
    read, problems = read_house_rules(house, system)
    assert problems == []
    data = game(variant, stock({}, {}), house_rules=house)
    again = game_data(read_game(data))
    assert again["house_rules"] == house
    assert read_game(again).system == with_house_rules(system, read)


# (red threes laid down, left in hand, two sets, hand score as we read it, under `"held"`):
# Denexa's all six "held" (line 54), in hand charged 500 each (line 59) either way.
ALL_RED_THREES = [
    (4, 2, True, 200 + 1000 + 4 * 100 - 2 * 500, 200 + 1000 + 1000 - 2 * 500),
    (4, 2, False, -4 * 100 - 2 * 500, -1000 - 2 * 500),
    (6, 0, True, 200 + 1000 + 1000, 200 + 1000 + 1000),
    (5, 0, True, 200 + 1000 + 500, 200 + 1000 + 500),  # five of six: no bonus either way
    (0, 6, True, 200 + 1000 - 6 * 500, 200 + 1000 + 1000 - 6 * 500),
]


@pytest.mark.parametrize(("laid", "held", "sets", "ours", "other"), ALL_RED_THREES)
def test_denexa_counts_red_threes_in_hand_toward_all_six_only_under_the_other_reading(
    laid: int, held: int, sets: bool, ours: int, other: int
) -> None:
    entry = {**(TWO_SETS if sets else NO_SET), "red_threes": laid, "red_threes_in_hand": held}
    assert score(check("denexa", stock(entry, {}))) == ours
    read = check("denexa", stock(entry, {}), house_rules={"all_red_threes": "laid_down"})
    assert score(read) == ours
    result = check("denexa", stock(entry, {}), house_rules={"all_red_threes": "held"})
    assert codes(result) == set()
    assert score(result) == other


@pytest.mark.parametrize("variant", ["classic", "black-samba", "super-samba", "fournier"])
def test_all_red_threes_is_a_choice_only_where_the_text_leaves_it_open(variant: str) -> None:
    _, problems = read_house_rules({"all_red_threes": "held"}, get_system(variant))
    assert [p.where for p in problems] == ["house_rules.all_red_threes"]
    assert f"{variant} has no such choice: its text settles it" == str(problems[0].message)
    _, problems = read_house_rules({"all_red_threes": "kept"}, get_system("denexa"))
    assert "expected one of laid_down, held" in str(problems[0].message)
