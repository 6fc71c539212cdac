"""Hostile backups and game files: each is refused in one line, exit 2, with nothing stored.

The backups are a real one, made through the app, with one thing changed: a wrong type, a float,
a bool for a number, 10^30, a huge string, a control character, an unknown key, a duplicated id,
junk in a correction... Some can only be written as text (5,000-digit numbers, deep nesting,
NaN, a lone surrogate).
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from functools import reduce
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import cli
from scorekeeper.web.services import restore as restoring
from tests import postgres
from tests.web.apps import TEST_CONFIG, backup_of, built_app, migrated_database, stored_games
from tests.web.helpers import Actions, games_of_every_kind

Change = Callable[[dict[str, Any]], None]


def at(path: str, value: object) -> Change:
    """Set one value of a backup, found by a path like `games.0.sides.1.name`."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value

    return change


def also(path: str, make: Callable[[Any], None]) -> Change:
    """Change, in place, the list or object found at `path`."""

    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path.split("."):
            target = target[int(key)] if isinstance(target, list) else target[key]
        make(target)

    return change


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


PLAYED = "games.2"  # black samba: a deleted hand, a corrected one, one as recorded
CORRECTED = f"{PLAYED}.hands.1.corrections.0"
ENTRY = f"{PLAYED}.hands.2.entries.0"
HOUSE = "games.1"  # classic under house rules

