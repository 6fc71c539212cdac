"""Everything the database keeps, as one JSON file, and back into an empty database.

A backup holds what was recorded: games as they were set up (deleted ones too, until they are
purged), every hand as entered (deleted ones too), every correction, the house rules and the
merges of players (so that a restored merge can still be undone) and every club night whole (its
pairs, tables, rounds and seatings, each seat naming its game). The copied figures
(`Game.over`, `Side.total`, `Entry.hand_score`, …) are left out: a restore replays each game
through the rules engine, so the file cannot smuggle in a score the rules would not give.

Restoring runs from the command line (`scorekeeper restore`), outside any request, so its
messages are in English, as `scorekeeper check`'s are.

A club's backup holds tens of thousands of hands, so neither way goes row by row through the
ORM (which read each game's hands, entries and corrections lazily, four statements a hand):
the backup reads each table once, in one snapshot, all in the order the file nests them, and
walks the ordered reads side by side (seven for the games, five for the nights), writing the
file one game (and one night) at a time while it reads (`backup_text`); the restore checks and
replays the file before it takes the write lock, then inserts each table's rows in one
statement. Both make the same number of statements whatever the number of hands
(tests/web/test_backup_size.py counts them; benchmarks/backup.py times them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from itertools import count
from typing import Any

from sqlalchemy import DateTime, Integer, Select, func, insert, select
from sqlalchemy.engine import RowMapping
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
    new_game_id,
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
# The columns a backup may leave out though they hold something: added after backups were first
# written, a backup made before has none, and a restore gives them what a new row gets (a game
# dealt first by the first player, new share links, no game played next). Every other column
# that holds something is in every backup this app writes, and a file without it is refused,
# not guessed at.
ADDED_LATER: Mapping[type[Any], frozenset[str]] = {
    Game: frozenset({"first_dealer", "follow_token", "join_token", "next_game_id"}),
    Side: frozenset(),
    Player: frozenset(),
    Hand: frozenset(),
    Entry: frozenset(),
    Correction: frozenset(),
    HouseRule: frozenset(),
    PlayerMerge: frozenset(),
    # Nights came after backups were first written: a backup made before has none at all.
    Night: frozenset(),
    Pair: frozenset(),
    NightTable: frozenset(),
    NightRound: frozenset(),
    Seating: frozenset(),
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


STREAMED = 1000
"""Rows fetched from the database at a time while a backup is written."""
PARENT = {
    Side: "game_id",
    Player: "side_id",
    Hand: "game_id",
    Entry: "hand_id",
    Correction: "hand_id",
    Pair: "night_id",
    NightTable: "night_id",
    NightRound: "night_id",
    Seating: "round_id",
}
"""The column naming the row a row is nested in (left out of the file: the nesting says it)."""
GAME_ROWS = (Side, Player, Hand, Entry, Correction)
NIGHT_ROWS = (Pair, NightTable, NightRound, Seating)


def _ordered(model: type[Any]) -> Select[Any]:
    """Every row of a table a game (or a night) holds, in the order the backup nests them: by
    game (as the games are listed), then by their parent's place, then their own."""
    columns = [*_columns(model), model.__table__.c[PARENT[model]]]
    if model in NIGHT_ROWS:
        return _ordered_in_nights(model, columns)
    game_order = [Game.created_at, Game.id]
    if model in (Side, Hand):
        statement = select(*columns).join(Game, Game.id == model.game_id)
        return statement.order_by(*game_order, model.position, model.id)
    if model is Player:
        statement = select(*columns).join(Side, Side.id == Player.side_id)
        statement = statement.join(Game, Game.id == Side.game_id)
        return statement.order_by(*game_order, Side.position, Side.id, Player.position, Player.id)
    statement = select(*columns).join(Hand, Hand.id == model.hand_id)
    statement = statement.join(Game, Game.id == Hand.game_id)
    own = (Entry.side_position, Entry.id) if model is Entry else (Correction.id,)
    return statement.order_by(*game_order, Hand.position, Hand.id, *own)


def _ordered_in_nights(model: type[Any], columns: list[Any]) -> Select[Any]:
    """Every pair, table, round or seat, by night (as the nights are listed), then in its
    night's order (by number; a seat by its round's number, then its table)."""
    night_order = [Night.created_at, Night.id]
    if model is Seating:
        statement = select(*columns).join(NightRound, NightRound.id == Seating.round_id)
        statement = statement.join(Night, Night.id == NightRound.night_id)
        return statement.order_by(
            *night_order, NightRound.number, NightRound.id, Seating.table, Seating.id
        )
    statement = select(*columns).join(Night, Night.id == model.night_id)
    return statement.order_by(*night_order, model.number, model.id)


