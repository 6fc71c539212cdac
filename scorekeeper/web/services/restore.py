"""A backup (backup.py) back into an empty database, all or nothing.

Restoring runs from the command line (`scorekeeper restore`), outside any request, so its
messages are in English, as `scorekeeper check`'s are.

A club's backup holds tens of thousands of hands, so the restore does not go row by row through
the ORM: it checks and replays the file before it takes the write lock, then inserts each
table's rows in one statement, the same number of statements whatever the number of hands
(tests/web/test_backup_size.py counts them; benchmarks/backup.py times them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from functools import partial
from itertools import count
from typing import Any

from sqlalchemy import DateTime, Integer, func, insert, select
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from ..store import schema
from ..store.columns import SchemaError
from ..store.database import writing
from ..store.models import (
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
from ..store.seasons import RatedGame, Rating, RatingStep, Season
from .backup import CHILDREN, CLUB, FORMAT, PARENT, VERSION, columns_of
from .engine import replay
from .figures import store_figures
from .night_restore import NightNotWhole, check_nights
from .outcomes import store_outcomes
from .ratings import POOL_CHOICES, choose_pool

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
    # Kept by a started round since version 2; a round of version 1 gets what can be told
    # (`nights.recorded_before`), as an upgraded database does.
    NightRound: frozenset({"sitting_out", "absent"}),
    Seating: frozenset(),
    # Seasons and ratings came with version 3: a backup made before has none at all.
    Season: frozenset(),
    Rating: frozenset(),
    # Version 4: a rated game's place and totals (those of version 3 are told, `_rated_order`)
    # and the steps, which a backup of version 3 has none of.
    RatedGame: frozenset({"sequence", "totals"}),
    RatingStep: frozenset(),
}
READABLE = tuple(range(1, VERSION + 1))
"""The backup versions a restore reads: version 1's rounds kept no record of who sat out, and
versions 1 and 2 no seasons or ratings, version 3 no rating steps, version 4 no choice of rating
pool."""
POOL_KEPT_SINCE = 5
"""The first version that holds the club's choice of rating pool (`rating_pool`)."""
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
        known = {c.key for c in columns_of(model)} | children.keys()
        unknown = sorted(str(key) for key in data.keys() - known)
        if unknown:
            raise BackupError(f"{where}: unknown field {unknown[0]!r}")
        values: dict[str, Any] = {}
        for column in columns_of(model):
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


def _check_club(club: list[Any], nights: list[Night], games: list[Game]) -> None:
    """Each night names a season of the backup, or none; each rated game is a game of it."""
    seasons = {row.id for row in club if isinstance(row, Season)}
    for index, night in enumerate(nights):
        if night.season_id is not None and night.season_id not in seasons:
            raise BackupError(f"nights[{index}].season_id: no season {night.season_id!r}")
    game_ids = {game.id for game in games}
    rated = [row for row in club if isinstance(row, RatedGame)]
    for index, row in enumerate(rated):
        if row.game_id not in game_ids:
            raise BackupError(f"rated_games[{index}].game_id: no game {row.game_id!r}")
    rated_ids = {row.game_id for row in rated}
    steps = [row for row in club if isinstance(row, RatingStep)]
    for index, step in enumerate(steps):
        if step.game_id not in rated_ids:
            raise BackupError(f"rating_steps[{index}].game_id: no rated game {step.game_id!r}")


def _rated_order(club: list[Any], games: list[Game]) -> None:
    """A rated game of a version 3 backup, which kept neither its place in the order nor its
    totals, takes them as an upgraded database does: by when it was rated, and its sides'."""
    untold = [row for row in club if isinstance(row, RatedGame) and row.sequence is None]
    told = [row.sequence for row in club if isinstance(row, RatedGame) and row.sequence is not None]
    sides = {game.id: [side.total or 0 for side in game.sides] for game in games}
    for number, row in enumerate(sorted(untold, key=lambda r: (r.rated_at, r.game_id)), 1):
        row.sequence = max(told, default=0) + number
        if row.totals is None:
            row.totals = sides[row.game_id]
    if len(set(told)) < len(told):  # from before each place was its own: as the upgrade does
        rated = [row for row in club if isinstance(row, RatedGame)]
        for number, row in enumerate(sorted(rated, key=lambda r: (r.sequence, r.game_id)), 1):
            row.sequence = number


def read_backup(
    data: object,
) -> tuple[list[Game], list[HouseRule], list[PlayerMerge], list[Night], list[Any]]:
    """The rows a backup describes, not yet stored, checked by the schema the app writes by,
    with their copied totals replayed. A backup made before merges (or nights, seasons and
    ratings: the last list) were kept has none."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"This is not a Samba Scorekeeper backup: its format is not {FORMAT!r}.")
    version = data.get("version")
    if type(version) is not int or version not in READABLE:  # 1.0 and true equal 1, are not it
        raise BackupError(
            f"Backup version {_show(version)}: this Samba Scorekeeper restores versions"
            f" {READABLE[0]} to {VERSION}."
        )
    unknown = sorted(
        str(key)
        for key in data.keys()
        - {"format", "version", "games", "house_rules", "player_merges", "nights", "rating_pool"}
        - {name for name, _model in CLUB}
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
    club: list[Any] = []
    for name, model in CLUB:
        club += _rows(data, name, partial(reader.record, model), [])
    reader.check([*games, *house_rules, *merges, *nights, *club])
    _check_club(club, nights, games)
    try:
        check_nights(nights, games, reader.places)
    except NightNotWhole as error:
        raise BackupError(str(error)) from None
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
    return games, house_rules, merges, nights, club


KEPT = (Game, HouseRule, Player, PlayerMerge, Night, Season, Rating)
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
    HouseRule, Season, Night, Pair, NightTable, NightRound,
    Game, Side, Player, Hand, Entry, Correction, PlayerMerge, Seating, Rating, RatedGame,
    RatingStep,
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
        if values.get("id", 0) is None:  # the file gave it no id: the next after the largest given
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
            if isinstance(getattr(record, "id", None), int):
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


def _rating_pool(data: Mapping[str, Any]) -> str | None:
    """The club's choice of rating pool a backup holds; None before version 5 (the server's
    own is left as it is). BackupError for another value, or none in a backup that holds it."""
    if data["version"] < POOL_KEPT_SINCE and "rating_pool" not in data:
        return None
    pool = data.get("rating_pool")
    if pool not in POOL_CHOICES:
        choices = " or ".join(repr(choice) for choice in POOL_CHOICES)
        raise BackupError(f"rating_pool: expected {choices}, got {_show(pool)}")
    return str(pool)


def restore(data: object) -> int:
    """Load a backup into an empty database, all or nothing; how many games it held."""
    games, house_rules, merges, nights, club = read_backup(data)
    assert isinstance(data, dict)  # read_backup refuses anything else
    pool = _rating_pool(data)
    _rated_order(club, games)
    writer = _Writer()
    writer.number([*house_rules, *nights, *games, *merges, *club])
    for record in (*house_rules, *nights, *games, *merges, *club):
        if isinstance(record, Game | Night | Season) and record.id is None:
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
            # What each night gave its pairs is not in a backup: worked out from its games.
            store_outcomes([night.id for night in nights])
            if pool is not None:
                choose_pool(pool)
    except (SQLAlchemyError, ValueError, OverflowError) as error:  # the schema let it through
        if isinstance(error, BackupError):
            raise
        problem = " ".join(str(getattr(error, "orig", None) or error).split())
        raise BackupError(f"The backup does not fit in the database: {problem}") from None
    return len(games)
