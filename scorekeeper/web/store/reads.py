"""A game as its following pages read it: plain values, not the ORM's rows (which belong to one
request's session), so that a process may keep it for every request that asks
(`services/kept.py`), read in a few statements: the game with its sides and players in one,
its hands with their entries in one, their corrections in one.

Each value has the names of the model's columns it copies, so that what a page reads of a game
(`game.sides`, `hand.corrections`, `c.before`) reads the same from either."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any, Protocol

from sqlalchemy import select

from ... import rules
from ...rules.fields import ENTRY_FIELDS, entry_of
from ..extensions import db
from .models import Correction, Entry, Game, Hand, Player, Side


class PlayerLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def key(self) -> str: ...


class SideLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def start_score(self) -> int: ...
    @property
    def players(self) -> Sequence[PlayerLike]: ...


class GameLike(Protocol):
    """What the pages read of a game, from its row (`models.Game`) or as a `GameRead`."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def system_id(self) -> str: ...
    @property
    def options(self) -> list[str]: ...
    @property
    def house_rules(self) -> dict[str, Any] | None: ...
    @property
    def sides(self) -> Sequence[SideLike]: ...


@dataclass(frozen=True)
class PlayerRead:
    name: str
    key: str


@dataclass(frozen=True)
class SideRead:
    name: str
    start_score: int
    players: tuple[PlayerRead, ...]


@dataclass(frozen=True)
class CorrectionRead:
    """A correction of a hand (`models.Correction`): what it was before and after, and when."""

    id: int
    at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class HandRead:
    """A recorded hand (`models.Hand`), deleted or not, its entries as the engine reads them."""

    id: int
    position: int
    version: int
    token: str
    deleted_at: datetime | None
    hand: rules.Hand
    created_at: datetime
    corrections: tuple[CorrectionRead, ...] = ()


@dataclass(frozen=True)
class GameRead:
    """A game (`models.Game`): the columns its pages show, its sides and players, and every
    hand recorded, deleted or not, in order of play."""

    id: str
    revision: str
    name: str | None
    system_id: str
    options: list[str]
    house_rules: dict[str, Any] | None
    first_dealer: int
    archived_at: datetime | None
    night_id: str | None
    sides: tuple[SideRead, ...]
    hands: tuple[HandRead, ...]

    @cached_property
    def live_hands(self) -> tuple[HandRead, ...]:
        """The hands that count: recorded and not deleted, in order of play."""
        return tuple(hand for hand in self.hands if hand.deleted_at is None)

    @property
    def last_position(self) -> int:
        """The place of the last hand recorded, deleted or not (0 before the first)."""
        return self.hands[-1].position if self.hands else 0


GAME_COLUMNS = (
    Game.id,
    Game.revision,
    Game.name,
    Game.system_id,
    Game.options,
    Game.house_rules,
    Game.first_dealer,
    Game.archived_at,
    Game.night_id,
)


def read_game(game_id: str, known: tuple[int, list[HandRead]] | None = None) -> GameRead | None:
    """A game read whole, in three statements; None when there is none (or it was deleted).
    `known`: a place, and the hands past it as this transaction read them already (their
    corrections are read here: a hand recorded since has none, a changed one may)."""
    rows = db.session.execute(
        select(*GAME_COLUMNS, Side.id.label("side_id"), Side.name.label("side_name"))
        .add_columns(Side.start_score, Player.name.label("player"), Player.key)
        .join(Side, Side.game_id == Game.id)
        .outerjoin(Player, Player.side_id == Side.id)
        .where(Game.id == game_id, Game.deleted_at.is_(None))
        .order_by(Side.position, Player.position)
    ).all()
    if not rows:
        return None
    sides: dict[int, tuple[str, int, list[PlayerRead]]] = {}
    for row in rows:
        side = sides.setdefault(row.side_id, (row.side_name, row.start_score, []))
        if row.player is not None:
            side[2].append(PlayerRead(row.player, row.key))
    corrections = _corrections(game_id)
    read = read_hands(game_id) if known is None else [*read_hands(game_id, 0, known[0]), *known[1]]
    hands = [replace(h, corrections=corrections[h.id]) if h.id in corrections else h for h in read]
    first = rows[0]
    return GameRead(
        first.id,
        first.revision,
        first.name,
        first.system_id,
        list(first.options or ()),
        first.house_rules,
        first.first_dealer or 0,
        first.archived_at,
        first.night_id,
        tuple(SideRead(name, start, tuple(players)) for name, start, players in sides.values()),
        tuple(hands),
    )


HAND_COLUMNS = (
    Hand.id,
    Hand.position,
    Hand.version,
    Hand.token,
    Hand.deleted_at,
    Hand.ended_by,
    Hand.created_at,
)
ENTRY_COLUMNS = tuple(getattr(Entry, f.name) for f in ENTRY_FIELDS)


def read_hands(game_id: str, after: int = 0, until: int | None = None) -> list[HandRead]:
    """The hands of a game past place `after` (up to `until`), deleted or not, with their
    entries (not their corrections), in one statement."""
    query = (
        select(*HAND_COLUMNS, *ENTRY_COLUMNS)
        .join(Entry, Entry.hand_id == Hand.id)
        .where(Hand.game_id == game_id, Hand.position > after)
        .order_by(Hand.position, Entry.side_position)
    )
    if until is not None:
        query = query.where(Hand.position <= until)
    rows = db.session.execute(query)
    hands: list[HandRead] = []
    entries: list[rules.Entry] = []
    current: Any = None
    for row in rows:
        if current is not None and row.id != current.id:
            hands.append(_hand(current, entries))
            entries = []
        current = row
        entries.append(entry_of({f.name: getattr(row, f.name) for f in ENTRY_FIELDS}))
    if current is not None:
        hands.append(_hand(current, entries))
    return hands


def _hand(row: Any, entries: list[rules.Entry]) -> HandRead:
    hand = rules.Hand(tuple(entries), rules.EndedBy(row.ended_by))
    return HandRead(
        row.id, row.position, row.version, row.token, row.deleted_at, hand, row.created_at
    )


def _corrections(game_id: str) -> dict[int, tuple[CorrectionRead, ...]]:
    """The corrections of a game's hands, by hand, oldest first (one statement)."""
    rows = db.session.execute(
        select(Correction.hand_id, Correction.id, Correction.at, Correction.before)
        .add_columns(Correction.after)
        .join(Hand, Hand.id == Correction.hand_id)
        .where(Hand.game_id == game_id)
        .order_by(Correction.id)
    )
    found: dict[int, list[CorrectionRead]] = {}
    for row in rows:
        found.setdefault(row.hand_id, []).append(
            CorrectionRead(row.id, row.at, row.before, row.after)
        )
    return {hand_id: tuple(kept) for hand_id, kept in found.items()}
