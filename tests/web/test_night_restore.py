"""A restore keeps a club night whole or refuses it, writing nothing (issue 34, point 7); and a
director's button whose number is not one (`²`, a digit to `str.isdigit`, not to `int`) is
refused in words, changing nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.services.restore import BackupError, is_empty, restore

from .apps import TEST_CONFIG, backup_of, built_app
from .helpers import GOES_OUT, STAYS_IN, Actions
from .nights import PAIRS, cards, end, night_state, set_up, start, table_game

Backup = dict[str, Any]


def two_nights(client: FlaskClient) -> list[str]:
    """Two nights of four pairs at two tables, round 1 of each played and ended."""
    made = []
    for _ in range(2):
        night_id = set_up(client, PAIRS[:4], round_count="2", round_hands="1")
        start(client, night_id, 1)
        for url in cards(client, night_id).values():
            game_id = table_game(client, url)
            assert game_id is not None
            Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
        end(client, night_id, 1)
        made.append(night_id)
    return made


def seat(data: Backup, night: int, round_index: int, table_index: int) -> dict[str, Any]:
    seat: dict[str, Any] = data["nights"][night]["rounds"][round_index]["seats"][table_index]
    return seat


def marked_with_the_other_night(data: Backup) -> None:
    game_id = seat(data, 0, 0, 0)["game_id"]
    game = next(g for g in data["games"] if g["id"] == game_id)
    game["night_id"] = data["nights"][1]["id"]


def seated_twice(data: Backup) -> None:
    seat(data, 0, 0, 1)["game_id"] = seat(data, 0, 0, 0)["game_id"]


def seated_in_two_nights(data: Backup) -> None:
    seat(data, 1, 0, 0)["game_id"] = seat(data, 0, 0, 0)["game_id"]


def naming_a_missing_pair(data: Backup) -> None:
    seat(data, 0, 1, 0)["ew"] = 12


def pairs_numbered_with_a_gap(data: Backup) -> None:
    data["nights"][0]["pairs"][3]["number"] = 5


def current_round_past_its_last(data: Backup) -> None:
    data["nights"][0]["current_round"] = 3


def current_round_behind_a_started_one(data: Backup) -> None:
    data["nights"][0]["current_round"] = 0


def at_a_missing_table(data: Backup) -> None:
    seat(data, 0, 1, 1)["table"] = 7


def a_game_in_a_round_not_started(data: Backup) -> None:
    seat(data, 0, 1, 0)["game_id"] = seat(data, 0, 0, 0)["game_id"]
    seat(data, 0, 0, 0)["game_id"] = None


def a_round_missing(data: Backup) -> None:
    del data["nights"][0]["rounds"][1]


def a_pair_seated_twice_in_a_round(data: Backup) -> None:
    seat(data, 0, 1, 1)["ns"] = seat(data, 0, 1, 0)["ns"]


def sat_out_and_at_a_table(data: Backup) -> None:
    data["nights"][0]["rounds"][0]["sitting_out"] = [seat(data, 0, 0, 0)["ns"]]


def gone_a_pair_it_has_not(data: Backup) -> None:
    data["nights"][0]["rounds"][0]["absent"] = [9]


def a_record_of_a_round_not_started(data: Backup) -> None:
    data["nights"][0]["rounds"][1]["sitting_out"] = []


def counted_while_in_play(data: Backup) -> None:
    seat(data, 0, 1, 0)["counting"] = "not-played"


BROKEN: list[tuple[Callable[[Backup], None], str]] = [
    (marked_with_the_other_night, r"games\[\d+\]\.night_id: not the night it is seated in"),
    (seated_twice, r"nights\[0\]\.rounds\[0\]\.seats\[1\]\.game_id: .* has another seat"),
    (seated_in_two_nights, r"nights\[1\]\.rounds\[0\]\.seats\[0\]\.game_id: .* another seat"),
    (naming_a_missing_pair, r"seats\[0\]\.ew: pair 12 is not one of the night's pairs"),
    (pairs_numbered_with_a_gap, r"nights\[0\]\.pairs: numbered \[1, 2, 3, 5\], not 1 to 4"),
    (current_round_past_its_last, r"nights\[0\]\.current_round: 3 is past its last round, 2"),
    (current_round_behind_a_started_one, r"rounds\[0\]\.started_at: round 1 started, the current"),
    (at_a_missing_table, r"rounds\[1\]\.seats\[1\]\.table: the night has no table 7"),
    (a_game_in_a_round_not_started, r"rounds\[1\]\.seats\[0\]\.game_id: a game in a round not"),
    (a_round_missing, r"nights\[0\]\.rounds: numbered \[1\], not 1 to round_count"),
    (sat_out_and_at_a_table, r"rounds\[0\]\.sitting_out: pair 1 is in two places"),
    (gone_a_pair_it_has_not, r"rounds\[0\]\.absent: pair 9 is not one of the night's pairs"),
    (a_record_of_a_round_not_started, r"rounds\[1\]\.sitting_out: a round not started has"),
    (counted_while_in_play, r"rounds\[1\]\.seats\[0\]\.counting: no game stopped by its"),
    (a_pair_seated_twice_in_a_round, r"rounds\[1\]\.seats\[1\]\.ns: pair \d is seated twice"),
]


@pytest.fixture(scope="module")
def whole() -> str:
    """The backup of two nights, as its file's text: made once, read afresh by each test."""
    app = built_app(TEST_CONFIG)
    two_nights(app.test_client())
    return json.dumps(backup_of(app))


