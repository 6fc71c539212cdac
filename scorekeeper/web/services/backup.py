"""Everything the database keeps, as one JSON file, and back into an empty database.

A backup holds what was recorded: games as they were set up (deleted ones too, until they are
purged), every hand as entered (deleted ones too), every correction, the house rules and the
merges of players (so that a restored merge can still be undone). The copied figures
(`Game.over`, `Side.total`, `Entry.hand_score`, …) are left out: a restore replays each game
through the rules engine, so the file cannot smuggle in a score the rules would not give.

Restoring runs from the command line (`scorekeeper restore`), outside any request, so its
messages are in English, as `scorekeeper check`'s are.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import DateTime, Integer, func, select
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from ..store import schema
from ..store.columns import SchemaError
from ..store.database import writing
from ..store.models import (
    SIDE_TALLIES,
    Correction,
    Entry,
    Game,
    Hand,
    HouseRule,
    Night,
    NightRound,
    NightTable,
    Pair,
    Player,
    PlayerMerge,
    Seating,
    Side,
)
from .engine import replay
from .figures import store_figures

FORMAT = "samba-scorekeeper-backup"
VERSION = 1

# Columns a backup leaves out: the parent's id (the nesting says it) and the replay's copies.
LEFT_OUT: Mapping[type[Any], frozenset[str]] = {
    Game: frozenset({"over", "revision"}),
    Side: frozenset(
        {"game_id", "total", "won", *SIDE_TALLIES, "team", "system_id", "over", "created_at"}
    ),
    Player: frozenset({"side_id"}),
    Hand: frozenset({"game_id"}),
    Entry: frozenset({"hand_id", "hand_score"}),
    Correction: frozenset({"hand_id"}),
    HouseRule: frozenset(),
    PlayerMerge: frozenset(),
    # A club night whole: its pairs, tables and rounds with their seatings (each seat naming
    # its game, which is among the games, marked with its night).
    Night: frozenset({"revision"}),
    Pair: frozenset({"night_id"}),
    NightTable: frozenset({"night_id"}),
    NightRound: frozenset({"night_id"}),
    Seating: frozenset({"round_id"}),
}
# The rows each row holds, as the backup nests them.
CHILDREN: Mapping[type[Any], tuple[tuple[str, type[Any]], ...]] = {
    Game: (("sides", Side), ("hands", Hand)),
    Side: (("players", Player),),
    Hand: (("entries", Entry), ("corrections", Correction)),
    Night: (("pairs", Pair), ("tables", NightTable), ("rounds", NightRound)),
    NightRound: (("seats", Seating),),
}
# How the database orders the rows a row holds, so that a restored game replays as it will load.
ORDER = {
    Side: "position",
    Player: "position",
    Hand: "position",
    Entry: "side_position",
    Pair: "number",
    NightTable: "number",
    NightRound: "number",
    Seating: "table",
}


class BackupError(ValueError):
    """A file that is not a backup this version can restore; nothing was stored."""


class DatabaseNotEmpty(BackupError):
    """A restore goes only into an empty database, so that nothing is overwritten or mixed."""


def _columns(model: type[Any]) -> list[Any]:
    return [c for c in model.__table__.columns if c.key not in LEFT_OUT[model]]


def _row(record: Any) -> dict[str, Any]:
    """A row's recorded columns (dates as ISO strings), with the rows it holds nested in it."""
    model = type(record)
    data: dict[str, Any] = {}
    for column in _columns(model):
        value = getattr(record, column.key)
        data[column.key] = value.isoformat() if isinstance(value, datetime) else value
    for name, _child in CHILDREN.get(model, ()):
        data[name] = [_row(child) for child in getattr(record, name)]
    return data


def backup() -> dict[str, Any]:
    """Every game (deleted ones, deleted hands and corrections too), every house rule and every
    merge of players, as plain data."""
    games = db.session.scalars(select(Game).order_by(Game.created_at, Game.id)).all()
    house_rules = db.session.scalars(select(HouseRule).order_by(HouseRule.id)).all()
    merges = db.session.scalars(select(PlayerMerge).order_by(PlayerMerge.id)).all()
    nights = db.session.scalars(select(Night).order_by(Night.created_at, Night.id)).all()
    return {
        "format": FORMAT,
        "version": VERSION,
        "games": [_row(game) for game in games],
        "house_rules": [_row(rule) for rule in house_rules],
        "player_merges": [_row(merge) for merge in merges],
        "nights": [_row(night) for night in nights],
    }


