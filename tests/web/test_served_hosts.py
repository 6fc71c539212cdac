"""The hosts `scorekeeper serve` answers when SCOREKEEPER_TRUSTED_HOSTS is set, as the README
says: empty answers any host, and a name starting with a dot takes its subdomains too."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.web import serving, settings

pytestmark = pytest.mark.once
"""The app `scorekeeper serve` would serve, on SQLite in memory whatever the run's database: run
once."""

Serve = Callable[[str | None], Flask]


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Serve:
    """`scorekeeper serve` on 127.0.0.1, with SCOREKEEPER_TRUSTED_HOSTS as given (None: not
    set) and nothing else of the developer's environment: the app it would serve."""
    for name in list(os.environ):
        if name.startswith(f"{settings.PREFIX}_") or name == "DATABASE_URL":
            monkeypatch.delenv(name)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "s")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "sqlite://")
    monkeypatch.setattr(serving, "upgrade", lambda app: 0)  # a static file needs no tables
    settled: list[bool] = []
    # The test process's objects stay collectable (a later test's garbage must be collected).
    monkeypatch.setattr(serving, "settle", lambda: settled.append(True))
    served: list[Flask] = []
    monkeypatch.setattr(serving.waitress, "serve", lambda app, **_: served.append(app))

    def serving_with(trusted: str | None) -> Flask:
        if trusted is not None:
            monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", trusted)
        assert serving.serve("127.0.0.1", 5000) == 0
        assert settled, "serve keeps what it loaded out of the collector's passes"
        return served[-1]

    return serving_with


def answer(app: Flask, host: str) -> int:
    """The status of the stylesheet asked for with this `Host`."""
    with app.test_client().get("/static/style.css", headers={"Host": host}) as response:
        return response.status_code


@pytest.mark.parametrize("written", ["", " ", " , "])
def test_an_empty_trusted_hosts_setting_names_no_host(written: str) -> None:
    assert settings.host_names(written) == []


@pytest.mark.parametrize(
    "written",
    [".example.org, 192.168.1.20", [".example.org", "192.168.1.20"]],
    ids=["with-commas", "in-json"],
)
def test_a_trusted_host_keeps_its_leading_dot(written: str | list[str]) -> None:
    assert settings.host_names(written) == [".example.org", "192.168.1.20"]


def test_serve_with_the_trusted_hosts_set_empty_answers_any_host(serve: Serve) -> None:
    assert answer(serve(None), "evil.example") == 400  # unset: only what serve prints
    anywhere = serve("")
    for host in ("evil.example", "scores.example.org:8080", "192.168.1.21", "localhost"):
        assert answer(anywhere, host) == 200, host


def test_serve_with_a_trusted_host_starting_with_a_dot_answers_its_subdomains(
    serve: Serve,
) -> None:
    app = serve(".example.org")
    for host in ("scores.example.org", "a.b.example.org:5000", "example.org"):
        assert answer(app, host) == 200, host
    for host in ("evil.example", "example.org.evil.example", "notexample.org", "localhost"):
        assert answer(app, host) == 400, host


def test_settling_keeps_what_is_loaded_out_of_the_collectors_passes() -> None:
    """What `scorekeeper serve` does before it serves: what is loaded is frozen (a full pass
    of the collector over it set the heavy pages' p99), the garbage collected first."""
    try:
        serving.settle()
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
