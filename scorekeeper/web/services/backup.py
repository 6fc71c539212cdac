"""Everything the database keeps, as one JSON file: what a backup holds and how it is written
(restore.py reads one back into an empty database).

A backup holds what was recorded: games as they were set up (deleted ones too, until they are
purged), every hand as entered (deleted ones too), every correction, the house rules and the
merges of players (so that a restored merge can still be undone) and every club night whole (its
pairs, tables, rounds and seatings, each seat naming its game). The copied figures
(`Game.over`, `Side.total`, `Entry.hand_score`, …) are left out: a restore replays each game
through the rules engine, so the file cannot smuggle in a score the rules would not give.

A club's backup holds tens of thousands of hands, so it does not go row by row through the ORM
(which read each game's hands, entries and corrections lazily, four statements a hand): the
backup reads each table once, in one snapshot, all in the order the file nests them, and walks
the ordered reads side by side (seven for the games, five for the nights), writing the file one
game (and one night) at a time while it reads (`backup_text`). It makes the same number of
statements whatever the number of hands (tests/web/test_backup_size.py counts them;
benchmarks/backup.py times them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.engine import RowMapping

from ..extensions import db
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
from ..store.seasons import ALL_SYSTEMS, RatedGame, Rating, RatingStep, Season
from .ratings import APART, systems_apart

FORMAT = "samba-scorekeeper-backup"
VERSION = 5
"""2: each started round of a night keeps who sat out and who had left (`NightRound`); a backup
of version 1 is restored too, those guessed as an upgraded database has them. 3: the club's
seasons (each night naming its own) and the ratings as kept, with the games they rated; a
backup of an earlier version has none. 4: each rated game's place in the order and its totals
as rated, and what it did to each rating (`rating_steps`); a rated game of version 3 takes its
place by when it was rated and its sides' totals, and has no steps. 5: the club's choice of
rating pool (`rating_pool`: "all" systems together, or each "apart"); a restore of an earlier
version leaves the server's choice as it is."""

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
    # A club's seasons, and the ratings as kept (not recomputed: the same ratings come back).
    Season: frozenset({"revision"}),
    Rating: frozenset(),
    RatedGame: frozenset(),
    RatingStep: frozenset(),
}
CLUB: tuple[tuple[str, type[Any]], ...] = (
    ("seasons", Season),
    ("ratings", Rating),
    ("rated_games", RatedGame),
    ("rating_steps", RatingStep),
)
"""The club's rows a backup holds after its nights, each list under its name."""
# The rows each row holds, as the backup nests them.
CHILDREN: Mapping[type[Any], tuple[tuple[str, type[Any]], ...]] = {
    Game: (("sides", Side), ("hands", Hand)),
    Side: (("players", Player),),
    Hand: (("entries", Entry), ("corrections", Correction)),
    Night: (("pairs", Pair), ("tables", NightTable), ("rounds", NightRound)),
    NightRound: (("seats", Seating),),
}


def columns_of(model: type[Any]) -> list[Any]:
    """The columns of a table that a backup holds."""
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
    columns = [*columns_of(model), model.__table__.c[PARENT[model]]]
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
        self.columns = columns_of(model)
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
        reads.append(_Rows(Game, select(*columns_of(Game)).order_by(Game.created_at, Game.id)))
        reads.extend(_Rows(model, _ordered(model)) for model in GAME_ROWS)
        reads.append(_Rows(Night, select(*columns_of(Night)).order_by(Night.created_at, Night.id)))
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
    """Every house rule, merge of players, season, rating or rated game."""
    columns = columns_of(model)
    order = model.__table__.primary_key.columns
    rows = db.session.execute(select(*columns).order_by(*order)).mappings()
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


def _rating_pool() -> str:
    """The club's choice of rating pool, as a backup holds it."""
    return APART if systems_apart() else ALL_SYSTEMS


def backup() -> dict[str, Any]:
    """Every game (deleted ones, deleted hands and corrections too), every house rule, every
    merge of players and every club night (deleted ones too), the seasons, the ratings and the
    club's choice of rating pool, as plain data."""
    with _games_and_nights() as (games, nights):
        return {
            "format": FORMAT,
            "version": VERSION,
            "games": list(games),
            "house_rules": _others(HouseRule),
            "player_merges": _others(PlayerMerge),
            "nights": list(nights),
            **{name: _others(model) for name, model in CLUB},
            "rating_pool": _rating_pool(),
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
        yield "\n]"
        for name, model in CLUB:
            yield f',\n"{name}": {json.dumps(_others(model), ensure_ascii=False)}'
        yield f',\n"rating_pool": {json.dumps(_rating_pool())}}}\n'
