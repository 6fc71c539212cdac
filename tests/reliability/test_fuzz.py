"""Fuzzing every route and form: whatever a phone sends, the answer is never a server error, and a
refused form comes back with what was typed.

Each endpoint of the app has a request maker below; a route added without one fails
`test_every_route_is_fuzzed`. Path parameters, query strings, form fields (read from the form's
own page, so a new field is fuzzed without a change here), JSON bodies and uploaded files get
random text, numbers huge and small, digits of other scripts, deep nesting and missing fields.
"""

from __future__ import annotations

import functools
import html
import json
import re
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask, got_request_exception
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from werkzeug.routing import Map
from werkzeug.test import TestResponse

from scorekeeper import rules
from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.http.converters import PlayerConverter
from scorekeeper.web.services import push
from scorekeeper.web.store.models import (
    Game,
    Hand,
    HouseRule,
    Night,
    NightTable,
    Player,
    PlayerMerge,
)
from scorekeeper.web.store.seasons import Season
from tests import postgres
from tests.figures import FIGURES
from tests.web.apps import built_app, migrated_postgresql

CONFIG = {
    "TESTING": True,
    "PROPAGATE_EXCEPTIONS": False,  # a 500 is answered as a user would see it, and counted
    "SECRET_KEY": "fuzz",
    "SQLALCHEMY_DATABASE_URI": "sqlite://",
    "WTF_CSRF_ENABLED": False,
    "STREAMS": 4,  # a game's event stream is opened, and read to its end:
    "STREAM_SECONDS": 0,  # it ends at once, after the revision
}

# --- values --------------------------------------------------------------------------------------

ODD = [
    "",
    " ",
    "0",
    "-0",
    "-1",
    "1.5",
    "1e9",
    "0x10",
    "1_000",
    "10^30",
    str(10**10),
    str(10**18),
    str(10**20),
    str(10**30),
    str(2**63),
    str(-(2**63) - 1),
    "9" * 400,  # an int too large for a float
    "9" * 5000,  # longer than Python reads as an int
    "NaN",
    "inf",
    "²",
    "١٢",
    "٣",
    "\x00",
    "\r\n",
    "a\nb",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "//evil.example",
    "/\\evil.example",
    "ß" * 40,
    "ﬃ" * 40,
    "𝔘" * 41,
    "x" * 1000,
    "Ана",
    "عربي",
    "🂡🂱",
]
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=50)
VALUES = st.one_of(
    st.sampled_from(ODD),
    TEXT,
    st.integers(-(10**40), 10**40).map(str),
    st.integers(-300, 3000).map(str),
)
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.floats(),
    TEXT,
    st.sampled_from(ODD),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


STRAY_FIELDS = {most: st.dictionaries(TEXT.filter(bool), VALUES, max_size=most) for most in (1, 2)}
"""A field or two that no form or query string has.

The strategies drawn from for every input are made once, here and in `among` and `_up_to`:
Hypothesis checks a strategy the first time it is drawn from, and one made anew for each input
was checked anew each time (a tenth of the fuzzing's CPU, for the same draws)."""


@functools.cache
def among(items: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    """`st.sampled_from(items)`, made once for each set of items."""
    return st.sampled_from(items)


@functools.cache
def _up_to(least: int, most: int) -> st.SearchStrategy[int]:
    return st.integers(least, most)


def one_in(draw: Any, n: int) -> bool:
    """True one time in `n` (Hypothesis's own booleans lean to False)."""
    return bool(draw(_up_to(1, n)) == 1)


def pick(draw: Any, items: list[Any]) -> Any:
    """One of `items`, which change as the fuzzing goes (drawn as an index, so that Hypothesis
    can replay a failing example against other items)."""
    return items[draw(_up_to(0, 99)) % len(items)]


def segment(text: str) -> str:
    """A value as one path segment."""
    return quote(text, safe="")


def player_page(key: str) -> str:
    """A player's page, its address as the app writes it."""
    return "/players/" + PlayerConverter(Map()).to_url(key)


# --- the app and what is in it -------------------------------------------------------------------

A_GAME = {
    "variant": "classic",
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["Ana", "Bo"], "start_score": 500},
        {"name": "Them", "players": 2, "player_names": ["Cy", "Di"]},
    ],
    "hands": [
        {
            "entries": [
                {
                    "went_out": True,
                    "opening_meld": 120,
                    "sets": {"samba": 1, "natural_canasta": 1},
                    "melded_points": 260,
                    "red_threes": 1,
                },
                {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30},
            ]
        },
        {
            "ended_by": "stock_exhausted",
            "entries": [{"melded_points": 90, "hand_points": 15}, {"melded_points": 50}],
        },
    ],
}


