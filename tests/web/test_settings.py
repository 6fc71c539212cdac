"""The settings: read once from SCOREKEEPER_ variables, listed in the README, and a secret key that
every process starting together agrees on."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.utils import import_string

from scorekeeper.web import create_app, serving, settings
from tests.command import scorekeeper

pytestmark = pytest.mark.once
"""The settings as read from the environment, on SQLite files of the tests' own: the same
whatever the run's database (measured on the PostgreSQL run: no statement there); run once."""

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """An environment with none of the app's variables, whatever the developer's shell holds."""
    for name in list(os.environ):
        if name.startswith(f"{settings.PREFIX}_") or name == "DATABASE_URL":
            monkeypatch.delenv(name)
    yield monkeypatch


def configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **variables: str) -> Flask:
    """The app as `create_app()` builds it, with an instance folder of its own."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return create_app()


def test_the_readme_table_lists_every_setting_with_its_default_and_what_it_does() -> None:
    rows = re.findall(r"^\| `SCOREKEEPER_.*$", README.read_text(), re.M)
    assert rows == [
        f"| `{setting.name}` | {setting.default} | {setting.meaning} |"
        for setting in settings.SETTINGS
    ]


def test_a_secret_key_in_the_environment_wins_and_no_key_file_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask holds SECRET_KEY as None, so a `setdefault` once ignored the environment's key."""
    app = configured(tmp_path, monkeypatch, SCOREKEEPER_SECRET_KEY="from the environment")
    assert app.config["SECRET_KEY"] == "from the environment"
    assert not (tmp_path / "instance" / "secret_key").exists()


def test_a_secret_key_that_looks_like_a_number_stays_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = configured(tmp_path, monkeypatch, SCOREKEEPER_SECRET_KEY="123456")
    assert app.config["SECRET_KEY"] == "123456"