@pytest.fixture
def backup(whole: str) -> Backup:
    data: Backup = json.loads(whole)
    return data


@pytest.mark.parametrize(("breaks", "message"), BROKEN, ids=[b.__name__ for b, _m in BROKEN])
def test_a_restore_refuses_a_night_that_is_not_whole_and_writes_nothing(
    backup: Backup, breaks: Callable[[Backup], None], message: str
) -> None:
    breaks(backup)
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        with pytest.raises(BackupError, match=message):
            restore(backup)
        assert is_empty()


def test_the_same_backup_whole_is_restored(backup: Backup) -> None:
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        assert restore(backup) == 4
    assert backup_of(restored) == backup


DIRECTORS_BUTTONS = [("start", "round"), ("end-round", "round"), ("leaves", "pair")]
DIRECTORS_BUTTONS += [("returns", "pair")]
NOT_NUMBERS = ["²", "١", "٣", "-1", "0", "1.5", " 1", "", str(10**30), "9" * 5000]


@pytest.mark.parametrize(("button", "field"), DIRECTORS_BUTTONS)
def test_a_directors_button_whose_number_is_not_one_is_refused_and_changes_nothing(
    client: FlaskClient, app: Flask, button: str, field: str
) -> None:
    night_id = set_up(client, PAIRS[:4], round_count="2")
    if button == "end-round":
        start(client, night_id, 1)
    if button == "returns":
        client.post(f"/nights/{night_id}/leaves", data={"pair": "2", "confirm": "yes"})
    before = night_state(app, night_id)
    for sent in NOT_NUMBERS:
        answer = client.post(f"/nights/{night_id}/{button}", data={field: sent})
        assert answer.status_code == 302, sent
        page = client.get(answer.headers["Location"]).text
        assert "is not a round or pair number: nothing was changed" in page, sent
        assert night_state(app, night_id) == before, sent


@pytest.mark.parametrize("pairs", ["²", "١٢", "1", "201", "", "x", "9" * 5000])
def test_a_nights_first_step_asked_for_a_number_of_pairs_that_is_not_one_says_so(
    client: FlaskClient, pairs: str
) -> None:
    answer = client.get("/nights/new", query_string={"pairs": pairs})
    assert answer.status_code == 422
    assert 'id="pairs"' in answer.text