@dataclass
class World:
    """The app under fuzz and what it holds now (ids change as the fuzzing renames and deletes)."""

    app: Flask
    client: FlaskClient
    pages: dict[str, str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    """The exception behind each 500, as one line ("where: what")."""

    listed: dict[str, list[Any]] = field(default_factory=dict)
    """The ids each query found when an endpoint's fuzzing began: what Hypothesis draws from must
    not change under it from one example to the next (a form that adds a house rule did, and
    Hypothesis stopped with FlakyStrategyDefinition)."""

    def ids(self, key: str, query: Any) -> list[Any]:
        """What `query` finds, read once for each `key` while an endpoint is fuzzed."""
        if key not in self.listed:
            with self.app.app_context():
                self.listed[key] = list(db.session.scalars(query).all())
        return self.listed[key]

    def games(self) -> list[str]:
        return self.ids("games", select(Game.id).order_by(Game.created_at)) or ["no-game"]

    def hands(self, game_id: str) -> list[int]:
        query = select(Hand.id).where(Hand.game_id == game_id)
        return self.ids(f"hands of {game_id}", query) or [1]

    def house_rules(self) -> list[int]:
        return self.ids("house rules", select(HouseRule.id)) or [1]

    def players(self) -> list[str]:
        query = select(Player.key).where(Player.key != "").distinct()
        return self.ids("players", query) or ["ana"]

    def deleted_games(self) -> list[str]:
        query = select(Game.id).where(Game.deleted_at.is_not(None))
        return self.ids("deleted games", query) or ["no-game"]

    def merges(self) -> list[int]:
        return self.ids("merges", select(PlayerMerge.id)) or [1]

    def nights(self) -> list[str]:
        return self.ids("nights", select(Night.id).order_by(Night.created_at)) or ["no-night"]

    def night_tokens(self) -> list[str]:
        query = select(Night.follow_token).order_by(Night.created_at)
        return self.ids("night tokens", query) or ["no-night"]

    def table_tokens(self) -> list[str]:
        query = select(NightTable.token).order_by(NightTable.id)
        return self.ids("table tokens", query) or ["no-card"]

    def seasons(self) -> list[str]:
        query = select(Season.id).order_by(Season.created_at, Season.id)
        return self.ids("seasons", query) or ["none"]

    def season_tokens(self) -> list[str]:
        query = select(Season.follow_token).order_by(Season.created_at)
        return self.ids("season tokens", query) or ["none"]

    def page(self, url: str) -> str:
        """A form's page as it was first shown (its fields do not change while fuzzing)."""
        if url not in self.pages:
            self.pages[url] = self.client.get(url).text
        return self.pages[url]


def build_world() -> World:
    if postgres.on_postgresql():
        # The world lasts the module, longer than a test's own databases (whose apps are closed
        # when each test ends: tests/postgres.py).
        url = postgres.fresh_database(template=migrated_postgresql(), lasting=True)
        app = create_app({**CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    else:
        # A copy of the database the migrations built once in this worker: each worker that
        # the fuzzing is spread to (tests/conftest.py, SPREAD) makes a world of its own.
        app = built_app(CONFIG)
    client = app.test_client()
    world = World(app, client)

    def failed(sender: Flask, exception: BaseException, **extra: Any) -> None:
        where = traceback.extract_tb(exception.__traceback__)[-1]
        line = f"{where.filename}:{where.lineno}: {type(exception).__name__}: {exception}"
        world.failures.append(line[:300])

    got_request_exception.connect(failed, app, weak=False)
    app.logger.disabled = True  # the test reports each 500; a thousand tracebacks fill the memory
    for game in (A_GAME, {**A_GAME, "variant": "denexa"}):
        assert client.post("/games/import", json=game).status_code == 201
    house = form_defaults(client.get("/house-rules/new?system=classic").text)
    house["name"] = "Casa"
    assert client.post("/house-rules/new?system=classic", data=house).status_code == 302
    # Two club nights of five pairs, the first with its round 1 being played: the fuzzing may
    # end or delete only the second, so that the other endpoints keep a night to work on.
    for name in ("Club", "Other"):
        night = {
            "name": name,
            "system": "classic",
            "movement": "mitchell",
            "ranking": "wins",
            "round_count": "2",
            "round_hands": "2",
            **{f"pairs-{i}-{k}": f"{name}{k}{i}" for i in range(5) for k in ("first", "second")},
        }
        assert client.post("/nights/new?pairs=5", data=night).status_code == 302
    assert client.post(f"/nights/{world.nights()[0]}/start", data={"round": "1"}).status_code == 302
    # A season of the first night: the fuzzing may change it, and delete only seasons it made.
    season = form_defaults(client.get("/seasons/new").text)
    season.update(name="Spring", nights=world.nights()[0])
    assert client.post("/seasons/new", data=season).status_code == 302
    # Read now, while its player is there: renaming, merging and deleting games change who is,
    # and a form read later from another player's page would make Hypothesis's replays differ.
    world.pages[PLAYER_PAGE] = client.get(player_page(world.players()[0])).text
    world.pages[MERGE_PAGE] = client.get(player_page(world.players()[0]) + "/merge").text
    return world


PLAYER_PAGE = "a player's page"
MERGE_PAGE = "a player's merge page"


# --- forms, read from their pages ----------------------------------------------------------------

TAG = re.compile(r"<(input|button|textarea)\b([^>]*)>()|<(select)\b([^>]*)>(.*?)</select>", re.S)
ATTRIBUTE = re.compile(r'([\w-]+)(?:="([^"]*)")?')
OPTION = re.compile(r'<option[^>]*value="([^"]*)"')


@dataclass(frozen=True)
class FormField:
    name: str
    kind: str  # input type, or select, button, textarea
    values: tuple[str, ...]  # what the page itself offers
    shown: str | None  # the value it shows, if any
    on: bool  # checked or selected


def form_fields(page: str) -> list[FormField]:
    """Every named field of every form on a page."""
    found = []
    for match in TAG.findall(page):
        tag, attributes, inner = match[:3] if match[0] else match[3:]
        attrs = {k: html.unescape(v) for k, v in ATTRIBUTE.findall(attributes)}
        if "name" not in attrs or attrs["name"] == "csrf_token":
            continue
        kind = attrs.get("type", "text") if tag == "input" else tag
        values = tuple(html.unescape(v) for v in OPTION.findall(inner or ""))
        if "value" in attrs:
            values += (attrs["value"],)
        on = "checked" in attributes or kind in ("text", "number", "hidden", "search")
        found.append(FormField(attrs["name"], kind, values, attrs.get("value"), on))
    return found


def form_defaults(page: str) -> dict[str, str]:
    """What the page's forms send untouched (no button pressed)."""
    data: dict[str, str] = {}
    for f in form_fields(page):
        if f.kind in ("button", "submit", "select"):
            continue
        if f.on and f.values:
            data[f.name] = f.values[-1]
    return data


def typed_fields(page: str) -> dict[str, str]:
    """The text fields a refused form shows, by name, with the value shown."""
    return {
        f.name: f.shown or "" for f in form_fields(page) if f.kind in ("text", "number", "search")
    }


def fuzzed_form(draw: Any, page: str) -> dict[str, str]:
    """Data for the forms on `page`: each field sent as the page has it, fuzzed or left out; one
    button pressed, or none; now and then a field no form has."""
    data: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}
    buttons: list[tuple[str, str]] = []
    for f in form_fields(page):
        if f.kind in ("button", "submit"):
            buttons.extend((f.name, value) for value in f.values)
        else:
            by_name.setdefault(f.name, []).extend(f.values)
    if buttons and not one_in(draw, 4):  # the button pressed, if not Enter
        name, value = draw(among(tuple(buttons)))
        data[name] = draw(VALUES) if one_in(draw, 5) else value
    for name, own in by_name.items():
        # Mostly the page's own values, so that a fuzzed field gets past the others' checks.
        choice = draw(_up_to(1, 20))
        if choice == 1:
            data[name] = draw(VALUES)
        elif choice < 20 and own:
            data[name] = draw(among(tuple(own)))
    if by_name and not one_in(draw, 3):  # one field odd and the rest as the page has them
        data[draw(among(tuple(sorted(by_name))))] = draw(among(tuple(ODD)))
    if one_in(draw, 4):
        data.update(draw(STRAY_FIELDS[2]))
    return data


# --- requests ------------------------------------------------------------------------------------


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    form: dict[str, str] | None = None
    body: bytes | None = None
    content_type: str | None = None

    def send(self, client: FlaskClient, headers: dict[str, str]) -> TestResponse:
        kwargs: dict[str, Any] = {"method": self.method}
        if self.query:
            kwargs["query_string"] = self.query
        if self.form is not None:
            kwargs["data"] = self.form
        if self.body is not None:
            kwargs["data"] = self.body
        if self.content_type is not None:
            kwargs["content_type"] = self.content_type
        response = client.open(self.path, headers=headers, **kwargs)
        response.get_data()  # read it all, so that closing a file's response loses nothing
        response.close()
        return response


def queries(draw: Any, *names: str) -> dict[str, str]:
    """A query string of the given names (each perhaps left out) and perhaps a stray one."""
    query = {name: draw(VALUES) for name in names if not one_in(draw, 3)}
    query.update(draw(STRAY_FIELDS[1]))
    return query


def a_game(draw: Any, world: World) -> str:
    if one_in(draw, 4):
        return segment(draw(VALUES))
    return pick(draw, world.games())


def an_id(draw: Any, known: list[int]) -> str:
    if one_in(draw, 4):
        return draw(st.sampled_from(ODD).map(segment) | st.integers(-(10**30), 10**30).map(str))
    return str(pick(draw, known))


def a_system(draw: Any) -> str:
    return draw(VALUES) if one_in(draw, 4) else draw(st.sampled_from(list(rules.SYSTEMS)))


def a_table(draw: Any) -> str:
    tables = [f"{s}x{p}" for system in rules.SYSTEMS.values() for s, p in system.tables]
    return draw(VALUES) if one_in(draw, 4) else draw(st.sampled_from(tables))


def get(path: str, *query: str) -> Callable[[Any, World], Request]:
    """A page with no input but its query string."""
    return lambda draw, world: Request("GET", path, queries(draw, *query))


def new_game(draw: Any, world: World) -> Request:
    query = {"system": a_system(draw), "table": a_table(draw)}
    if one_in(draw, 3):
        query = {"house": an_id(draw, world.house_rules()), "table": a_table(draw)}
    url = "/games/new?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in query.items())
    if one_in(draw, 4):
        return Request("GET", "/games/new", query)
    return Request("POST", "/games/new", query, fuzzed_form(draw, world.page(url)))


def hand_form(draw: Any, world: World, action: str) -> Request:
    game_id = a_game(draw, world)
    hand_id = an_id(draw, world.hands(game_id)) if action != "new" else ""
    path = {
        "new": f"/games/{game_id}/hands/new",
        "edit": f"/games/{game_id}/hands/{hand_id}/edit",
        "delete": f"/games/{game_id}/hands/{hand_id}/delete",
        "restore": f"/games/{game_id}/hands/{hand_id}/restore",
    }[action]
    if action in ("new", "edit", "delete") and one_in(draw, 4):
        return Request("GET", path, queries(draw))
    page = world.page(f"/games/{world.games()[0]}/hands/new")
    form = fuzzed_form(draw, page)
    if action in ("delete", "restore"):
        form = {} if one_in(draw, 4) else {"version": draw(VALUES)}
    return Request("POST", path, form=form)


def language(draw: Any, world: World) -> Request:
    form = {"lang": draw(st.one_of(st.sampled_from(["en", "es"]), VALUES))}
    if draw(st.booleans()):
        form["next"] = draw(st.one_of(VALUES, TEXT.map(lambda t: "/" + t)))
    return Request("POST", "/language", form=form)


def game_file(draw: Any) -> bytes:
    """A game file: a real one with one value replaced, any JSON, deep nesting or a long number."""
    kind = draw(st.sampled_from(["changed", "changed", "any", "deep", "long number", "bytes"]))
    if kind == "changed":
        data = json.loads(json.dumps(A_GAME))
        place: Any = data
        path = draw(
            st.sampled_from(
                [
                    ("variant",),
                    ("options",),
                    ("house_rules",),
                    ("sides",),
                    ("sides", 0, "name"),
                    ("sides", 0, "players"),
                    ("sides", 1, "start_score"),
                    ("sides", 0, "player_names"),
                    ("hands",),
                    ("hands", 0, "ended_by"),
                    ("hands", 0, "entries"),
                    ("hands", 0, "entries", 0, "went_out"),
                    ("hands", 0, "entries", 0, "opening_meld"),
                    ("hands", 0, "entries", 0, "sets"),
                    ("hands", 0, "entries", 0, "sets", "samba"),
                    ("hands", 0, "entries", 1, "melded_points"),
                    ("hands", 1, "entries", 0, "hand_points"),
                    ("hands", 1, "entries", 1, "penalties"),
                ]
            )
        )
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = draw(JSON_VALUES)
        return json.dumps(data, allow_nan=True).encode()
    if kind == "any":
        return json.dumps(draw(JSON_VALUES), allow_nan=True).encode()
    if kind == "deep":
        depth = draw(st.sampled_from([25, 900, 5000, 100_000]))
        return draw(
            st.sampled_from([b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth])
        )
    if kind == "long number":
        digits = draw(st.sampled_from([101, 400, 4301, 5000]))
        return b'{"variant": "classic", "sides": [{"name": "Us", "start_score": %s}]}' % (
            b"9" * digits
        )
    return draw(st.binary(max_size=200))


def multipart(files: dict[str, bytes]) -> tuple[bytes, str]:
    """A multipart body, made here (the test client leaves a large file in a temporary file)."""
    body = b""
    for name, content in files.items():
        body += (
            b'--fuzz\r\nContent-Disposition: form-data; name="%s"; filename="g.json"\r\n\r\n'
            % name.encode()
        )
        body += content + b"\r\n"
    return body + b"--fuzz--\r\n", "multipart/form-data; boundary=fuzz"


def import_file(draw: Any, world: World) -> Request:
    how = draw(st.sampled_from(["get", "json", "json", "upload", "upload", "form", "other type"]))
    if how == "get":
        return Request("GET", "/games/import", queries(draw))
    if how == "json":
        return Request(
            "POST", "/games/import", body=game_file(draw), content_type="application/json"
        )
    if how == "upload":
        name = draw(st.sampled_from(["game_file", "game_file", "other"]))
        body, content_type = multipart({name: game_file(draw)})
        return Request("POST", "/games/import", body=body, content_type=content_type)
    if how == "form":
        return Request("POST", "/games/import", form={"game_file": draw(VALUES)})
    body = game_file(draw)
    return Request("POST", "/games/import", body=body, content_type=draw(TEXT))


def a_backup(draw: Any, world: World) -> bytes:
    """The world's own backup with one value replaced: the restore reads the whole file before
    it finds the database is not empty, so every one of these is checked."""
    data = json.loads(world.client.get("/backup.json").data)
    path = draw(
        st.sampled_from(
            [
                ("format",),
                ("version",),
                ("games",),
                ("games", 0, "id"),
                ("games", 0, "variant"),
                ("games", 0, "created_at"),
                ("games", 0, "sides", 0, "name"),
                ("games", 0, "sides", 0, "players"),
                ("games", 0, "hands", 0, "entries"),
                ("games", 0, "hands", 0, "entries", 0, "melded_points"),
                ("house_rules",),
            ]
        )
    )
    place: Any = data
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data, allow_nan=True).encode()


def restore_form(draw: Any, world: World) -> Request:
    how = draw(st.sampled_from(["get", "backup", "backup", "game file", "form", "other type"]))
    if how == "get":
        return Request("GET", "/restore", queries(draw))
    if how in ("backup", "game file"):
        name = draw(st.sampled_from(["backup_file", "backup_file", "other"]))
        content = a_backup(draw, world) if how == "backup" else game_file(draw)
        body, content_type = multipart({name: content})
        return Request("POST", "/restore", body=body, content_type=content_type)
    if how == "form":
        return Request("POST", "/restore", form={"backup_file": draw(VALUES)})
    return Request("POST", "/restore", body=game_file(draw), content_type=draw(TEXT))


def house_rule(draw: Any, world: World, action: str) -> Request:
    rule_id = an_id(draw, world.house_rules())
    if action == "new":
        system = a_system(draw)
        path, page = "/house-rules/new", f"/house-rules/new?system={quote(system, safe='')}"
        query = {"system": system}
    else:
        path = f"/house-rules/{rule_id}/{action}"
        page, query = f"/house-rules/{world.house_rules()[0]}/edit", {}
    if action == "delete":
        return Request("POST", path, form={})
    if one_in(draw, 4):
        return Request("GET", path, query)
    return Request("POST", path, query, fuzzed_form(draw, world.page(page)))


def a_player(draw: Any, world: World) -> str:
    if one_in(draw, 4):
        return draw(VALUES)
    return pick(draw, world.players())


def player_form(draw: Any, world: World, action: str) -> Request:
    key = a_player(draw, world)
    page = world.pages[MERGE_PAGE if action == "merge" else PLAYER_PAGE]
    form = {k: v for k, v in fuzzed_form(draw, page).items() if k.startswith(f"{action}-")}
    if not one_in(draw, 3):
        form[f"{action}-{'name' if action == 'rename' else 'into'}"] = a_player(draw, world)
    return Request("POST", f"/players/{segment(key)}/{action}", form=form)


def by_game(suffix: str) -> Callable[[Any, World], Request]:
    return lambda draw, world: Request(
        "GET", f"/games/{a_game(draw, world)}{suffix}", queries(draw)
    )


CARRIED = ("games.scoreboard", "games.follow", "games.display", "hands.show", "games.index")
"""Pages a game's event stream may be asked to carry (pages/events.py), and two it carries not."""


def game_events(draw: Any, world: World) -> Request:
    """A game's event stream, for a page it may carry or any other, since a revision or not."""
    query = queries(draw, "since")
    if not one_in(draw, 4):
        query["page"] = draw(st.sampled_from(CARRIED) | VALUES)
    return Request("GET", f"/games/{a_game(draw, world)}/events", query)


def hand_page(draw: Any, world: World) -> Request:
    game_id = a_game(draw, world)
    hand_id = an_id(draw, world.hands(game_id))
    return Request("GET", f"/games/{game_id}/hands/{hand_id}", queries(draw, "changed"))


def game_form(draw: Any, world: World, action: str) -> Request:
    """A game's own buttons and its name's form; the two games the world starts with are never
    deleted, so that the other endpoints keep games to work on."""
    # Everything drawn every time, whatever the world holds, so that Hypothesis can replay.
    game_id, asked, query = a_game(draw, world), one_in(draw, 3), queries(draw)
    form = draw(st.dictionaries(st.sampled_from(["token", "name", "x"]), VALUES, max_size=2))
    path = f"/games/{game_id}/{action}"
    if action == "delete" and (asked or game_id in world.games()[:2]):
        return Request("GET", path, query)
    if action == "rename":
        form = fuzzed_form(draw, world.page(f"/games/{world.games()[0]}/manage"))
    return Request("POST", path, form=form)


def pin_form(draw: Any, world: World, settings: bool) -> Request:
    """The PIN entered, or set on the settings page: never set for real, since a PIN would shut
    every later example out (the two new PINs differ, or both are empty: no PIN)."""
    if one_in(draw, 4):
        return Request("GET", "/settings/pin" if settings else "/pin", queries(draw, "next"))
    if not settings:
        form = {"pin": draw(VALUES), "next": draw(st.one_of(VALUES, TEXT.map(lambda t: "/" + t)))}
        form.update(draw(STRAY_FIELDS[2]))
        return Request("POST", "/pin", form=form)
    new, again = draw(VALUES), draw(VALUES)
    if new and new == again:
        again += "x"
    return Request(
        "POST", "/settings/pin", form={"current": draw(VALUES), "new": new, "again": again}
    )


def share_link(kind: str) -> Callable[[Any, World], Request]:
    return lambda draw, world: Request("GET", f"/{kind}/{segment(draw(VALUES))}", queries(draw))


MakeRequest = Callable[[Any, World], Request]


def bring_back(draw: Any, world: World) -> Request:
    """Bring back a deleted game, one that is not deleted, or something else."""
    if one_in(draw, 3):
        game = draw(st.one_of(VALUES, st.sampled_from(world.games())))
    else:
        game = pick(draw, world.deleted_games())
    form = {"game": game} if not one_in(draw, 8) else {}
    return Request("POST", "/games/deleted", form=form)


def a_night(draw: Any, world: World, keep_first: bool = False) -> str:
    nights = world.nights()
    if one_in(draw, 4):
        return segment(draw(VALUES))
    return pick(draw, nights[1:] if keep_first and len(nights) > 1 else nights)


def night_page(suffix: str) -> Callable[[Any, World], Request]:
    return lambda draw, world: Request(
        "GET", f"/nights/{a_night(draw, world)}{suffix}", queries(draw, "round")
    )


def night_post(action: str, *names: str, keep_first: bool = False) -> MakeRequest:
    """A director's button: its few fields, each fuzzed or left out."""

    def make(draw: Any, world: World) -> Request:
        night_id = a_night(draw, world, keep_first)
        form = {name: draw(VALUES) for name in names if not one_in(draw, 3)}
        if names and one_in(draw, 2):
            form[names[0]] = str(draw(st.integers(0, 4)))
        return Request("POST", f"/nights/{night_id}/{action}", form=form)

    return make


def confirmed(action: str, *names: str, keep_first: bool = False) -> MakeRequest:
    """A director's write that asks first (a pair's leaving): its page that asks (a GET, or a
    POST without `confirm`), or the confirmed write itself."""
    post = night_post(action, *names, keep_first=keep_first)

    def make(draw: Any, world: World) -> Request:
        sent = post(draw, world)
        form = sent.form or {}
        if one_in(draw, 3):
            return Request("GET", sent.path, form)
        if one_in(draw, 2):
            form["confirm"] = "yes" if one_in(draw, 2) else draw(VALUES)
        return Request("POST", sent.path, form=form)

    return make


def ending(action: str, keep_first: bool = False) -> MakeRequest:
    """The end of a round or of the night (asked: `GET`, or sent): the round, and for each table
    what its game counts as and the hands it had played, each fuzzed or left out."""

    def make(draw: Any, world: World) -> Request:
        night_id = a_night(draw, world, keep_first)
        number = draw(st.sampled_from(["1", "2"]) | VALUES)
        if one_in(draw, 3):
            return Request("GET", f"/nights/{night_id}/{action}", {"round": number})
        form = {"round": number} if action == "end-round" and not one_in(draw, 4) else {}
        for table in (1, 2, 3):
            if not one_in(draw, 3):
                counts = st.sampled_from(["as-it-stands", "not-played"])
                form[f"table_{table}"] = draw(counts | VALUES)
            if not one_in(draw, 3):
                form[f"hands_{table}"] = draw(st.sampled_from(["0", "1"]) | VALUES)
        return Request("POST", f"/nights/{night_id}/{action}", form=form)

    return make


def new_night(draw: Any, world: World) -> Request:
    pairs = draw(st.sampled_from(["2", "5", "8"]) | VALUES)
    if one_in(draw, 4):
        return Request("GET", "/nights/new", {"pairs": pairs})
    page = world.page("/nights/new?pairs=5")
    return Request("POST", "/nights/new", {"pairs": "5"}, fuzzed_form(draw, page))


def seating_form(draw: Any, world: World) -> Request:
    night_id = a_night(draw, world)
    number = draw(st.sampled_from(["1", "2"]) | VALUES)
    if one_in(draw, 4):
        return Request("GET", f"/nights/{night_id}/seating", {"round": number})
    page = world.page(f"/nights/{world.nights()[0]}/seating?round=2")
    return Request(
        "POST", f"/nights/{night_id}/seating", {"round": number}, fuzzed_form(draw, page)
    )


def arriving_pair(draw: Any, world: World) -> Request:
    page = world.page(f"/nights/{world.nights()[1]}")
    form = {k: v for k, v in fuzzed_form(draw, page).items() if k.startswith("arriving-")}
    return Request("POST", f"/nights/{a_night(draw, world)}/arrives", form=form)


def by_token(suffix: str) -> MakeRequest:
    def make(draw: Any, world: World) -> Request:
        token = segment(draw(VALUES)) if one_in(draw, 4) else pick(draw, world.night_tokens())
        return Request("GET", f"/standings/{token}{suffix}", queries(draw, "by"))

    return make


def table_card(draw: Any, world: World) -> Request:
    token = segment(draw(VALUES)) if one_in(draw, 4) else pick(draw, world.table_tokens())
    return Request("GET", f"/tables/{token}", queries(draw))


def night_delete(draw: Any, world: World) -> Request:
    night_id = a_night(draw, world, keep_first=True)
    if one_in(draw, 3) or night_id == world.nights()[0]:
        return Request("GET", f"/nights/{night_id}/delete", queries(draw))
    return Request("POST", f"/nights/{night_id}/delete", form={})


def night_back(draw: Any, world: World) -> Request:
    night = draw(VALUES) if one_in(draw, 3) else pick(draw, world.nights())
    return Request("POST", "/nights/deleted", form={"night": night} if not one_in(draw, 8) else {})


def a_season(draw: Any, world: World, keep_first: bool = False) -> str:
    seasons = world.seasons()
    if one_in(draw, 4):
        return segment(draw(VALUES))
    return pick(draw, seasons[1:] if keep_first and len(seasons) > 1 else seasons)


def new_season(draw: Any, world: World) -> Request:
    if one_in(draw, 4):
        return Request("GET", "/seasons/new", queries(draw))
    return Request("POST", "/seasons/new", form=fuzzed_form(draw, world.page("/seasons/new")))


def season_edit(draw: Any, world: World) -> Request:
    season_id = a_season(draw, world)
    if one_in(draw, 4):
        return Request("GET", f"/seasons/{season_id}/edit", queries(draw))
    page = world.page(f"/seasons/{world.seasons()[0]}/edit")
    return Request("POST", f"/seasons/{season_id}/edit", form=fuzzed_form(draw, page))


def season_delete(draw: Any, world: World) -> Request:
    return Request("POST", f"/seasons/{a_season(draw, world, keep_first=True)}/delete", form={})


def by_season_token(suffix: str) -> MakeRequest:
    def make(draw: Any, world: World) -> Request:
        token = segment(draw(VALUES)) if one_in(draw, 4) else pick(draw, world.season_tokens())
        return Request("GET", f"/season/{token}{suffix}", queries(draw))

    return make


FUZZED: dict[str, tuple[MakeRequest, int]] = {
    # endpoint: (request maker, how many inputs)
    "static": (
        lambda d, w: Request(
            "GET", "/static/" + d(st.one_of(st.sampled_from(["js/page.js", "style.css"]), VALUES))
        ),
        40,
    ),
    "games.index": (get("/"), 40),
    "games.new": (new_game, 240),
    "games.scoreboard": (by_game(""), 80),
    "games.language": (language, 120),
    "games.archived": (get("/games/archived"), 20),
    "games.deleted": (get("/games/deleted"), 20),
    "games.bring_back": (bring_back, 40),
    "games.manage": (by_game("/manage"), 40),
    "games.rename": (lambda d, w: game_form(d, w, "rename"), 120),
    "games.archive": (lambda d, w: game_form(d, w, "archive"), 40),
    "games.unarchive": (lambda d, w: game_form(d, w, "unarchive"), 40),
    "games.delete": (lambda d, w: game_form(d, w, "delete"), 60),
    "games.play_again": (lambda d, w: game_form(d, w, "again"), 60),
    "games.follow": (by_game("/follow"), 40),
    "games.display": (by_game("/display"), 40),
    "games.display_before": (by_game("/table"), 20),
    "games.state": (by_game("/state.json"), 40),
    "events.game_events": (game_events, 40),
    "hands.new": (lambda d, w: hand_form(d, w, "new"), 240),
    "hands.edit": (lambda d, w: hand_form(d, w, "edit"), 200),
    "hands.show": (hand_page, 60),
    "hands.delete": (lambda d, w: hand_form(d, w, "delete"), 80),
    "hands.restore": (lambda d, w: hand_form(d, w, "restore"), 60),
    "game_files.import_file": (import_file, 300),
    "game_files.export_json": (by_game("/export.json"), 40),
    "game_files.result_json": (by_game("/result.json"), 40),
    "game_files.export_csv": (by_game("/export.csv"), 40),
    "backup.download": (get("/backup.json"), 20),
    "rules.index": (get("/rules"), 20),
    "rules.system_page": (
        lambda d, w: Request("GET", "/rules/" + segment(a_system(d)), queries(d)),
        120,
    ),
    "rules.game_rules": (by_game("/rules"), 40),
    "rules.search": (get("/rules/search", "q"), 80),
    "what_if.what_if": (by_game("/what-if"), 60),
    "house_rules.index": (get("/house-rules"), 20),
    "house_rules.new": (lambda d, w: house_rule(d, w, "new"), 200),
    "house_rules.edit": (lambda d, w: house_rule(d, w, "edit"), 160),
    "house_rules.delete": (lambda d, w: house_rule(d, w, "delete"), 40),
    "house_rules.rules_page": (
        lambda d, w: Request("GET", f"/house-rules/{an_id(d, w.house_rules())}", queries(d)),
        80,
    ),
    "history.games": (get("/games", "player", "system", "status", "page"), 120),
    "history.stats": (get("/stats"), 20),
    "history.player": (
        lambda d, w: Request("GET", f"/players/{segment(a_player(d, w))}", queries(d)),
        120,
    ),
    "history.rename": (lambda d, w: player_form(d, w, "rename"), 80),
    "history.merge": (
        lambda d, w: (
            Request("GET", f"/players/{segment(a_player(d, w))}/merge", queries(d))
            if one_in(d, 3)
            else player_form(d, w, "merge")
        ),
        80,
    ),
    "sharing.enter_pin": (lambda d, w: pin_form(d, w, settings=False), 120),
    "sharing.pin_settings": (lambda d, w: pin_form(d, w, settings=True), 80),
    "sharing.sign_out": (lambda d, w: Request("POST", "/pin/forget", form={}), 10),
    "sharing.sign_out_every_phone": (
        lambda d, w: Request(
            "POST", "/settings/pin/sign-out-everyone", form=d(st.dictionaries(TEXT, VALUES))
        ),
        10,
    ),
    "sharing.remove_stored_pin": (
        lambda d, w: Request(
            "POST", "/settings/pin/remove-stored", form=d(st.dictionaries(TEXT, VALUES))
        ),
        10,
    ),
    "sharing.join": (share_link("join"), 40),
    "sharing.follow": (share_link("follow"), 40),
    "sharing.share": (by_game("/share"), 40),
    "sharing.renew_links": (
        lambda d, w: Request("POST", f"/games/{a_game(d, w)}/share/renew", form={}),
        40,
    ),
    "settings.page": (get("/settings"), 20),
    "settings.rating_pool": (
        lambda d, w: Request("POST", "/settings/ratings", form=fuzzed_form(d, w.page("/settings"))),
        40,
    ),
    "backup.restore": (restore_form, 160),
    "history.undo": (lambda d, w: Request("POST", f"/merges/{an_id(d, w.merges())}/undo"), 40),
    "health.healthz": (get("/healthz"), 10),
    "result.result": (by_game("/result"), 40),
    "result.picture": (by_game("/scoreboard.svg"), 40),
    "install.manifest": (get("/manifest.webmanifest"), 20),
    "install.worker": (get("/sw.js"), 20),
    "nights.index": (get("/nights"), 20),
    "nights.new": (new_night, 200),
    "nights.seating": (seating_form, 160),
    "nights.cards": (night_page("/cards"), 20),
    "nights.renew_cards": (night_post("cards/renew", keep_first=True), 20),
    "director.director": (night_page(""), 40),
    "director.start_round": (night_post("start", "round"), 60),
    "director.end_round": (ending("end-round"), 80),
    "director.end_night": (ending("end", keep_first=True), 30),
    "director.ranking": (night_post("ranking", "ranking"), 40),
    "director.pair_leaves": (confirmed("leaves", "pair"), 40),
    "director.pair_returns": (night_post("returns", "pair"), 40),
    "director.pair_arrives": (arriving_pair, 80),
    "nights.delete": (night_delete, 30),
    "nights.bring_back": (night_back, 30),
    "nights.table_card": (table_card, 40),
    "nights.next_game": (by_game("/next"), 40),
    "standings.standings": (by_token(""), 60),
    "standings.state": (by_token("/state.json"), 40),
    "standings.events": (by_token("/events"), 40),
    "standings.results": (by_token("/results"), 40),
    "standings.results_csv": (by_token("/results.csv"), 20),
    "standings.results_text": (by_token("/results.txt"), 20),
    "seasons.index": (get("/seasons"), 20),
    "seasons.new": (new_season, 150),
    "seasons.edit": (season_edit, 150),
    "seasons.delete": (season_delete, 30),
    "seasons.standings": (by_season_token(""), 40),
    "seasons.events": (by_season_token("/events"), 40),
    "seasons.results_csv": (by_season_token("/results.csv"), 20),
    "seasons.results_text": (by_season_token("/results.txt"), 20),
}

HEADER_TEXT = TEXT.map(
    lambda t: t.encode("utf-8", "replace").decode("latin-1").replace("\r", "").replace("\n", "")
)
"""What can arrive in a header: bytes read as Latin-1 as WSGI servers pass them, on one line."""
HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "Accept-Language": st.sampled_from(["es", "es-AR,es;q=0.9", "*", "zz"]) | HEADER_TEXT,
        "Cookie": st.sampled_from(["lang=es", "lang=xx", "session=junk"]) | HEADER_TEXT,
        "Accept": st.sampled_from(["application/json", "text/html", "*/*"]),
    },
)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    built = build_world()
    yield built
    # The module's app goes with it: a pooled connection left for the collector would warn in
    # whichever later test the collector happens to run (a ResourceWarning, an error here).
    push.stop(built.app)
    with built.app.app_context():
        db.engine.dispose()


