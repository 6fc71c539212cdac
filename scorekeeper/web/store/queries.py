"""What the pages read besides a game itself: the list of games, filtered and paged, the players
and their merges, the house rules, a club night's tables; each as named rows (what players and
partnerships did: tallies.py). A deleted game is in none of them (`LIVE`): only in the list
of recently deleted games.

The list reads the copies of the last replay (`Side.total`, `Side.won`, the hands played), so
that no game is replayed to list it: each page costs the same few statements whatever the
number of games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Select,
    func,
    or_,
    select,
)
from sqlalchemy.orm import selectinload

from ..extensions import db
from .models import (
    LARGEST_ID,
    Game,
    HouseRule,
    Night,
    NightRound,
    Player,
    PlayerMerge,
    Seating,
    Side,
    player_key,
)

PAGE_SIZE = 20
LAST_PAGE = LARGEST_ID // PAGE_SIZE
"""The furthest page whose offset still fits in a database integer."""
LARGEST_PAGE = 2**63 - 1
"""The largest page number asked for that is a page past the last rather than a 404 (a page
is never a number in a query: the furthest offset asked is LAST_PAGE's)."""
LIVE = Game.deleted_at.is_(None)
"""The games that are not deleted: the only ones lists and statistics count."""
LIVE_SIDE = Side.game_id.not_in(select(Game.id).where(Game.deleted_at.is_not(None)))
"""The sides of games that are not deleted, told apart without joining every side's game (the
deleted games are few, and found by their index)."""


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
    name: str | None = None
    hands: int = 0
    """The hands played (live ones)."""
    archived: bool = False
    deleted_at: datetime | None = None

    @property
    def players(self) -> str:
        """Who played, side by side: each side's players, or its name where they have none.

        >>> side = SideRow("Us", 0, False, ["Ana", "Bo"])
        >>> GameRow("x", "classic", datetime(2026, 1, 1), False, None,
        ...         [side, SideRow("Them", 0, False, [])]).players
        'Ana & Bo · Them'
        """
        return who_played((side.name, side.players) for side in self.sides)

    @property
    def title(self) -> str:
        """What the game goes by: its name, or who played it."""
        return self.name or self.players


def who_played(sides: Iterable[tuple[str, Sequence[str]]]) -> str:
    """Who played, side by side, from (side name, its named players): each side's players, or
    its name where they have none."""
    return " · ".join(" & ".join(players) or name for name, players in sides)


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
    return GameRow(
        game.id,
        game.system_id,
        game.created_at,
        game.over,
        winner,
        sides,
        name=game.name,
        hands=max((side.hands or 0 for side in game.sides), default=0),
        archived=game.archived_at is not None,
        deleted_at=game.deleted_at,
    )


HOME_GAMES = 50
"""Games on the home page; the history lists them all."""


def any_archived() -> bool:
    """Whether any game is archived (the home page then links to them)."""
    archived = select(Game.id).where(Game.archived_at.is_not(None), LIVE).limit(1)
    return db.session.scalar(archived) is not None


def home_games(archived: bool = False) -> list[GameRow]:
    """The games of the home page (the archived ones, with `archived`): in progress first, the
    latest played first. Three statements: the games, their sides, the sides' players."""
    query = (
        select(Game)
        .where(Game.archived_at.is_not(None) if archived else Game.archived_at.is_(None), LIVE)
        .options(selectinload(Game.sides).selectinload(Side.players))
        .order_by(Game.over, Game.updated_at.desc(), Game.id)
        .limit(HOME_GAMES)
    )
    return [_row(game) for game in db.session.scalars(query)]


def deleted_games() -> list[GameRow]:
    """The games deleted and not yet purged, the latest deleted first."""
    query = (
        select(Game)
        .where(Game.deleted_at.is_not(None))
        .options(selectinload(Game.sides).selectinload(Side.players))
        .order_by(Game.deleted_at.desc(), Game.id)
    )
    return [_row(game) for game in db.session.scalars(query)]


def _filtered(
    query: Select[Any], player: str, system: str, status: str, side_names: bool
) -> Select[Any]:
    query = query.where(LIVE)
    key = player_key(player)
    if key:
        # The games from the player's rows (by the index on their key), not every game's sides.
        played = Game.id.in_(select(Side.game_id).join(Player).where(Player.key == key))
        named = Game.id.in_(select(Side.game_id).where(func.lower(Side.name) == key))
        query = query.where(or_(played, named) if side_names else played)
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


def latest_games(player: str, system: str = "") -> list[GameRow]:
    """A player's latest games (by key, not by the name of their side), newest first: the
    first page of the list without counting the rest, as a player's page shows them. Three
    statements: the games, their sides, the sides' players.

    The latest are picked among the player's own games, reached from their rows (by the index
    on their key): as `_filtered` asks it, SQLite went through every game not deleted (by the
    index on that) to find those of the player, 10 ms at five years of a club, 3 this way."""
    newest = Game.created_at.desc(), Game.id.desc()
    theirs = (
        select(Game.id, Game.created_at)
        .join(Side, Side.game_id == Game.id)
        .join(Player, Player.side_id == Side.id)
        .where(LIVE, Player.key == player_key(player))
        .distinct()  # a game where the player has two seats once
        .order_by(*newest)
        .limit(PAGE_SIZE)
    )
    if system:
        theirs = theirs.where(Game.system_id == system)
    latest = theirs.subquery()
    query = (
        select(Game)
        .where(Game.id.in_(select(latest.c.id)))
        .options(selectinload(Game.sides).selectinload(Side.players))
        .order_by(*newest)
    )
    return [_row(game) for game in db.session.scalars(query)]


def house_rules() -> list[HouseRule]:
    """The saved house rules, by name, as the new-game flow offers them."""
    return list(db.session.scalars(select(HouseRule).order_by(HouseRule.name)).all())


def house_rule(rule_id: int) -> HouseRule | None:
    """A saved house rule by its id, None if there is none."""
    return db.session.get(HouseRule, rule_id)


def known_player(key: str) -> bool:
    """Whether any game (not deleted) has a player of this key."""
    query = select(Player.id).join(Side).join(Game).where(Player.key == key, LIVE).limit(1)
    return db.session.scalar(query) is not None


class MergeRow(NamedTuple):
    """A merge into a player, as their page offers to undo it."""

    id: int
    name: str
    """What the player merged away was called (their first row's name)."""
    at: datetime


def merges_into(key: str) -> list[MergeRow]:
    """The merges into this player not undone, the latest first."""
    query = (
        select(PlayerMerge)
        .where(PlayerMerge.into == key, PlayerMerge.undone_at.is_(None))
        .order_by(PlayerMerge.at.desc(), PlayerMerge.id.desc())
    )
    return [
        MergeRow(merge.id, merge.names[0] if merge.names else merge.key, merge.at)
        for merge in db.session.scalars(query)
    ]


# --- club nights ---------------------------------------------------------------------------------


class TableRow(NamedTuple):
    """One table of one round of a night: its pairs and, once started, its game as it stands."""

    round: int
    table: int
    ns: int
    ew: int
    game_id: str | None
    ns_total: int | None
    ew_total: int | None
    hands: int | None
    over: bool | None
    counting: str | None
    """What the director counted the game as, stopped unfinished (`nights.Counting`)."""


def nights_listed() -> tuple[list[Night], list[Night]]:
    """The nights there, newest first, and the nights deleted (to be brought back), latest
    deleted first."""
    live = db.session.scalars(
        select(Night).where(Night.deleted_at.is_(None)).order_by(Night.created_at.desc())
    ).all()
    deleted = db.session.scalars(
        select(Night).where(Night.deleted_at.is_not(None)).order_by(Night.deleted_at.desc())
    ).all()
    return list(live), list(deleted)


def night_tables(night_id: str) -> list[TableRow]:
    """Every table of every round of a night, with each game's totals and hands played as the
    last replay left them, in one statement (a deleted game counts as not played)."""
    return nights_tables([night_id])[night_id]


def nights_tables(night_ids: Iterable[str]) -> dict[str, list[TableRow]]:
    """`night_tables` of each night, by id, all in one statement: a season reads its every
    night's at once, whatever their number."""
    found: dict[str, list[TableRow]] = {night_id: [] for night_id in night_ids}
    ns_side = select(Side).where(Side.position == 0).subquery()
    ew_side = select(Side).where(Side.position == 1).subquery()
    query = (
        select(
            NightRound.night_id,
            NightRound.number.label("round"),
            Seating.table,
            Seating.ns,
            Seating.ew,
            Game.id.label("game_id"),
            ns_side.c.total.label("ns_total"),
            ew_side.c.total.label("ew_total"),
            ns_side.c.hands,
            Game.over,
            Seating.counting,
        )
        .join(Seating, Seating.round_id == NightRound.id)
        .outerjoin(Game, (Game.id == Seating.game_id) & LIVE)
        .outerjoin(ns_side, ns_side.c.game_id == Game.id)
        .outerjoin(ew_side, ew_side.c.game_id == Game.id)
        .where(NightRound.night_id.in_(found))
        .order_by(NightRound.number, Seating.table)
    )
    for night_id, *row in db.session.execute(query):
        found[night_id].append(TableRow(*row))
    return found


def known_players(limit: int = 500) -> list[str]:
    """The names of the players in the history, latest spelling, for a form to suggest."""
    query = select(Player.name).where(Player.name != "").group_by(Player.name).limit(limit)
    return sorted(db.session.scalars(query))


class NightOfGame(NamedTuple):
    """Where a night's game is played: its night, round and table, and where the night is."""

    night_id: str
    name: str
    current_round: int
    night_ended_at: datetime | None
    round: int
    round_ended_at: datetime | None
    table: int
    round_hands: int | None


def night_of_game(game_id: str) -> NightOfGame | None:
    """The night, round and table of a night's game, in one statement; None for another game."""
    query = (
        select(
            Night.id,
            Night.name,
            Night.current_round,
            Night.ended_at,
            NightRound.number,
            NightRound.ended_at,
            Seating.table,
            Night.round_hands,
        )
        .join(NightRound, NightRound.id == Seating.round_id)
        .join(Night, Night.id == NightRound.night_id)
        .where(Seating.game_id == game_id, Night.deleted_at.is_(None))
    )
    row = db.session.execute(query).one_or_none()
    return None if row is None else NightOfGame(*row)
