"""Every setting of the app, listed once: its name, its default and what it does.

The settings come from the environment, each with the `SCOREKEEPER_` prefix, read once when
`create_app` builds the app (Flask's `from_prefixed_env`); the README's table lists the same
ones (a test compares them). Nothing else in the package reads the environment: the commands
and the server take what they need from the app's config.
"""

from __future__ import annotations

import logging
import os
import secrets
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
from flask import Config

PREFIX = "SCOREKEEPER"
# The project's checkout, if the package runs from one (editable install or PYTHONPATH); an
# installed package sits in site-packages, with no pyproject.toml two folders up.
CHECKOUT = Path(__file__).resolve().parents[2]
PACKAGE = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Setting:
    """One setting: `SCOREKEEPER_<key>` in the environment, `key` in the app's config."""

    key: str
    default: str
    meaning: str
    kind: Callable[[Any], object] = str

    @property
    def name(self) -> str:
        return f"{PREFIX}_{self.key}"


def host_names(value: object) -> list[str]:
    """Host names as a setting gives them: a JSON list, or text separated by commas."""
    if isinstance(value, list):
        return [str(name).strip() for name in value if str(name).strip()]
    return [name.strip() for name in str(value).split(",") if name.strip()]


def log_level(value: object) -> str:
    """A level of the standard `logging` module by name (`info` is `INFO`); any other refused
    when the app starts rather than when the first line is logged."""
    name = str(value).strip().upper()
    if name not in logging.getLevelNamesMapping():
        raise ValueError(f"{PREFIX}_LOG_LEVEL: no such level {value!r}")
    return name


SETTINGS = (
    Setting(
        "DATABASE_URL",
        "SQLite: `scorekeeper.sqlite3` in the instance folder",
        "The database, as an SQLAlchemy URL (`sqlite:////srv/samba/scores.sqlite3`). "
        "Plain `DATABASE_URL`, the usual name on hosting services, is read when this is not set.",
    ),
    Setting(
        "SECRET_KEY",
        "made once and kept in `secret_key` in the instance folder",
        "Signs the sessions and the forms' CSRF tokens. Set it to the same value for every "
        "server process of one app; when it is set, the key file is neither read nor made.",
    ),
    Setting(
        "INSTANCE_PATH",
        "`instance/` in a checkout; otherwise the user's data folder "
        "(`~/.local/share/samba-scorekeeper` on Linux)",
        "The folder of the app's own files: the SQLite database and the secret key.",
    ),
    Setting(
        "HOST",
        "`127.0.0.1`",
        "Where `scorekeeper serve` listens unless `--host` says otherwise; `0.0.0.0` lets "
        "phones on the same network reach it.",
    ),
    Setting("PORT", "`5000`", "The port of `scorekeeper serve` unless `--port` says.", int),
    Setting(
        "PIN",
        "none: everything is open",
        "The table's PIN. With one, only phones that entered it (or a game's join or follow "
        "link) see and change games; set this way, the settings page cannot change it (a PIN set "
        "there before can be removed there). Every server process sharing the secret key, and "
        "the server after a restart, lets in a phone that entered it; another PIN signs every "
        "phone out.",
    ),
    Setting(
        "TRUSTED_HOSTS",
        "under `scorekeeper serve`: the addresses it prints, `localhost` and `127.0.0.1`; "
        "under another WSGI server: any",
        "The host names the app answers to, separated by commas (`scores.example.org,"
        "192.168.1.20`) or as a JSON list; a `Host` header naming any other gets a 400, so that "
        "a page of another site cannot reach the app through DNS rebinding. A name starting "
        "with a dot takes its subdomains too; empty answers any host.",
        host_names,
    ),
    Setting(
        "LOG_LEVEL",
        "`INFO`",
        "What goes to standard error: `INFO` writes a line per request (method, path, status, "
        "time in milliseconds) and every error with its traceback; `WARNING` or `ERROR` only "
        "the errors, `DEBUG` more.",
        log_level,
    ),
    Setting(
        "PROXY_FIX",
        "`0`: no proxy",
        "How many reverse proxies stand in front of the app. With 1 or more, the app believes "
        "the client's address (`X-Forwarded-For`) and `https` (`X-Forwarded-Proto`) that that "
        "many proxies add, as Werkzeug's `ProxyFix` reads them, under any WSGI server and under "
        "`scorekeeper serve` (waitress leaves them in); over https cookies are `Secure`. The "
        "proxy passes `Host` as the phone sent it. Set it only behind a proxy: without one, "
        "anyone could claim any address.",
        int,
    ),
    Setting(
        "STREAMS",
        "under `scorekeeper serve`: 400; under another WSGI server: 0",
        "How many event streams (a following page's push of each new hand) one server process "
        "holds at once; each holds a thread under waitress and gunicorn's gthread workers. The "
        "streams of one address, of one share link and of one night's standings link hold at "
        "most a quarter of them (at least 8), so that whoever holds a link leaves the table's "
        "phones theirs. Over it, or with 0, a page asks every 2 s instead (as with sync "
        "workers, which cannot hold a stream).",
        int,
    ),
    Setting(
        "BODY_SECONDS",
        "`60`",
        "The longest a request's body may take to arrive: it is read whole before the app "
        "touches the database, so that a phone sending slowly holds a thread at most, never one "
        "of the database's connections, and past this it is answered 408. Under gunicorn "
        "reached without a proxy; waitress and a reverse proxy read each body whole themselves.",
        int,
    ),
    Setting(
        "STREAM_SECONDS",
        "`600`",
        "The longest a stream lasts (each one ends at random between half of it and all of "
        "it, and the page opens another): a phone frozen in a pocket gives back its stream.",
        int,
    ),
)