BACKUPS: dict[str, Change] = {
    # the file itself
    "version as text": at("version", "1"),
    "version as a float": at("version", 1.0),
    "version as a bool": at("version", True),
    "an unknown top-level key": at("extra", []),
    "games not a list": at("games", {"0": {}}),
    # wrong types everywhere
    "game id a number": at("games.0.id", 5),
    "game id with a slash": at("games.0.id", "a/b"),
    "game id with a line break": at("games.0.id", "ab\ncd"),
    "game id too long": at("games.0.id", "a" * 25),
    "options not a list": at("games.0.options", "red_set"),
    "house rules a string": at(f"{HOUSE}.house_rules", "house"),
    "side a list": at("games.0.sides.0", []),
    "players not a list": at("games.0.sides.0.players", {}),
    "start score as text": at("games.0.sides.0.start_score", "0"),
    "position as text": at(f"{ENTRY}.side_position", "0"),
    "hand position as text": at(f"{PLAYED}.hands.2.position", "3"),
    "went out as 1": at(f"{ENTRY}.went_out", 1),
    "concealed as text": at(f"{ENTRY}.concealed", "no"),
    "sets a list": at(f"{ENTRY}.sets", [["samba", 1]]),
    "penalties a number": at(f"{ENTRY}.penalties", 0),
    "corrections an object": at(f"{PLAYED}.hands.1.corrections", {}),
    "house rule rules a list": at("house_rules.0.rules", []),
    "a null name": at("games.0.sides.0.name", None),
    "null sets": at(f"{ENTRY}.sets", None),
    # floats
    "a float set count": at(f"{ENTRY}.sets", {"samba": 1.5}),
    "a whole float set count": at(f"{ENTRY}.sets", {"samba": 1.0}),
    "float melded points": at(f"{ENTRY}.melded_points", 260.0),
    "float start score": at("games.0.sides.0.start_score", 0.5),
    "float version": at(f"{PLAYED}.hands.2.version", 1.0),
    "float opening meld": at(f"{ENTRY}.opening_meld", 90.5),
    # bools for numbers
    "a bool position": at(f"{PLAYED}.hands.2.position", True),
    "a bool version": at(f"{PLAYED}.hands.2.version", True),
    "a bool start score": at("games.0.sides.0.start_score", False),
    "a bool set count": at(f"{ENTRY}.sets", {"samba": True}),
    "a bool hand id": at(f"{PLAYED}.hands.2.id", True),
    # numbers out of bounds
    "melded points 10^30": at(f"{ENTRY}.melded_points", 10**30),
    "negative hand points": at(f"{ENTRY}.hand_points", -5),
    "red threes 10^10": at(f"{ENTRY}.red_threes", 10**10),
    "a set count 10^30": at(f"{ENTRY}.sets", {"samba": 10**30}),
    "a penalty 10^30 times": at(f"{ENTRY}.penalties", {"took_unusable_upcard": 10**30}),
    "start score 100,001": at("games.0.sides.0.start_score", 100_001),
    "start score −100,001": at("games.0.sides.0.start_score", -100_001),
    "start score 10^10": at("games.0.sides.0.start_score", 10**10),
    "start score 10^30": at("games.0.sides.0.start_score", 10**30),
    "hand id 10^30": at(f"{PLAYED}.hands.2.id", 10**30),
    "hand id 0": at(f"{PLAYED}.hands.2.id", 0),
    "hand version 0": at(f"{PLAYED}.hands.2.version", 0),
    "hand position −1": at(f"{PLAYED}.hands.2.position", -1),
    "house rule id negative": at("house_rules.0.id", -3),
    # huge strings and control characters
    "a side name of 100,000 letters": at("games.0.sides.0.name", "x" * 100_000),
    "a player name of 41 letters": at("games.0.sides.0.players.0.name", "n" * 41),
    "a player key of 121 letters": at("games.0.sides.0.players.0.key", "k" * 121),
    "a token of 41 letters": at(f"{PLAYED}.hands.2.token", "t" * 41),
    "an empty token": at(f"{PLAYED}.hands.2.token", ""),
    "a lone surrogate in a player name": at("games.0.sides.0.players.0.name", "\ud800"),
    "a house rule name of 1,000 letters": at(f"{HOUSE}.house_rules.name", "n" * 1000),
    "a house rule name a number": at(f"{HOUSE}.house_rules.name", 7),
    "a stored house rule name of 41": at("house_rules.0.name", "n" * 41),
    "an empty stored house rule name": at("house_rules.0.name", ""),
    "ended by with a NUL": at(f"{PLAYED}.hands.2.ended_by", "going_out\x00"),
    "ended by unknown": at(f"{PLAYED}.hands.2.ended_by", "won"),
    "a date that is not one": at(f"{PLAYED}.hands.2.created_at", "yesterday"),
    "a date as a number": at("games.0.created_at", 1700000000),
    "month 13": at("games.0.updated_at", "2024-13-01T00:00:00"),
    "a correction date with a NUL": at(f"{CORRECTED}.at", "2024-01-01\x00"),
    # unknown keys
    "an unknown game key": at("games.0.colour", "red"),
    "the copied totals": at("games.0.totals", [1, 2]),
    "an unknown entry key": at(f"{ENTRY}.jokers", 2),
    "an unknown correction key": at(f"{CORRECTED}.why", "typo"),
    "an unknown house rule key": at("house_rules.0.colour", "red"),
    # duplicated ids and positions
    "a game twice": also("games", lambda games: games.append(copy.deepcopy(games[0]))),
    "a house rule twice": also("house_rules", lambda rules: rules.append(copy.deepcopy(rules[0]))),
    "two sides with one id": also(
        "games.0.sides", lambda sides: sides[1].update(id=sides[0]["id"])
    ),
    "two hands with one id": also(
        f"{PLAYED}.hands", lambda hands: hands[1].update(id=hands[0]["id"])
    ),
    "a hand id of another game": also(
        "games", lambda games: games[0]["hands"][0].update(id=games[2]["hands"][0]["id"])
    ),
    "two hands with one position": also(
        f"{PLAYED}.hands", lambda hands: hands[1].update(position=hands[2]["position"])
    ),
    "two hands with one token": also(
        f"{PLAYED}.hands", lambda hands: hands[1].update(token=hands[2]["token"])
    ),
    "two sides at one position": at("games.0.sides.1.position", 0),
    "a side position with a gap": at("games.0.sides.1.position", 5),
    "two entries for one side": at(f"{PLAYED}.hands.2.entries.1.side_position", 0),
    "an entry for a side that is not there": at(f"{PLAYED}.hands.2.entries.1.side_position", 2),
    "two players at one position": at("games.0.sides.0.players.1.position", 0),
    # hands that do not fit the game
    "three entries for two sides": also(
        f"{PLAYED}.hands.2.entries",
        lambda entries: entries.append({"side_position": 2, "melded_points": 0}),
    ),
    "one entry for two sides": also(f"{PLAYED}.hands.2.entries", lambda entries: entries.pop()),
    "no sides": at("games.0.sides", []),
    "a side without players": at("games.0.sides.0.players", []),
    "a table the system does not allow": also(
        "games.0.sides", lambda sides: sides[1]["players"].pop()
    ),
    "a set kind the system lacks": at(f"{ENTRY}.sets", {"super_samba": 1}),
    "a set kind nobody knows": at(f"{ENTRY}.sets", {"joker": 1}),
    "a penalty the system lacks": at(f"{ENTRY}.penalties", {"drew_out_of_turn": 1}),
    # junk in a correction's before and after
    "a correction before that is junk": at(f"{CORRECTED}.before", {"junk": 1}),
    "a correction after that is text": at(f"{CORRECTED}.after", "junk"),
    "a correction after that is a list": at(f"{CORRECTED}.after", []),
    "a correction with neither hand": also(
        CORRECTED, lambda correction: correction.update(before=None, after=None)
    ),
    "a correction hand with a float count": also(
        f"{CORRECTED}.before", lambda hand: hand["entries"][0].update(sets={"samba": 1.5})
    ),
    "a correction hand with 10^30": also(
        f"{CORRECTED}.before", lambda hand: hand["entries"][0].update(melded_points=10**30)
    ),
    "a correction hand with text for a number": also(
        f"{CORRECTED}.after", lambda hand: hand["entries"][1].update(hand_points="30")
    ),
    "a correction hand with 1 for true": also(
        f"{CORRECTED}.after", lambda hand: hand["entries"][1].update(concealed=1)
    ),
    "a correction hand with a whole float": also(
        f"{CORRECTED}.after", lambda hand: hand["entries"][1].update(melded_points=150.0)
    ),
    "a correction hand with one entry": also(
        f"{CORRECTED}.after", lambda hand: hand["entries"].pop()
    ),
    "a correction hand with an unknown key": also(
        f"{CORRECTED}.after", lambda hand: hand.update(when="now")
    ),
    "a correction hand with an unknown set kind": also(
        f"{CORRECTED}.after", lambda hand: hand["entries"][1].update(sets={"joker": 1})
    ),
    "a correction hand ended by junk": also(
        f"{CORRECTED}.after", lambda hand: hand.update(ended_by="draw")
    ),
    "a correction hand nested deep": at(f"{CORRECTED}.before", {"entries": nested(500)}),
    # unknown systems and options
    "an unknown system": at("games.0.system_id", "canasta"),
    "an unknown option": at("games.0.options", ["joker_rule"]),
    "an option twice": at("games.2.options", ["nine_jokers", "nine_jokers"]),
    "an option of another system": at("games.0.options", ["nine_jokers"]),
    "an unknown house rule system": at("house_rules.0.system_id", "canasta"),
    "an unknown house rule option": at("house_rules.0.options", ["joker_rule"]),
    # house rules with bad values
    "a target below 1": at(f"{HOUSE}.house_rules.target", -5),
    "a float target": at(f"{HOUSE}.house_rules.target", 7500.5),
    "a target of 10^30": at(f"{HOUSE}.house_rules.target", 10**30),
    "sets to go out as text": at(f"{HOUSE}.house_rules.sets_to_go_out", "two"),
    "no first-meld pairs": at(f"{HOUSE}.house_rules.opening_minimums", []),
    "first-meld pairs going down": at(
        f"{HOUSE}.house_rules.opening_minimums", [[3000, 120], [1500, 90]]
    ),
    "an unknown house rule": at(f"{HOUSE}.house_rules.jokers", 4),
    "a bonus for a set kind nobody knows": at(f"{HOUSE}.house_rules.set_bonuses", {"joker": 5}),
    "house rules nested deep": at(f"{HOUSE}.house_rules", {"set_bonuses": nested(500)}),
    "a stored house rule bonus of 10^30": at("house_rules.0.rules", {"going_out_bonus": 10**30}),
    "a stored house rule with its name inside": at("house_rules.0.rules", {"name": "Casa"}),
    "a stored house rule with a negative bonus": at("house_rules.0.rules", {"going_out_bonus": -1}),
}