class _Rows:
    """One table's rows read in order, a batch at a time; `of(parent)` takes the next ones that
    belong to `parent` (the reads are all in the same order, so each one's rows come next)."""

    def __init__(self, model: type[Any], statement: Select[Any]) -> None:
        self.model = model
        self.columns = _columns(model)
        self.parent = PARENT.get(model)
        self.result = db.session.execute(statement, execution_options={"yield_per": STREAMED})
        self.rows: Iterator[RowMapping] = iter(self.result.mappings())
        self.next: RowMapping | None = next(self.rows, None)

    def of(self, parent: object) -> Iterator[RowMapping]:
        while self.next is not None and (self.parent is None or self.next[self.parent] == parent):
            row, self.next = self.next, next(self.rows, None)
            yield row


def _data(columns: list[Any], row: RowMapping) -> dict[str, Any]:
    """A row's recorded columns, dates as ISO strings."""
    data: dict[str, Any] = {}
    for column in columns:
        value = row[column.key]
        data[column.key] = value.isoformat() if isinstance(value, datetime) else value
    return data


@contextmanager
def _games_and_nights() -> Iterator[tuple[Iterator[dict[str, Any]], Iterator[dict[str, Any]]]]:
    """Every game, with the rows it holds nested in it, one at a time, then every night so:
    twelve reads walked side by side (each table read once, whatever the number of games,
    hands and nights). The reads begin on entering, so a database that cannot be read fails
    before anything is written, and are closed on leaving, read to their end or not (a phone
    that stops a download halfway)."""
    _snapshot()
    reads: list[_Rows] = []
    try:
        reads.append(_Rows(Game, select(*_columns(Game)).order_by(Game.created_at, Game.id)))
        reads.extend(_Rows(model, _ordered(model)) for model in GAME_ROWS)
        reads.append(_Rows(Night, select(*_columns(Night)).order_by(Night.created_at, Night.id)))
        reads.extend(_Rows(model, _ordered(model)) for model in NIGHT_ROWS)
        by_model = {rows.model: rows for rows in reads}
        yield _nested(by_model[Game], by_model), _nested_nights(by_model[Night], by_model)
    finally:
        for rows in reads:
            rows.result.close()
        db.session.rollback()


def _nested(games: _Rows, reads: Mapping[type[Any], _Rows]) -> Iterator[dict[str, Any]]:
    for game_row in games.of(None):
        game = _data(games.columns, game_row)
        sides = []
        for side_row in reads[Side].of(game_row["id"]):
            side = _data(reads[Side].columns, side_row)
            players = reads[Player].of(side_row["id"])
            side["players"] = [_data(reads[Player].columns, row) for row in players]
            sides.append(side)
        hands = []
        for hand_row in reads[Hand].of(game_row["id"]):
            hand = _data(reads[Hand].columns, hand_row)
            for name, model in (("entries", Entry), ("corrections", Correction)):
                hand[name] = [
                    _data(reads[model].columns, row) for row in reads[model].of(hand_row["id"])
                ]
            hands.append(hand)
        game["sides"], game["hands"] = sides, hands
        yield game


def _nested_nights(nights: _Rows, reads: Mapping[type[Any], _Rows]) -> Iterator[dict[str, Any]]:
    for night_row in nights.of(None):
        night = _data(nights.columns, night_row)
        for name, model in (("pairs", Pair), ("tables", NightTable)):
            night[name] = [
                _data(reads[model].columns, row) for row in reads[model].of(night_row["id"])
            ]
        rounds = []
        for round_row in reads[NightRound].of(night_row["id"]):
            played = _data(reads[NightRound].columns, round_row)
            seats = reads[Seating].of(round_row["id"])
            played["seats"] = [_data(reads[Seating].columns, row) for row in seats]
            rounds.append(played)
        night["rounds"] = rounds
        yield night


def _others(model: type[Any]) -> list[dict[str, Any]]:
    """Every house rule, or every merge of players."""
    columns = _columns(model)
    rows = db.session.execute(select(*columns).order_by(model.id)).mappings()
    return [_data(columns, row) for row in rows]


def _snapshot() -> None:
    """The backup reads one state of the database: on PostgreSQL a REPEATABLE READ transaction
    (its reads are statements apart, and a hand saved between two of them would be half in
    the file); SQLite's transaction reads one snapshot already (WAL)."""
    db.session.rollback()
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.connection(
            execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
        )


def backup() -> dict[str, Any]:
    """Every game (deleted ones, deleted hands and corrections too), every house rule, every
    merge of players and every club night (deleted ones too), as plain data."""
    with _games_and_nights() as (games, nights):
        return {
            "format": FORMAT,
            "version": VERSION,
            "games": list(games),
            "house_rules": _others(HouseRule),
            "player_merges": _others(PlayerMerge),
            "nights": list(nights),
        }


def backup_text() -> Iterator[str]:
    """The backup as JSON text, written one game at a time as it is read: a club's backup is
    never whole in memory, and the first bytes leave before the last game is read."""
    with _games_and_nights() as (games, nights):
        yield f'{{"format": {json.dumps(FORMAT)}, "version": {VERSION}, "games": [\n'
        for index, game in enumerate(games):
            yield ("" if index == 0 else ",\n") + json.dumps(game, ensure_ascii=False)
        house_rules = json.dumps(_others(HouseRule), ensure_ascii=False)
        merges = json.dumps(_others(PlayerMerge), ensure_ascii=False)
        yield f'\n],\n"house_rules": {house_rules},\n"player_merges": {merges},\n"nights": [\n'
        for index, night in enumerate(nights):
            yield ("" if index == 0 else ",\n") + json.dumps(night, ensure_ascii=False)
        yield "\n]}\n"


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
            elif not (column.nullable or column.primary_key or column.key in ADDED_LATER[model]):
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


