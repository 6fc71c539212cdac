"""The web app: `create_app` builds it in named steps (the Flask app, its database, the kept
parts, what runs around every view, the templates' globals, the proxies it trusts, the pages).

The rooms: `http/` runs around every view, `pages/` holds one module per blueprint, `presenters/`
works out what pages show, `forms/` reads what is sent, `services/` writes (one transaction
each), `store/` keeps and reads; docs/architecture.md walks through them.

`create_app()` is also the WSGI entry point, `scorekeeper.web:create_app()`, for any WSGI server
(`waitress-serve --call scorekeeper.web:create_app`, `gunicorn 'scorekeeper.web:create_app()'`);
it takes its settings from the environment (settings.py) and expects `scorekeeper upgrade` to
have brought the database up to date.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import http, settings, templating
from .extensions import db, migrate
from .presenters import parts
from .services import kept, outcomes, push
from .store import database, schema

PACKAGE = settings.PACKAGE


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app from the settings; `test_config` replaces the environment's."""
    config = settings.read(test_config)
    app = _flask_app(config)
    _bind_database(app)
    push.init_app(app)
    parts.init_app(app)
    kept.init_app(app)
    outcomes.init_app(app)
    http.install(app)
    templating.install(app)
    _trust_proxies(app)
    _register_pages(app)
    return app


def _flask_app(config: dict[str, Any]) -> Flask:
    """The Flask app with its folders and configuration (the instance folder made if need be)."""
    instance = Path(config["INSTANCE_PATH"]).expanduser().absolute()
    app = Flask(
        __name__,
        instance_path=str(instance),
        template_folder=str(settings.shipped("templates")),
        static_folder=str(settings.shipped("static")),
    )
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=config.get("DATABASE_URL")
        or f"sqlite:///{instance / 'scorekeeper.sqlite3'}",
        MAX_CONTENT_LENGTH=1024 * 1024,  # 500 full hands, indented, are about 300 kB
        WTF_CSRF_TIME_LIMIT=None,  # a game lasts longer than an hour
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE / "translations"),
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    app.config.update(config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = settings.secret_key(instance)
    return app


def _bind_database(app: Flask) -> None:
    """The database: every write checked against the schema, SQLite's settings, migrations."""
    db.init_app(app)
    schema.check_every_write(db.session)
    with app.app_context():
        database.set_up(db.engine)
    migrate.init_app(app, db, directory=str(PACKAGE / "migrations"))


def _trust_proxies(app: Flask) -> None:
    """Behind that many proxies (`PROXY_FIX`), the client's address (the PIN's wrong guesses are
    counted by it) and https are theirs to say. Not the host: the proxy passes the phone's `Host`
    on, and a forwarded host that a client could set would get past TRUSTED_HOSTS."""
    proxies = app.config["PROXY_FIX"]
    if proxies:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=0, x_port=0, x_prefix=0
        )


def _register_pages(app: Flask) -> None:
    """Every page's blueprint: the only place that imports the page modules."""
    from .pages import (
        backup,
        director,
        events,
        game_files,
        games,
        hands,
        health,
        history,
        house_rules,
        install,
        nights,
        result,
        rules,
        seasons,
        sharing,
        standings,
        what_if,
    )
    from .pages import settings as settings_page

    for page in (
        games,
        hands,
        game_files,
        backup,
        rules,
        what_if,
        house_rules,
        history,
        sharing,
        settings_page,
        health,
        result,
        install,
        events,
        nights,
        director,
        standings,
        seasons,
    ):
        app.register_blueprint(page.bp)
