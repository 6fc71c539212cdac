"""The bridge to the rules engine: a game's rules, its rows as the engine's values, its replay,
and the replays kept under each game's revision."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from threading import Lock

from cachetools import LRUCache, cached

from ... import rules
from ...rules.fields import ENTRY_FIELDS, entry_of
from ..models import Entry, Game, Hand
from .loading import with_hands

SystemKey = tuple[str, tuple[str, ...], str]
"""What a game's rules are read from: system id, options, house rules as canonical JSON."""


def system_key(game: Game) -> SystemKey:
    house = json.dumps(game.house_rules, sort_keys=True) if game.house_rules else ""
    return game.system_id, tuple(sorted(game.options or ())), house


@lru_cache(maxsize=64)
def system_for(key: SystemKey) -> rules.RuleSystem:
    """The rules a key describes, read once: a RuleSystem is frozen, so pages share it."""
    system_id, options, house = key
    return rules.read_system(system_id, dict.fromkeys(options, True), json.loads(house or "null"))


def system_of(game: Game) -> rules.RuleSystem:
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


GAMES_KEPT = 64
"""Games whose replay each process keeps in memory: more than a club has tables."""
REPLAYS: LRUCache[tuple[str, str], rules.GameResult] = LRUCache(GAMES_KEPT)
REPLAYS_LOCK = Lock()


def _kept(game: Game) -> tuple[str, str]:
    return game.id, game.revision


@cached(REPLAYS, key=_kept, lock=REPLAYS_LOCK)
def kept_replay(game: Game) -> rules.GameResult:
    """The replay of the game as stored, kept under its revision for the pages that follow.

    Only for a game as read: a write replays afresh (`replay`) and keeps what it stored (`_keep`).
    """
    return replay(with_hands(game))


def _keep(game_id: str, revision: str, result: rules.GameResult) -> None:
    """Keep a replay that was committed under this revision (a later page reads it)."""
    with REPLAYS_LOCK:
        REPLAYS[game_id, revision] = result
