"""Issue 10 in the web app: a house rule with each new key is made through the form and changes
a game's score; such games survive export, import and backup; the hand form asks who held red
threes only where it means something and says what it costs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.services import backup
from scorekeeper.web.services.restore import restore

from .apps import TEST_CONFIG, built_app
from .helpers import Actions, errors_of, house_rule_form, input_value, save_house_rule

Json = dict[str, Any]

OUT = {"set_natural_canasta": "1", "set_mixed_canasta": "1", "melded_points": "200"}


def new_game(client: FlaskClient, rule_id: int | None, system: str, start: int = 0) -> str:
    """A 2×2 game (under the house rule, if any) whose sides start at `start`."""
    where = f"house={rule_id}" if rule_id is not None else f"system={system}"
    data = {"side_list-0-name": "Us", "side_list-1-name": "Them"}
    if start:
        data |= {"side_list-0-start_score": str(start), "side_list-1-start_score": str(start)}
    response = client.post(f"/games/new?{where}&table=2x2", data=data)
    assert response.status_code == 302, response.text
    return response.headers["Location"].removeprefix("/games/")


# (system, form fields typed over, one hand's sides, how it ends, a side's hand score under the
# house rule, the same without it)
KEYS = [
    (
        "classic",
        {"red_three_values_each_minus": "200"},
        [OUT, {"red_threes": "2"}],
        "out-0",
        (1, -400, -200),
    ),
    (
        "fournier",
        {"red_three_values_each_minus": "600"},
        [OUT, {"red_threes": "1"}],
        "out-0",
        (1, -600, -500),
    ),
    (
        "denexa",
        {"red_three_values_in_hand": "300"},
        [OUT, {"red_threes_in_hand": "2"}],
        "out-0",
        (1, -600, -1000),
    ),
    (
        "fournier",
        {"melded_points_for": "side_that_went_out"},
        [OUT, {"set_mixed_canasta": "1", "melded_points": "150", "hand_points": "30"}],
        "out-0",
        (1, 300 - 30, 150 + 300 - 30),
    ),
    (
        "black-samba",
        {"melded_points_for": "side_that_went_out"},
        [OUT, {"melded_points": "100", "red_threes": "2"}],
        "out-0",
        (1, 200, 300),
    ),
]


@pytest.mark.parametrize(("system", "typed", "sides", "ending", "scored"), KEYS)
def test_a_house_rule_with_a_new_key_is_made_through_the_form_and_changes_the_score(
    client: FlaskClient,
    actions: Actions,
    system: str,
    typed: Json,
    sides: list[Json],
    ending: str,
    scored: tuple[int, int, int],
) -> None:
    rule_id = save_house_rule(client, house_rule_form(system, name="Casa", **typed), system=system)
    side, house_score, plain_score = scored
    for rule, expected in ((rule_id, house_score), (None, plain_score)):
        game_id = new_game(client, rule, system)
        actions.record_hand(game_id, sides, ending)
        result = actions.result(game_id)
        assert result["hands"][0]["violations"] == []
        assert result["hands"][0]["sides"][side]["hand_score"] == expected


def test_a_shared_tie_at_the_target_ends_the_game_with_no_winner(
    client: FlaskClient, actions: Actions
) -> None:
    rule_id = save_house_rule(
        client, house_rule_form("denexa", tie_at_target="shared"), system="denexa"
    )
    both = {"melded_points": "200"}
    for rule, over in ((rule_id, True), (None, False)):
        game_id = new_game(client, rule, "denexa", start=9800)
        actions.record_hand(game_id, [both, both], "stock")
        result = actions.result(game_id)
        assert result["totals"] == [10000, 10000]
        assert (result["game_over"], result["winner"]) == (over, None)
        assert actions.scoreboard(game_id)  # a game shared at the top shows its scoreboard


HOUSE_RULES = {
    "name": "Casa",
    "red_three_values": {"each": 150, "each_minus": 200, "all_minus": 900, "in_hand": 500},
    "tie_at_target": "shared",
    "melded_points_for": "side_that_went_out",
}
GAME = {
    "variant": "classic",
    "house_rules": HOUSE_RULES,
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [
        {
            "entries": [
                {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 200},
                {
                    "melded_points": 60,
                    "red_threes": 2,
                    "red_threes_in_hand": 2,
                    "players_holding_red_threes": 2,
                },
            ]
        }
    ],
}


def test_the_new_keys_round_trip_through_export_and_import(client: FlaskClient) -> None:
    imported = client.post("/games/import", json=GAME)
    assert imported.status_code == 201, imported.text
    game_id = imported.get_json()["id"]
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["house_rules"] == HOUSE_RULES
    result = client.get(f"/games/{game_id}/result.json").get_json()
    # Them: its 60 melded not counted, two red threes at −200, two holders at −500.
    assert result["hands"][0]["sides"][1]["hand_score"] == -400 - 1000
    again = client.post("/games/import", json=exported).get_json()["id"]
    assert client.get(f"/games/{again}/result.json").get_json() == result


def test_the_new_keys_round_trip_through_a_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    assert client.post("/games/import", json=GAME).status_code == 201
    typed = {
        "red_three_values_each": "150",
        "tie_at_target": "shared",
        "melded_points_for": "side_that_went_out",
    }
    save_house_rule(
        client, house_rule_form("classic", name="Los jueves", **typed), system="classic"
    )
    with app.app_context():
        first = backup.backup()
    assert first["games"][0]["house_rules"] == HOUSE_RULES
    assert first["house_rules"][0]["rules"] == {
        "red_three_values": {"each": 150},
        "tie_at_target": "shared",
        "melded_points_for": "side_that_went_out",
    }
    restored = built_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'r.db'}"}
    )
    with restored.app_context():
        assert restore(json.loads(json.dumps(first))) == 1
        assert backup.backup() == first


@pytest.mark.parametrize(
    ("house_rules", "problem"),
    [
        ({"tie_at_target": "shared"}, "super-samba has no target"),
        ({"red_three_values": {"each_minus": 100}}, "super-samba has no deduction"),
    ],
)
def test_an_import_with_a_key_its_system_cannot_take_is_refused_with_the_reason(
    client: FlaskClient, house_rules: Json, problem: str
) -> None:
    data = {**GAME, "variant": "super-samba", "house_rules": house_rules, "hands": []}
    response = client.post("/games/import", json=data)
    assert response.status_code == 400
    assert problem in response.text


def legend_of(page: str, name: str) -> str | None:
    """The legend of the hand-form row holding the first side's field `name`, or None."""
    for row in re.findall(r"<fieldset class=\"row.*?</fieldset>", page, re.S):
        if f'name="sides-0-{name}"' in row:
            legend = re.search(r"<legend>(.*?)</legend>", row, re.S)
            assert legend
            return legend.group(1).strip()
    return None


