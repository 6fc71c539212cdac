"""docs/game-file.md under random input: whatever it is given, the engine returns a result of the
documented shape or refuses the file in one line (GameFileError), and the command exits 0, 1 or 2
without a traceback; for game files that can be read, the totals add up."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    SYSTEMS,
    GameFileError,
    Penalty,
    SetKind,
    check_game_data,
    game_data,
    read_game,
)
from tests.command import scorekeeper

Json = dict[str, Any]

ENTRY_NUMBER_FIELDS = (
    "melded_points",
    "hand_points",
    "red_threes",
    "red_threes_in_hand",
    "players_holding_red_threes",
)

keys = st.text(max_size=12) | st.sampled_from(
    [
        "variant",
        "options",
        "sides",
        "hands",
        "entries",
        "players",
        "sets",
        "penalties",
        *ENTRY_NUMBER_FIELDS,
        *(kind.value for kind in SetKind),
    ]
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=12,
)


def counts(codes: list[str], most: int) -> st.SearchStrategy[dict[str, int]]:
    return st.dictionaries(st.sampled_from(codes), st.integers(0, most), max_size=3)


points = st.integers(0, 200).map(lambda n: 5 * n) | st.integers(0, 1000)

entries = st.fixed_dictionaries(
    {},
    optional={
        "went_out": st.booleans(),
        "concealed": st.booleans(),
        "opening_meld": st.none() | points,
        "sets": counts([kind.value for kind in SetKind], 6),
        "melded_points": points,
        "hand_points": points,
        "red_threes": st.integers(0, 8),
        "red_threes_in_hand": st.integers(0, 3),
        "players_holding_red_threes": st.integers(0, 3),
        "penalties": counts([penalty.value for penalty in Penalty], 3),
    },
)


def hands(sides: int) -> st.SearchStrategy[Json]:
    return st.fixed_dictionaries(
        {"entries": st.lists(entries, min_size=sides, max_size=sides)},
        optional={"ended_by": st.sampled_from(["going_out", "stock_exhausted"])},
    )


def house_rules(variant: str) -> st.SearchStrategy[Json]:
    system = SYSTEMS[variant]
    optional: dict[str, st.SearchStrategy[Any]] = {
        "name": st.text(max_size=12),
        "set_bonuses": counts([kind.value for kind in system.set_bonuses], 5000),
        "going_out_bonus": st.integers(0, 3000),
    }
    if system.hands_in_game is None:
        optional["target"] = st.integers(1, 20_000)
        optional["sets_to_go_out"] = st.integers(0, 3)
        optional["opening_minimums"] = st.lists(
            st.tuples(st.integers(-1000, 9000), st.integers(0, 200)),
            min_size=1,
            max_size=4,
            unique_by=lambda pair: pair[0],
        ).map(lambda pairs: [list(p) for p in sorted(pairs)])
    return st.fixed_dictionaries({}, optional=optional)


@st.composite
def game_files(draw: st.DrawFn) -> Json:
    """A game file that can be read: any system, options, table and up to five hands."""
    variant = draw(st.sampled_from(sorted(SYSTEMS)))
    sides = draw(st.integers(1, 5))
    game: Json = {
        "variant": variant,
        "sides": draw(
            st.lists(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "name": st.text(max_size=12),
                        "players": st.integers(1, 3),
                        "start_score": st.integers(-5000, 12_000),
                    },
                ),
                min_size=sides,
                max_size=sides,
            )
        ),
        "hands": draw(st.lists(hands(sides), max_size=5)),
    }
    options = SYSTEMS[variant].options
    if options or draw(st.booleans()):
        game["options"] = draw(
            st.dictionaries(st.sampled_from(options), st.booleans()) if options else st.just({})
        )
    if draw(st.booleans()):
        game["house_rules"] = draw(house_rules(variant))
    return game


def places(value: object) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in a parsed file."""
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return []
    found: list[tuple[Any, Any]] = []
    for key, child in items:
        found.append((value, key))
        found += places(child)
    return found