KEPT = (Game, HouseRule, Player, PlayerMerge, Night)
"""What a restore must not overwrite or mix with: games (and so their sides, hands and players),
house rules, merges of players and club nights. The table's PIN, its wrong guesses and its
signed-in phones are the server's own, not the scores: a new server with a PIN is empty."""


def is_empty() -> bool:
    """Whether the database holds no game, house rule or player."""
    return all(db.session.execute(select(model.id).limit(1)).first() is None for model in KEPT)


def _default(column: Any) -> object:
    """What the database would take for a column the file leaves out or gives as null."""
    default = column.default
    if default is None:
        return None
    return default.arg(None) if default.is_callable else default.arg


TABLES: tuple[type[Any], ...] = (
    HouseRule, Night, Pair, NightTable, NightRound,
    Game, Side, Player, Hand, Entry, Correction, PlayerMerge, Seating,
)  # fmt: skip
"""The tables a backup fills, each before the ones that name its rows (a night before the games
marked with it, a seat after the game it names)."""


class _Writer:
    """The rows of a checked backup as each table's list of values, parents' ids filled in."""

    def __init__(self) -> None:
        self.rows: dict[type[Any], list[dict[str, Any]]] = {}
        self.next_id: dict[type[Any], Iterator[int]] = {}

    def add(self, record: Any, parent: dict[str, Any] | None = None) -> None:
        model = type(record)
        values: dict[str, Any] = {}
        for column in model.__table__.columns:
            value = getattr(record, column.key, None)
            values[column.key] = _default(column) if value is None else value
        if parent is not None:
            values[PARENT[model]] = parent["id"]
        if values["id"] is None:  # a row the file gave no id: the next after the largest given
            values["id"] = next(self.next_id[model])
        self.rows.setdefault(model, []).append(values)
        for name, _child in CHILDREN.get(model, ()):
            for child in getattr(record, name):
                self.add(child, values)

    def number(self, records: list[Any]) -> None:
        """Ids for the rows the file gave none, past the largest it gave, table by table."""
        largest: dict[type[Any], int] = {}

        def visit(record: Any) -> None:
            model = type(record)
            if isinstance(record.id, int):
                largest[model] = max(largest.get(model, 0), record.id)
            for name, _child in CHILDREN.get(model, ()):
                for child in getattr(record, name):
                    visit(child)

        for record in records:
            visit(record)
        for model in TABLES:
            self.next_id[model] = count(largest.get(model, 0) + 1)

    def insert(self) -> None:
        """Each table's rows in one statement, parents first."""
        for model in TABLES:
            rows = self.rows.get(model)
            if rows:
                # The table's Core INSERT, one executemany (the ORM's bulk insert would split the
                # rows into batches by which values are null).
                db.session.execute(insert(model.__table__), rows)


def _sequences_past_largest_ids() -> None:
    """On PostgreSQL, each table's id sequence set past its largest id, in one statement: the
    rows came with their ids, which leave the sequences where they were, so the next hand would
    take a used id."""
    if db.session.get_bind().dialect.name != "postgresql":
        return  # SQLite numbers the next row after the largest id there is
    settings = []
    for table in db.metadata.sorted_tables:
        if "id" not in table.c or not isinstance(table.c.id.type, Integer):
            continue  # a game's id is random text, not counted
        largest = select(func.max(table.c.id)).scalar_subquery()
        sequence = func.pg_get_serial_sequence(table.name, "id")
        # setval(…, 1, false) when the table is empty: the next id is 1, as in a new database.
        settings.append(func.setval(sequence, func.coalesce(largest, 1), largest.is_not(None)))
    db.session.execute(select(*settings))


def restore(data: object) -> int:
    """Load a backup into an empty database, all or nothing; how many games it held."""
    games, house_rules, merges, nights = read_backup(data)
    writer = _Writer()
    writer.number([*house_rules, *nights, *games, *merges])
    for record in (*house_rules, *nights, *games, *merges):
        if isinstance(record, Game | Night) and record.id is None:
            record.id = new_game_id()
        writer.add(record)
    try:
        with writing():
            if not is_empty():
                raise DatabaseNotEmpty(
                    "The database is not empty: a backup is restored only into an empty one."
                )
            writer.insert()
            _sequences_past_largest_ids()
    except (SQLAlchemyError, ValueError, OverflowError) as error:  # the schema let it through
        if isinstance(error, BackupError):
            raise
        problem = " ".join(str(getattr(error, "orig", None) or error).split())
        raise BackupError(f"The backup does not fit in the database: {problem}") from None
    return len(games)
