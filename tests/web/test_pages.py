"""Every page renders, and a missing game is a plain 404."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules

from .helpers import GOES_OUT, STAYS_IN, Actions

SYSTEMS = sorted(rules.SYSTEMS)


def test_the_game_list_renders(client: FlaskClient, actions: Actions) -> None:
    actions.new_game(names=("Ana", "Bea"))
    response = client.get("/")
    assert response.status_code == 200
    assert "Ana" in response.text


def test_the_game_list_shows_each_sides_total(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game(names=("Ana", "Bea"))
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    totals = actions.result(game_id)["totals"]
    page = client.get("/").text
    assert f"Ana <b>{totals[0]:,}</b> · Bea <b>{totals[1]:,}</b>" in page


def test_the_first_new_game_step_offers_every_system(client: FlaskClient) -> None:
    response = client.get("/games/new")
    assert response.status_code == 200
    for system in SYSTEMS:
        assert f"system={system}" in response.text


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_second_new_game_step_offers_the_systems_tables(
    client: FlaskClient, system: str
) -> None:
    response = client.get(f"/games/new?system={system}")
    assert response.status_code == 200
    tables = rules.SYSTEMS[system].tables
    if len(tables) > 1:
        for sides, players in tables:
            assert f"table={sides}x{players}" in response.text
    else:
        assert 'name="side_list-0-name"' in response.text


@pytest.mark.parametrize(
    ("system", "table"),
    [(s, f"{n}x{p}") for s in SYSTEMS for n, p in rules.SYSTEMS[s].tables],
)
def test_the_names_step_has_a_field_for_every_side(
    client: FlaskClient, system: str, table: str
) -> None:
    response = client.get(f"/games/new?system={system}&table={table}")
    assert response.status_code == 200
    sides = int(table.split("x")[0])
    assert f'name="side_list-{sides - 1}-name"' in response.text
    assert f'name="side_list-{sides}-name"' not in response.text
    for option in rules.SYSTEMS[system].options:
        assert f'name="option_{option}"' in response.text


def test_a_table_the_system_does_not_allow_goes_back_to_choosing_the_table(
    client: FlaskClient,
) -> None:
    response = client.get("/games/new?system=classic&table=4x1")
    assert response.status_code == 200
    assert 'name="side_list-0-name"' not in response.text
    assert "table=2x2" in response.text


def test_the_scoreboard_hand_form_and_hand_page_render(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    scoreboard = actions.scoreboard(game_id)
    assert f"/games/{game_id}/hands/new" in scoreboard
    form = client.get(f"/games/{game_id}/hands/new")
    assert form.status_code == 200
    assert 'name="sides-1-melded_points"' in form.text
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    page = client.get(f"/games/{game_id}/hands/{hand_id}")
    assert page.status_code == 200
    assert "+2,460" in page.text
    edit = client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert edit.status_code == 200
    assert 'name="version" type="hidden" value="1"' in edit.text


def test_the_import_page_renders(client: FlaskClient) -> None:
    response = client.get("/games/import")
    assert response.status_code == 200
    assert 'name="game_file"' in response.text


@pytest.mark.parametrize(
    "path",
    [
        "/games/nosuchgame",
        "/games/nosuchgame/hands/new",
        "/games/nosuchgame/hands/1",
        "/games/nosuchgame/export.json",
        "/games/nosuchgame/result.json",
    ],
)
def test_an_unknown_game_is_not_found_without_a_traceback(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Traceback" not in response.text
    assert "sqlalchemy" not in response.text.lower()


def test_a_hand_of_another_game_is_not_found(client: FlaskClient, actions: Actions) -> None:
    first = actions.new_game()
    actions.record_hand(first, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(first)
    other = actions.new_game()
    assert client.get(f"/games/{other}/hands/{hand_id}").status_code == 404
    assert client.get(f"/games/{other}/hands/{hand_id}/edit").status_code == 404
