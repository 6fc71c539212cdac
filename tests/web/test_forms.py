"""Names, the no-JavaScript buttons and the preview."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .apps import stored_games
from .helpers import GOES_OUT, STAYS_IN, Actions, errors_of, hand_fields, input_value

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


def summary_of(page: str) -> str:
    """The summary under the hand form, its tags taken out."""
    found = re.search(r'<div class="summary" id="summary" data-preview>(.*?)</div>', page, re.S)
    assert found, "no summary on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_the_summary_shows_each_sides_hand_score_and_new_total(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    blank = client.get(f"/games/{game_id}/hands/new").text
    assert summary_of(blank) == "Us — 0 Them — 0"
    data = hand_fields([GOES_OUT, STAYS_IN], action="preview")
    page = client.post(f"/games/{game_id}/hands/new", data=data).text
    assert summary_of(page) == "Us +2,460 2,460 Them +420 420"
    assert "This hand was not saved" not in page


def test_a_correction_previews_that_hand_in_its_place(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    first_id, _ = actions.hand_ids(game_id)
    edit = f"/games/{game_id}/hands/{first_id}/edit"
    assert summary_of(client.get(edit).text) == "Us — 0 Them — 0"
    data = hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], action="preview")
    page = client.post(edit, data=data).text
    assert summary_of(page) == "Us +2,500 2,500 Them +420 420"
    assert "Total after this hand: 2,500" in page


def test_a_preview_puts_each_problem_next_to_its_control_and_counts_them(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    one_set = {"set_natural_canasta": "1", "melded_points": "200"}
    data = hand_fields([one_set, {"melded_points": "33"}], action="preview")
    page = client.post(f"/games/{game_id}/hands/new", data=data).text
    assert "multiple of 5" in errors_of(page, "sides-1-melded_points")
    assert "This hand was not saved" not in page
    assert "went out with 1 set" in errors_of(page, "ending")
    # Counted in the order of the page, the first one first.
    assert '<a class="problems" href="#cell-ending">2 problems</a>' in page
    data = hand_fields([one_set, {"melded_points": "35"}], action="preview")
    page = client.post(f"/games/{game_id}/hands/new", data=data).text
    assert errors_of(page, "sides-1-melded_points") == ""
    assert '<a class="problems" href="#cell-ending">1 problem</a>' in page
    data = hand_fields([GOES_OUT, {"melded_points": "35"}], action="preview")
    page = client.post(f"/games/{game_id}/hands/new", data=data).text
    assert errors_of(page, "ending") == ""
    assert 'class="problems"' not in page


@pytest.mark.parametrize(
    ("system", "table", "shown", "folded"),
    [
        ("classic", "2x2", ["set_samba", "set_mixed_canasta"], []),
        ("black-samba", "2x2", ["set_black_samba"], []),  # the set it is named after
        (
            "super-samba",
            "2x2",
            ["set_super_samba", "set_sevens_canasta"],
            ["set_red_three_canasta"],
        ),
    ],
)
def test_rare_sets_fold_under_more_sets(
    client: FlaskClient,
    actions: Actions,
    system: str,
    table: str,
    shown: list[str],
    folded: list[str],
) -> None:
    game_id = actions.new_game(system, table)
    page = client.get(f"/games/{game_id}/hands/new").text
    main, _, more = page.partition('<details class="more"')
    for name in shown:
        assert f'id="sides-0-{name}"' in main
    for name in folded:
        assert f'id="sides-0-{name}"' in more and f'id="sides-0-{name}"' not in main
