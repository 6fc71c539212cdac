"""The table's settings (`table_setting`): one value a key."""

from __future__ import annotations

from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..extensions import db
from .models import TableSetting


def keep_setting(key: str, value: str) -> None:
    """Inside a write: the setting `key` made `value`, made or replaced in one statement, so
    that two writes setting it at once both succeed, the later one's value kept (on
    PostgreSQL each would otherwise see no row yet, and the second fail on the key)."""
    postgresql = db.session.get_bind().dialect.name == "postgresql"
    insert = postgresql_insert if postgresql else sqlite_insert
    statement = insert(TableSetting).values(key=key, value=value)
    db.session.execute(
        statement.on_conflict_do_update(index_elements=["key"], set_={"value": value})
    )
