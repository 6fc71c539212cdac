"""The web app: `create_app` builds it; blueprints for games, hands and game files."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from . import compress, converters, database, errors, i18n, schema
from .extensions import csrf, migrate
from .models import db

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(__file__).resolve().parents[1]


def _secret_key(instance: Path) -> str:
    """The configured secret key, or one made once and kept in instance/ (never committed)."""
    key_file = instance / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; `test_config` replaces the instance configuration."""
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL")
        or f"sqlite:///{instance / 'scorekeeper.sqlite3'}",
        MAX_CONTENT_LENGTH=1024 * 1024,  # 500 full hands, indented, are about 300 kB
        WTF_CSRF_TIME_LIMIT=None,  # a game lasts longer than an hour
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE / "translations"),
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.setdefault("SECRET_KEY", os.environ.get("SECRET_KEY"))
        if not app.config["SECRET_KEY"]:
            app.config["SECRET_KEY"] = _secret_key(instance)
    else:
        app.config.from_mapping(test_config)

    db.init_app(app)
    schema.check_every_write(db.session)
    with app.app_context():
        database.set_up(db.engine)
    migrate.init_app(app, db, directory=str(PACKAGE / "migrations"))
    csrf.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    compress.init_app(app)

    app.url_map.converters["id"] = converters.IdConverter

    from . import games, hands, history, house_rules, rulebook, transfer

    app.register_blueprint(games.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(transfer.bp)
    app.register_blueprint(rulebook.bp)
    app.register_blueprint(house_rules.bp)
    app.register_blueprint(history.bp)
    return app
