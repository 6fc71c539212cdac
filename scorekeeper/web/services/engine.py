"""The bridge to the rules engine: a game's rules, its rows as the engine's values, its replay,
and the cached replay of each game's revision."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ... import rules
from ...rules.fields import ENTRY_FIELDS, entry_of
from ..store.models import Entry, Game, Hand
from ..store.reads import GameLike
from .keeping import PROCESS, Keeping
from .loading import with_hands
from .push import game_key

SystemKey = tuple[str, tuple[str, ...], str]
"""What a game's rules are read from: system id, options, house rules as canonical JSON."""


def system_key(game: GameLike) -> SystemKey:
    return key_of(game.system_id, game.options, game.house_rules)


def key_of(system_id: str, options: list[str] | None, house: dict[str, Any] | None) -> SystemKey:
    """The key of a game's rules, from its system, options and house rules."""
    return (
        system_id,
        tuple(sorted(options or ())),
        json.dumps(house, sort_keys=True) if house else "",
    )


@lru_cache(maxsize=64)
def system_for(key: SystemKey) -> rules.RuleSystem:
    """The rules a key describes, read once: a RuleSystem is frozen, so pages share it."""
    system_id, options, house = key
    return rules.read_system(system_id, dict.fromkeys(options, True), json.loads(house or "null"))


def system_of(game: GameLike) -> rules.RuleSystem:
    """The rules a game is played under: its system, options and house rules."""
    return system_for(system_key(game))


def engine_entry(entry: Entry) -> rules.Entry:
    """A recorded entry for the rules engine: its columns are the entry's fields."""
    return entry_of({field.name: getattr(entry, field.name) for field in ENTRY_FIELDS})


def engine_hand(hand: Hand) -> rules.Hand:
    return rules.Hand(tuple(engine_entry(e) for e in hand.entries), rules.EndedBy(hand.ended_by))


def engine_game(game: Game, hands: Sequence[rules.Hand] | None = None) -> rules.Game:
    """The game for the rules engine, with its recorded hands or with `hands` instead."""
    return rules.Game(
        system=system_of(game),
        sides=tuple(
            rules.Side(side.name, len(side.players), side.start_score) for side in game.sides
        ),
        hands=tuple(engine_hand(h) for h in game.live_hands) if hands is None else tuple(hands),
        first_dealer=game.first_dealer or 0,  # None on a row not stored yet (a restore's)
    )


def replay(game: Game) -> rules.GameResult:
    """The game replayed from its recorded hands, as they are in this transaction."""
    return rules.replay(engine_game(game))


REPLAYS_A_GAME = 2
"""Replays cached of one game: its latest revision's, and the one before while a write and the
pages it wakes overlap."""
REPLAYS: Keeping[tuple[str, str], rules.GameResult] = Keeping(REPLAYS_A_GAME)
"""The cached replays, under (game id, revision), of the games followed (`services/keeping.py`):
a revision is never reused, so a cached replay is right in every process and after a restore."""
PROCESS.append(REPLAYS)


def replay_of(game: Game) -> rules.GameResult:
    """The game's cached replay: replayed once per revision, for the pages that follow.

    Only for a game as read: a write replays afresh (`replay`), and once it has committed
    `game_changed` caches what it stored.
    """
    found = REPLAYS.get((game.id, game.revision))
    if found is None:
        found = replay(with_hands(game))
        REPLAYS.keep((game.id, game.revision), found, game_key(game.id))
    return found


def game_changed(game_id: str, revision: str, result: rules.GameResult) -> None:
    """A write's last step (a save's just before its commit, others' after it): the game is at
    a new revision, and `result` (the replay it stored) is its cached replay, so the next page
    replays nothing."""
    REPLAYS.keep((game_id, revision), result, game_key(game_id))
