"""Game files: import, export and result.json agree with the engine and with each other."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import check_game_data

from .apps import stored_games
from .helpers import GOES_OUT, STAYS_IN, Actions

CASES = Path(__file__).resolve().parents[1] / "cases"
GAME_FILES = sorted(p for p in CASES.glob("*.json") if not p.name.endswith(".expected.json"))


def codes(result: dict[str, Any]) -> set[str]:
    found = {v["code"] for v in result["game_violations"]}
    return found | {v["code"] for h in result["hands"] for v in h["violations"]}


def import_json(client: FlaskClient, data: object) -> str:
    response = client.post("/games/import", json=data)
    assert response.status_code == 201, response.text
    location = response.headers["Location"]
    assert location == response.get_json()["location"]
    return location.removeprefix("/games/")


def test_there_are_public_cases() -> None:
    assert len(GAME_FILES) >= 10


@pytest.mark.parametrize("path", GAME_FILES, ids=[p.stem for p in GAME_FILES])
def test_a_public_case_imports_as_the_engine_scores_it_or_is_refused(
    app: Flask, client: FlaskClient, path: Path
) -> None:
    data = json.loads(path.read_text())
    expected = check_game_data(data)
    if codes(expected):
        response = client.post("/games/import", json=data)
        assert response.status_code == 422
        assert {v["code"] for v in response.get_json()["violations"]} == codes(expected)
        assert stored_games(app) == 0
        return
    game_id = import_json(client, data)
    assert client.get(f"/games/{game_id}/result.json").get_json() == expected

    exported = client.get(f"/games/{game_id}/export.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    again = import_json(client, exported.get_json())
    assert client.get(f"/games/{again}/export.json").get_json() == exported.get_json()
    assert client.get(f"/games/{again}/result.json").get_json() == expected
    assert check_game_data(exported.get_json()) == expected


def test_a_game_recorded_through_the_forms_round_trips(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(
        "black-samba",
        "2x2",
        names=("Ana & Bo", "Cy"),
        options=("low_samba_bonus",),
        players={"side_list-0-players-0": "Ana", "side_list-0-players-1": "Bo"},
    )
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["options"] == {"low_samba_bonus": True}
    assert exported["sides"][0]["player_names"] == ["Ana", "Bo"]
    again = import_json(client, exported)
    assert client.get(f"/games/{again}/export.json").get_json() == exported
    assert actions.result(again) == actions.result(game_id) == check_game_data(exported)


def test_an_uploaded_game_file_opens_its_scoreboard(app: Flask, client: FlaskClient) -> None:
    data = (CASES / "classic-game-won.json").read_bytes()
    response = client.post(
        "/games/import",
        data={"game_file": (io.BytesIO(data), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    assert "won with" in client.get(response.headers["Location"]).text
    assert stored_games(app) == 1


def test_an_uploaded_file_that_breaks_the_rules_is_refused_with_its_reasons(
    app: Flask, client: FlaskClient
) -> None:
    data = (CASES / "not-multiple-of-5.json").read_bytes()
    response = client.post(
        "/games/import",
        data={"game_file": (io.BytesIO(data), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "multiple of 5" in response.text
    assert stored_games(app) == 0


def test_an_uploaded_file_that_is_not_json_is_refused(app: Flask, client: FlaskClient) -> None:
    response = client.post(
        "/games/import",
        data={"game_file": (io.BytesIO(b"not json"), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "it is not JSON" in response.text
    assert stored_games(app) == 0


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ('{"variant": "classic"}', "text/plain"),
        ("variant=classic", "application/x-www-form-urlencoded"),
    ],
)
def test_a_json_import_that_is_not_sent_as_json_is_unsupported(
    app: Flask, client: FlaskClient, body: str, content_type: str
) -> None:
    response = client.post("/games/import", data=body, content_type=content_type)
    assert response.status_code == 415
    assert stored_games(app) == 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{not json", "The body is not JSON."),
        ('{"variant": "canasta", "sides": [], "hands": []}', "canasta"),
        ('{"variant": "classic", "sides": "two"}', "sides"),
        ("[]", ""),
    ],
)
def test_a_malformed_game_file_is_a_bad_request_with_a_one_line_reason(
    app: Flask, client: FlaskClient, body: str, message: str
) -> None:
    response = client.post("/games/import", data=body, content_type="application/json")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert message in error
    assert error.strip() and "\n" not in error
    assert "Traceback" not in response.text
    assert stored_games(app) == 0


@pytest.mark.parametrize(
    ("side", "where"),
    [({"name": "Us", "players": 2, "player_names": "Ana"}, "sides[0].player_names")],
)
def test_imported_player_names_that_are_not_a_list_are_not_a_game_file(
    app: Flask, client: FlaskClient, side: dict[str, Any], where: str
) -> None:
    game = {"variant": "classic", "sides": [side, {"name": "Them", "players": 2}], "hands": []}
    response = client.post("/games/import", json=game)
    assert response.status_code == 400
    assert where in response.get_json()["error"]
    assert stored_games(app) == 0


LONG = "n" * 41
LONE_SURROGATE = "\ud800"  # JSON can spell it, a database cannot keep it


def game_file(
    sides: list[dict[str, Any]] | None = None, house_rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A game file of a classic 2 × 2 table, with these sides or house rules."""
    game: dict[str, Any] = {
        "variant": "classic",
        "sides": sides or [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        "hands": [],
    }
    if house_rules is not None:
        game["house_rules"] = house_rules
    return game


def side(name: str = "Us", players: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "players": 2, "player_names": players or []}


BEYOND_THE_APPS_LIMITS = [
    (game_file(house_rules={"name": LONG}), "house_rules.name", "at most 40 characters"),
    (game_file([side(LONG), side("Them")]), "sides[0].name", "at most 40 characters"),
    (game_file([side(), side(players=["Ana", LONG])]), "sides[1].player_names[1]", "at most 40"),
    (game_file(house_rules={"name": LONE_SURROGATE}), "house_rules.name", "a database can keep"),
    (game_file([side(), side(LONE_SURROGATE)]), "sides[1].name", "a database can keep"),
    (game_file([side(players=[LONE_SURROGATE]), side()]), "sides[0].player_names[0]", "database"),
]


@pytest.mark.parametrize(("game", "where", "problem"), BEYOND_THE_APPS_LIMITS)
def test_a_game_file_beyond_what_the_app_keeps_is_refused_naming_the_key(
    app: Flask, client: FlaskClient, game: dict[str, Any], where: str, problem: str
) -> None:
    assert check_game_data(game)["hands"] == []  # `scorekeeper check` reads it
    response = client.post("/games/import", data=json.dumps(game), content_type="application/json")
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert where in error
    assert problem in error
    assert stored_games(app) == 0


@pytest.mark.parametrize(("game", "where", "problem"), BEYOND_THE_APPS_LIMITS)
def test_an_uploaded_game_file_beyond_what_the_app_keeps_is_refused_naming_the_key(
    app: Flask, client: FlaskClient, game: dict[str, Any], where: str, problem: str
) -> None:
    response = client.post(
        "/games/import",
        data={"game_file": (io.BytesIO(json.dumps(game).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert where in response.text
    assert problem in response.text
    assert stored_games(app) == 0


def test_a_house_rule_name_of_40_characters_imports(app: Flask, client: FlaskClient) -> None:
    import_json(client, game_file(house_rules={"name": "n" * 40}))
    assert stored_games(app) == 1
