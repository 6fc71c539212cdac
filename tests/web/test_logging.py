"""A line per request and every error with its traceback, on standard error, at the level the
settings say."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.web import create_app, serving
from scorekeeper.web.http import request_log
from scorekeeper.web.http.access import Access, needs

from .apps import TEST_CONFIG, built_app


class Spilt(RuntimeError):
    """What the test's broken page raises."""


@pytest.fixture
def broken_app() -> Flask:
    """The app with a page that raises, answered as a server would (a 500, not the exception)."""
    app = built_app({**TEST_CONFIG, "PROPAGATE_EXCEPTIONS": False})

    @needs(Access.PUBLIC)
    def broken() -> str:
        raise Spilt("coffee on the score sheet")

    app.add_url_rule("/broken", view_func=broken)
    return app


def request_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == request_log.REQUESTS.name]


def test_every_request_gets_a_line_with_method_path_status_and_time(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scorekeeper")
    client = app.test_client()
    client.get("/rules?system=classic")
    client.get("/games/no-such-game")
    client.post("/pin/forget")
    lines = request_lines(caplog)
    assert len(lines) == 3
    method, path, status, milliseconds, unit = lines[0].split(" ")
    assert (method, path, status, unit) == ("GET", "/rules", "200", "ms")
    assert float(milliseconds) >= 0
    assert lines[1].startswith("GET /games/no-such-game 404 ")
    assert lines[2].startswith("POST /pin/forget 302 ")


def test_a_server_error_is_logged_with_its_traceback_and_its_line(
    broken_app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="scorekeeper")
    answer = broken_app.test_client().get("/broken")
    assert answer.status_code == 500
    assert "coffee" not in answer.text  # the phone gets plain words, the log the traceback
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert errors[0].exc_info is not None and errors[0].exc_info[0] is Spilt
    assert "coffee on the score sheet" in caplog.text
    assert "Traceback" in caplog.text
    assert request_lines(caplog)[0].startswith("GET /broken 500 ")


def test_outside_a_test_the_lines_go_to_standard_error_even_after_the_migrations(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`scorekeeper serve` migrates in the process it serves from, and Alembic configures
    logging as it starts."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'games.sqlite3'}")
    monkeypatch.delenv("SCOREKEEPER_LOG_LEVEL", raising=False)
    app = create_app()
    serving.upgrade(app)
    app.test_client().get("/healthz")
    create_app().test_client().get("/healthz")  # a second app adds no second handler
    written = capsys.readouterr()
    assert written.out == ""
    lines = [line for line in written.err.splitlines() if "GET /healthz 200" in line]
    assert len(lines) == 2
    assert " INFO scorekeeper.web.requests: GET /healthz 200 " in lines[0]


def test_at_warning_the_requests_are_not_written_but_errors_are(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "sqlite://")
    monkeypatch.setenv("SCOREKEEPER_LOG_LEVEL", "warning")
    app = create_app()
    assert app.config["LOG_LEVEL"] == "WARNING"
    app.logger.error("a table lost its database")
    app.test_client().get("/healthz")
    written = capsys.readouterr().err
    assert "GET /healthz" not in written
    assert "ERROR scorekeeper.web: a table lost its database" in written
    assert written.count("a table lost its database") == 1  # not Flask's handler too


def test_a_level_that_logging_does_not_know_stops_the_app_from_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_LOG_LEVEL", "chatty")
    with pytest.raises(ValueError, match="SCOREKEEPER_LOG_LEVEL: no such level 'chatty'"):
        create_app()
