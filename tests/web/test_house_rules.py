"""House rules: a table's own numbers, kept under a name, and the games played by them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.rules import check_game_data
from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import HouseRule

from .helpers import (
    GOES_OUT,
    STAYS_IN,
    Actions,
    errors_of,
    hidden,
    house_rule_form,
    input_value,
    new_house_game,
    save_house_rule,
    stored_house_rule,
)


def test_the_first_step_of_a_house_rule_offers_every_system(client: FlaskClient) -> None:
    page = client.get("/house-rules/new").text
    for system in ("classic", "denexa", "black-samba", "super-samba", "fournier"):
        assert f'href="/house-rules/new?system={system}"' in page


def test_the_form_opens_with_the_systems_own_numbers(client: FlaskClient) -> None:
    page = client.get("/house-rules/new?system=denexa").text
    assert input_value(page, "target") == "10000"
    assert input_value(page, "bonus_samba") == "500"
    assert input_value(page, "bonus_natural_canasta") == "500"
    assert input_value(page, "going_out_bonus") == "200"
    assert input_value(page, "sets_to_go_out") == "2"
    assert input_value(page, "first_meld-0-lowest") in (None, "")
    assert input_value(page, "first_meld-4-lowest") == "7000"
    assert input_value(page, "first_meld-4-minimum") == "160"
    assert input_value(page, "first_meld-6-minimum") in (None, "")
    assert 'id="first_meld-7-minimum"' not in page
    assert 'id="bonus_black_samba"' not in page


def test_the_super_samba_form_has_no_target_sets_or_first_meld_table(
    client: FlaskClient,
) -> None:
    page = client.get("/house-rules/new?system=super-samba").text
    assert input_value(page, "bonus_super_samba") == "5000"
    assert input_value(page, "going_out_bonus") == "2000"
    for missing in ('id="target"', 'id="sets_to_go_out"', 'id="first_meld'):
        assert missing not in page


def test_black_samba_offers_its_options(client: FlaskClient) -> None:
    page = client.get("/house-rules/new?system=black-samba").text
    assert 'id="option_low_samba_bonus"' in page
    assert input_value(page, "bonus_black_samba") == "1000"


@pytest.mark.parametrize(
    ("changed", "kept"),
    [
        ({"target": "5000"}, {"target": 5000}),
        ({"bonus_samba": "1500"}, {"set_bonuses": {"samba": 1500}}),
        ({"going_out_bonus": "300"}, {"going_out_bonus": 300}),
        ({"sets_to_go_out": "1"}, {"sets_to_go_out": 1}),
        (
            {"first_meld-4-minimum": "150"},
            {"opening_minimums": [[-5, 15], [0, 50], [1500, 90], [3000, 120], [7000, 150]]},
        ),
        (
            {"first_meld-5-lowest": "9000", "first_meld-5-minimum": "200"},
            {
                "opening_minimums": [
                    [-5, 15],
                    [0, 50],
                    [1500, 90],
                    [3000, 120],
                    [7000, 160],
                    [9000, 200],
                ]
            },
        ),
        ({}, {}),
    ],
)
def test_a_house_rule_keeps_only_what_it_changes(
    app: Flask, client: FlaskClient, changed: dict[str, str], kept: dict[str, Any]
) -> None:
    rule_id = save_house_rule(client, house_rule_form(**changed))
    house_rule = stored_house_rule(app, rule_id)
    assert (house_rule.name, house_rule.system_id, house_rule.options, house_rule.rules) == (
        "Samba 1500",
        "denexa",
        [],
        kept,
    )


def test_an_option_is_kept_and_its_numbers_are_not_a_change(
    app: Flask, client: FlaskClient
) -> None:
    data = house_rule_form("black-samba", option_low_samba_bonus="y", bonus_samba="1500")
    data.update({f"bonus_{k}": v for k, v in [("black_samba", "1000"), ("natural_canasta", "500")]})
    rule_id = save_house_rule(client, data, system="black-samba")
    house_rule = stored_house_rule(app, rule_id)
    assert (house_rule.options, house_rule.rules) == (["low_samba_bonus"], {})


def test_the_list_shows_each_house_rule_and_what_it_changes(client: FlaskClient) -> None:
    rule_id = save_house_rule(client, house_rule_form(bonus_samba="1500", target="7500"))
    page = client.get("/house-rules").text
    assert "New house rule" in page
    item = page[page.index(f'id="house-rule-{rule_id}"') :]
    assert "Samba 1500" in item
    assert "Samba (Denexa)" in item
    assert "<b>1,500</b>" in item
    assert "<b>7,500</b>" in item


@pytest.mark.parametrize(
    ("changed", "field", "message"),
    [
        ({"name": ""}, "name", "This field is required."),
        ({"name": "x" * 41}, "name", "40"),
        ({"bonus_samba": "-5"}, "bonus_samba", "at least 0"),
        ({"going_out_bonus": "-1"}, "going_out_bonus", "at least 0"),
        ({"target": "0"}, "target", "at least 1"),
        ({"sets_to_go_out": "-1"}, "sets_to_go_out", "at least 0"),
        ({"bonus_samba": "lots"}, "bonus_samba", "Not a valid integer value."),
        ({"first_meld-2-lowest": "-100"}, "first_meld", "must go up"),
        ({"first_meld-1-minimum": "-10"}, "first_meld", "at least 0"),
        ({"first_meld-5-lowest": "9000"}, "first_meld", "Row 6: give the minimum"),
        ({"first_meld-5-minimum": "200"}, "first_meld", "Row 6: give the total"),
        (
            {f"first_meld-{i}-{part}": "" for i in range(5) for part in ("lowest", "minimum")},
            "first_meld",
            "needs at least one row",
        ),
    ],
)
def test_a_wrong_house_rule_is_shown_next_to_its_field_with_the_input_kept(
    app: Flask, client: FlaskClient, changed: dict[str, str], field: str, message: str
) -> None:
    data = house_rule_form(**changed)
    response = client.post("/house-rules/new?system=denexa", data=data)
    assert response.status_code == 422
    assert message in errors_of(response.text, field)
    for name, value in changed.items():
        if value and name != "name":
            assert input_value(response.text, name) == value
    with app.app_context():
        assert db.session.scalars(select(HouseRule)).all() == []


def test_a_wrong_name_is_kept_in_the_form(client: FlaskClient) -> None:
    response = client.post(
        "/house-rules/new?system=denexa", data=house_rule_form(name="A" * 41, bonus_samba="-5")
    )
    assert input_value(response.text, "name") == "A" * 41
    assert errors_of(response.text, "bonus_samba")


def test_editing_a_house_rule_opens_with_its_numbers_and_keeps_the_new_ones(
    app: Flask, client: FlaskClient
) -> None:
    rule_id = save_house_rule(client, house_rule_form(bonus_samba="1500"))
    page = client.get(f"/house-rules/{rule_id}/edit").text
    assert input_value(page, "name") == "Samba 1500"
    assert input_value(page, "bonus_samba") == "1500"
    response = client.post(
        f"/house-rules/{rule_id}/edit", data=house_rule_form(name="Samba 2000", bonus_samba="2000")
    )
    assert response.status_code == 302
    house_rule = stored_house_rule(app, rule_id)
    assert (house_rule.name, house_rule.rules) == ("Samba 2000", {"set_bonuses": {"samba": 2000}})


def test_the_rules_page_of_a_house_rule_lists_what_it_changes(client: FlaskClient) -> None:
    rule_id = save_house_rule(client, house_rule_form(bonus_samba="1500", going_out_bonus="400"))
    page = client.get(f"/house-rules/{rule_id}").text
    assert "Samba 1500" in page
    house = page[page.index('id="house-title"') : page.index("</section>")]
    assert 'id="house-title"' in page
    assert re.search(r"<th scope=\"row\">Samba</th><td>500</td><td><b>1,500</b></td>", house)
    assert re.search(r"<th scope=\"row\">Going out</th><td>200</td><td><b>400</b></td>", house)
    assert 'id="first-meld"' in page


def test_a_systems_own_rules_page_lists_no_house_rules(client: FlaskClient) -> None:
    page = client.get("/rules/denexa").text
    assert 'id="first-meld"' in page
    assert 'id="house-title"' not in page


def test_the_first_new_game_step_offers_the_house_rules(client: FlaskClient) -> None:
    rule_id = save_house_rule(client, house_rule_form(bonus_samba="1500"))
    page = client.get("/games/new").text
    assert "Your house rules" in page
    choice = page[page.index(f'href="/games/new?house={rule_id}"') :]
    assert "Samba 1500" in choice[: choice.index("</a>")]
    assert "Samba (Denexa)" in choice[: choice.index("</a>")]


def test_a_house_rule_game_goes_through_its_systems_table_step(client: FlaskClient) -> None:
    data = house_rule_form("classic", name="Samba 2000", bonus_samba="2000")
    rule_id = save_house_rule(client, data, system="classic")
    page = client.get(f"/games/new?house={rule_id}").text
    assert "2 teams of 2" in page
    assert f'href="/games/new?house={rule_id}&amp;table=2x2"' in page
    names = client.get(f"/games/new?house={rule_id}&table=2x2").text
    assert "Start the game" in names
    assert "Samba 2000" in names


def test_a_house_rule_game_has_the_house_rules_options(app: Flask, client: FlaskClient) -> None:
    data = house_rule_form("black-samba", option_low_samba_bonus="y", target="5000")
    rule_id = save_house_rule(client, data, system="black-samba")
    page = client.get(f"/games/new?house={rule_id}&table=2x2").text
    assert re.search(r'<input[^>]*checked[^>]*id="option_low_samba_bonus"', page) or re.search(
        r'<input[^>]*id="option_low_samba_bonus"[^>]*checked', page
    )
    game_id = new_house_game(client, rule_id)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["options"] == {"low_samba_bonus": True}
    assert exported["house_rules"] == {"name": "Samba 1500", "target": 5000}


def test_an_unknown_house_rule_is_not_found(client: FlaskClient) -> None:
    assert client.get("/games/new?house=99").status_code == 404
    assert client.get("/games/new?house=x").status_code == 404
    assert client.get("/house-rules/99").status_code == 404
    assert client.get("/house-rules/99/edit").status_code == 404


def samba_1500_game(client: FlaskClient, actions: Actions, **changed: str) -> tuple[int, str]:
    rule_id = save_house_rule(client, house_rule_form(bonus_samba="1500", **changed))
    game_id = new_house_game(client, rule_id)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    return rule_id, game_id


def test_a_game_from_a_house_rule_scores_by_it(client: FlaskClient, actions: Actions) -> None:
    _, game_id = samba_1500_game(client, actions)
    result = actions.result(game_id)
    # 260 melded + samba 1,500 + natural canasta 500 + going out 200
    assert [side["hand_score"] for side in result["hands"][0]["sides"]] == [2460, 420]
    board = actions.scoreboard(game_id)
    assert "Samba 1500" in board
    hand_id = actions.hand_ids(game_id)[0]
    hand_page = client.get(f"/games/{game_id}/hands/{hand_id}").text
    assert re.search(r"<span>[^<]*[Ss]amba[^<]*</span> <b>\+1,500</b>", hand_page)
    rules_page = client.get(f"/games/{game_id}/rules").text
    assert "<b>1,500</b>" in rules_page


def test_a_house_rule_game_exports_imports_and_checks_alike(
    client: FlaskClient, actions: Actions
) -> None:
    _, game_id = samba_1500_game(client, actions)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["house_rules"] == {"name": "Samba 1500", "set_bonuses": {"samba": 1500}}
    response = client.post("/games/import", json=exported)
    assert response.status_code == 201
    again = response.get_json()["id"]
    assert actions.result(again) == actions.result(game_id)
    assert check_game_data(exported) == actions.result(game_id)


def test_editing_a_house_rule_never_changes_a_finished_game(
    client: FlaskClient, actions: Actions
) -> None:
    rule_id, game_id = samba_1500_game(client, actions, target="2000")
    before = actions.result(game_id)
    assert before["game_over"] and before["winner"] == 0
    response = client.post(
        f"/house-rules/{rule_id}/edit",
        data=house_rule_form(name="Other", bonus_samba="100", target="9000"),
    )
    assert response.status_code == 302
    assert actions.result(game_id) == before
    assert "Samba 1500" in actions.scoreboard(game_id)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["house_rules"]["set_bonuses"] == {"samba": 1500}


def test_deleting_a_house_rule_keeps_its_games(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    rule_id, game_id = samba_1500_game(client, actions)
    before = actions.result(game_id)
    assert client.post(f"/house-rules/{rule_id}/delete").status_code == 302
    with app.app_context():
        assert db.session.get(HouseRule, rule_id) is None
    assert actions.result(game_id) == before
    assert "Samba 1500" not in client.get("/house-rules").text
    assert client.get(f"/games/{game_id}/rules").status_code == 200


def test_house_rule_forms_carry_a_csrf_token(csrf_client: FlaskClient) -> None:
    page = csrf_client.get("/house-rules/new?system=denexa").text
    response = csrf_client.post(
        "/house-rules/new?system=denexa",
        data={**house_rule_form(), "csrf_token": hidden(page, "csrf_token")},
    )
    assert response.status_code == 302
    listing = csrf_client.get("/house-rules").text
    delete_form = listing[listing.index("/delete") :]
    assert 'name="csrf_token"' in delete_form[: delete_form.index("</form>")]


def test_a_house_rule_is_not_kept_without_a_csrf_token(
    csrf_app: Flask, csrf_client: FlaskClient
) -> None:
    response = csrf_client.post("/house-rules/new?system=denexa", data=house_rule_form())
    assert response.status_code == 400
    with csrf_app.app_context():
        assert db.session.scalars(select(HouseRule)).all() == []


def test_a_house_rule_name_is_escaped_everywhere(client: FlaskClient, actions: Actions) -> None:
    name = "<b>Tía's</b> & co"
    rule_id = save_house_rule(client, house_rule_form(name=name, bonus_samba="1500"))
    game_id = new_house_game(client, rule_id)
    for path in (
        "/house-rules",
        f"/house-rules/{rule_id}",
        f"/house-rules/{rule_id}/edit",
        "/games/new",
        f"/games/new?house={rule_id}&table=2x2",
        f"/games/{game_id}",
        f"/games/{game_id}/rules",
    ):
        page = client.get(path).text
        assert "<b>Tía" not in page, path
        assert "&lt;b&gt;Tía" in page, path
