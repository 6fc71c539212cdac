"""A club night's rankings: every pair's place, from the games of the rounds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum


class Ranking(Enum):
    """How a night's pairs are placed.

    WINS is the default: each table's game counts once, however fast its cards ran, so a table
    that played an extra hand (or met a pair that scores big) cannot outweigh the other games;
    the point difference (not the total) breaks ties, so a pair that lost big scores less than
    one that lost small. POINTS adds up every point scored, as a paper score sheet would.
    """

    WINS = "wins"
    POINTS = "points"


DEFAULT_RANKING = Ranking.WINS


@dataclass(frozen=True)
class Game:
    """One table's game in one round, as it stands: each pair's points, and whether it is over."""

    round: int
    table: int
    ns: int
    ew: int
    ns_points: int
    ew_points: int


@dataclass(frozen=True)
class Score:
    """What one pair made in one round: its points, its opponent's, and half-wins (2 a win,
    1 a draw, 0 a loss)."""

    points: int
    against: int
    half_wins: int


@dataclass(frozen=True)
class Standing:
    """One pair's place: shared with the pairs level with it (1, 1, 3…)."""

    pair: int
    place: int
    points: int
    difference: int
    half_wins: int
    by_round: Mapping[int, Score] = field(default_factory=dict)

    @property
    def wins(self) -> float:
        return self.half_wins / 2


def _score(points: int, against: int) -> Score:
    half = 2 if points > against else 1 if points == against else 0
    return Score(points, against, half)


def standings(
    pairs: Iterable[int], games: Iterable[Game], ranking: Ranking = DEFAULT_RANKING
) -> list[Standing]:
    """Every pair's total over the games, placed by `ranking` (a pair sitting out a round
    scores nothing in it). The higher total wins a game; equal totals are a draw.

    >>> games = [Game(1, 1, 1, 2, 900, 1500), Game(1, 2, 3, 4, 3000, 100)]
    >>> [(s.place, s.pair, s.points) for s in standings([1, 2, 3, 4], games, Ranking.POINTS)]
    [(1, 3, 3000), (2, 2, 1500), (3, 1, 900), (4, 4, 100)]
    >>> [(s.place, s.pair, s.wins, s.difference) for s in standings([1, 2, 3, 4], games)]
    [(1, 3, 1.0, 2900), (2, 2, 1.0, 600), (3, 1, 0.0, -600), (4, 4, 0.0, -2900)]
    """
    by_round: dict[int, dict[int, Score]] = {pair: {} for pair in pairs}
    for game in games:
        by_round.setdefault(game.ns, {})[game.round] = _score(game.ns_points, game.ew_points)
        by_round.setdefault(game.ew, {})[game.round] = _score(game.ew_points, game.ns_points)
    rows = []
    for pair, scores in by_round.items():
        points = sum(s.points for s in scores.values())
        difference = sum(s.points - s.against for s in scores.values())
        half_wins = sum(s.half_wins for s in scores.values())
        rows.append((pair, points, difference, half_wins, scores))

    def key(row: tuple[int, int, int, int, dict[int, Score]]) -> tuple[int, ...]:
        _pair, points, difference, half_wins, _scores = row
        return (points,) if ranking is Ranking.POINTS else (half_wins, difference)

    rows.sort(key=lambda row: (tuple(-k for k in key(row)), row[0]))
    placed: list[Standing] = []
    for index, row in enumerate(rows):
        level = index > 0 and key(rows[index - 1]) == key(row)
        place = placed[-1].place if level else index + 1
        pair, points, difference, half_wins, scores = row
        placed.append(Standing(pair, place, points, difference, half_wins, dict(scores)))
    return placed