def _value(column: Any, value: object) -> object:
    """A file's value for a column: a date and time from its ISO text, anything else as it is
    (the schema says whether it may be kept)."""
    if isinstance(column.type, DateTime) and isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return value
        if parsed.tzinfo is not None:  # the database keeps UTC without a zone
            parsed = parsed.astimezone(UTC).replace(tzinfo=None)
        return parsed
    return value


class _Reader:
    """Builds the rows a backup describes, remembering where in the file each one was."""

    def __init__(self) -> None:
        self.places: dict[int, str] = {}
        self.ids: dict[tuple[type[Any], object], str] = {}
        self.checker = schema.Checker()

    def record(self, model: type[Any], data: object, where: str) -> Any:
        """The row a backup describes, with the rows it holds; the shape checked, not the values."""
        if not isinstance(data, dict):
            raise BackupError(f"{where}: expected an object, got {_show(data)}")
        children = dict(CHILDREN.get(model, ()))
        known = {c.key for c in _columns(model)} | children.keys()
        unknown = sorted(str(key) for key in data.keys() - known)
        if unknown:
            raise BackupError(f"{where}: unknown field {unknown[0]!r}")
        values: dict[str, Any] = {}
        for column in _columns(model):
            if column.key in data:
                values[column.key] = _value(column, data[column.key])
            elif not (column.nullable or column.default is not None or column.primary_key):
                raise BackupError(f"{where}: missing {column.key!r}")
        for name, child in children.items():
            rows = data.get(name, [])
            if not isinstance(rows, list):
                raise BackupError(f"{where}.{name}: expected a list, got {_show(rows)}")
            records = [
                self.record(child, row, f"{where}.{name}[{i}]") for i, row in enumerate(rows)
            ]
            if child in ORDER:
                records.sort(key=partial(_order, ORDER[child]))
            values[name] = records
        record = model(**values)
        self.places[id(record)] = where
        key = values.get("id")
        if key is not None and isinstance(key, str | int) and not isinstance(key, bool):
            other = self.ids.setdefault((model, key), where)
            if other != where:
                raise BackupError(f"{where}.id: {_show(key)} is already the id of {other}")
        return record

    def check(self, records: list[Any]) -> None:
        """Every row against the schema, each game with its rules; the first problem, placed."""
        for record in records:
            try:
                self.checker.check(record)
            except SchemaError as error:
                raise BackupError(str(error.inside(self.places[id(record)]))) from None
            for name, _child in CHILDREN.get(type(record), ()):
                self.check(getattr(record, name))


def _order(column: str, record: Any) -> tuple[int, int]:
    """Rows sorted by position even when a position is not a number (the schema says so later)."""
    position = getattr(record, column)
    if isinstance(position, int) and not isinstance(position, bool):
        return (0, position)
    return (1, 0)


def _show(value: object) -> str:
    shown = json.dumps(value, ensure_ascii=False)[:40] if _jsonable(value) else repr(value)
    return " ".join(shown.split())


def _jsonable(value: object) -> bool:
    return isinstance(value, dict | list | str | int | float | bool) or value is None


def _rows(
    data: Mapping[str, Any], key: str, read: Callable[[object, str], Any], default: object = None
) -> list[Any]:
    rows = data.get(key, default)
    if not isinstance(rows, list):
        raise BackupError(f"{key}: expected a list")
    return [read(row, f"{key}[{i}]") for i, row in enumerate(rows)]


