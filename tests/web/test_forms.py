"""Names, the no-JavaScript buttons and the preview."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import (
    GOES_OUT,
    STAYS_IN,
    Actions,
    errors_of,
    hand_fields,
    input_value,
    stored_games,
)

SCRIPT = "<script>alert(1)</script>"


def test_a_side_name_is_shown_escaped(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game(names=(SCRIPT, "Them"))
    pages = [
        actions.scoreboard(game_id),
        client.get(f"/games/{game_id}/hands/new").text,
        client.get("/").text,
    ]
    for page in pages:
        assert SCRIPT not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert actions.result(game_id)["hands"] == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("side_list-0-name", "x" * 41, "Field cannot be longer than 40 characters."),
        ("side_list-1-name", "", "This field is required."),
        ("side_list-0-players-0", "p" * 41, "Field cannot be longer than 40 characters."),
        ("side_list-1-start_score", "lots", "Not a valid integer value."),
    ],
)
def test_a_new_game_with_a_bad_field_is_refused_with_a_message(
    app: Flask, client: FlaskClient, field: str, value: str, message: str
) -> None:
    data = {"side_list-0-name": "Us", "side_list-1-name": "Them", field: value}
    response = client.post("/games/new?system=classic&table=2x2", data=data)
    assert response.status_code == 422
    assert message in errors_of(response.text, field)
    assert (input_value(response.text, field) or "") == value
    assert stored_games(app) == 0


def test_a_name_of_forty_characters_is_kept_whole(client: FlaskClient, actions: Actions) -> None:
    name = "y" * 40
    game_id = actions.new_game(names=(name, "Them"))
    assert name in actions.scoreboard(game_id)


@pytest.mark.parametrize(
    ("typed", "bump", "shown"),
    [("2", "1", "3"), ("", "1", "1"), ("2", "-1", "1"), ("0", "-1", "0")],
)
def test_the_plus_and_minus_buttons_change_the_count_and_record_nothing(
    client: FlaskClient, actions: Actions, typed: str, bump: str, shown: str
) -> None:
    game_id = actions.new_game()
    data = hand_fields(
        [{"set_samba": typed, "melded_points": "115"}, {}], bump=f"sides-0-set_samba:{bump}"
    )
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 200
    assert input_value(response.text, "sides-0-set_samba") == shown
    assert input_value(response.text, "sides-0-melded_points") == "115"
    assert actions.result(game_id)["hands"] == []


def test_the_card_counter_fills_in_the_points(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    data = hand_fields(
        [{"melded_cards-jokers": "1", "melded_cards-aces": "2", "hand_points": "15"}, {}],
        count="sides-0-melded",
    )
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 200
    assert input_value(response.text, "sides-0-melded_points") == "90"
    assert input_value(response.text, "sides-0-hand_points") == "15"
    assert actions.result(game_id)["hands"] == []


def test_preview_shows_the_scores_and_records_nothing(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    data = hand_fields([GOES_OUT, STAYS_IN], action="preview")
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 200
    assert "+2,460" in response.text
    assert "+420" in response.text
    assert input_value(response.text, "sides-0-melded_points") == "260"
    assert actions.result(game_id)["hands"] == []


def test_the_live_preview_returns_the_scores_as_a_fragment(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    response = client.post(
        f"/games/{game_id}/hands/preview", data=hand_fields([GOES_OUT, STAYS_IN])
    )
    assert response.status_code == 200
    assert "+2,460" in response.text
    assert "<html" not in response.text
    assert actions.result(game_id)["hands"] == []


def test_the_live_preview_of_a_correction_scores_that_hand(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    data = hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], hand_id=str(hand_id))
    response = client.post(f"/games/{game_id}/hands/preview", data=data)
    assert "+2,500" in response.text
    assert "Total after this hand: 2,500" in response.text


def test_the_live_preview_of_an_unfinished_form_asks_for_more(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    data = hand_fields([{"melded_points": "abc"}, {}])
    response = client.post(f"/games/{game_id}/hands/preview", data=data)
    assert response.status_code == 200
    assert "Fill in the numbers to see the scores." in response.text
