"""The test apps' shortcuts (apps.py) give what the app itself would."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from sqlalchemy import select
from werkzeug.routing import Map, Rule

from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Side
from tests.web import apps

A_GAME = {
    "variant": "classic",
    "sides": [{"name": "Compiled once", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [],
}


def code(builder: Any) -> tuple[Any, ...]:
    made = builder.__code__
    return made.co_code, made.co_consts, made.co_varnames, builder.__defaults__


def rules() -> list[Rule]:
    """Every rule of the app, and rules that differ from each other only in their defaults or
    in a converter."""
    app = apps.built_app(apps.TEST_CONFIG)
    alike = Map(
        [
            Rule("/a/<int:n>", endpoint="one"),
            Rule("/a/<int:n>", defaults={"n": 1}, endpoint="two"),
            Rule("/a/<int:n>", defaults={"n": 2}, endpoint="three"),
            Rule("/a/<path:n>", endpoint="four"),
            Rule("/a/<string(length=2):n>", endpoint="five"),
        ]
    )
    return [*app.url_map.iter_rules(), *alike.iter_rules()]


@pytest.mark.parametrize("append_unknown", [False, True])
def test_each_rules_address_builder_compiled_once_a_run_is_the_one_werkzeug_makes_for_it(
    append_unknown: bool,
) -> None:
    for rule in rules():
        kept = rule._compile_builder(append_unknown)
        made = apps._compile_builder(rule, append_unknown)
        assert code(kept) == code(made), rule.rule


def test_a_statement_compiled_once_a_run_is_run_on_each_apps_own_database() -> None:
    """The second app finds the statement the first compiled, and reads its own rows with it."""
    first, second = apps.built_app(apps.TEST_CONFIG), apps.built_app(apps.TEST_CONFIG)
    assert first.test_client().post("/games/import", json=A_GAME).status_code == 201
    asked = select(Side.name).where(Side.name.like("Compiled once%"))
    found = []
    for app in (first, second):
        with app.app_context():
            result = db.session.connection().execute(asked)
            found.append((result.scalars().all(), result.context.cache_hit))
            cache_hit = db.engine.dialect.CACHE_HIT
    assert found[0][0] == ["Compiled once"]
    assert found[1] == ([], cache_hit)


def test_dialects_count_as_one_only_when_set_up_alike() -> None:
    app = apps.built_app(apps.TEST_CONFIG)
    with app.app_context():
        dialect = db.engine.dialect
        alike = copy.copy(dialect)
        older = copy.copy(dialect)
        older.server_version_info = (3, 0, 0)
        assert alike == dialect
        assert hash(alike) == hash(dialect)
        assert older != dialect
