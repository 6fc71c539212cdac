"""What players and partnerships did, as named rows: what the statistics pages and a player's
page read. A deleted game counts for none of them (`queries.LIVE_SIDE`).

Everything here reads the copies of the last replay that each side keeps for statistics
(`models.SIDE_TALLIES`, with the side's total, whether it won and who played on it), so that
no game is replayed to count it, and adds them up in the database: each page costs the same few
statements whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from sqlalchemy import (
    ARRAY,
    BigInteger,
    ColumnElement,
    DateTime,
    Integer,
    Text,
    any_,
    case,
    cast,
    func,
    select,
    type_coerce,
)

from ... import rules
from ..extensions import db
from .models import SET_COLUMNS, Player, Side
from .queries import LIVE_SIDE


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
    best_system: str | None = None
    """The system the best hand was played in."""


NO_GAMES = TallyRow(0, 0, 0, 0, 0, None, 0, 0, {})
"""The tally of a player in a system they never played."""


class PlayerRow(NamedTuple):
    key: str
    tally: TallyRow


class PartnershipRow:
    """Two named players or more who played on one side, and what their teams did: the tally
    is added up when first asked for, since /stats shows only the partnerships with most games
    and a club has hundreds."""

    def __init__(self, keys: tuple[str, ...], teams: Sequence[_Team]) -> None:
        self.keys = keys
        self._teams = teams
        self.games: int = sum(team.sums[GAMES] for team in teams)

    @cached_property
    def tally(self) -> TallyRow:
        return _added(self._teams)


class Statistics(NamedTuple):
    """What every named player and every partnership did, and the name each went by last."""

    players: list[PlayerRow]
    partnerships: list[PartnershipRow]
    names: dict[str, str]


class _Team(NamedTuple):
    """The named players of some sides (their keys, and each with the name they went by), and
    what those sides of games of one system add up to (`sums`, in `FIGURES`' order);
    `last_played` is when the latest of their games began."""

    players: frozenset[tuple[str, str]]
    keys: tuple[str, ...]
    system_id: str
    last_played: datetime
    sums: tuple[Any, ...]

    @property
    def best(self) -> int | None:
        return self.sums[BEST]  # type: ignore[no-any-return]


SUMMED = ("games", "finished", "wins", "hands", "score", "went_out", "red_threes")
"""The tally's figures that add up from team to team (the best hand is the largest)."""
FIGURES = (*SUMMED, "best", *SET_COLUMNS.values())
"""The figures `_tally_columns` sums, in order."""
BEST = FIGURES.index("best")
GAMES = FIGURES.index("games")


def _tally_columns() -> list[Any]:
    """The sums over sides, in `FIGURES`' order, none of them null (but
    the best hand of sides that played none), so that teams' figures add up as they come."""

    def total(figure: Any) -> Any:
        return func.coalesce(func.sum(figure), 0)

    columns = {
        "games": func.count(Side.id),
        "finished": total(case((Side.over.is_(True), 1), else_=0)),
        "wins": total(case((Side.won.is_(True), 1), else_=0)),
        "hands": total(Side.hands),
        # A side's total is its start and hands; PostgreSQL sums 64-bit numbers as numeric,
        # and a score is a whole number.
        "score": cast(total(Side.total - Side.start_score), BigInteger),
        "went_out": total(Side.went_out),
        "red_threes": total(Side.red_threes),
        "best": func.max(Side.best),
        **{column: total(getattr(Side, column)) for column in SET_COLUMNS.values()},
    }
    return [columns[figure].label(figure) for figure in FIGURES]


TEAMS_KEPT = 65536
"""Teams whose players are kept read: more than a club has (five years of a club of 240
members are 8,000 teams; the names read every team in order, so a cache smaller than the
club's teams would miss on every one)."""


def _unspelled(spelled: str) -> str:
    return bytes.fromhex(spelled).decode("utf-8")


@lru_cache(maxsize=TEAMS_KEPT)
def _players_of(team: str) -> frozenset[tuple[str, str]]:
    """The (key, name) of each player a `Side.team` spells: kept, since a club's teams repeat
    from game to game and from request to request (and the spelling of one never changes)."""
    return frozenset(
        (_unspelled(key), _unspelled(name))
        for key, name in (member.split(":") for member in team.split(","))
    )


@lru_cache(maxsize=TEAMS_KEPT)
def _keys_of(team: str) -> tuple[str, ...]:
    """The keys of a team's players, in order, each once: a player written twice on a side
    counts once."""
    return tuple(sorted({key for key, _name in _players_of(team)}))


def _sides_of(player: str) -> ColumnElement[bool]:
    """Which sides the player (a key) played on. PostgreSQL plans `IN (their sides)` as a pass
    over every side of the club, hashed against theirs (a club of five years: 45,000 sides for
    a player's 429, 36 ms), as it guesses a lookup of each in the sides' key no cheaper; an
    array of them, made first, it looks up in that key (3 ms)."""
    if db.engine.dialect.name == "postgresql":
        theirs = select(func.array_agg(Player.side_id)).where(Player.key == player)
        return Side.id == any_(cast(theirs.scalar_subquery(), ARRAY(Integer)))
    return Side.id.in_(select(Player.side_id).where(Player.key == player))


def _teams(player: str = "") -> list[_Team]:
    """Sides added up by who played on them (the copy on each side, `Side.team`) and in which
    system: one statement over the sides alone (the copies of their games' figures are on them),
    read in order from the index that holds all it adds up, whatever the number of games, and a
    row for each team and system (far fewer than games). With `player` (a key), only the sides
    they played on (found by the index on players' keys): a tenth of a club's sides or fewer."""
    query = (
        select(
            Side.team,
            Side.system_id,
            func.max(Side.created_at).label("last_played"),
            *_tally_columns(),
        )
        .where(Side.team.is_not(None), LIVE_SIDE)
        .group_by(Side.team, Side.system_id)
        # In one order on every database: of two best hands alike, the first is the one shown
        # (SQLite grouped them in this order, PostgreSQL's hashing in any).
        .order_by(Side.team, Side.system_id)
    )
    if player:
        query = query.where(_sides_of(player))
    # Plain rows from the connection: the ORM's handling of each row is not needed here.
    return [
        _Team(_players_of(team), _keys_of(team), system_id, last_played, tuple(sums))
        for team, system_id, last_played, *sums in db.session.connection().execute(query)
    ]


def _latest_names(teams: Iterable[tuple[frozenset[tuple[str, str]], datetime]]) -> dict[str, str]:
    """The name each player went by in their most recent game, from each team's players and
    when it last played: the latest wins, and of two teams last played at once the larger
    name."""
    latest: dict[str, tuple[datetime, str]] = {}
    for players, last_played in teams:
        for key, name in players:
            if key not in latest or (last_played, name) > latest[key]:
                latest[key] = (last_played, name)
    return {key: " ".join(name.split()) for key, (_when, name) in latest.items()}


def names() -> dict[str, str]:
    """Every named player's latest name (`_latest_names`), from a narrower statement than
    `_teams`': one row per team and only when it last played (a club of five years has 8,000
    teams: read only where every player is named, as the merge form's choices)."""
    # Neither is null here: each team is named, and each side has its game's start.
    team, last_played = (
        type_coerce(Side.team, Text),
        type_coerce(func.max(Side.created_at), DateTime),
    )
    query = select(team, last_played).where(Side.team.is_not(None), LIVE_SIDE).group_by(Side.team)
    rows = db.session.connection().execute(query)
    return _latest_names((_players_of(team), last_played) for team, last_played in rows)


def names_of(keys: Collection[str]) -> dict[str, str]:
    """The latest name of each of the players `keys` (as `names` gives it): read from the index
    of players' keys and names where a player was written one way in all their games, as nearly
    all are; from their games only for those written more ways. Two statements at most."""
    written: dict[str, set[str]] = {}
    query = select(Player.key, Player.name).where(Player.key.in_(set(keys)))
    for key, name in db.session.connection().execute(query.group_by(Player.key, Player.name)):
        written.setdefault(key, set()).add(" ".join(name.split()))
    found = {key: next(iter(ways)) for key, ways in written.items() if len(ways) == 1}
    several = [key for key, ways in written.items() if len(ways) > 1]
    if several:
        latest = (
            select(Player.key, Player.name, type_coerce(func.max(Side.created_at), DateTime))
            .join(Side, Side.id == Player.side_id)
            .where(Player.key.in_(several), LIVE_SIDE)
            .group_by(Player.key, Player.name)
        )
        rows = db.session.connection().execute(latest)
        found |= _latest_names((frozenset({(key, name)}), last) for key, name, last in rows)
    return found


def statistics(system: str = "", player: str = "") -> Statistics:
    """What each named player and partnership (two named players or more on a side) did, in
    every system or in `system` alone, and the name each player went by in their most recent
    game (of any system, so that a filter changes no one's name); one statement.

    With `player` (a key): what that player and their partnerships did, and the names of the
    player and their partners (`names_of`); each statement cheaper than the one for everyone."""
    teams = _teams(player)
    if player:
        named = names_of({key for team in teams for key in team.keys})
    else:
        named = _latest_names((t.players, t.last_played) for t in teams)
    players: dict[str, list[_Team]] = {}
    partnerships: dict[tuple[str, ...], list[_Team]] = {}
    for team in teams:
        if system and team.system_id != system:
            continue
        for key in team.keys:
            if not player or key == player:
                players.setdefault(key, []).append(team)
        if len(team.keys) >= 2:
            partnerships.setdefault(team.keys, []).append(team)
    return Statistics(
        players=[PlayerRow(key, _added(teams)) for key, teams in players.items()],
        partnerships=[PartnershipRow(keys, t) for keys, t in partnerships.items()],
        names=named,
    )


def _added(teams: Sequence[_Team]) -> TallyRow:
    """What some teams did, as one tally: each figure added up column by column (the teams'
    figures turned into columns by `zip`, in C: a player of a big club has hundreds of teams and
    systems), the best hand the first largest with its system."""
    columns = dict(zip(FIGURES, zip(*(team.sums for team in teams), strict=True), strict=True))
    played = [team for team in teams if team.best is not None]
    top = max(played, key=lambda team: team.best or 0, default=None)
    sets = {kind: sum(columns[column]) for kind, column in SET_COLUMNS.items()}
    return TallyRow(
        **{figure: sum(columns[figure]) for figure in SUMMED},
        best=top.best if top else None,
        best_system=top.system_id if top else None,
        sets={kind: made for kind, made in sets.items() if made},
    )
