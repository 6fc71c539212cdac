"""The test apps' shortcuts (apps.py) give what the app itself would."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.routing import Map, Rule

from tests.web import apps


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
