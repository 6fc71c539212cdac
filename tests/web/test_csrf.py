"""Forms carry a CSRF token; without it nothing is written."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from .conftest import GOES_OUT, STAYS_IN, hand_fields, hidden, stored_games

NAMES = {"side_list-0-name": "Us", "side_list-1-name": "Them"}


def new_game(client: FlaskClient) -> str:
    page = client.get("/games/new?system=classic&table=2x2").text
    response = client.post(
        "/games/new?system=classic&table=2x2",
        data={**NAMES, "csrf_token": hidden(page, "csrf_token")},
    )
    assert response.status_code == 302
    return response.headers["Location"].removeprefix("/games/")


def test_a_new_game_without_a_csrf_token_is_refused(
    csrf_app: Flask, csrf_client: FlaskClient
) -> None:
    response = csrf_client.post("/games/new?system=classic&table=2x2", data=NAMES)
    assert response.status_code == 400
    assert "This form has expired" in response.text
    assert stored_games(csrf_app) == 0


def test_a_new_game_with_the_pages_csrf_token_is_set_up(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    assert csrf_client.get(f"/games/{game_id}").status_code == 200


def test_a_hand_without_a_csrf_token_is_refused(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    response = csrf_client.post(
        f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN])
    )
    assert response.status_code == 400
    assert csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"] == []


def test_a_hand_with_the_pages_csrf_token_is_recorded(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    page = csrf_client.get(f"/games/{game_id}/hands/new").text
    data = hand_fields(
        [GOES_OUT, STAYS_IN],
        csrf_token=hidden(page, "csrf_token"),
        token=hidden(page, "token"),
    )
    response = csrf_client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 302
    assert len(csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"]) == 1


def test_deleting_a_hand_without_a_csrf_token_is_refused(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    page = csrf_client.get(f"/games/{game_id}/hands/new").text
    csrf_client.post(
        f"/games/{game_id}/hands/new",
        data=hand_fields([GOES_OUT, STAYS_IN], csrf_token=hidden(page, "csrf_token")),
    )
    hand_id = csrf_client.get(f"/games/{game_id}").text.split('<tr id="hand-')[1].split('"')[0]
    response = csrf_client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": 1})
    assert response.status_code == 400
    assert len(csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"]) == 1