# (system, table, language, red threes in hand's legend or None when not asked, holders' legend
# or None when not asked): classic asks one question, how many players were caught holding one.
LEGENDS = [
    ("classic", "2x2", "en", None, "Players caught holding red threes (−750 each)"),
    (
        "classic",
        "3x2",
        "es",
        None,
        "Jugadores pillados con treses rojos en la mano (−750 cada uno)",
    ),
    ("classic", "2x1", "en", None, "Players caught holding red threes (−750 each)"),
    (
        "classic",
        "5x1",
        "es",
        None,
        "Jugadores pillados con treses rojos en la mano (−750 cada uno)",
    ),
    ("denexa", "2x2", "en", "Red threes left in hand (−500 each)", None),
    ("fournier", "2x2", "es", "Treses rojos en la mano (−1.500 cada uno)", None),
    ("super-samba", "2x2", "en", "Red threes left in hand (−100 each)", None),
    ("black-samba", "2x2", "en", "Red threes left in hand", None),
]


@pytest.mark.parametrize(("system", "table", "language", "in_hand", "holders"), LEGENDS)
def test_the_hand_form_asks_about_red_threes_in_hand_once_and_says_what_it_costs(
    client: FlaskClient,
    actions: Actions,
    system: str,
    table: str,
    language: str,
    in_hand: str | None,
    holders: str | None,
) -> None:
    sides = int(table.split("x")[0])
    game_id = actions.new_game(system, table, names=[f"S{n}" for n in range(sides)])
    client.set_cookie("lang", language)
    page = client.get(f"/games/{game_id}/hands/new").text
    assert legend_of(page, "red_threes_in_hand") == in_hand
    assert legend_of(page, "players_holding_red_threes") == holders


