"""`scorekeeper serve`: where phones find the app, and a secret key kept in instance/."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.web import create_app, serving
from scorekeeper.web.serving import addresses


def test_serving_on_all_addresses_lists_this_machine() -> None:
    found = addresses("0.0.0.0", 5000)
    assert "http://127.0.0.1:5000/" in found
    assert all(a.startswith("http://") and a.endswith(":5000/") for a in found)


def test_serving_on_one_address_lists_only_that_one() -> None:
    assert addresses("192.168.1.20", 8080) == ["http://192.168.1.20:8080/"]


def test_an_app_without_test_config_makes_its_secret_key_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "sqlite://")
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    app = create_app()
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert app.config["SECRET_KEY"] == key_file.read_text().strip()
    assert len(app.config["SECRET_KEY"]) == 64
    assert create_app().config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_the_network_address_phones_can_open_comes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serving, "_routed_address", lambda: "192.168.1.7")
    found = addresses("0.0.0.0", 5000)
    assert found[0] == "http://192.168.1.7:5000/"
    assert "http://127.0.0.1:5000/" in found


@pytest.mark.parametrize("streams", [400, 1000, 1500, 3000])
def test_every_phone_of_the_club_night_its_streams_serve_finds_a_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, streams: int
) -> None:
    """Streams enough for a club night's tables (three followers of four by stream) leave
    room for every phone's page connection besides: past the limit phones wait unanswered
    (300 tables on 1,000 streams timed out with the server's CPU idle)."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "sqlite://")
    monkeypatch.setenv("SCOREKEEPER_STREAMS", str(streams))
    settings = serving.waitress_settings(create_app())
    tables = streams // 3
    assert settings["threads"] > streams
    assert settings["connection_limit"] >= tables * 5 + streams
    # Every one of them at once (the server restarted) waits to be accepted, none turned away.
    assert settings["backlog"] >= tables * 5 + streams
