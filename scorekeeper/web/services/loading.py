"""A game as the services and the pages load it: its sides in one statement, its hands only
when needed, and locked for a write."""

from __future__ import annotations

from sqlalchemy import inspect, select
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
    query = (
        select(Game)
        .where(Game.id == game_id, Game.deleted_at.is_(None))
        .options(joinedload(Game.sides).joinedload(Side.players))
    )
    game = db.session.scalars(query).unique().one_or_none()
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    return game


def lock_game(game_id: str, everything: bool = True) -> Game:
    """Inside `writing()`: the game, locked for writing until commit; NotFound if there is none.

    On PostgreSQL the lock is the game's row (`SELECT … FOR UPDATE`); on SQLite the write
    transaction (BEGIN IMMEDIATE, see database.py) already holds the lock, and no statement is
    spent on one. `everything`: with all that a replay reads (its hands), not only the sides.
    """
    if db.engine.dialect.name == "sqlite":
        return _read_locked(game_id, everything)
    # The lock is a statement of its own, and the game is read after it. A statement that waits
    # for a lock reads the rows of before the wait: PostgreSQL reads the locked row again once
    # it has the lock, but not the sides joined to it, which would be those of before the write
    # it waited for (and a total stored again unchanged on such a stale side is not written).
    locked = select(Game.id).where(Game.id == game_id, Game.deleted_at.is_(None))
    db.session.execute(locked.with_for_update())
    return _read_locked(game_id, everything)


def _read_locked(game_id: str, everything: bool) -> Game:
    game = game_with_sides(game_id)
    return with_hands(game) if everything else game
