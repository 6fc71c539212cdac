"""Every player's and standing pair's rating, updated as each game ends (inside the write that
ends it) and kept, so that no page recomputes one (the model: `nights.ratings`).

A game is rated once, when it first ends: a home game when it is over; a night's game when it
is over or when its round ends, as it stands, unless it counts as not played. Only games whose
every side names its players (no one on two sides) are rated, each player in two pools: every
system together (`ALL_SYSTEMS`) and the game's own system; and, when every side is two named
players, each pair as one. A game corrected or deleted after it was rated keeps the rating it
gave: its totals as rated are kept with it (`RatedGame.totals`), and what it did to each
rating (`RatingStep`, which the player's chart draws).

A game purged for good (deleted long ago) takes its record of being rated with it: the ratings
keep what it gave until a replay, which replays the games there are.

A write that changes who played a game (a rename that merges two players, a merge, a merge
undone) replays the ratings of every pool its games are in, from the first rated game, in the
order they were rated, with each game's players as they are now (`rerate`): the merged player's
rating is then what their games give, as if they had always been one. It is the only time
ratings are recomputed, and it is a write, never a page view.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from sqlalchemy import (
    ColumnElement,
    String,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    tuple_,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ...nights import ratings
from ..extensions import db
from ..store.database import writing
from ..store.models import Game, Player, Side, TableSetting
from ..store.seasons import ALL_SYSTEMS, RatedGame, Rating, RatingStep
from ..store.settings import keep_setting

Who = tuple[str, str]
"""A player's key and "", or a pair's two keys, sorted: a rating's row."""
Rated = list[tuple[str, list[list[Who]]]]
"""What one game rates: each pool with the game's sides, each side a list of whos."""


def _sides_of(keys: Sequence[Sequence[str]]) -> list[list[str]] | None:
    """Each side's named players' keys, each once; None if a side names none or one player is
    on two sides (after a merge of two players who played each other)."""
    sides = [sorted({key for key in side if key}) for side in keys]
    named = [key for side in sides for key in side]
    if len(sides) < 2 or not all(sides) or len(named) != len(set(named)):
        return None
    return sides


def _rated(system_id: str, sides: list[list[str]]) -> Rated:
    """What a game rates: its players in both pools, and its pairs when each side is two."""
    pools = (ALL_SYSTEMS, system_id)
    rated: Rated = [(pool, [[(key, "") for key in side] for side in sides]) for pool in pools]
    if all(len(side) == 2 for side in sides):
        rated += [(pool, [[(side[0], side[1])] for side in sides]) for pool in pools]
    return rated


ORDER_LOCK = text("SELECT pg_advisory_xact_lock(3811)")
"""The rated games' order, on PostgreSQL: a lock held until commit, taken by every write that
rates a game (`rate_game`) or replays them (`rerate`) before it reads anything of the ratings.
A game rated then takes the next place in the order, after the one rated before it (two games
rated at once would otherwise share a `sequence`), and a replay reads every game rated before it
and no other: without it a replay would miss a game that ends among new players (whose rows no
lock of the replay's holds) and then delete that game's steps, committed meanwhile. Taken after
the rows a write locks first (its games, its nights, its players): a write that holds it then
asks for the ratings' rows, which no write locks without it. SQLite writes one at a time
(`BEGIN IMMEDIATE`) and needs none."""


def _lock_the_order() -> None:
    if db.engine.dialect.name == "postgresql":
        db.session.execute(ORDER_LOCK)


def _rows(pools: Iterable[str], who: Iterable[Who]) -> dict[tuple[str, Who], Rating]:
    """The rating rows of `who` in `pools`, made where missing and locked, in one order."""
    keys = sorted({(pool, one) for pool in pools for one in who})
    values = [{"pool": p, "first": a, "second": b, "mu": ratings.MODEL.mu,
               "sigma": ratings.MODEL.sigma, "games": 0} for p, (a, b) in keys]  # fmt: skip
    upsert = postgresql_insert if db.engine.dialect.name == "postgresql" else sqlite_insert
    # Two games ending at once with a new player: one makes the row, the other finds it.
    db.session.execute(upsert(Rating).values(values).on_conflict_do_nothing())
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


def _step(
    game_id: str, pool: str, one: Who, before: ratings.Rating, after: ratings.Rating
) -> dict[str, object]:
    return {"game_id": game_id, "pool": pool, "first": one[0], "second": one[1],
            "mu_before": before.mu, "sigma_before": before.sigma, "mu": after.mu,
            "sigma": after.sigma, "games": after.games}  # fmt: skip


