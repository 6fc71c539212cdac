"""A game replayed hand by hand: scores, totals, first-meld minimums, problems and the winner.

Totals are never stored: they follow from the recorded hands, so correcting an early hand
re-derives everything after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .checks import Violation, check_hand, check_table
from .hands import Game, Hand, Side
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
class Seat:
    """A place at the table: the side, and which of its players (both counted from 0)."""

    side: int
    player: int


def seating(sides: Sequence[Side]) -> tuple[Seat, ...]:
    """The order of play, partners apart: the first player of each side, then the second, ….

    >>> [(s.side, s.player) for s in seating([Side("Us", 2), Side("Them", 2)])]
    [(0, 0), (1, 0), (0, 1), (1, 1)]
    >>> [(s.side, s.player) for s in seating([Side("Ana"), Side("Bo"), Side("Cy")])]
    [(0, 0), (1, 0), (2, 0)]
    """
    most = max(side.players for side in sides)
    return tuple(
        Seat(index, player)
        for player in range(most)
        for index, side in enumerate(sides)
        if player < side.players
    )


def dealer(game: Game, hands_played: int) -> Seat:
    """Who deals after `hands_played` hands: the deal starts at the game's first dealer and
    passes round the table in the order of play, one seat a hand.

    >>> from scorekeeper.rules import get_system
    >>> table = (Side("Ana"), Side("Bo"), Side("Cy"))
    >>> game = Game(get_system("classic"), table, first_dealer=1)
    >>> [dealer(game, played).side for played in range(4)]
    [1, 2, 0, 1]
    """
    seats = seating(game.sides)
    return seats[(game.first_dealer + hands_played) % len(seats)]


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
    next_dealer: Seat
    """Who deals the next hand: the deal passes round the table, one seat a hand."""

    @property
    def next_hand(self) -> int:
        """The number of the next hand (from 1)."""
        return len(self.hands) + 1

    @property
    def has_violations(self) -> bool:
        return bool(self.game_violations) or any(h.violations for h in self.hands)


def replay(game: Game) -> GameResult:
    """Score and check every hand in order, carrying the totals forward."""
    result = before_first_hand(game)
    for hand in game.hands:
        result = extend(game, result, hand)
    return result


def before_first_hand(game: Game) -> GameResult:
    """The game before any hand: the start scores, and the table checked."""
    totals = tuple(side.start_score for side in game.sides)
    return GameResult(
        hands=(),
        game_violations=tuple(check_table(game)),
        totals=totals,
        game_over=False,
        winner=None,
        next_minimums=tuple(game.system.opening_minimum(t, 1) for t in totals),
        next_dealer=dealer(game, 0),
    )


def extend(game: Game, result: GameResult, hand: Hand) -> GameResult:
    """The replay of the hands in `result` followed by `hand`: one step of `replay`.

    Saving a hand scores and checks that hand alone, not the whole game again.
    """
    system = game.system
    number = result.next_hand
    minimums = result.next_minimums
    violations = check_hand(game, hand, minimums, result.game_over)
    totals = list(result.totals)
    scores = []
    for index, entry in enumerate(hand.entries):
        lines = tuple(score_entry(system, entry, hand.ended_by, game.deck))
        hand_score = sum(line.points for line in lines)
        totals[index] += hand_score
        scores.append(SideScore(lines, hand_score, totals[index], minimums[index]))
    over, winner = result.game_over, result.winner
    if not over:
        over, winner = game_end(system, totals, number)
    return GameResult(
        hands=(*result.hands, HandResult(tuple(scores), tuple(violations))),
        game_violations=result.game_violations,
        totals=tuple(totals),
        game_over=over,
        winner=winner,
        next_minimums=tuple(system.opening_minimum(t, number + 1) for t in totals),
        next_dealer=dealer(game, number),
    )


def game_end(
    system: RuleSystem, totals: Sequence[int], hands_played: int
) -> tuple[bool, int | None]:
    """Whether the game is over after this many hands, and who won (None for a tie).

    A side reaching the target ends the game if the highest total is one side's alone; a tie
    at the top plays on (a reading: docs/readings.md), or ends the game shared under the house rule
    `tie_at_target: "shared"`. A game of fixed length ends after its last hand, where a tie
    stays a tie.
    """
    best = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == best]
    if system.hands_in_game is not None:
        if hands_played >= system.hands_in_game:
            return True, leaders[0] if len(leaders) == 1 else None
        return False, None
    if system.target is None or best < system.target:
        return False, None
    if len(leaders) == 1:
        return True, leaders[0]
    if system.tie_at_target == "shared":
        return True, None
    return False, None
