"""A game as the services and the pages load it: its sides in one statement, its hands only
when needed, and locked for a write."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Row, inspect, select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..store.models import Game, Hand, Side
from .errors import NotFound


def with_hands(game: Game) -> Game:
    """The game with its hands and their entries, then their corrections, in two statements if
    they were not loaded yet: a page that needs only the sides never loads the hands."""
    if "hands" in inspect(game).unloaded:
        hands = (
            db.session.scalars(
                select(Hand)
                .where(Hand.game_id == game.id)
                .order_by(Hand.position)
                .options(joinedload(Hand.entries), selectinload(Hand.corrections))
            )
            .unique()
            .all()
        )
        set_committed_value(game, "hands", hands)
    return game


def game_with_sides(game_id: str) -> Game:
    """A game with its sides and players, in one statement; NotFound if there is none (or it
    was deleted: a write that raced its deletion finds it gone, as the door would)."""
    game: Game = _with_sides(game_id)[0]
    return game


def _with_sides(game_id: str, *columns: ColumnElement[Any]) -> Row[Any]:
    """The game with its sides and players, and `columns` read in the same statement."""
    query = (
        select(Game, *columns)
        .where(Game.id == game_id, Game.deleted_at.is_(None))
        .options(joinedload(Game.sides).joinedload(Side.players))
    )
    row = db.session.execute(query).unique().one_or_none()
    if row is None:
        raise NotFound(f"no game {game_id!r}")
    return row


def lock_game(game_id: str, everything: bool = True) -> Game:
    """Inside `writing()`: the game, locked for writing until commit; NotFound if there is none.
    `everything`: with all that a replay reads (its hands), not only the sides."""
    _lock(game_id)
    game = game_with_sides(game_id)
    return with_hands(game) if everything else game


def lock_game_with(game_id: str, *columns: ColumnElement[Any]) -> tuple[Game, tuple[Any, ...]]:
    """Inside `writing()`: the game with its sides, locked for writing until commit, and
    `columns` (a write's checks) read with it, once the lock is held; NotFound if there is
    none."""
    _lock(game_id)
    row = _with_sides(game_id, *columns)
    return row[0], tuple(row[1:])


def _lock(game_id: str) -> None:
    """On PostgreSQL the lock is the game's row (`SELECT … FOR UPDATE`); on SQLite the write
    transaction (BEGIN IMMEDIATE, see database.py) already holds the lock, and no statement is
    spent on one."""
    if db.engine.dialect.name == "sqlite":
        return
    # The lock is a statement of its own, and the game is read after it. A statement that waits
    # for a lock reads the rows of before the wait: PostgreSQL reads the locked row again once
    # it has the lock, but not the sides joined to it, which would be those of before the write
    # it waited for (and a total stored again unchanged on such a stale side is not written);
    # nor what a write checks with it (the place of the last hand).
    locked = select(Game.id).where(Game.id == game_id, Game.deleted_at.is_(None))
    db.session.execute(locked.with_for_update())
