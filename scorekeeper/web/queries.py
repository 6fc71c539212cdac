"""What the history pages read: the list of games, filtered and paged, and what players and
partnerships did, each as named rows.

Everything here reads the copies of the last replay (`Side.total`, `Side.won` and what each side
keeps for statistics, `models.SIDE_TALLIES`), so that no game is replayed to list it or to count
it, and adds them up in the database: each page costs the same few statements whatever the
number of games.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Select, case, func, or_, select
from sqlalchemy.orm import selectinload

from .. import rules
from .converters import LARGEST_ID
from .models import SET_COLUMNS, Game, Player, Side, db, player_key

PAGE_SIZE = 20
LAST_PAGE = LARGEST_ID // PAGE_SIZE
"""The furthest page whose offset still fits in a database integer."""


# --- the list of games ---------------------------------------------------------------------------


class SideRow(NamedTuple):
    name: str
    total: int
    won: bool
    players: list[str]


class GameRow(NamedTuple):
    """A game as the list shows it."""

    id: str
    system_id: str
    created_at: datetime
    over: bool
    winner: str | None  # None while playing, and for a tie
    sides: list[SideRow]


class GamePage(NamedTuple):
    rows: list[GameRow]
    page: int
    newer: int | None  # the page number of newer games, if any
    older: int | None


def _row(game: Game) -> GameRow:
    sides = [
        SideRow(
            name=side.name,
            total=side.total or 0,
            won=bool(side.won),
            players=[p.name for p in side.players if p.name],
        )
        for side in game.sides
    ]
    winner = next((side.name for side in sides if side.won), None)
    return GameRow(game.id, game.system_id, game.created_at, game.over, winner, sides)


def _filtered(
    query: Select[Any], player: str, system: str, status: str, side_names: bool
) -> Select[Any]:
    key = player_key(player)
    if key:
        played = Side.players.any(Player.key == key)
        named = func.lower(Side.name) == key
        query = query.where(Game.sides.any(or_(played, named) if side_names else played))
    if system:
        query = query.where(Game.system_id == system)
    if status == "playing":
        query = query.where(Game.over.is_(False))
    elif status == "finished":
        query = query.where(Game.over.is_(True))
    return query


def game_page(
    player: str = "",
    system: str = "",
    status: str = "all",
    page: int = 1,
    side_names: bool = True,
) -> GamePage:
    """One page of games, newest first; a player matches by key, or by the name of their side.

    A page past the last lists nothing and links back to the last one. Four statements: the
    page's games, their count, their sides, the sides' players.
    """
    page = max(page, 1)
    query = (
        _filtered(select(Game), player, system, status, side_names)
        .options(selectinload(Game.sides).selectinload(Side.players))
        .order_by(Game.created_at.desc(), Game.id.desc())
    )
    found = db.paginate(
        query, page=min(page, LAST_PAGE), per_page=PAGE_SIZE, max_per_page=PAGE_SIZE,
        error_out=False,
    )  # fmt: skip
    last = max(found.pages, 1)
    if page > last:
        return GamePage(rows=[], page=page, newer=last, older=None)
    return GamePage(
        rows=[_row(game) for game in found.items],
        page=page,
        newer=found.prev_num,
        older=found.next_num,
    )


# --- what players and partnerships did -----------------------------------------------------------


class TallyRow(NamedTuple):
    """What some sides add up to: games, finished games and wins, then their live hands."""

    games: int
    finished: int
    wins: int
    hands: int
    score: int
    best: int | None
    went_out: int
    red_threes: int
    sets: Mapping[rules.SetKind, int]


class PlayerRow(NamedTuple):
    key: str
    tally: TallyRow


class PartnershipRow(NamedTuple):
    keys: tuple[str, ...]
    tally: TallyRow


def _tally_columns() -> list[Any]:
    """The sums over sides joined with their games, in `TallyRow`'s order (sets last)."""
    return [
        func.count(Side.id),
        func.sum(case((Game.over.is_(True), 1), else_=0)),
        func.sum(case((Side.won.is_(True), 1), else_=0)),
        func.sum(Side.hands),
        func.sum(Side.total - Side.start_score),  # a side's total is its start and its hands
        func.max(Side.best),
        func.sum(Side.went_out),
        func.sum(Side.red_threes),
        *(func.sum(getattr(Side, column)) for column in SET_COLUMNS.values()),
    ]