def _play(
    game_id: str, rated: Rated, totals: Sequence[int], now: dict[tuple[str, Who], ratings.Rating]
) -> list[dict[str, object]]:
    """Rate one game on the ratings `now` (changed in place); the steps it made."""
    steps = []
    for pool, sides in rated:
        before = [[now.get((pool, one), ratings.Rating()) for one in side] for side in sides]
        after = ratings.rate(before, totals)
        for side, olds, news in zip(sides, before, after, strict=True):
            for one, old, new in zip(side, olds, news, strict=True):
                now[pool, one] = new
                steps.append(_step(game_id, pool, one, old, new))
    return steps


def rate_game(game: Game) -> bool:
    """Rate a game that has ended, inside the write that ended it, unless it was rated before
    or a side names no player. Whether it was rated now."""
    sides = _sides_of([[player.key for player in side.players] for side in game.sides])
    if sides is None or db.session.get(RatedGame, game.id) is not None:
        return False
    _lock_the_order()
    totals = [side.total or 0 for side in game.sides]
    rated = _rated(game.system_id, sides)
    rows = _rows({pool for pool, _ in rated}, [one for _, s in rated for side in s for one in side])
    now = {at: ratings.Rating(row.mu, row.sigma, row.games) for at, row in rows.items()}
    steps = _play(game.id, rated, totals, now)
    for at, row in rows.items():
        row.mu, row.sigma, row.games = now[at].mu, now[at].sigma, now[at].games
    db.session.add(RatedGame(game_id=game.id, sequence=_next_place(), totals=totals))
    db.session.flush()
    db.session.execute(insert(RatingStep), steps)
    return True


def _next_place() -> int:
    """The place in the order of the game rated now (the order's lock held): after the last."""
    return (db.session.scalar(select(func.max(RatedGame.sequence))) or 0) + 1


