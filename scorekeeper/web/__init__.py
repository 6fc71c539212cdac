"""The web app: `create_app` builds it; blueprints for games, hands and game files.

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

from . import (
    access,
    caching,
    compress,
    converters,
    csrf,
    database,
    door,
    errors,
    i18n,
    request_log,
    schema,
    security,
    settings,
)
from .extensions import migrate
from .models import db

PACKAGE = settings.PACKAGE


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app from the settings; `test_config` replaces the environment's."""
    config = settings.read(test_config)
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
        PERMANENT_SESSION_LIFETIME=access.REMEMBERED,  # a year, not Flask's 31 days
    )
    app.config.update(config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = settings.secret_key(instance)

    db.init_app(app)
    schema.check_every_write(db.session)
    with app.app_context():
        database.set_up(db.engine)
    migrate.init_app(app, db, directory=str(PACKAGE / "migrations"))
    door.init_app(app)  # first: the game's door comes before every check and every view
    access.init_app(app)  # then who may come in, before anything answers
    caching.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    compress.init_app(app)
    security.init_app(app)

    app.url_map.converters["id"] = converters.IdConverter
    app.url_map.converters["player"] = converters.PlayerConverter

    request_log.init_app(app)
    proxies = app.config["PROXY_FIX"]
    if proxies:
        # Behind that many proxies, the client's address (the PIN's wrong guesses are counted
        # by it) and https are theirs to say. Not the host: the proxy passes the phone's `Host`
        # on, and a forwarded host that a client could set would get past TRUSTED_HOSTS.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=0, x_port=0, x_prefix=0
        )

    from . import (
        games,
        hands,
        health,
        history,
        house_rules,
        install,
        result,
        rulebook,
        settings_page,
        table,
        transfer,
        what_if,
    )

    app.register_blueprint(games.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(transfer.bp)
    app.register_blueprint(rulebook.bp)
    app.register_blueprint(what_if.bp)
    app.register_blueprint(house_rules.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(settings_page.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(result.bp)
    app.register_blueprint(install.bp)
    return app