def test_every_route_is_fuzzed(world: World) -> None:
    """A route added later must get a request maker here."""
    routes = {rule.endpoint for rule in world.app.url_map.iter_rules()}
    assert routes == set(FUZZED)


ROW = re.compile(r"^(?P<table>[a-z_]+)-(?P<row>[0-9]+)-(?P<field>[a-z_]+)$")


def renumbered(form: dict[str, str]) -> dict[str, str]:
    """The form with the rows of each table (`first_meld-3-minimum`) numbered 0, 1, 2… in their
    order: a post that leaves a row out (which no browser does) gets its rows back in order,
    renumbered."""
    rows: dict[str, list[int]] = {}
    for name in form:
        if found := ROW.match(name):
            rows.setdefault(found["table"], []).append(int(found["row"]))
    places = {
        table: {row: place for place, row in enumerate(sorted(set(r)))} for table, r in rows.items()
    }
    out: dict[str, str] = {}
    for name, value in form.items():
        if found := ROW.match(name):
            place = places[found["table"]][int(found["row"])]
            name = f"{found['table']}-{place}-{found['field']}"
        out[name] = value
    return out


def refused_form_lost_input(request: Request, response: TestResponse) -> list[str]:
    """The text fields a refused form (a 4xx page with the form) shows other than as typed."""
    if request.form is None or not 400 <= response.status_code < 500:
        return []
    if "<form" not in response.text or "html" not in response.content_type:
        return []
    shown = typed_fields(response.text)
    typed_in = renumbered(dict(request.form))
    if any(name in shown for name in typed_in):
        FIGURES["refused forms checked for what was typed"] += 1
    # A name field drops a NUL, which no keyboard types and PostgreSQL cannot keep
    # (converters.without_nul): the rest must come back.
    return [
        f"{name}: typed {typed!r}, shown {shown[name]!r}"
        for name, typed in typed_in.items()
        if name in shown and shown[name] not in (typed, typed.replace("\x00", ""))
    ]


