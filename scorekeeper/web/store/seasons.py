"""What the database keeps of a club's seasons and ratings: a season's name and rule (its
nights name it, `Night.season_id`), and each player's and pair's rating, updated as each game
ends (`services.ratings`) and never recomputed when a page is drawn."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    Index,
    Select,
    String,
    UniqueConstraint,
    select,
)
from sqlalchemy.orm import Mapped, mapped_column, selectinload

from ..extensions import db
from .models import (
    KEY_LENGTH,
    NAME_LENGTH,
    REVISION_LENGTH,
    SHARE_TOKEN_LENGTH,
    TOKEN_LENGTH,
    Game,
    Night,
    NightRound,
    Pair,
    Player,
    Seating,
    Side,
    new_game_id,
    new_revision,
    new_share_token,
    now,
    player_key,
)

if TYPE_CHECKING:
    from ..extensions import Base as Model
else:
    Model = db.Model

POOL_LENGTH = 20
ALL_SYSTEMS = "all"
"""The pool of ratings that counts every system's games together; each system also has its own
pool, named by its id, so the club's choice of pool is a matter of which one a page reads."""


class Season(Model):
    """A club's season: its name and the rule that ranks it (`nights.seasons.Rule`): what each
    night gives (`measure`), how many best nights count (`best`, None: all) and how many one
    must play to be placed (`minimum`). Its nights name it; deleting it keeps them."""

    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_game_id)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    measure: Mapped[str] = mapped_column(String(20))
    best: Mapped[int | None] = mapped_column(default=None)
    minimum: Mapped[int] = mapped_column(default=1)
    planned: Mapped[int | None] = mapped_column(default=None)
    """The nights the season is to have (the M of best N of M); None: as many as it has."""
    created_at: Mapped[datetime] = mapped_column(default=now)
    revision: Mapped[str] = mapped_column(String(REVISION_LENGTH), default=new_revision)
    """A new value when the director changes the season (its rule, its nights)."""
    follow_token: Mapped[str] = mapped_column(
        String(SHARE_TOKEN_LENGTH), default=new_share_token, unique=True
    )
    """The standings' link: whoever has it may watch."""
    token: Mapped[str | None] = mapped_column(String(TOKEN_LENGTH), default=None, unique=True)
    """The one-time token of the form that set it up (a double tap sets up one season)."""


SEASON = Season.__table__
NIGHT = Night.__table__


def season_revision(own: str, nights: Iterable[tuple[str, str]]) -> str:
    """A season's revision, as its pages (their ETag, their kept drawing) and its followers
    know it: made of its own (`Season.revision`: the director's changes) and each of its
    nights' (id, revision): a game saved at one of their tables, a round started or ended, a
    night changed, added, taken out or deleted all give the season another. The one place it
    is made; `season_rows` reads what it is made of."""
    made = hashlib.blake2s(own.encode(), digest_size=8)
    for night, revision in sorted(nights):
        made.update(f"|{night}:{revision}".encode())
    return made.hexdigest()


def season_rows(*where: Any, columns: Iterable[Any] = ()) -> Select[Any]:
    """A season's rows as its revision needs them, one per night of it not deleted (one with
    no night for a season with none): the season's id, own revision and standings' link,
    `columns`, and the night's id and revision; for the seasons `where` says."""
    joined = SEASON.outerjoin(
        NIGHT, (NIGHT.c.season_id == SEASON.c.id) & NIGHT.c.deleted_at.is_(None)
    )
    return (
        select(
            SEASON.c.id,
            SEASON.c.revision,
            SEASON.c.follow_token,
            *columns,
            NIGHT.c.id.label("night"),
            NIGHT.c.revision.label("night_revision"),
        )
        .select_from(joined)
        .where(*where)
    )


def revisions_of(rows: Iterable[Any]) -> dict[str, str]:
    """Each season's revision, by id, from its rows (`season_rows`)."""
    own: dict[str, str] = {}
    nights: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        own[row.id] = row.revision
        night_list = nights.setdefault(row.id, [])
        if row.night is not None:
            night_list.append((row.night, row.night_revision))
    return {season: season_revision(own[season], nights[season]) for season in own}


def season_revisions(ids: Collection[str]) -> dict[str, str]:
    """The revision of each season of `ids` that is there, read in one statement outside any
    transaction (the push's watcher; a kept drawing's key)."""
    with db.engine.connect() as connection:
        return revisions_of(connection.execute(season_rows(SEASON.c.id.in_(ids))))


