"""The test apps' shortcuts (apps.py) give what the app itself would."""

from __future__ import annotations

import copy
from typing import Any

from sqlalchemy import bindparam, create_engine, select
from werkzeug import security
from werkzeug.routing import Map, Rule

from scorekeeper.web.extensions import db
from scorekeeper.web.store import database
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


def maps() -> list[Map]:
    """The app's map, and a map of rules that differ from each other only in their defaults or
    in a converter (and one given once more, compiled the second time from the first)."""
    app = apps.built_app(apps.TEST_CONFIG)
    return [
        app.url_map,
        Map(
            [
                Rule("/a/<int:n>", endpoint="one"),
                Rule("/a/<int:n>", defaults={"n": 1}, endpoint="two"),
                Rule("/a/<int:n>", defaults={"n": 2}, endpoint="three"),
                Rule("/a/<path:n>", endpoint="four"),
                Rule("/a/<string(length=2):n>", endpoint="five"),
                Rule("/b/<int(min=1):n>", endpoint="six"),
                Rule("/b/<int(min=1):n>", endpoint="seven"),
            ]
        ),
    ]


def compiled(rule: Rule) -> dict[str, Any]:
    """What compiling a rule leaves in it; its converters and address builders by what they
    are, and whether each is its own rule's (bound to it, of its map)."""
    found = dict(vars(rule))
    found["map"] = rule.map.converters
    found["_converters"] = {
        name: (type(c), {k: v for k, v in vars(c).items() if k != "map"}, c.map is rule.map)
        for name, c in rule._converters.items()
    }
    for builder in ("_build", "_build_unknown"):
        found[builder] = (code(found[builder]), found[builder].__self__ is rule)
    return found


def test_each_rule_compiled_once_a_run_is_as_werkzeug_compiles_it() -> None:
    """A rule given what was compiled for one alike before is the rule werkzeug compiles, with
    converters and address builders of its own (a second app's rules, too)."""
    for _app in range(2):
        for url_map in maps():
            for rule in url_map.iter_rules():
                own = Map(converters=dict(url_map.converters))
                made = rule.empty()
                made.bind(own)  # compiled, once a run: from one before it
                werkzeugs = rule.empty()
                werkzeugs.map = own
                werkzeugs.strict_slashes, werkzeugs.merge_slashes = own.strict_slashes, True
                werkzeugs.subdomain = ""
                apps._compile(werkzeugs)  # as werkzeug compiles it, afresh
                assert compiled(made) == compiled(werkzeugs), rule.rule
                assert all(c is not rule._converters[n] for n, c in made._converters.items())
                assert made._trace is not rule._trace and made._parts is not rule._parts


def test_a_rule_compiled_once_a_run_builds_and_matches_its_own_addresses() -> None:
    """Rules alike but for their defaults or a converter's arguments each build and match their
    own addresses."""
    for url_map in maps()[1:] * 2:
        urls = url_map.bind("test")
        assert urls.build("one", {"n": 5}) == "/a/5"
        assert urls.build("two", {}) == "/a/1"
        assert urls.build("three", {}) == "/a/2"
        assert urls.build("four", {"n": "x/y"}) == "/a/x/y"
        assert urls.match("/a/ab") == ("five", {"n": "ab"})
        assert urls.match("/a/abc") == ("four", {"n": "abc"})
        assert urls.match("/b/3") == ("six", {"n": 3})


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


def test_a_servers_pin_hashed_once_a_run_is_werkzeugs_hash_of_that_pin() -> None:
    """Apps made with one PIN share its hash; each PIN's is werkzeug's, by its default method."""
    first, second, other = (
        apps.built_app({**apps.TEST_CONFIG, "PIN": pin}) for pin in ("2468", "2468", "1357")
    )
    hashed = first.config["PIN_HASH"]
    assert second.config["PIN_HASH"] == hashed
    method = security.generate_password_hash("any").split("$", 1)[0]
    assert hashed.split("$", 1)[0] == method
    assert security.check_password_hash(hashed, "2468")
    assert not security.check_password_hash(hashed, "1357")
    assert security.check_password_hash(other.config["PIN_HASH"], "1357")
    assert not security.check_password_hash(other.config["PIN_HASH"], "2468")


def test_a_peek_is_compiled_once_for_each_kind_of_database() -> None:
    """What `database.peek` compiled is kept under the engine's dialect, not the engine: every
    test's app has an engine of its own, whose id another engine, of another kind of database,
    takes once it is gone (a PostgreSQL statement was once run on SQLite so)."""
    asked = select(Side.name).where(Side.name == bindparam("name"))
    # Made as every test's app makes its engine (tests/web/apps.py).
    engines = [apps._statements_compiled_once(create_engine("sqlite://")) for _ in range(3)]
    compiled = {id(database._compiled(asked, engine)) for engine in engines}
    postgresql = apps._statements_compiled_once(create_engine("postgresql+psycopg://"))
    other = database._compiled(asked, postgresql)
    assert len(compiled) == 1
    assert "?" in database._compiled(asked, engines[0]).sql
    assert "%(name)s" in other.sql
