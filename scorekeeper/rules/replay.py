"""A game replayed hand by hand: scores, totals, first-meld minimums, problems and the winner.

Totals are never stored: they follow from the recorded hands, so correcting an early hand
re-derives everything after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .checks import Violation, check_hand, check_table
from .hands import Game
from .scoring import Line, score_entry
from .systems import RuleSystem


@dataclass(frozen=True)
class SideScore:
    """One side's part of one hand."""

    lines: tuple[Line, ...]
    hand_score: int
    total: int
    min_opening_meld: int


@dataclass(frozen=True)
class HandResult:
    """One hand, scored and checked."""

    sides: tuple[SideScore, ...]
    violations: tuple[Violation, ...]


@dataclass(frozen=True)
class GameResult:
    """A whole game replayed."""

    hands: tuple[HandResult, ...]
    game_violations: tuple[Violation, ...]
    totals: tuple[int, ...]
    game_over: bool
    winner: int | None
    next_minimums: tuple[int, ...]
    """Each side's minimum first meld for the next hand."""

    @property
    def has_violations(self) -> bool:
        return bool(self.game_violations) or any(h.violations for h in self.hands)


def replay(game: Game) -> GameResult:
    """Score and check every hand in order, carrying the totals forward."""
    system = game.system
    totals = [side.start_score for side in game.sides]
    over = False
    winner: int | None = None
    results: list[HandResult] = []
    for number, hand in enumerate(game.hands, start=1):
        minimums = [system.opening_minimum(total, number) for total in totals]
        violations = check_hand(game, hand, minimums, over)
        scores = []
        for index, entry in enumerate(hand.entries):
            lines = tuple(score_entry(system, entry, hand.ended_by, game.deck))
            hand_score = sum(line.points for line in lines)
            totals[index] += hand_score
            scores.append(SideScore(lines, hand_score, totals[index], minimums[index]))
        results.append(HandResult(tuple(scores), tuple(violations)))
        if not over:
            over, winner = game_end(system, totals, number)
    next_number = len(game.hands) + 1
    return GameResult(
        hands=tuple(results),
        game_violations=tuple(check_table(game)),
        totals=tuple(totals),
        game_over=over,
        winner=winner,
        next_minimums=tuple(system.opening_minimum(t, next_number) for t in totals),
    )


def game_end(
    system: RuleSystem, totals: Sequence[int], hands_played: int
) -> tuple[bool, int | None]:
    """Whether the game is over after this many hands, and who won (None for a tie).

    A side reaching the target ends the game if the highest total is one side's alone; a tie
    at the top plays on (RULES.md, reading). A game of fixed length ends after its last hand,
    where a tie stays a tie.
    """
    best = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == best]
    if system.hands_in_game is not None:
        if hands_played >= system.hands_in_game:
            return True, leaders[0] if len(leaders) == 1 else None
        return False, None
    if system.target is not None and best >= system.target and len(leaders) == 1:
        return True, leaders[0]
    return False, None
