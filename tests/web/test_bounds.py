"""Every input bounded, every failure a clear answer: what a relative with a phone types."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.rules import gamefile
from scorekeeper.web.store.models import START_SCORE_LIMIT

from .apps import statements, stored_games
from .helpers import GOES_OUT, STAYS_IN, Actions, errors_of, input_value, upload

HUGE = {"10^10": 10**10, "10^18": 10**18, "10^30": 10**30}
EMPTY_HAND = {"ended_by": "stock_exhausted", "entries": [{}, {}]}


def counted(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[object]:
    """The calls made to `module.name` from now on (their first argument each)."""
    calls: list[object] = []
    original: Callable[..., Any] = getattr(module, name)

    def counting(first: object, *args: Any, **kwargs: Any) -> Any:
        calls.append(first)
        return original(first, *args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def game_file(start_scores: tuple[Any, Any] = (0, 0), hands: int = 0) -> dict[str, Any]:
    return {
        "variant": "classic",
        "sides": [
            {"name": name, "players": 2, "start_score": score}
            for name, score in zip(("Us", "Them"), start_scores, strict=True)
        ],
        "hands": [EMPTY_HAND] * hands,
    }


def is_error_page(response: TestResponse, status: int) -> bool:
    """The app's own error page (or JSON error), not werkzeug's, not a traceback."""
    if response.status_code != status or "Traceback" in response.text:
        return False
    if response.is_json:
        return bool(response.get_json()["error"])
    return "Back to the games" in response.text


# --- start scores --------------------------------------------------------------------------------


@pytest.mark.parametrize("score", HUGE.values(), ids=HUGE.keys())
def test_a_huge_start_score_is_refused_next_to_the_field_keeping_what_was_typed(
    app: Flask, actions: Actions, score: int
) -> None:
    response = actions.post_new_game(
        names=("Ana y Bo", "Cy y Di"),
        start_scores=(score, -250),
        players={"side_list-0-players-0": "Ana"},
    )
    assert response.status_code == 422
    page = response.text
    assert "100,000" in errors_of(page, "side_list-0-start_score")
    assert errors_of(page, "side_list-1-start_score") == ""
    assert input_value(page, "side_list-0-start_score") == str(score)
    assert input_value(page, "side_list-1-start_score") == "-250"
    assert input_value(page, "side_list-0-name") == "Ana y Bo"
    assert input_value(page, "side_list-0-players-0") == "Ana"
    assert stored_games(app) == 0


def test_a_start_score_at_the_limit_either_way_is_kept(actions: Actions) -> None:
    game_id = actions.new_game(start_scores=(START_SCORE_LIMIT, -START_SCORE_LIMIT))
    assert actions.result(game_id)["totals"] == [START_SCORE_LIMIT, -START_SCORE_LIMIT]


def test_the_start_score_message_is_in_spanish_on_a_spanish_page(client: FlaskClient) -> None:
    client.set_cookie("lang", "es")
    response = client.post(
        "/games/new?system=classic&table=2x2",
        data={"side_list-0-name": "A", "side_list-1-name": "B", "side_list-0-start_score": "1e9"},
    )
    assert response.status_code == 422
    response = client.post(
        "/games/new?system=classic&table=2x2",
        data={
            "side_list-0-name": "A",
            "side_list-1-name": "B",
            "side_list-0-start_score": "-200000",
        },
    )
    assert "100.000" in errors_of(response.text, "side_list-0-start_score")
    assert "cifra" in errors_of(response.text, "side_list-0-start_score")


@pytest.mark.parametrize("score", HUGE.values(), ids=HUGE.keys())
def test_an_imported_huge_start_score_is_refused_naming_the_side_and_the_limit(
    app: Flask, client: FlaskClient, score: int
) -> None:
    response = client.post("/games/import", json=game_file((0, -score)))
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert "Them" in error and "100,000" in error and "Us" not in error
    uploaded = upload(client, json.dumps(game_file((score, 0))).encode())
    assert uploaded.status_code == 422
    assert "Us: a score carried over" in uploaded.text and "100,000" in uploaded.text
    assert stored_games(app) == 0


# --- ids, query arguments and page numbers -------------------------------------------------------

TOO_BIG_IDS = [str(10**20), str(10**30), str(2**63), "0", "00"]


@pytest.mark.parametrize("hand_id", TOO_BIG_IDS)
@pytest.mark.parametrize(
    ("method", "path"), [("GET", ""), ("GET", "/edit"), ("POST", "/edit"), ("POST", "/delete")]
)
def test_a_hand_id_no_database_holds_is_not_found(
    client: FlaskClient, actions: Actions, hand_id: str, method: str, path: str
) -> None:
    game_id = actions.new_game()
    response = client.open(f"/games/{game_id}/hands/{hand_id}{path}", method=method)
    assert is_error_page(response, 404)
    assert "There is no such page" in response.text


@pytest.mark.parametrize("rule_id", TOO_BIG_IDS)
@pytest.mark.parametrize(
    ("method", "path"), [("GET", ""), ("GET", "/edit"), ("POST", "/edit"), ("POST", "/delete")]
)
def test_a_house_rule_id_no_database_holds_is_not_found(
    client: FlaskClient, rule_id: str, method: str, path: str
) -> None:
    response = client.open(f"/house-rules/{rule_id}{path}", method=method)
    assert is_error_page(response, 404)


def test_the_largest_id_a_database_holds_is_simply_not_there(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    assert client.get(f"/games/{game_id}/hands/{2**63 - 1}").status_code == 404
    assert client.get(f"/house-rules/{2**63 - 1}").status_code == 404


def test_a_real_hand_is_still_found(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    assert client.get(f"/games/{game_id}/hands/{hand_id}").status_code == 200
    assert client.get(f"/games/{game_id}/hands/{hand_id}/edit").status_code == 200


@pytest.mark.parametrize("house", ["²", "١", "-1", "0", "1.5", str(10**20), "abc", ""])
def test_a_house_argument_that_is_not_an_id_is_not_found(client: FlaskClient, house: str) -> None:
    assert is_error_page(client.get("/games/new", query_string={"house": house}), 404)


@pytest.mark.parametrize("page", [str(10**30), "10^30", str(2**63), "0", "-1", "abc", "1.5"])
def test_a_page_number_that_is_not_one_is_not_found(client: FlaskClient, page: str) -> None:
    response = client.get("/games", query_string={"page": page})
    assert is_error_page(response, 404)


def test_a_page_far_past_the_last_lists_nothing_and_links_back_to_the_last(
    client: FlaskClient, actions: Actions
) -> None:
    actions.new_game()
    response = client.get(f"/games?page={2**63 - 1}")
    assert response.status_code == 200
    assert "No games match." in response.text
    assert 'href="/games?page=1"' in response.text


# --- game files ----------------------------------------------------------------------------------

DEEP = b"[" * 100_000 + b"]" * 100_000
LONG_NUMBER = b'{"variant": "classic", "sides": [{"name": "Us", "start_score": %s}]}' % (
    b"9" * 5000
)


@pytest.mark.parametrize(("body", "reason"), [(DEEP, "nest more than 20"), (LONG_NUMBER, "5,000")])
def test_deep_json_and_a_5000_digit_number_are_refused_with_a_reason(
    app: Flask, client: FlaskClient, body: bytes, reason: str
) -> None:
    sent = client.post("/games/import", data=body, content_type="application/json")
    assert is_error_page(sent, 400)
    assert reason in sent.get_json()["error"]
    uploaded = upload(client, body)
    assert uploaded.status_code == 422
    assert "This file is not a game file" in uploaded.text and reason in uploaded.text
    assert stored_games(app) == 0


def test_json_nested_just_below_the_parsers_limit_is_refused_too(client: FlaskClient) -> None:
    body = {"variant": "classic", "sides": [{"name": json.loads("[" * 500 + "]" * 500)}]}
    response = client.post("/games/import", json=body)
    assert response.status_code == 400
    assert "nest more than 20" in response.get_json()["error"]


def test_a_long_fraction_is_read_as_a_number_and_refused_by_the_rules(client: FlaskClient) -> None:
    hand = {"entries": [{"went_out": True, "melded_points": float("1" + "0" * 400)}, {}]}
    response = client.post("/games/import", json={**game_file(), "hands": [hand]})
    assert response.status_code in (400, 422)


def test_twenty_thousand_hands_are_refused_at_once_naming_the_limit(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = json.dumps(game_file(hands=20_000), separators=(",", ":")).encode()
    assert len(body) < 1024 * 1024  # so that the hand limit, not the size limit, answers
    # Reading and scoring them took 16 s, and every later page 10-20 s: refused before any
    # hand is read, and nothing is written.
    hands_read = counted(monkeypatch, gamefile, "_hand")
    with statements(app) as seen:
        sent = client.post("/games/import", data=body, content_type="application/json")
        uploaded = upload(client, body)
    assert hands_read == [] and seen == []
    assert sent.status_code == 422
    assert sent.get_json()["error"] == "A game file holds at most 500 hands; this one has 20,000."
    assert uploaded.status_code == 422 and "at most 500 hands" in uploaded.text
    assert stored_games(app) == 0


def test_a_game_file_of_500_hands_is_imported(client: FlaskClient) -> None:
    response = client.post("/games/import", json=game_file(hands=500))
    assert response.status_code == 201
    assert client.get(response.get_json()["location"]).status_code == 200


def test_a_game_file_over_1_mb_is_too_large_and_says_the_limit(
    app: Flask, client: FlaskClient
) -> None:
    body = json.dumps({**game_file(), "padding": "x" * 1024 * 1024}).encode()
    sent = client.post("/games/import", data=body, content_type="application/json")
    assert is_error_page(sent, 413)
    assert sent.get_json()["detail"] == "A game file is at most 1 MB."
    uploaded = upload(client, body)
    assert uploaded.status_code == 413 and "at most 1 MB" in uploaded.text
    assert stored_games(app) == 0


# --- house-rule numbers --------------------------------------------------------------------------


@pytest.mark.parametrize("value", [str(10**30), "9" * 400, "-5"])
def test_a_house_rule_number_beyond_the_engine_is_refused_next_to_its_field(
    client: FlaskClient, value: str
) -> None:
    response = client.post(
        "/house-rules/new?system=classic",
        data={"name": "Casa", "going_out_bonus": value, "first_meld-0-minimum": "50"},
    )
    assert response.status_code == 422
    assert errors_of(response.text, "going_out_bonus")
    assert input_value(response.text, "going_out_bonus") == value


# --- the language's way back ---------------------------------------------------------------------


@pytest.mark.once  # the way back after a language is chosen: no database
@pytest.mark.parametrize(
    "back",
    [
        "//evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "https://evil",
        "javascript:alert(1)",
        "/games\nSet-Cookie: a=b",
        "/games\r\n",
        "/\tevil.example",
        "",
    ],
)
def test_the_language_goes_back_only_to_a_path_on_this_site(client: FlaskClient, back: str) -> None:
    response = client.post("/language", data={"lang": "es", "next": back})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "lang=es" in response.headers["Set-Cookie"]


@pytest.mark.once  # the way back after a language is chosen: no database
def test_a_nul_in_the_way_back_is_taken_out_before_the_view_reads_it(client: FlaskClient) -> None:
    """No keyboard types a NUL and PostgreSQL cannot hold one: every form's text comes to the
    views without it (http/converters.py), the way back too."""
    response = client.post("/language", data={"lang": "es", "next": "/ga\x00mes"})
    assert response.headers["Location"] == "/games"


@pytest.mark.once  # the way back after a language is chosen: no database
@pytest.mark.parametrize("back", ["/games?page=2&player=Ana", "/rules/classic#going-out", "/"])
def test_the_language_goes_back_to_the_page_it_was_chosen_on(
    client: FlaskClient, back: str
) -> None:
    response = client.post("/language", data={"lang": "en", "next": back})
    assert response.headers["Location"] == back


def test_an_upload_under_another_field_name_is_refused_not_a_server_error(
    client: FlaskClient,
) -> None:
    head = b'--b\r\nContent-Disposition: form-data; name="other"; filename="g.json"\r\n\r\n'
    body = head + b"{}\r\n--b--\r\n"
    response = client.post(
        "/games/import", data=body, content_type="multipart/form-data; boundary=b"
    )
    assert response.status_code == 422