def test_the_form_says_what_a_house_rules_holders_cost(
    client: FlaskClient, actions: Actions
) -> None:
    rule_id = save_house_rule(
        client, house_rule_form("classic", red_three_values_in_hand="500"), system="classic"
    )
    game_id = new_game(client, rule_id, "classic")
    page = client.get(f"/games/{game_id}/hands/new").text
    assert legend_of(page, "players_holding_red_threes") == (
        "Players caught holding red threes (−500 each)"
    )


@pytest.mark.parametrize(
    ("language", "holders", "message"),
    [
        ("en", "3", "Us: 3 players caught holding red threes, but the side has only 2 players"),
        ("es", "3", "Us: 3 jugadores con treses rojos en la mano, pero el equipo solo tiene 2"),
    ],
)
def test_impossible_holders_are_refused_next_to_their_field(
    client: FlaskClient, actions: Actions, language: str, holders: str, message: str
) -> None:
    game_id = actions.new_game("classic", "2x2")
    client.set_cookie("lang", language)
    side = {"players_holding_red_threes": holders}
    response = actions.post_hand(game_id, [side, {}], "stock")
    assert response.status_code == 422
    assert message in errors_of(response.text, "sides-0-players_holding_red_threes")
    assert actions.hand_ids(game_id) == []


def test_players_caught_holding_red_threes_are_recorded_as_holding_one_each(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("classic", "2x2")
    response = actions.post_hand(game_id, [{"players_holding_red_threes": "2"}, {}], "stock")
    assert response.status_code == 302
    hand = client.get(f"/games/{game_id}/export.json").get_json()["hands"][0]["entries"][0]
    assert (hand["red_threes_in_hand"], hand["players_holding_red_threes"]) == (2, 2)


def test_a_side_that_laid_nothing_down_saves_a_first_meld_of_0(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("classic", "2x2")
    nothing = {"opening_meld": "0", "hand_points": "85"}
    actions.record_hand(game_id, [OUT | {"opening_meld": "60"}, nothing])
    assert actions.result(game_id)["hands"][0]["violations"] == []


@pytest.mark.parametrize(
    ("asked", "choice", "each_minus"),
    [
        (
            'melded_points_for=side_that_went_out&red_three_values={"each_minus": 600}',
            "side_that_went_out",
            "600",
        ),
        ('melded_points_for=winners&red_three_values={"each_minus": -5}', "every_side", "500"),
        ("red_three_values=abc", "every_side", "500"),
    ],
)
def test_a_link_starts_a_house_rule_with_a_reading_filled_in(
    client: FlaskClient, asked: str, choice: str, each_minus: str
) -> None:
    page = client.get(f"/house-rules/new?system=fournier&{asked}").text
    assert re.search(rf'<option selected value="{choice}">', page)
    assert input_value(page, "red_three_values_each_minus") == each_minus


def test_a_reading_filled_in_by_a_link_is_kept_as_the_house_rule(client: FlaskClient) -> None:
    page = client.get("/house-rules/new?system=classic&tie_at_target=shared").text
    assert re.search(r'<option selected value="shared">', page)
    rule_id = save_house_rule(
        client, house_rule_form("classic", tie_at_target="shared"), system="classic"
    )
    edit = client.get(f"/house-rules/{rule_id}/edit").text
    assert re.search(r'<option selected value="shared">', edit)
