"""Every player's and standing pair's rating, updated as each game ends (inside the write that
ends it) and kept, so that no page recomputes one (the model: `nights.ratings`).

A game is rated once, when it first ends: a home game when it is over; a night's game when it
is over or when its round ends, as it stands, unless it counts as not played. Only games whose
every side names its players are rated, each player in two pools: every system together
(`ALL_SYSTEMS`) and the game's own system; and, when every side is two named players, each
pair as one. A game corrected or deleted after it was rated keeps the rating it gave.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import select, tuple_
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ...nights import ratings
from ..extensions import db
from ..store.models import Game
from ..store.seasons import ALL_SYSTEMS, RatedGame, Rating

Who = tuple[str, str]
"""A player's key and "", or a pair's two keys, sorted: a rating's row."""


def _sides(game: Game) -> list[list[str]] | None:
    """Each side's named players' keys, or None if a side names none."""
    sides = [[player.key for player in side.players if player.key] for side in game.sides]
    return sides if all(sides) and len(sides) >= 2 else None


def _rows(pools: Sequence[str], who: Iterable[Who]) -> dict[tuple[str, Who], Rating]:
    """The rating rows of `who` in `pools`, made where missing and locked, in one order."""
    keys = sorted({(pool, one) for pool in pools for one in who})
    values = [{"pool": p, "first": a, "second": b, "mu": ratings.MODEL.mu,
               "sigma": ratings.MODEL.sigma, "games": 0} for p, (a, b) in keys]  # fmt: skip
    insert = postgresql_insert if db.engine.dialect.name == "postgresql" else sqlite_insert
    # Two games ending at once with a new player: one makes the row, the other finds it.
    db.session.execute(insert(Rating).values(values).on_conflict_do_nothing())
    found = db.session.scalars(
        select(Rating)
        .where(
            tuple_(Rating.pool, Rating.first, Rating.second).in_([(p, a, b) for p, (a, b) in keys])
        )
        .order_by(Rating.pool, Rating.first, Rating.second)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {(row.pool, (row.first, row.second)): row for row in found}


def _rate(pools: Sequence[str], sides: list[list[Who]], totals: Sequence[int]) -> None:
    rows = _rows(pools, [one for side in sides for one in side])
    for pool in pools:
        before = [
            [ratings.Rating(r.mu, r.sigma, r.games) for r in (rows[pool, one] for one in side)]
            for side in sides
        ]
        for side, after in zip(sides, ratings.rate(before, totals), strict=True):
            for one, rating in zip(side, after, strict=True):
                row = rows[pool, one]
                row.mu, row.sigma, row.games = rating.mu, rating.sigma, rating.games


def rate_game(game: Game) -> bool:
    """Rate a game that has ended, inside the write that ended it, unless it was rated before
    or a side names no player. Whether it was rated now."""
    sides = _sides(game)
    if sides is None or db.session.get(RatedGame, game.id) is not None:
        return False
    totals = [side.total or 0 for side in game.sides]
    pools = (ALL_SYSTEMS, game.system_id)
    _rate(pools, [[(key, "") for key in side] for side in sides], totals)
    if all(len(set(side)) == 2 for side in sides):
        pairs = [[(min(side), max(side))] for side in sides]
        _rate(pools, pairs, totals)
    db.session.add(RatedGame(game_id=game.id))
    db.session.flush()
    return True


def rating_of(who: Who, pool: str = ALL_SYSTEMS) -> ratings.Rating | None:
    """One player's (or pair's) rating as kept, None before their first rated game."""
    row = db.session.scalar(
        select(Rating).where(Rating.pool == pool, Rating.first == who[0], Rating.second == who[1])
    )
    return None if row is None else ratings.Rating(row.mu, row.sigma, row.games)


def ratings_of(keys: Iterable[str], pool: str = ALL_SYSTEMS) -> dict[str, ratings.Rating]:
    """The players' ratings as kept, by key (those not yet rated are left out)."""
    rows = db.session.scalars(
        select(Rating).where(Rating.pool == pool, Rating.first.in_(set(keys)), Rating.second == "")
    )
    return {row.first: ratings.Rating(row.mu, row.sigma, row.games) for row in rows}
