"""The copies of the replay on the rows that lists and statistics read (whether a game is over,
each side's total, winner and tallies, each hand's scores), and their repair; and the copies
on each side of who played on it (`Side.team`) and of its game's system, end and start, by
which statistics group and count the sides without reading the games."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, or_, select
from sqlalchemy.orm import selectinload

from ... import rules
from ..extensions import db
from ..store.database import writing
from ..store.models import SET_COLUMNS, Game, Hand, Side, new_revision, now
from .engine import replay

Figures = tuple[bool | None, list[tuple[int | None, bool | None]], list[list[int | None]]]
"""A game's copied figures: whether it is over, each side's (total, won), each hand's scores."""


def _figures(game: Game) -> Figures:
    """The copied figures that lists and statistics read, as stored on the rows."""
    return (
        game.over,
        [(side.total, side.won) for side in game.sides],
        [[entry.hand_score for entry in hand.entries] for hand in game.live_hands],
    )


def _replayed_figures(game: Game, result: rules.GameResult) -> Figures:
    """The same figures as the replay gives them: what `store_figures` copies."""
    return (
        result.game_over,
        [
            (result.totals[index], result.game_over and result.winner == index)
            for index in range(len(game.sides))
        ],
        [[side.hand_score for side in scored.sides] for scored in result.hands],
    )


def store_figures(game: Game, result: rules.GameResult, last: Sequence[Hand] | None = None) -> None:
    """Copy the replay's totals, winner, hand scores and side tallies, and who played on each
    side, onto the rows that lists and statistics read, with the game's system, whether it is
    over and when it began onto each side too; and give the game a new revision (what it shows
    has changed).

    `last`: the hands whose scores to copy, the replay's last ones (by default every live hand;
    a new hand copies its own only, and the others are not even loaded).
    """
    over, sides, scores = _replayed_figures(game, result)
    game.over = bool(over)
    game.updated_at = now()
    game.created_at = game.created_at or game.updated_at  # a new game begins now
    game.revision = new_revision()
    for side, (total, won) in zip(game.sides, sides, strict=True):
        side.total, side.won = total, won
        side.system_id, side.over, side.created_at = game.system_id, game.over, game.created_at
    _tally_sides(game, result, last)
    if last is None:  # a new hand changes no one's name; only these writes can (or a restore)
        for side in game.sides:
            side.team = team_of([(player.key, player.name) for player in side.players])
    hands = game.live_hands if last is None else last
    for hand, hand_scores in zip(hands, scores[len(scores) - len(hands) :], strict=True):
        for entry, score in zip(hand.entries, hand_scores, strict=True):
            entry.hand_score = score


def _tally_sides(game: Game, result: rules.GameResult, last: Sequence[Hand] | None) -> None:
    """Copy onto each side what statistics add up of its live hands: how many, the best score,
    times gone out, red threes and sets by kind.

    The scores come from the replay; the rest from the entries, all of them, or with `last` (a
    new hand, the others not loaded) the new ones added to the counts already stored.
    """
    for index, side in enumerate(game.sides):
        scores = [scored.sides[index].hand_score for scored in result.hands]
        side.hands = len(scores)
        side.best = max(scores, default=None)
        afresh = last is None or side.went_out is None
        counted = game.live_hands if afresh else (last or [])
        entries = [hand.entries[index] for hand in counted]
        side.went_out = (0 if afresh else side.went_out or 0) + sum(e.went_out for e in entries)
        side.red_threes = (0 if afresh else side.red_threes or 0) + sum(
            e.red_threes for e in entries
        )
        for kind, column in SET_COLUMNS.items():
            made = sum(e.sets.get(kind.value, 0) for e in entries)
            setattr(side, column, (0 if afresh else getattr(side, column) or 0) + made)


def _spelled(text: str) -> str:
    return text.encode("utf-8").hex().upper()


def team_of(players: Sequence[tuple[str, str]]) -> str | None:
    """A side's `Side.team` from its players' (key, name): the named ones, in order.

    >>> team_of([("ana", "Ana"), ("", ""), ("bo", "Bo")])
    '616E61:416E61,626F:426F'
    """
    spelled = sorted(f"{_spelled(key)}:{_spelled(name)}" for key, name in players if key)
    return ",".join(spelled) or None


def store_teams(sides: Select[int]) -> None:
    """Copy who played onto the sides whose ids `sides` selects (after their players were
    renamed or merged), as `store_figures` does."""
    query = select(Side).where(Side.id.in_(sides)).options(selectinload(Side.players))
    for side in db.session.scalars(query):
        side.team = team_of([(player.key, player.name) for player in side.players])


# Everything a replay reads, in a statement each rather than one per hand and entry.
FOR_REPLAY = (
    selectinload(Game.sides).selectinload(Side.players),
    selectinload(Game.hands).selectinload(Hand.entries),
)


def _whole_games(ids: Sequence[str]) -> Sequence[Game]:
    """Games with everything a replay reads, loaded in a few statements."""
    return db.session.scalars(select(Game).where(Game.id.in_(ids)).options(*FOR_REPLAY)).all()


def _batches(query: Select[Any], size: int = 500) -> Iterator[list[str]]:
    """The game ids the query selects, a few hundred at a time (memory stays small)."""
    ids: list[str] = list(db.session.scalars(query))
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def games_differing_from_replay() -> list[str]:
    """The ids of the games whose stored figures are not what replaying their hands gives."""
    differing = []
    for ids in _batches(select(Game.id).order_by(Game.id)):
        for game in _whole_games(ids):
            if _figures(game) != _replayed_figures(game, replay(game)):
                differing.append(game.id)
        db.session.rollback()
    return differing


@dataclass(frozen=True)
class Checkup:
    """What `repair_figures` did: games replayed, and how many of them it repaired."""

    games: int
    repaired: int


def repair_figures() -> Checkup:
    """Replay every game and store the replay's figures where they differ."""
    games = repaired = 0
    for ids in _batches(select(Game.id).order_by(Game.id)):
        with writing():
            for game in _whole_games(ids):
                games += 1
                result = replay(game)
                if _figures(game) != _replayed_figures(game, result):
                    store_figures(game, result)
                    repaired += 1
    return Checkup(games, repaired)


def refresh_stale() -> int:
    """Replay the games whose copied figures are missing (after an upgrade); how many."""
    missing = or_(Side.total.is_(None), Side.hands.is_(None))
    stale = select(Game.id).where(Game.sides.any(missing)).order_by(Game.id)
    refreshed = 0
    for ids in _batches(stale):
        with writing():
            for game in _whole_games(ids):
                store_figures(game, replay(game))
                refreshed += 1
    return refreshed