TEXT_BACKUPS: dict[str, Callable[[str], str]] = {
    "a 5,000-digit number": lambda text: text.replace('"version": 1', '"version": ' + "9" * 5000),
    "a 5,000-digit melded points": lambda text: text.replace(
        '"melded_points": 260', '"melded_points": ' + "9" * 5000, 1
    ),
    "nesting 100,000 deep": lambda text: text.replace(
        '"games": [', '"games": [' + "[" * 100_000, 1
    ),
    "NaN melded points": lambda text: text.replace('"melded_points": 260', '"melded_points": NaN'),
    "Infinity start score": lambda text: text.replace(
        '"start_score": 0', '"start_score": Infinity'
    ),
    "a lone surrogate in a name": lambda text: text.replace('"name": "Us"', '"name": "\\ud800"'),
    "not JSON at all": lambda text: text[: len(text) // 2],
    "not UTF-8": lambda text: "\udcff" + text,
}


@pytest.fixture(scope="module")
def good_backup(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real backup: four games of every kind and a house rule, made through the app."""
    path = tmp_path_factory.mktemp("source") / "source.sqlite3"
    app: Flask = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    client = app.test_client()
    games_of_every_kind(app, client, Actions(client))
    return backup_of(app)


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """An empty database of the test's own to try a hostile backup on (none may leave anything):
    one that got in fails its own case, not every case after it. A copy of the migrated one."""
    path = tmp_path / "target.sqlite3"
    path.write_bytes(migrated_database())
    return path


def rows_in(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        tables = [
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if name != "alembic_version"
        ]
        return sum(connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables)


def restore(
    path: Path, database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("SECRET_KEY", "test")
    code = cli.main(["restore", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def refused(
    path: Path,
    database: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> str:
    """Restore a hostile file: exit 2, one line naming the file, nothing stored."""
    figures["hostile files tried"] += 1
    code, out, err = restore(path, database, monkeypatch, capsys)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"{path}: "), err
    assert "Traceback" not in err
    assert len(err) < 300, err
    assert rows_in(database) == 0
    figures["hostile files refused"] += 1
    return err


def hostile(good_backup: dict[str, Any], name: str, tmp_path: Path) -> Path:
    """The file of the good backup changed as BACKUPS[name] says."""
    data = copy.deepcopy(good_backup)
    BACKUPS[name](data)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.once  # `scorekeeper restore` into a SQLite file, whatever the run's database
@pytest.mark.parametrize("name", BACKUPS)
def test_a_hostile_backup_is_refused_in_one_line_with_nothing_stored(
    name: str,
    good_backup: dict[str, Any],
    target: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    refused(hostile(good_backup, name, tmp_path), target, monkeypatch, capsys, figures)


@pytest.mark.once  # `scorekeeper restore` into a SQLite file, whatever the run's database
@pytest.mark.parametrize("name", TEXT_BACKUPS)
def test_a_hostile_backup_text_is_refused_in_one_line_with_nothing_stored(
    name: str,
    good_backup: dict[str, Any],
    target: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    text = json.dumps(good_backup, ensure_ascii=False)
    hostile = TEXT_BACKUPS[name](text)
    assert hostile != text
    path = tmp_path / "hostile.json"
    path.write_bytes(hostile.encode("utf-8", "surrogateescape"))
    refused(path, target, monkeypatch, capsys, figures)


@pytest.mark.once  # `scorekeeper restore` into a SQLite file, whatever the run's database
def test_the_unchanged_backup_restores(
    good_backup: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The corpus's refusals are the changes', not the backup's."""
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good_backup), encoding="utf-8")
    code, out, err = restore(path, tmp_path / "restored.sqlite3", monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out == f"{path}: restored 4 games\n"


@pytest.mark.once  # `scorekeeper restore` into a SQLite file, whatever the run's database
@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "melded points 10^30",
            "games[2].hands[2].entries[0].melded_points:"
            " expected a whole number from 0 to 1,000,000,000",
        ),
        ("a float set count", "games[2].hands[2].entries[0].sets.samba: expected a whole number"),
        ("a correction before that is junk", "games[2].hands[1].corrections[0].before"),
        ("two hands with one id", "games[2].hands[1].id: "),
        ("a house rule name of 1,000 letters", "games[1].house_rules.name: expected at most 40"),
    ],
)
def test_the_line_names_the_place_in_the_file_and_the_problem(
    name: str,
    message: str,
    good_backup: dict[str, Any],
    target: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    path = hostile(good_backup, name, tmp_path)
    assert message in refused(path, target, monkeypatch, capsys, figures)


# --- game files ----------------------------------------------------------------------------------

GAME = {
    "variant": "classic",
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [
        {
            "entries": [
                {
                    "went_out": True,
                    "sets": {"samba": 1, "natural_canasta": 1},
                    "melded_points": 260,
                },
                {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30},
            ]
        }
    ],
}


def game_at(path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(GAME)
    at(path, value)(data)
    return data


GAME_FILES: dict[str, object] = {
    "a list": [GAME],
    "sides an object": game_at("sides", {"0": {}}),
    "no sides": game_at("sides", []),
    "an unknown system": game_at("variant", "canasta"),
    "a system as a number": game_at("variant", 7),
    "an unknown option": game_at("options", {"joker_rule": True}),
    "an option as 1": game_at("options", {"nine_jokers": 1}),
    "players as a float": game_at("sides.0.players", 2.0),
    "players 10^30": game_at("sides.0.players", 10**30),
    "a start score of 10^30": game_at("sides.0.start_score", 10**30),
    "a start score as text": game_at("sides.0.start_score", "100"),
    "a name as a number": game_at("sides.0.name", 5),
    "three entries for two sides": game_at("hands.0.entries", [{}, {}, {}]),
    "ended by junk": game_at("hands.0.ended_by", "draw"),
    "went out as 1": game_at("hands.0.entries.0.went_out", 1),
    "sets a list": game_at("hands.0.entries.0.sets", [1]),
    "an unknown set kind": game_at("hands.0.entries.0.sets", {"joker": 1}),
    "melded points as text": game_at("hands.0.entries.0.melded_points", "260"),
    "house rules with a target of 10^30": game_at("house_rules", {"target": 10**30}),
    "house rules with an unknown key": game_at("house_rules", {"jokers": 4}),
    "house rules nested deep": game_at("house_rules", {"set_bonuses": nested(500)}),
}
GAME_FILES_BROKEN: dict[str, object] = {
    "a float set count": game_at("hands.0.entries.0.sets", {"samba": 1.5}),
    "melded points 10^30": game_at("hands.0.entries.0.melded_points", 10**30),
    "negative hand points": game_at("hands.0.entries.1.hand_points", -30),
}
"""Read, but breaking the rules (`invalid-number`): `check` says so with exit 1."""


def check(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["check", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", GAME_FILES)
def test_a_hostile_game_file_is_refused_by_check_and_by_the_import(
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    figures["hostile files tried"] += 1
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(GAME_FILES[name]), encoding="utf-8")
    code, out, err = check(path, capsys)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"{path}: ") and "Traceback" not in err

    app = built_app(TEST_CONFIG)
    response = app.test_client().post("/games/import", json=GAME_FILES[name])
    # 400: not a game file; 422: a game file past the app's limits (a start score), said as such.
    assert response.status_code in (400, 422), response.text
    assert stored_games(app) == 0
    figures["hostile files refused"] += 1


@pytest.mark.parametrize("name", GAME_FILES_BROKEN)
def test_a_game_file_with_impossible_numbers_breaks_the_rules_and_is_not_imported(
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    figures["hostile files tried"] += 1
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(GAME_FILES_BROKEN[name]), encoding="utf-8")
    code, out, err = check(path, capsys)
    assert (code, err) == (1, "")
    assert "invalid-number" in out

    app = built_app(TEST_CONFIG)
    response = app.test_client().post("/games/import", json=GAME_FILES_BROKEN[name])
    assert response.status_code == 422, response.text
    figures["hostile files refused"] += 1


@pytest.mark.once  # `scorekeeper check` alone: the engine, no database
@pytest.mark.parametrize(
    "text",
    [
        '{"variant": "classic", "sides": [{"players": ' + "9" * 5000 + "}]}",
        '{"variant": "classic", "sides": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"variant": "classic", "sides": [{"name": "\\ud800", "players": NaN}]}',
    ],
    ids=["a 5,000-digit number", "nesting 100,000 deep", "NaN and a lone surrogate"],
)
def test_a_game_file_that_json_cannot_hold_is_refused_by_check(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    figures["hostile files tried"] += 1
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = check(path, capsys)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and "Traceback" not in err
    figures["hostile files refused"] += 1


# --- whatever a restore accepts, every page shows ------------------------------------------------


def places(value: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every place in a backup: each object, list and value, by its path."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def replaced(data: dict[str, Any], path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    target: Any = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


def values(good: dict[str, Any]) -> st.SearchStrategy[object]:
    """Values a hostile or careless hand puts in a backup: any JSON, and values taken from
    other places of the same backup, which are often almost right."""
    taken = [
        item
        for path in places(good)
        if path
        for item in [reduce(lambda v, k: v[k], path, good)]
        if not isinstance(item, dict | list)
    ]
    plain = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([0, 1, -1, 2, 5, 10**9, 10**9 + 1, 2**31, 2**63, 10**30, -(10**30)]),
        st.floats(allow_nan=False),
        st.text(max_size=60),
        st.sampled_from(taken),
    )
    almost = st.one_of(
        st.sampled_from(taken),
        st.integers(-3, 12),
        st.sampled_from([5 * n for n in range(0, 60)]),
        st.sampled_from(["", "Ana", "ß" * 40, "x" * 41, "going_out", "stock_exhausted"]),
    )
    junk = st.recursive(
        plain,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.text(max_size=12)
                | st.sampled_from(["samba", "ended_by", "entries", "name", "target"]),
                inner,
                max_size=3,
            )
        ),
        max_leaves=6,
    )
    return st.one_of(almost, junk)


@settings(
    max_examples=postgres.examples(250),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_whatever_a_restore_accepts_every_page_shows(
    data: st.DataObject, good_backup: dict[str, Any], figures: Counter[str]
) -> None:
    path = data.draw(st.sampled_from([p for p in places(good_backup) if p]))
    changed = replaced(good_backup, path, data.draw(values(good_backup)))
    figures["mutated backups tried"] += 1
    with postgres.databases_of_one_example():  # the next example takes this one's copy again
        restored_pages_show(changed, path, figures)


def restored_pages_show(
    changed: dict[str, Any], path: tuple[str | int, ...], figures: Counter[str]
) -> None:
    """The changed backup restored into an empty app is refused in one line, or every page that
    what it changed can reach answers without a server error.

    Most changes are refused by the reading of the backup (`read_backup`, a restore's first
    step, which needs no database): only a backup it accepts is restored into an app of its own.
    A change inside one game (`games.N…`) changes only that game's rows, so the pages shown are
    the app's own and that game's; the unchanged backup's every page is shown once
    (`test_the_unchanged_backup_shows_every_page`)."""
    try:
        restoring.read_backup(json.loads(json.dumps(changed)))
    except restoring.BackupError as error:
        assert "\n" not in str(error) and len(str(error)) < 300
        return
    app = built_app(TEST_CONFIG)
    with app.app_context():
        try:
            restoring.restore(json.loads(json.dumps(changed)))
        except restoring.BackupError as error:
            assert "\n" not in str(error) and len(str(error)) < 300
            return
    figures["mutated backups restored"] += 1
    client = app.test_client()
    for page in pages_of(changed, path):
        response = client.get(page)
        assert response.status_code < 500, (page, path)


def pages_of(data: dict[str, Any], path: tuple[str | int, ...] = ()) -> list[str]:
    """Every page of what a backup holds; of its games, only the one that `path` is inside, if
    it is inside one."""
    games = data["games"]
    if path[:1] == ("games",) and len(path) > 1:
        games = [games[path[1]]]
    pages = ["/", "/games", "/stats", "/house-rules", "/backup.json"]
    for game in games:
        pages += [
            f"/games/{game['id']}{page}"
            for page in ("", "/result.json", "/export.json", "/export.csv", "/rules")
        ]
        pages += [f"/games/{game['id']}/hands/{hand['id']}" for hand in game["hands"]]
        pages += [f"/games/{game['id']}/hands/{hand['id']}/edit" for hand in game["hands"]]
        pages += [f"/games/{game['id']}/hands/new"]
    for rule in data["house_rules"]:
        pages += [f"/house-rules/{rule['id']}", f"/house-rules/{rule['id']}/edit"]
    return pages


def test_the_unchanged_backup_shows_every_page(
    good_backup: dict[str, Any], figures: Counter[str]
) -> None:
    """Every page of every game of the unchanged backup, restored: the pages the changes above
    leave as they were (those of the games a change is not inside)."""
    restored_pages_show(good_backup, (), figures)
    assert len(pages_of(good_backup)) > len(pages_of(good_backup, ("games", 0)))