def read_backup(
    data: object,
) -> tuple[list[Game], list[HouseRule], list[PlayerMerge], list[Night]]:
    """The rows a backup describes, not yet stored, checked by the schema the app writes by,
    with their copied totals replayed. A backup made before merges (or nights) were kept has
    none."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"This is not a Samba Scorekeeper backup: its format is not {FORMAT!r}.")
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # 1.0 and true are equal to 1, not it
        raise BackupError(
            f"Backup version {_show(version)}: this Samba Scorekeeper restores version {VERSION}."
        )
    unknown = sorted(
        str(key)
        for key in data.keys()
        - {"format", "version", "games", "house_rules", "player_merges", "nights"}
    )
    if unknown:
        raise BackupError(f"unknown field {unknown[0]!r}")
    reader = _Reader()
    games: list[Game] = _rows(data, "games", lambda row, where: reader.record(Game, row, where))
    house_rules: list[HouseRule] = _rows(
        data, "house_rules", lambda row, where: reader.record(HouseRule, row, where)
    )
    merges: list[PlayerMerge] = _rows(
        data, "player_merges", lambda row, where: reader.record(PlayerMerge, row, where), []
    )
    nights: list[Night] = _rows(
        data, "nights", lambda row, where: reader.record(Night, row, where), []
    )
    reader.check([*games, *house_rules, *merges, *nights])
    _check_nights(nights, games)
    started: dict[str, int] = {}  # a form's one-time token starts one game (models.Game.token)
    for index, game in enumerate(games):
        if game.token is not None and started.setdefault(game.token, index) != index:
            first = started[game.token]
            raise BackupError(f"games[{index}].token: already the token of games[{first}]")
    for index, game in enumerate(games):
        updated_at = game.updated_at
        try:
            store_figures(game, replay(game))
        except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as error:
            problem = " ".join(str(error).split()) or type(error).__name__
            raise BackupError(f"games[{index}]: cannot be replayed: {problem}") from None
        if updated_at is not None:  # replaying is not a change to the game
            game.updated_at = updated_at
    return games, house_rules, merges, nights


def _check_nights(nights: list[Night], games: list[Game]) -> None:
    """Each night's games are among the games and marked with it, each in one seat; a game
    marked with a night is one of that night's."""
    night_ids = {night.id for night in nights}
    seated: dict[str, str] = {}
    for index, night in enumerate(nights):
        for r, played in enumerate(night.rounds):
            for t, seat in enumerate(played.seats):
                if seat.game_id is None:
                    continue
                where = f"nights[{index}].rounds[{r}].seats[{t}].game_id"
                if seat.game_id in seated:
                    raise BackupError(f"{where}: the game {seat.game_id!r} has another seat")
                seated[seat.game_id] = night.id
    for index, game in enumerate(games):
        if game.night_id is not None and game.night_id not in night_ids:
            raise BackupError(f"games[{index}].night_id: no night {game.night_id!r}")
        if game.id in seated and game.night_id != seated[game.id]:
            raise BackupError(f"games[{index}].night_id: not the night it is seated in")
    known = {game.id for game in games}
    missing = sorted(set(seated) - known)
    if missing:
        raise BackupError(f"nights: no game {missing[0]!r} among the games")


def is_empty() -> bool:
    """Whether the database holds no row of any table."""
    return all(
        db.session.execute(select(table).limit(1)).first() is None
        for table in db.metadata.sorted_tables
    )


def _sequences_past_largest_ids() -> None:
    """On PostgreSQL, each table's id sequence set past its largest id: the rows came with their
    ids, which leave the sequences where they were, so the next hand would take a used id."""
    if db.session.get_bind().dialect.name != "postgresql":
        return  # SQLite numbers the next row after the largest id there is
    for table in db.metadata.sorted_tables:
        if "id" not in table.c or not isinstance(table.c.id.type, Integer):
            continue  # a game's id is random text, not counted
        largest = func.max(table.c.id)
        sequence = func.pg_get_serial_sequence(table.name, "id")
        # setval(…, 1, false) when the table is empty: the next id is 1, as in a new database.
        db.session.execute(
            select(func.setval(sequence, func.coalesce(largest, 1), largest.is_not(None)))
        )


def restore(data: object) -> int:
    """Load a backup into an empty database, all or nothing; how many games it held."""
    games, house_rules, merges, nights = read_backup(data)
    try:
        with writing():
            if not is_empty():
                raise DatabaseNotEmpty(
                    "The database is not empty: a backup is restored only into an empty one."
                )
            # The nights before the games marked with them; the seats name games: a second flush.
            seats = [seat for night in nights for r in night.rounds for seat in r.seats]
            seat_games = [seat.game_id for seat in seats]
            for seat in seats:
                seat.game_id = None
            db.session.add_all([*house_rules, *nights])
            db.session.flush()
            db.session.add_all([*games, *merges])
            db.session.flush()
            for seat, game_id in zip(seats, seat_games, strict=True):
                seat.game_id = game_id
            db.session.flush()
            _sequences_past_largest_ids()
    except (SQLAlchemyError, ValueError, OverflowError) as error:  # the schema let it through
        if isinstance(error, BackupError):
            raise
        problem = " ".join(str(getattr(error, "orig", None) or error).split())
        raise BackupError(f"The backup does not fit in the database: {problem}") from None
    return len(games)
