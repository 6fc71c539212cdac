"""The house-rule table: one reading of `house_rules` names every problem, each at its key."""

from typing import Any

import pytest

from scorekeeper.rules import (
    HOUSE_RULES,
    SYSTEMS,
    GameFileError,
    HouseRuleError,
    HouseRuleKey,
    HouseRuleKind,
    HouseRules,
    check_game_data,
    game_data,
    get_system,
    read_game,
    read_house_rule,
    read_house_rules,
    with_house_rules,
)
from tests.rules.helpers import game


def places(house_rules: Any, variant: str = "classic") -> list[tuple[str, str]]:
    _, problems = read_house_rules(house_rules, get_system(variant))
    return [(problem.where, str(problem.message)) for problem in problems]


@pytest.mark.parametrize(
    ("variant", "house_rules", "expected"),
    [
        (
            "classic",
            {"target": 0, "going_out_bonus": -5},
            [
                ("house_rules.target", "expected a whole number of at least 1, got 0"),
                ("house_rules.going_out_bonus", "expected a whole number of at least 0, got -5"),
            ],
        ),
        (
            "denexa",
            {"set_bonuses": {"samba": -1, "super_samba": 4000, "triple": 5}},
            [
                ("house_rules.set_bonuses.samba", "expected a whole number of at least 0, got -1"),
                ("house_rules.set_bonuses.super_samba", "denexa has no super samba"),
                ("house_rules.set_bonuses.triple", 'unknown set kind "triple"; known: natural_'),
            ],
        ),
        (
            "classic",
            {"opening_minimums": [[0, -10], [1500, "ninety"], [1000, 90]]},
            [
                ("house_rules.opening_minimums[0][1]", "at least 0, got -10"),
                ("house_rules.opening_minimums[1][1]", 'expected a whole number, got "ninety"'),
            ],
        ),
        (
            "super-samba",
            {"target": 5000, "sets_to_go_out": 1, "jokers": 9, "name": 7},
            [
                ("house_rules.jokers", "unknown house rule; known: name, target, set_bonuses"),
                ("house_rules.name", "expected a string, got 7"),
                ("house_rules.target", "super-samba has no such number to change"),
                ("house_rules.sets_to_go_out", "super-samba has no such number to change"),
            ],
        ),
    ],
    ids=["two bad numbers", "three bad set bonuses", "two bad first-meld rows", "four keys"],
)
def test_every_problem_with_house_rules_is_reported_in_one_reading(
    variant: str, house_rules: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    found = places(house_rules, variant)
    assert len(found) == len(expected)
    for (where, message), (want_where, want_message) in zip(found, expected, strict=True):
        assert where == want_where
        assert want_message in message


def test_first_meld_totals_that_go_down_are_a_problem_of_the_whole_table() -> None:
    assert places({"opening_minimums": [[3000, 120], [0, 50]]}) == [
        ("house_rules.opening_minimums", "the lowest totals must go up from pair to pair")
    ]


def test_the_values_that_can_be_read_are_kept_beside_the_problems() -> None:
    house, problems = read_house_rules(
        {"target": 5000, "going_out_bonus": "lots", "set_bonuses": {"samba": 1500, "x": 1}},
        get_system("classic"),
    )
    assert (house.target, house.going_out_bonus, dict(house.set_bonuses)) == (
        5000,
        None,
        {"samba": 1500},
    )
    assert [p.key for p in problems] == ["set_bonuses", "going_out_bonus"]
    assert [p.part for p in problems] == ["x", None]


def test_a_game_file_names_the_first_problem_in_one_line() -> None:
    with pytest.raises(GameFileError) as raised:
        check_game_data(game("classic", house_rules={"target": 0, "going_out_bonus": -5}))
    assert str(raised.value) == "house_rules.target: expected a whole number of at least 1, got 0"
    assert raised.value.where == "house_rules.target"


def a_change(entry: HouseRuleKey, variant: str) -> Any:
    """A value of `entry` other than the system's, as a game file writes it."""
    own = entry.of(get_system(variant))
    if entry.kind is HouseRuleKind.WORDS:
        return "Grandma's table"
    if entry.kind is HouseRuleKind.POINTS_BY_PART:
        return {part: points + 100 for part, points in own.items()}
    if entry.kind is HouseRuleKind.MINIMUMS:
        return [[-5, 20], [2000, 95]]
    if entry.kind is HouseRuleKind.CHOICE:
        return next(choice for choice in entry.choices if choice != own)
    return (own or 0) + 1


KEYS_BY_SYSTEM = [(entry, variant) for entry in HOUSE_RULES for variant in sorted(SYSTEMS)]


@pytest.mark.parametrize(
    ("entry", "variant"), KEYS_BY_SYSTEM, ids=[f"{e.key}-{v}" for e, v in KEYS_BY_SYSTEM]
)
def test_each_key_is_read_written_and_applied_where_the_system_has_it(
    entry: HouseRuleKey, variant: str
) -> None:
    value = a_change(entry, variant)
    data = game(variant, house_rules={entry.key: value})
    if not entry.has(get_system(variant)):
        with pytest.raises(GameFileError, match=f"house_rules.{entry.key}: {variant} has no"):
            read_game(data)
        return
    system = read_game(data).system
    if entry.kind is not HouseRuleKind.WORDS:
        assert entry.of(system) == (
            tuple(map(tuple, value)) if entry.kind is HouseRuleKind.MINIMUMS else value
        )
    assert game_data(read_game(data))["house_rules"] == {entry.key: value}
    assert read_game(game_data(read_game(data))) == read_game(data)


def test_every_key_has_words_and_a_rule_topic_of_its_systems() -> None:
    for entry in HOUSE_RULES:
        assert entry.label and entry.heading
        for system in SYSTEMS.values():
            if entry.has(system) and entry.topic is not None:
                assert entry.cite(system) == system.cite(entry.topic)


# Keys shaped like those issue 10 adds (docs/game-file.md): the table holds them as described.
RED_THREE_VALUES = HouseRuleKey(
    "red_three_values",
    HouseRuleKind.POINTS_BY_PART,
    "Red threes",
    "Red threes",
    "red-threes",
    step=5,
    parts=lambda s: ("each", "in_hand") if s.hands_in_game else ("each", "all", "in_hand"),
    every_part=("each", "all", "each_minus", "all_minus", "in_hand"),
    part_name="red-three value",
)
TIE_AT_TARGET = HouseRuleKey(
    "tie_at_target",
    HouseRuleKind.CHOICE,
    "A tie at the target",
    "Tie at the target",
    "end-of-game",
    has=lambda s: s.hands_in_game is None,
    choices={"play_on": "play on", "shared": "shared"},
)


@pytest.mark.parametrize(
    ("entry", "variant", "value", "read", "expected"),
    [
        (
            RED_THREE_VALUES,
            "classic",
            {"each": 150, "in_hand": 500},
            {"each": 150, "in_hand": 500},
            [],
        ),
        (
            RED_THREE_VALUES,
            "super-samba",
            {"each": 102, "all": 1000, "in_hand": 100, "more": 5},
            {"in_hand": 100},
            [
                ("house_rules.red_three_values.each", "expected a multiple of 5, got 102"),
                ("house_rules.red_three_values.all", "super-samba has no all"),
                ("house_rules.red_three_values.more", 'unknown red-three value "more"'),
            ],
        ),
        (TIE_AT_TARGET, "denexa", "shared", "shared", []),
        (
            TIE_AT_TARGET,
            "denexa",
            "coin",
            None,
            [("house_rules.tie_at_target", 'expected one of play_on, shared, got "coin"')],
        ),
        (
            TIE_AT_TARGET,
            "super-samba",
            "play_on",
            None,
            [("house_rules.tie_at_target", "super-samba has no such number to change")],
        ),
    ],
)
def test_the_table_holds_points_in_steps_by_part_and_named_readings(
    entry: HouseRuleKey, variant: str, value: Any, read: Any, expected: list[tuple[str, str]]
) -> None:
    got, problems = read_house_rule(entry, get_system(variant), value)
    assert got == read
    assert len(problems) == len(expected)
    for problem, (where, message) in zip(problems, expected, strict=True):
        assert (problem.where, message in str(problem.message)) == (where, True)


@pytest.mark.parametrize(
    ("variant", "house"),
    [
        ("super-samba", HouseRules(target=5000)),
        ("classic", HouseRules(set_bonuses={"super_samba": 4000})),
    ],
)
def test_house_rules_read_for_another_system_are_refused(variant: str, house: HouseRules) -> None:
    with pytest.raises(HouseRuleError, match=variant):
        with_house_rules(get_system(variant), house)