def other_types(value: object) -> list[object]:
    """The same value written as something else."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), None]
    if isinstance(value, int | float):
        return [str(value), float(value) + 0.5, [value], bool(value), None]
    if isinstance(value, str):
        return [[value], {value: value}, len(value), None]
    if isinstance(value, list):
        return [{str(i): v for i, v in enumerate(value)}, json.dumps(value), None]
    if isinstance(value, dict):
        return [list(value.values()), list(value), json.dumps(value), None]
    return [0, "", [], {}]


@st.composite
def mutated_game_files(draw: st.DrawFn) -> Json:
    """A readable game file with one to three things broken: a key dropped, a value replaced by
    any JSON value, or a value written as another type."""
    game = draw(game_files())
    for _ in range(draw(st.integers(1, 3))):
        where = places(game)
        if not where:
            break
        container, key = draw(st.sampled_from(where))
        how = draw(st.sampled_from(["drop", "replace", "retype"]))
        if how == "drop":
            del container[key]
        elif how == "replace":
            container[key] = draw(json_values)
        else:
            container[key] = draw(st.sampled_from(other_types(container[key])))
    return game


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def assert_violations_shape(violations: object, sides: int) -> None:
    assert isinstance(violations, list)
    for violation in violations:
        assert isinstance(violation, dict)
        assert isinstance(violation["code"], str)
        assert violation["side"] is None or violation["side"] in range(sides)


def assert_result_shape(result: object, game: Json) -> None:
    """The result as docs/game-file.md describes it, for a game that could be read."""
    sides = len(game["sides"])
    assert isinstance(result, dict)
    assert isinstance(result["hands"], list)
    assert len(result["hands"]) == len(game.get("hands", []))
    for hand in result["hands"]:
        assert isinstance(hand["sides"], list)
        assert len(hand["sides"]) == sides
        for side in hand["sides"]:
            assert is_whole(side["hand_score"])
            assert is_whole(side["total"])
            assert is_whole(side["min_opening_meld"])
        assert_violations_shape(hand["violations"], sides)
    assert_violations_shape(result["game_violations"], sides)
    assert isinstance(result["totals"], list)
    assert len(result["totals"]) == sides
    assert all(is_whole(total) for total in result["totals"])
    assert isinstance(result["game_over"], bool)
    assert result["winner"] is None or result["winner"] in range(sides)


def assert_one_line(reason: str) -> None:
    assert reason
    assert "\n" not in reason
    assert "\r" not in reason


def check_or_refuse(data: object) -> Json | None:
    """The result of `data`, or None when it is refused as not a game file, in one line."""
    try:
        result = check_game_data(data)
    except GameFileError as error:
        assert_one_line(str(error))
        return None
    assert isinstance(data, dict)
    assert_result_shape(result, data)
    return result


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_value_gives_a_result_or_a_one_line_refusal(data):
    check_or_refuse(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_game_files())
def test_a_broken_game_file_gives_a_result_or_a_one_line_refusal(data):
    check_or_refuse(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_files())
def test_a_readable_game_adds_every_hand_score_to_the_start_scores(data):
    result = check_game_data(data)
    assert_result_shape(result, data)
    starts = [side.get("start_score", 0) for side in data["sides"]]
    for index, start in enumerate(starts):
        scores = [hand["sides"][index]["hand_score"] for hand in result["hands"]]
        assert result["totals"][index] == start + sum(scores)
    for hand in result["hands"]:
        for side in hand["sides"]:
            assert side["hand_score"] == sum(line["points"] for line in side["lines"])
    assert json.loads(json.dumps(result, allow_nan=False)) == result


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_files())
def test_a_game_written_back_as_a_game_file_scores_the_same(data):
    written = json.loads(json.dumps(game_data(read_game(data))))
    assert game_data(read_game(written)) == written
    assert check_game_data(written) == check_game_data(data)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values | mutated_game_files() | game_files())
def test_the_command_exits_0_1_or_2_and_never_with_a_traceback(data):
    run = scorekeeper("check", "-", stdin=json.dumps(data))
    assert run.returncode in (0, 1, 2), run.stderr
    assert "Traceback" not in run.stderr
    if run.returncode == 2:
        assert run.stdout == ""
        assert run.stderr.startswith("standard input: ")
        assert run.stderr.endswith("\n")
        assert_one_line(run.stderr.removesuffix("\n"))
    else:
        assert run.stderr == ""
        result = json.loads(run.stdout)
        assert_result_shape(result, data)
        broken = bool(result["game_violations"]) or any(h["violations"] for h in result["hands"])
        assert run.returncode == (1 if broken else 0)
