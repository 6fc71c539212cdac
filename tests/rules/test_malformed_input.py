"""docs/game-file.md: what is not a game file is refused with one line naming where."""

import pytest

from scorekeeper.rules import SYSTEMS, GameFileError, check_game_data, get_system
from tests.rules.helpers import game, hand, stock


def test_a_game_file_error_is_a_value_error():
    assert issubclass(GameFileError, ValueError)


def test_the_registry_holds_the_five_systems():
    assert set(SYSTEMS) == {"classic", "denexa", "black-samba", "super-samba", "fournier"}
    assert get_system("fournier").id == "fournier"


def test_the_registry_refuses_an_unknown_system():
    with pytest.raises(KeyError):
        get_system("canasta")


@pytest.mark.parametrize("data", [[], "classic", None, 42])
def test_something_that_is_not_a_game_file_is_refused(data):
    with pytest.raises(GameFileError) as caught:
        check_game_data(data)
    assert "\n" not in str(caught.value)


def without_variant():
    data = game("classic")
    del data["variant"]
    return data


def with_players(players):
    data = game("classic")
    data["sides"][0]["players"] = players
    return data


def with_start_score(score):
    data = game("classic")
    data["sides"][1]["start_score"] = score
    return data


MALFORMED = [
    ("unknown variant", game("canasta"), ["variant", "canasta"]),
    ("missing variant", without_variant(), ["variant"]),
    (
        "unknown set kind",
        game("classic", stock({"sets": {"triple_canasta": 1}}, {})),
        ["hands[0].entries[0].sets", "triple_canasta"],
    ),
    (
        "unknown penalty",
        game("denexa", stock({}, {"penalties": {"peeked_at_the_stock": 1}})),
        ["hands[0].entries[1].penalties", "peeked_at_the_stock"],
    ),
    (
        "text for melded points",
        game("classic", stock({}, {"melded_points": "abc"})),
        ["hands[0].entries[1].melded_points", "abc"],
    ),
    (
        "text for hand points in a later hand",
        game("fournier", stock({}, {}), stock({"hand_points": "ten"}, {})),
        ["hands[1].entries[0].hand_points", "ten"],
    ),
    (
        "text for a set count",
        game("classic", stock({"sets": {"samba": "two"}}, {})),
        ["hands[0].entries[0].sets", "two"],
    ),
    (
        "text for red threes",
        game("classic", stock({"red_threes": "3"}, {})),
        ["hands[0].entries[0].red_threes"],
    ),
    ("text for players", with_players("two"), ["sides[0].players", "two"]),
    ("text for a start score", with_start_score("lots"), ["sides[1].start_score", "lots"]),
    (
        "fewer entries than sides",
        game("classic", stock({})),
        ["hands[0].entries"],
    ),
    (
        "more entries than sides",
        game("classic", stock({}, {}, {})),
        ["hands[0].entries"],
    ),
    (
        "unknown ending",
        game("classic", hand({}, {}, ended_by="timeout")),
        ["hands[0].ended_by", "timeout"],
    ),
]


@pytest.mark.parametrize(
    ("data", "fragments"), [row[1:] for row in MALFORMED], ids=[row[0] for row in MALFORMED]
)
def test_malformed_input_is_refused_with_one_line_naming_where(data, fragments):
    with pytest.raises(GameFileError) as caught:
        check_game_data(data)
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message
