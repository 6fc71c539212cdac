"""What if we read it the other way? A game's totals and winner under each other reading of its
system (`rules/readings.py`), beside the real ones, without changing the game.

Each other reading is the same house-rule key the rules page links to, flipped in a copy of the
game's rules; the game's recorded hands are replayed through the engine under that copy. Nothing
is written: it is a read like the scoreboard.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ... import rules
from ...rules.readings import Reading, readings_of
from ..services.engine import engine_game, replay_of, system_of
from ..services.loading import with_hands
from ..store.models import Game
from ..wording import say
from .rulebook import ReadingShown, shown


@dataclass(frozen=True)
class Totals:
    """One side's total as the game stands, and under the other reading."""

    side: str
    real: int
    other: int


@dataclass(frozen=True)
class Refused:
    """A hand the other reading refuses: its number and what it breaks there, in words."""

    hand: int
    why: list[str]


@dataclass(frozen=True)
class OtherReading:
    """The game under one other reading of its system."""

    anchor: str
    reading: ReadingShown
    totals: list[Totals]
    over: tuple[bool, bool]  # (as it stands, under the other reading)
    winner: tuple[str | None, str | None]  # the winning side's name, or None (none yet, a tie)
    refused: list[Refused]
    readable: bool  # False when the game's house rules cannot take the other reading at all

    @property
    def heading(self) -> str:
        """The other reading, in words: ours where the game's house rules take the other one."""
        return self.reading.take if self.reading.played_otherwise else self.reading.otherwise

    @property
    def played(self) -> str:
        """The reading this game is played under, in words."""
        return self.reading.otherwise if self.reading.played_otherwise else self.reading.take

    @property
    def same(self) -> bool:
        """Whether the game comes out the same either way: every total and the winner."""
        return all(t.real == t.other for t in self.totals) and self.winner[0] == self.winner[1]


def flipped(
    house_rules: dict[str, Any] | None, reading: Reading, otherwise: bool
) -> dict[str, Any]:
    """The game's house rules with `reading`'s key read the other way: its other value, or,
    where the game already plays that (`otherwise`), without it (our reading, the system's own).
    """
    house = dict(house_rules or {})
    other = reading.other
    if isinstance(other, dict):
        parts = dict(house.get(reading.key) or {})
        if otherwise:
            for part in other:
                parts.pop(part, None)
        else:
            parts.update(other)
        house[reading.key] = parts
        if not parts:
            del house[reading.key]
    elif otherwise:
        house.pop(reading.key, None)
    else:
        house[reading.key] = other
    return house


def _winner(game: Game, result: rules.GameResult) -> str | None:
    return None if result.winner is None else game.sides[result.winner].name


def other_readings(game: Game) -> list[OtherReading]:
    """The game under each other reading of its system, beside the game as it stands."""
    system = system_of(game)
    real = replay_of(game)
    played = engine_game(with_hands(game))
    found = []
    for index, reading in enumerate(readings_of(game.system_id), start=1):
        words = shown(reading, system)
        house = flipped(game.house_rules, reading, words.played_otherwise)
        options = dict.fromkeys(game.options or (), True)
        try:
            other_system = rules.read_system(game.system_id, options, house or None)
        except rules.GameFileError:
            # A house rule of this game that the other reading contradicts (rare): say so.
            other_system = None
        if other_system is None:
            other, refused = real, []
        else:
            other = rules.replay(dataclasses.replace(played, system=other_system))
            refused = [
                Refused(number, [say(v.message) for v in hand.violations])
                for number, (hand, before) in enumerate(
                    zip(other.hands, real.hands, strict=True), start=1
                )
                if {v.code for v in hand.violations} - {v.code for v in before.violations}
            ]
        found.append(
            OtherReading(
                anchor=f"reading-{index}",
                reading=words,
                totals=[
                    Totals(side.name, real.totals[i], other.totals[i])
                    for i, side in enumerate(game.sides)
                ],
                over=(real.game_over, other.game_over),
                winner=(_winner(game, real), _winner(game, other)),
                refused=refused,
                readable=other_system is not None,
            )
        )
    return found


def readings_to_try(system: rules.RuleSystem) -> list[tuple[str, str]]:
    """The scoreboard's links: each other reading's anchor on the what-if page, and its words."""
    found = []
    for index, reading in enumerate(readings_of(system.id), start=1):
        words = shown(reading, system)
        found.append(
            (f"reading-{index}", words.take if words.played_otherwise else words.otherwise)
        )
    return found
