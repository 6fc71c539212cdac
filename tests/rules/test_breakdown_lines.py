"""docs/game-file.md, "The result": each hand score is explained line by line, citing its rule."""

import pytest

from tests.rules.helpers import BOOK, check, stock

GAMES = {
    "classic first hand": (
        "classic",
        [
            {
                "entries": [
                    {
                        "went_out": True,
                        "opening_meld": 60,
                        "sets": {"natural_canasta": 1, "samba": 1},
                        "melded_points": 310,
                        "red_threes": 2,
                    },
                    {
                        "opening_meld": 50,
                        "sets": {"mixed_canasta": 1},
                        "melded_points": 150,
                        "hand_points": 85,
                        "red_threes": 1,
                        "red_threes_in_hand": 1,
                        "players_holding_red_threes": 1,
                    },
                ]
            }
        ],
        {},
    ),
    "denexa penalties": (
        "denexa",
        [
            {
                "entries": [
                    {
                        "went_out": True,
                        "sets": {"natural_canasta": 1, "mixed_canasta": 1},
                        "melded_points": 260,
                        "penalties": {"took_unusable_upcard": 1},
                    },
                    {
                        "melded_points": 120,
                        "hand_points": 80,
                        "red_threes": 1,
                        "red_threes_in_hand": 1,
                        "penalties": {"could_not_go_out_after_asking": 2},
                    },
                ]
            }
        ],
        {},
    ),
    "black samba without a meld": (
        "black-samba",
        [
            {
                "entries": [
                    {
                        "went_out": True,
                        "sets": {"black_samba": 1, "samba": 1},
                        "melded_points": 250,
                    },
                    {"hand_points": 150, "red_threes": 6},
                ]
            }
        ],
        {"options": {"low_samba_bonus": True}},
    ),
    "super samba book and all four sambas": (
        "super-samba",
        [
            {
                "entries": [
                    {
                        "went_out": True,
                        "sets": BOOK,
                        "melded_points": 1100,
                        "hand_points": 30,
                        "red_threes": 2,
                    },
                    {
                        "sets": {"samba": 3, "super_samba": 1, "red_three_canasta": 1},
                        "melded_points": 700,
                        "hand_points": 90,
                        "red_threes": 7,
                        "red_threes_in_hand": 1,
                    },
                ]
            },
            stock({"melded_points": 100}, {"hand_points": 40}),
        ],
        {},
    ),
    "fournier over two hands": (
        "fournier",
        [
            {
                "entries": [
                    {
                        "went_out": True,
                        "concealed": True,
                        "opening_meld": 95,
                        "sets": {"natural_canasta": 1},
                        "melded_points": 95,
                        "red_threes": 2,
                    },
                    {
                        "melded_points": 130,
                        "hand_points": 70,
                        "red_threes_in_hand": 1,
                        "penalties": {"drew_out_of_turn": 1, "three_wilds_in_canasta": 1},
                    },
                ]
            },
            stock({"sets": {"mixed_canasta": 2}, "melded_points": 200}, {"red_threes": 6}),
        ],
        {"start": [3500, 3200]},
    ),
    "house rules": (
        "classic",
        [
            {
                "entries": [
                    {"went_out": True, "sets": {"samba": 1}, "melded_points": 100},
                    {"melded_points": 40, "hand_points": 12, "red_threes": -1},
                ]
            }
        ],
        {
            "house_rules": {
                "going_out_bonus": 400,
                "sets_to_go_out": 1,
                "set_bonuses": {"samba": 1000},
            }
        },
    ),
    "many violations": (
        "classic",
        [
            {
                "entries": [
                    {
                        "went_out": True,
                        "opening_meld": 45,
                        "sets": {"black_samba": 1},
                        "melded_points": 203,
                        "red_threes": 4,
                        "penalties": {"drew_out_of_turn": 1},
                    },
                    {"went_out": True, "melded_points": 40, "red_threes": 3},
                    {"hand_points": 12.5},
                ]
            }
        ],
        {"sides": 3, "players": 2},
    ),
}


def each_side(result):
    for h in result["hands"]:
        yield from h["sides"]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_lines_of_a_hand_score_add_up_to_it(name):
    variant, hands, table = GAMES[name]
    result = check(variant, *hands, **table)
    for side in each_side(result):
        assert side["lines"] or side["hand_score"] == 0, side
        assert sum(line["points"] for line in side["lines"]) == side["hand_score"]


@pytest.mark.parametrize("name", list(GAMES))
def test_each_line_has_a_label_and_cites_its_source(name):
    variant, hands, table = GAMES[name]
    result = check(variant, *hands, **table)
    for side in each_side(result):
        for line in side["lines"]:
            assert isinstance(line["label"], str) and line["label"].strip()
            assert isinstance(line["points"], int)
            assert isinstance(line["rule"]["source"], str) and line["rule"]["source"].strip()


@pytest.mark.parametrize("name", list(GAMES))
def test_each_violation_has_a_message_and_cites_its_rule(name):
    variant, hands, table = GAMES[name]
    result = check(variant, *hands, **table)
    violations = [v for h in result["hands"] for v in h["violations"]] + result["game_violations"]
    for violation in violations:
        assert isinstance(violation["message"], str) and violation["message"].strip()
        assert isinstance(violation["rule"], dict) and violation["rule"]


def test_the_lines_explain_the_score_of_a_hand_with_violations():
    result = check(
        "classic",
        stock({"sets": {"natural_canasta": 1, "black_samba": 1}, "melded_points": 203}, {}),
    )
    lines = result["hands"][0]["sides"][0]["lines"]
    assert sum(line["points"] for line in lines) == result["hands"][0]["sides"][0]["hand_score"]


def test_each_system_cites_its_own_source():
    sources = set()
    for variant in ["classic", "denexa", "black-samba", "super-samba", "fournier"]:
        result = check(variant, stock({"melded_points": 60}, {}))
        (line,) = result["hands"][0]["sides"][0]["lines"]
        sources.add(line["rule"]["source"])
    assert len(sources) == 5