@pytest.mark.parametrize("endpoint", list(FUZZED))
def test_no_input_gives_a_server_error(world: World, endpoint: str, figures: Counter[str]) -> None:
    fuzz_endpoint(world, endpoint, figures)


def fuzz_endpoint(world: World, endpoint: str, figures: Counter[str]) -> None:
    """Send the endpoint its inputs, every one of them (counted here, where they are sent): none
    is answered with a 5xx, no refused form loses input."""
    make, examples = FUZZED[endpoint]
    tried: Counter[str] = Counter()

    @settings(
        max_examples=postgres.examples(examples),
        derandomize=True,
        database=None,
        deadline=None,
        report_multiple_bugs=False,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def fuzz(data: st.DataObject) -> None:
        request = make(data.draw, world)
        response = request.send(world.client, data.draw(HEADERS))
        tried["inputs"] += 1
        figures["inputs tried"] += 1
        if response.status_code >= 500:
            figures["5xx seen"] += 1
        assert response.status_code < 500, (world.failures[-1:], request)
        assert not refused_form_lost_input(request, response), request

    world.failures.clear()
    world.listed.clear()
    fuzz()
    assert tried["inputs"] >= postgres.examples(examples), "the fuzzing stopped short"


NUL_VALUES = ["\x00", "a\x00b", "\x00/x"]
"""What each part of each address gets: a NUL, which PostgreSQL cannot hold in a query."""


def with_nul(rule: str, value: str) -> str:
    """An address of `rule` with every part it takes (a game's id, a token, a key, a number)
    made `value`, quoted as a phone's browser sends it."""
    return re.sub(r"<(?:[a-z]+:)?[a-z_]+>", lambda _part: segment(value), rule)


def test_a_nul_in_any_part_of_any_address_is_no_page_never_an_error(
    world: World, figures: Counter[str]
) -> None:
    """Every route with a part in its address, each part a NUL (or holding one), by each
    method: no page (404), or a method it does not take (405); on PostgreSQL too, where a NUL
    that reached a query was a 500 (the converters refuse it, in one place)."""
    failed: list[str] = []
    for rule in world.app.url_map.iter_rules():
        if "<" not in rule.rule:
            continue
        for value in NUL_VALUES:
            for method in sorted((rule.methods or set()) - {"OPTIONS", "HEAD"}):
                address = with_nul(rule.rule, value)
                response = world.client.open(address, method=method)
                figures["inputs tried"] += 1
                if response.status_code >= 500:
                    figures["5xx seen"] += 1
                if response.status_code not in (404, 405):
                    failed.append(f"{method} {address}: {response.status_code}")
    assert not failed, (failed, world.failures[-1:])


HOSTILE = ["", "-1", "1.5", "²", "\x00", "x" * 1000, "ß" * 40, str(10**30), "9" * 400, "9" * 5000]
"""What each field of each form gets in turn, the other fields as the page has them."""

FORMS: dict[str, Callable[[World], tuple[str, str]]] = {
    # form: (the page it is on, where it is sent)
    "new game": lambda w: ("/games/new?system=classic&table=2x2",) * 2,
    "new game from a house rule": lambda w: (f"/games/new?house={w.house_rules()[0]}",) * 2,
    "hand": lambda w: (f"/games/{w.games()[0]}/hands/new",) * 2,
    "correction": lambda w: (f"/games/{w.games()[0]}/hands/{w.hands(w.games()[0])[0]}/edit",) * 2,
    "house rule": lambda w: ("/house-rules/new?system=classic",) * 2,
    "house rule of Black Samba": lambda w: ("/house-rules/new?system=black-samba",) * 2,
    "house rule edited": lambda w: (f"/house-rules/{w.house_rules()[0]}/edit",) * 2,
    "game name": lambda w: (f"/games/{w.games()[0]}/manage", f"/games/{w.games()[0]}/rename"),
    "rename": lambda w: (player_page(w.players()[0]), player_page(w.players()[0]) + "/rename"),
    "merge": lambda w: (player_page(w.players()[0]) + "/merge",) * 2,
    "night": lambda w: ("/nights/new?pairs=5",) * 2,
    "seating": lambda w: (f"/nights/{w.nights()[0]}/seating?round=2",) * 2,
    "season": lambda w: ("/seasons/new",) * 2,
    "season edited": lambda w: (f"/seasons/{w.seasons()[0]}/edit",) * 2,
    "arriving pair": lambda w: (f"/nights/{w.nights()[1]}", f"/nights/{w.nights()[1]}/arrives"),
    # The first night's round 1 is in play: no hostile value in one field of its end ends it.
    "end of a round": lambda w: (
        f"/nights/{w.nights()[0]}/end-round?round=1",
        f"/nights/{w.nights()[0]}/end-round",
    ),
}


REPEATED = re.compile(r"^(?P<table>[a-z_]+)-(?P<row>[0-9]+)-(?P<field>.+)$")


def hostile_values(name: str, fields: list[str]) -> list[str]:
    """The values a field gets. A form that repeats its fields for each row of a table (the
    hand form for each side, `sides-0-melded_points`, `sides-1-melded_points`; a house rule's
    first-meld pairs; a night's pairs) reads every row with one form class: each value goes into
    each of its fields once, in one row, the rows taking turns, so that every row and every
    field gets hostile values and the form is not sent each of them once per row (the hand form
    and the house rules' were the costliest fuzzing of the suite)."""
    found = REPEATED.match(name)
    if found is None:
        return HOSTILE
    rows = sorted(
        {int(m["row"]) for m in map(REPEATED.match, fields) if m and m["table"] == found["table"]}
    )
    return HOSTILE[rows.index(int(found["row"])) :: len(rows)]


@pytest.mark.parametrize("form", list(FORMS))
def test_every_field_of_every_form_takes_any_value(
    world: World, form: str, figures: Counter[str]
) -> None:
    fill_every_field(world, form, figures)


def fill_every_field(world: World, form: str, figures: Counter[str]) -> None:
    """Send the form each hostile value in each field: no 5xx, no input lost when refused."""
    page_url, post_url = FORMS[form](world)
    page = world.client.get(page_url).text
    defaults = form_defaults(page)
    fields = sorted({f.name for f in form_fields(page) if f.kind not in ("button", "submit")})
    assert fields, f"no form on {page_url}"
    lost: list[str] = []
    failed: list[tuple[str, str]] = []
    for name in fields:
        for value in hostile_values(name, fields):
            request = Request("POST", post_url, form={**defaults, name: value})
            response = request.send(world.client, {})
            figures["inputs tried"] += 1
            if response.status_code >= 500:
                figures["5xx seen"] += 1
                failed.append((f"{name}={value[:20]!r}", world.failures[-1]))
            lost += refused_form_lost_input(request, response)
    assert not failed
    assert not lost


def test_the_fuzzing_tries_at_least_a_thousand_inputs() -> None:
    """The inputs the endpoints' fuzzing is asked for, besides every form's every field and every
    address's NULs: each of its tests tries all of its own (`fuzz_endpoint` counts them), so the
    tests can be spread over the run's workers and still add up to this."""
    assert sum(postgres.examples(examples) for _make, examples in FUZZED.values()) >= 1000
