"""`/healthz`: 200 while the database answers, 503 while it does not, and no game read."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import create_app

from .apps import TEST_CONFIG, built_app, statements
from .helpers import game_of


def test_a_server_whose_database_answers_is_healthy(client: FlaskClient) -> None:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.text == "ok\n"
    assert answer.mimetype == "text/plain"


def test_a_server_whose_database_is_out_of_reach_says_so_with_a_503(tmp_path: Path) -> None:
    unreachable = f"sqlite:///{tmp_path / 'no such folder' / 'games.sqlite3'}"
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": unreachable})
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.text == "database unavailable\n"


def test_the_check_asks_the_database_one_select_and_reads_no_game(
    app: Flask, client: FlaskClient
) -> None:
    game_of(client, 3)
    with statements(app, with_access=True) as seen:
        assert client.get("/healthz").status_code == 200
    asked = [statement for statement in seen if statement != "BEGIN"]
    assert asked == ["SELECT 1"]


def test_the_check_is_never_stored_and_sets_no_cookie(client: FlaskClient) -> None:
    answer = client.get("/healthz")
    assert answer.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in answer.headers
    assert "ETag" not in answer.headers


def test_with_a_pin_the_check_is_open_to_anyone() -> None:
    """A proxy or a service manager has no PIN."""
    app = built_app({**TEST_CONFIG, "PIN": "2468"})
    assert app.test_client().get("/healthz").status_code == 200
    assert app.test_client().get("/").status_code == 403