def is_checkout() -> bool:
    """Whether the package runs from the project's checkout rather than an installed wheel."""
    return (CHECKOUT / "pyproject.toml").is_file()


def shipped(folder: str) -> Path:
    """`templates` or `static`: at the top of a checkout, inside the web package once installed
    (pyproject maps them there)."""
    return CHECKOUT / folder if is_checkout() else PACKAGE / "web" / folder


def default_instance_path() -> Path:
    """`instance/` beside the project in a checkout; a per-user data folder when installed, so
    that an installed app never writes into site-packages."""
    if is_checkout():
        return CHECKOUT / "instance"
    return Path(platformdirs.user_data_dir("samba-scorekeeper", appauthor=False))


def read(test_config: Mapping[str, Any] | None = None) -> Config:
    """The settings: the defaults, then the environment; a test's config replaces the
    environment entirely, so that a developer's variables never reach a test."""
    config = Config(str(PACKAGE))
    config.update(
        INSTANCE_PATH=str(default_instance_path()),
        HOST="127.0.0.1",
        PORT=5000,
        LOG_LEVEL="INFO",
        PROXY_FIX=0,
        STREAMS=None,
        BODY_SECONDS=60,
        STREAM_SECONDS=600,
    )
    if test_config is None:
        config.from_prefixed_env(PREFIX)
        # The conventional name, as hosting services set it; the prefixed one wins.
        if "DATABASE_URL" not in config and os.environ.get("DATABASE_URL"):
            config["DATABASE_URL"] = os.environ["DATABASE_URL"]
        # from_prefixed_env reads values as JSON where it can (5000 is a number): a secret key
        # or a path that happens to look like a number is still text.
        for setting in SETTINGS:
            if setting.key in config and config[setting.key] is not None:
                config[setting.key] = setting.kind(config[setting.key])
    else:
        config.update(test_config)
    return config


def secret_key(instance: Path) -> str:
    """The key kept in `instance/secret_key`, made by whichever process gets there first.

    The key is written to a file of its own and then linked into place, which fails if the key
    file is already there: so the file is never seen half-written, and processes starting
    together all read the one key that won (each writing its own would expire sessions at
    random).
    """
    key_file = instance / "secret_key"
    if not key_file.exists():
        handle, written = tempfile.mkstemp(dir=instance, prefix=".secret_key-")  # mode 0600
        try:
            with os.fdopen(handle, "w") as new:
                new.write(secrets.token_hex(32))
            try:
                os.link(written, key_file)
            except FileExistsError:
                pass  # another process won: its key is the one
            except OSError:
                _create_once(key_file, Path(written).read_text())
        finally:
            os.unlink(written)
    return key_file.read_text().strip()


def _create_once(key_file: Path, key: str) -> None:
    """Where hard links are refused (Android's app storage, under Termux), create the file only
    if it is not there; a family's one `scorekeeper serve` has no one to race."""
    try:
        handle = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(handle, "w") as new:
        new.write(key)
