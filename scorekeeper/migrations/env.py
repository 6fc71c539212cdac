from __future__ import annotations

import logging
from collections.abc import Iterable
from logging.config import fileConfig

from alembic import context
from alembic.operations.ops import MigrationScript
from alembic.runtime.migration import MigrationContext
from flask import current_app
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine, MetaData

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging, unless the process has set up its own (a test
# run's capture, a server's): fileConfig replaces the root logger's handlers. The app's own
# loggers stay on: `scorekeeper serve` migrates in the process that then serves, and its request
# log and errors must still be written.
if config.config_file_name is not None and not logging.getLogger().handlers:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


# Flask-Migrate keeps the app's Flask-SQLAlchemy extension here (an untyped registry).
target_db: SQLAlchemy = current_app.extensions["migrate"].db


def get_engine() -> Engine:
    # Flask-SQLAlchemy >= 3.1 (pyproject): `get_engine()` is deprecated there.
    return target_db.engine


def get_engine_url() -> str:
    # SQLAlchemy >= 2.0 (pyproject) renders a URL with its password this way.
    return get_engine().url.render_as_string(hide_password=False).replace("%", "%%")


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option("sqlalchemy.url", get_engine_url())

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata() -> MetaData:
    return target_db.metadatas[None]


def run_migrations_offline() -> None:
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=get_metadata(), literal_binds=True)

    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(
        context: MigrationContext,
        revision: str | Iterable[str | None],
        directives: list[MigrationScript],
    ) -> None:
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops is None or script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    connectable = get_engine()

    with connectable.connect() as connection:
        # SQLite alters a table by copying it (batch migrations), which foreign keys would stop;
        # the pragma works only outside a transaction, so it goes to the driver's connection.
        driver = connection.connection.driver_connection  # None only once closed
        sqlite = connection.dialect.name == "sqlite"
        if sqlite and driver is not None:
            driver.execute("PRAGMA foreign_keys=OFF")
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)

        try:
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if sqlite and driver is not None:
                connection.rollback()
                driver.execute("PRAGMA foreign_keys=ON")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