class Rating(Model):
    """One player's rating (`second` empty) or one standing pair's (its two keys, sorted), in
    one pool (`ALL_SYSTEMS` or a system's id): `nights.ratings.Rating` as kept."""

    __table_args__ = (UniqueConstraint("pool", "first", "second"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[str] = mapped_column(String(POOL_LENGTH))
    first: Mapped[str] = mapped_column(String(KEY_LENGTH))
    second: Mapped[str] = mapped_column(String(KEY_LENGTH), default="")
    mu: Mapped[float]
    sigma: Mapped[float]
    games: Mapped[int] = mapped_column(default=0)


class NightOutcome(Model):
    """What a night gave one of its pairs (`nights.Outcome`), kept with the pair's players' keys
    (as `pair_players` reads them) and the night's revision it was worked out at: a season's
    standings and a player's nights read these rows, not every night's tables. Rows at another
    revision than their night's are stale and not read (the night is worked out again);
    `services.outcomes` writes them when a night's round or the night ends, keeps their keys
    when players are merged, and a restore works them out again."""

    __table_args__ = (
        Index("ix_night_outcome_first", "first"),
        Index("ix_night_outcome_second", "second"),
    )

    night_id: Mapped[str] = mapped_column(ForeignKey("night.id"), primary_key=True)
    pair: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    revision: Mapped[str] = mapped_column(String(REVISION_LENGTH))
    first: Mapped[str] = mapped_column(String(KEY_LENGTH))
    second: Mapped[str] = mapped_column(String(KEY_LENGTH))
    place: Mapped[int]
    pairs: Mapped[int]
    level: Mapped[int]
    games: Mapped[int]
    rounds: Mapped[int]
    half_wins: Mapped[int]
    points: Mapped[int] = mapped_column(BigInteger)


class RatedGame(Model):
    """A game whose end has been rated: a game is rated once, when it first ends, with the
    sides' totals it ended on (a correction since changes nothing) and its place in the order
    games were rated (`sequence`), so that the ratings can be replayed when players merge."""

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), primary_key=True)
    rated_at: Mapped[datetime] = mapped_column(default=now)
    sequence: Mapped[int] = mapped_column(index=True, unique=True)
    """Games rated later have a larger one, each its own (taken under the order's lock:
    `services.ratings.ORDER_LOCK`)."""
    totals: Mapped[list[int]] = mapped_column(JSON, default=list)
    """Each side's total when the game was rated, in the sides' order."""


class RatingStep(Model):
    """What one rated game did to one player's (or pair's) rating in one pool: the rating
    before and after it, so that a player's page can draw their rating over time."""

    __table_args__ = (UniqueConstraint("game_id", "pool", "first", "second"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("rated_game.game_id"), index=True)
    pool: Mapped[str] = mapped_column(String(POOL_LENGTH))
    first: Mapped[str] = mapped_column(String(KEY_LENGTH), index=True)
    second: Mapped[str] = mapped_column(String(KEY_LENGTH), default="")
    mu_before: Mapped[float]
    sigma_before: Mapped[float]
    mu: Mapped[float]
    sigma: Mapped[float]
    games: Mapped[int]
    """The rated games the rating after it rests on (this one the last)."""


def pair_players(night_ids: Collection[str]) -> dict[str, dict[int, tuple[str, str]]]:
    """Each night's pairs' players by key, as their games' rows name them now (so a player
    merged or renamed in the history is so here too); a pair without a game, by its names."""
    named: dict[str, dict[int, dict[int, str]]] = {night: {} for night in night_ids}
    for night_id, number, first, second in db.session.execute(
        select(Pair.night_id, Pair.number, Pair.first, Pair.second).where(
            Pair.night_id.in_(night_ids)
        )
    ):
        named[night_id][number] = {0: player_key(first), 1: player_key(second)}
    rows = db.session.execute(
        select(NightRound.night_id, Seating.ns, Seating.ew, Side.position, Player.position,
               Player.key)
        .join(Seating, Seating.round_id == NightRound.id)
        .join(Side, Side.game_id == Seating.game_id)
        .join(Player, Player.side_id == Side.id)
        .where(NightRound.night_id.in_(night_ids))
    )  # fmt: skip
    for night_id, ns, ew, side, seat, key in rows:
        pair = named[night_id].get(ns if side == 0 else ew)
        if pair is not None and key:
            pair[seat] = key
    return {
        night: {number: (keys[0], keys[1]) for number, keys in pairs.items()}
        for night, pairs in named.items()
    }


def pair_names(night_ids: Collection[str]) -> dict[str, dict[int, tuple[str, str]]]:
    """Each night's pairs' names by number, as the night spells them (one statement)."""
    named: dict[str, dict[int, tuple[str, str]]] = {night: {} for night in night_ids}
    query = select(Pair.night_id, Pair.number, Pair.first, Pair.second)
    rows = db.session.connection().execute(query.where(Pair.night_id.in_(night_ids)))
    for night_id, number, first, second in rows:  # plain rows: the ORM's handling not needed
        named[night_id][number] = (first, second)
    return named


def with_rounds_and_pairs(night_ids: Collection[str]) -> None:
    """Load the nights' rounds with their seats, and their pairs, for all of them at once (three
    statements however many nights), so that reading each night as it was played asks nothing
    more."""
    db.session.scalars(
        select(Night)
        .where(Night.id.in_(night_ids))
        .options(
            selectinload(Night.rounds).selectinload(NightRound.seats), selectinload(Night.pairs)
        )
    ).all()


def nights_of(key: str) -> list[Night]:
    """The nights (not deleted) a player played a game of, in the order they were set up."""
    played = (
        select(Game.night_id)
        .join(Side, Side.game_id == Game.id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.key == key, Game.night_id.is_not(None))
    )
    query = (
        select(Night)
        .where(Night.id.in_(played), Night.deleted_at.is_(None))
        .order_by(Night.created_at, Night.id)
    )
    return list(db.session.scalars(query))
