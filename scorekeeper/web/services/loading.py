"""A game as the services and the pages load it: its sides in one statement, its hands only
when needed, and locked for a write."""

from __future__ import annotations

from sqlalchemy import inspect, select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from ..models import Game, Hand, Side, db
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


def game_with_sides(game_id: str, locked: bool = False) -> Game:
    """A game with its sides and players, in one statement; NotFound if there is none (or it
    was deleted: a write that raced its deletion finds it gone, as the door would).

    `locked`: inside `writing()`, locked for writing until commit (see `lock_game`).
    """
    query = (
        select(Game)
        .where(Game.id == game_id, Game.deleted_at.is_(None))
        .options(joinedload(Game.sides).joinedload(Side.players))
    )
    if locked:
        # The lock is on the game's row alone (OF game): PostgreSQL refuses to lock the
        # nullable side of the outer joins that bring the sides and players along.
        query = query.with_for_update(of=Game)
    game = db.session.scalars(query).unique().one_or_none()
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    return game


def lock_game(game_id: str, everything: bool = True) -> Game:
    """Inside `writing()`: the game, locked for writing until commit; NotFound if there is none.

    On PostgreSQL the lock is the game's row (`SELECT … FOR UPDATE`); SQLite ignores that
    clause, and its write transaction (BEGIN IMMEDIATE, see database.py) already holds the lock.
    `everything`: with all that a replay reads (its hands), not only the sides.
    """
    game = game_with_sides(game_id, locked=True)
    return with_hands(game) if everything else game