def test_eight_processes_starting_together_on_an_empty_folder_agree_on_one_key(
    tmp_path: Path,
) -> None:
    starters = 8
    together = threading.Barrier(starters)
    keys: list[str] = []

    def start() -> None:
        together.wait()
        keys.append(settings.secret_key(tmp_path))

    threads = [threading.Thread(target=start) for _ in range(starters)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == starters
    assert len(set(keys)) == 1
    assert keys[0] == (tmp_path / "secret_key").read_text()
    assert [path.name for path in tmp_path.iterdir()] == ["secret_key"]  # no key left half-made
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_where_hard_links_are_refused_the_key_file_is_still_made_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(source: str, target: Path) -> None:
        raise PermissionError(1, "Operation not permitted")  # Android's app storage

    monkeypatch.setattr(os, "link", refused)
    key = settings.secret_key(tmp_path)
    assert len(key) == 64
    assert settings.secret_key(tmp_path) == key
    assert [path.name for path in tmp_path.iterdir()] == ["secret_key"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_the_prefixed_database_url_wins_over_the_conventional_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = configured(
        tmp_path,
        monkeypatch,
        SCOREKEEPER_DATABASE_URL=f"sqlite:///{tmp_path / 'prefixed.sqlite3'}",
        DATABASE_URL=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
    )
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("prefixed.sqlite3")


def test_plain_database_url_is_read_when_the_prefixed_one_is_not_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = configured(tmp_path, monkeypatch, DATABASE_URL=f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("plain.sqlite3")


def test_without_a_database_url_the_database_is_a_file_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = configured(tmp_path, monkeypatch)
    database = tmp_path / "instance" / "scorekeeper.sqlite3"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{database}"
    assert app.instance_path == str(tmp_path / "instance")


def test_from_a_checkout_the_instance_folder_is_beside_the_project() -> None:
    assert settings.is_checkout()
    assert settings.default_instance_path() == README.parent / "instance"
    assert settings.shipped("templates") == README.parent / "templates"


def test_installed_the_instance_folder_is_the_users_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "CHECKOUT", tmp_path / "site-packages")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert not settings.is_checkout()
    assert settings.default_instance_path() == tmp_path / "data" / "samba-scorekeeper"
    assert settings.shipped("static") == settings.PACKAGE / "web" / "static"


def test_a_test_config_keeps_the_environment_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "the developer's")
    monkeypatch.setenv("DATABASE_URL", "postgresql://the-developers-database")
    app = create_app({"SECRET_KEY": "test", "INSTANCE_PATH": str(tmp_path)})
    assert app.config["SECRET_KEY"] == "test"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite3'}"


def test_the_wsgi_entry_point_serves_the_database_that_scorekeeper_upgrade_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `waitress-serve --call` and gunicorn call `scorekeeper.web:create_app()`."""
    database = tmp_path / "club.sqlite3"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "the club's")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{database}")
    upgraded = scorekeeper("upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    assert "up to date" in upgraded.stdout
    app = import_string("scorekeeper.web:create_app")()
    assert isinstance(app, Flask)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{database}"
    assert app.config["SECRET_KEY"] == "the club's"
    home = app.test_client().get("/")
    assert home.status_code == 200
    assert "New game" in home.text


def test_upgrade_says_why_when_the_database_cannot_be_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'no' / 'such.db'}")
    upgraded = scorekeeper("upgrade")
    assert upgraded.returncode == 2
    assert upgraded.stderr.startswith("cannot upgrade the database: ")


def test_serve_listens_where_the_settings_say_unless_told_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listening: list[tuple[str, int]] = []
    monkeypatch.setattr(serving, "upgrade", lambda app: 0)
    monkeypatch.setattr(
        serving.waitress, "serve", lambda app, host, port, **_: listening.append((host, port))
    )
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "s")
    monkeypatch.setenv("SCOREKEEPER_HOST", "0.0.0.0")
    monkeypatch.setenv("SCOREKEEPER_PORT", "8123")
    assert scorekeeper("serve").returncode == 0
    assert scorekeeper("serve", "--host", "127.0.0.1", "--port", "8000").returncode == 0
    assert listening == [("0.0.0.0", 8123), ("127.0.0.1", 8000)]


@pytest.mark.parametrize(
    "written", ["scores.example.org, 192.168.1.20", '["scores.example.org", "192.168.1.20"]']
)
def test_trusted_hosts_are_a_list_with_commas_or_in_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    app = configured(tmp_path, monkeypatch, SCOREKEEPER_TRUSTED_HOSTS=written)
    assert app.config["TRUSTED_HOSTS"] == ["scores.example.org", "192.168.1.20"]


def test_without_trusted_hosts_an_app_under_any_wsgi_server_answers_any_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = configured(tmp_path, monkeypatch, SCOREKEEPER_DATABASE_URL="sqlite://")
    assert app.config["TRUSTED_HOSTS"] is None
    with app.test_client().get("/static/style.css", headers={"Host": "a.example"}) as response:
        assert response.status_code == 200


def served_hosts(monkeypatch: pytest.MonkeyPatch, *arguments: str) -> list[str] | None:
    """The hosts `scorekeeper serve` would answer to, on a machine at 192.168.1.7."""
    trusted: list[list[str] | None] = []
    monkeypatch.setattr(serving, "upgrade", lambda app: 0)
    monkeypatch.setattr(serving, "_routed_address", lambda: "192.168.1.7")
    monkeypatch.setattr(
        serving.waitress, "serve", lambda app, **_: trusted.append(app.config["TRUSTED_HOSTS"])
    )
    assert scorekeeper("serve", *arguments).returncode == 0
    return trusted[0]


def test_serve_answers_the_addresses_it_prints_and_this_machine_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "s")
    hosts = served_hosts(monkeypatch, "--host", "0.0.0.0")
    assert hosts is not None
    assert hosts[0] == "192.168.1.7"
    assert {"localhost", "127.0.0.1"} <= set(hosts)
    assert served_hosts(monkeypatch, "--host", "127.0.0.1") == ["127.0.0.1", "localhost"]


def test_serve_answers_the_trusted_hosts_set_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "s")
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scores.example.org")
    assert served_hosts(monkeypatch, "--host", "0.0.0.0") == ["scores.example.org"]