def _tally(sums: Any) -> TallyRow:
    games, finished, wins, hands, score, best, went_out, red_threes, *sets = sums
    return TallyRow(
        games=games,
        finished=finished or 0,
        wins=wins or 0,
        hands=hands or 0,
        score=score or 0,
        best=best,
        went_out=went_out or 0,
        red_threes=red_threes or 0,
        sets={kind: made for kind, made in zip(SET_COLUMNS, sets, strict=True) if made},
    )


def _seats(key: str | None) -> Any:
    """Each named player on each side once (a player written twice on a side counts once)."""
    query = select(Player.side_id, Player.key).where(Player.key != "").distinct()
    if key is not None:
        query = query.where(Player.key == key)
    return query.subquery()


def player_tallies(key: str | None = None) -> list[PlayerRow]:
    """What each named player did (or only `key`): one statement, whatever the number of games."""
    seats = _seats(key)
    query = (
        select(seats.c.key, *_tally_columns())
        .join(Side, Side.id == seats.c.side_id)
        .join(Game, Game.id == Side.game_id)
        .group_by(seats.c.key)
    )
    return [PlayerRow(row[0], _tally(row[1:])) for row in db.session.execute(query)]


PARTNERS_APART = "\n"
"""Between the keys of a partnership as the database joins them: never inside a key."""


def partnership_tallies(key: str | None = None) -> list[PartnershipRow]:
    """What each partnership (two named players or more on a side) did, or those `key` was in:
    one statement, whatever the number of games."""
    seats = _seats(None)
    partners = select(
        seats.c.side_id, func.aggregate_strings(seats.c.key, PARTNERS_APART).label("keys")
    ).group_by(seats.c.side_id)
    if key is not None:
        partners = partners.having(func.sum(case((seats.c.key == key, 1), else_=0)) > 0)
    sides = partners.having(func.count() >= 2).subquery()
    query = (
        select(sides.c["keys"], *_tally_columns())
        .join(Side, Side.id == sides.c.side_id)
        .join(Game, Game.id == Side.game_id)
        .group_by(sides.c["keys"])
    )
    # The database joins a side's keys in no promised order: sides joined in another order are
    # the same partnership, added up here (a few rows per partnership at most).
    found: dict[tuple[str, ...], list[TallyRow]] = {}
    for row in db.session.execute(query):
        keys = tuple(sorted(row[0].split(PARTNERS_APART)))
        found.setdefault(keys, []).append(_tally(row[1:]))
    return [PartnershipRow(keys, _added(tallies)) for keys, tallies in found.items()]


def _added(tallies: list[TallyRow]) -> TallyRow:
    if len(tallies) == 1:
        return tallies[0]
    bests = [t.best for t in tallies if t.best is not None]
    sets: dict[rules.SetKind, int] = {}
    for tally in tallies:
        for kind, made in tally.sets.items():
            sets[kind] = sets.get(kind, 0) + made
    return TallyRow(
        games=sum(t.games for t in tallies),
        finished=sum(t.finished for t in tallies),
        wins=sum(t.wins for t in tallies),
        hands=sum(t.hands for t in tallies),
        score=sum(t.score for t in tallies),
        best=max(bests, default=None),
        went_out=sum(t.went_out for t in tallies),
        red_threes=sum(t.red_threes for t in tallies),
        sets=sets,
    )


class NameRow(NamedTuple):
    key: str
    name: str
    last_played: datetime


def player_names() -> dict[str, str]:
    """Each player's key and the name they went by in their most recent game (spaces tidied)."""
    query = (
        select(Player.key, Player.name, func.max(Game.created_at))
        .join(Side, Player.side_id == Side.id)
        .join(Game, Side.game_id == Game.id)
        .where(Player.key != "")
        .group_by(Player.key, Player.name)
    )
    latest: dict[str, NameRow] = {}
    for found in (NameRow(*row) for row in db.session.execute(query)):
        known = latest.get(found.key)
        if known is None or (found.last_played, found.name) > (known.last_played, known.name):
            latest[found.key] = found
    return {key: " ".join(row.name.split()) for key, row in latest.items()}


def known_player(key: str) -> bool:
    """Whether any game has a player of this key."""
    return db.session.scalar(select(Player.id).where(Player.key == key).limit(1)) is not None