def rerate(keys: Collection[str]) -> None:
    """Replay every rated game of the pools the players `keys` are in, in the order they were
    rated, with each game's players as its rows name them now and its totals as rated, inside
    the write that changed who they are (a rename, a merge, a merge undone): each rating is then
    what the games give, and none is left under a key no game has any more."""
    _lock_the_order()
    theirs = or_(Rating.first.in_(keys), Rating.second.in_(keys))
    games_of = select(Side.game_id).join(Player).where(Player.key.in_(keys))
    pools = set(db.session.scalars(select(Rating.pool).where(theirs).distinct()))
    pools |= set(
        db.session.scalars(
            select(Game.system_id).join(RatedGame).where(Game.id.in_(games_of)).distinct()
        )
    )
    if not pools:
        return
    pools.add(ALL_SYSTEMS)
    kept = {
        (row.pool, (row.first, row.second)): row
        for row in db.session.scalars(
            select(Rating)
            .where(Rating.pool.in_(pools))
            .order_by(Rating.pool, Rating.first, Rating.second)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    }
    order = db.session.execute(
        select(RatedGame.game_id, RatedGame.totals, Game.system_id)
        .join(Game, Game.id == RatedGame.game_id)
        .order_by(RatedGame.sequence, RatedGame.game_id)
    ).all()
    players: dict[str, dict[int, list[str]]] = {}
    for game_id, position, key in db.session.execute(
        select(Side.game_id, Side.position, Player.key)
        .join(Player, Player.side_id == Side.id)
        .join(RatedGame, RatedGame.game_id == Side.game_id)
    ):
        players.setdefault(game_id, {}).setdefault(position, []).append(key)
    now: dict[tuple[str, Who], ratings.Rating] = {}
    steps: list[dict[str, object]] = []
    for game_id, totals, system_id in order:
        by_side = players.get(game_id, {})
        sides = _sides_of([by_side[p] for p in sorted(by_side)])
        if sides is None or len(sides) != len(totals):
            continue
        rated = [(pool, s) for pool, s in _rated(system_id, sides) if pool in pools]
        steps += _play(game_id, rated, totals, now)
    db.session.execute(delete(RatingStep).where(RatingStep.pool.in_(pools)))
    for at, row in kept.items():
        if at in now:
            row.mu, row.sigma, row.games = now[at].mu, now[at].sigma, now[at].games
        else:
            db.session.delete(row)
    db.session.flush()
    new = [{"pool": pool, "first": one[0], "second": one[1], "mu": rating.mu,
            "sigma": rating.sigma, "games": rating.games}
           for (pool, one), rating in now.items() if (pool, one) not in kept]  # fmt: skip
    if new:
        db.session.execute(insert(Rating), new)
    if steps:
        db.session.execute(insert(RatingStep), steps)


def forget_games(game_ids: Collection[str]) -> None:
    """Games purged for good (deleted long ago) take their record of being rated with them:
    the ratings keep what those games gave, until a merge replays the games there still are."""
    db.session.execute(delete(RatingStep).where(RatingStep.game_id.in_(game_ids)))
    db.session.execute(delete(RatedGame).where(RatedGame.game_id.in_(game_ids)))


POOL_SETTING = "rating-pool"
"""The club's choice (a table setting): "apart", each system's ratings shown and ranked apart;
anything else (and no choice), every system counted together."""
APART = "apart"


POOL_CHOICES = (ALL_SYSTEMS, APART)
"""The club's choice as a backup holds it."""


def systems_apart() -> bool:
    """Whether the club counts each system apart (the pages then show the system's ratings)."""
    value = db.session.scalar(select(TableSetting.value).where(TableSetting.key == POOL_SETTING))
    return value == APART


def count_systems_apart(apart: bool) -> None:
    """The club's choice of pool. Both pools are always kept, so nothing is recomputed: the
    pages read the other one from now on."""
    with writing():
        choose_pool(APART if apart else ALL_SYSTEMS)


def choose_pool(value: str) -> None:
    """Inside a write: the club's choice kept, one of `POOL_CHOICES` (the settings page's, or a
    restored backup's); every system together is no choice at all, as a new database has it."""
    if value != APART:
        db.session.execute(delete(TableSetting).where(TableSetting.key == POOL_SETTING))
        return
    keep_setting(POOL_SETTING, value)


def _among(whos: Collection[Who]) -> ColumnElement[bool]:
    """Rating rows of `whos` (players and pairs). On PostgreSQL, as a join with two arrays:
    the planner spends ~0.2 ms on each pair of an `(first, second) IN (…)` list (80 ms on a
    season's 414, for 8 ms of running), and none on two array parameters."""
    listed = list(whos)
    if db.engine.dialect.name != "postgresql":
        return tuple_(Rating.first, Rating.second).in_(listed)
    firsts = literal([first for first, _ in listed], ARRAY(String))
    seconds = literal([second for _, second in listed], ARRAY(String))
    asked = (
        func.unnest(firsts, seconds).table_valued("first", "second", name="asked").render_derived()
    )
    return tuple_(Rating.first, Rating.second).in_(select(asked.c.first, asked.c.second))


def pool_of(system_id: str) -> str:
    """The pool the club reads for a game (or night, or season) of `system_id`."""
    return system_id if systems_apart() else ALL_SYSTEMS


def shown_ratings(
    whos: Collection[Who], system: str, apart: bool
) -> dict[Who, dict[str, ratings.Rating]]:
    """The ratings of players (or pairs) the club's choice reads, each by its pool, in one
    statement: every system's together, or each system's `apart` (only `system`'s when the
    page is about one), each one's most played first."""
    pools = Rating.pool == ALL_SYSTEMS
    if apart:
        pools = Rating.pool == system if system else Rating.pool != ALL_SYSTEMS
    rows = db.session.scalars(
        select(Rating).where(pools, _among(whos)).order_by(Rating.games.desc(), Rating.pool)
    )
    found: dict[Who, dict[str, ratings.Rating]] = {who: {} for who in whos}
    for row in rows:
        found[row.first, row.second][row.pool] = ratings.Rating(row.mu, row.sigma, row.games)
    return found


def rating_steps(key: str, pool: str) -> list[tuple[float, float, float, float]]:
    """What each rated game of a player's did to their rating in `pool`, in the order they were
    rated: the middle and spread before it, and after."""
    rows = db.session.connection().execute(  # plain rows: one a rated game of theirs
        select(RatingStep.mu_before, RatingStep.sigma_before, RatingStep.mu, RatingStep.sigma)
        .join(RatedGame, RatedGame.game_id == RatingStep.game_id)
        .where(RatingStep.pool == pool, RatingStep.first == key, RatingStep.second == "")
        .order_by(RatedGame.sequence, RatedGame.game_id)
    )
    return [(row[0], row[1], row[2], row[3]) for row in rows]


def ratings_among(whos: Collection[Who], pool: str) -> dict[Who, ratings.Rating]:
    """The ratings in `pool` of the players (`(key, "")`) and pairs `whos`, those rated."""
    # Columns, not rows, and only those asked: a season of a year lists 414 players and pairs,
    # whose players made 8,000 pairs over five years; plain rows from the connection.
    rows = db.session.connection().execute(
        select(Rating.first, Rating.second, Rating.mu, Rating.sigma, Rating.games).where(
            Rating.pool == pool, _among(whos)
        )
    )
    return {
        (first, second): ratings.Rating(mu, sigma, games)
        for first, second, mu, sigma, games in rows
    }


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
