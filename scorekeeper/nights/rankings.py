"""A club night's rankings: every pair's place, from the games of the rounds as played.

What counts (the standings say it in a line, templates/standings/_standings.html):

- A game counts once a hand was played at it: a win is 1, a draw (equal totals) ½, a loss 0.
  A game with no hand was not played: not a draw, it counts for nobody.
- A game stopped unfinished when its round ended counts as the director chose (`Counting`): as
  it stands, or not played; unless chosen, as it stands when a hand was played there, not
  played when none was (`default_counting`).
- Fewer games: for a round a pair was there without a game that counts (it sat out, or its game
  was not played), it is credited its own average per game that counted, once the round is
  over, as bridge clubs give a pair that sits out its average. A round before it arrived or
  after it left counts nothing. So sitting out neither helps nor hurts, and a pair is compared
  with the others on the rounds it was there for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from .movements import Round
from .record import Presence, presence


class Ranking(Enum):
    """How a night's pairs are placed (each with the averages of the rounds they had no game).

    WINS is the default: each table's game counts once, however fast its cards ran, so a table
    that played an extra hand (or met a pair that scores big) cannot outweigh the other games;
    the point difference (not the total) breaks ties, so a pair that lost big scores less than
    one that lost small. POINTS adds up every point scored, as a paper score sheet would.
    """

    WINS = "wins"
    POINTS = "points"


DEFAULT_RANKING = Ranking.WINS


class Counting(Enum):
    """What a game stopped unfinished by the end of its round counts as: the director's choice."""

    AS_IT_STANDS = "as-it-stands"
    """Its totals as they stand decide it, as if it were over."""
    NOT_PLAYED = "not-played"
    """It counts for nobody: its pairs are credited their average for the round."""


def default_counting(hands: int) -> Counting:
    """What an unfinished game counts as unless the director chooses: as it stands once a hand
    was played there, not played when none was.

    >>> default_counting(2).value, default_counting(0).value
    ('as-it-stands', 'not-played')
    """
    return Counting.AS_IT_STANDS if hands else Counting.NOT_PLAYED


def countings(hands: int) -> tuple[Counting, ...]:
    """What an unfinished game may count as: as it stands only once a hand was played there (a
    game without a hand is no draw, it was not played).

    >>> [c.value for c in countings(1)], [c.value for c in countings(0)]
    (['as-it-stands', 'not-played'], ['not-played'])
    """
    return tuple(Counting) if hands else (Counting.NOT_PLAYED,)


def finished(hands: int, over: bool, round_hands: int | None) -> bool:
    """Whether a table's game of a round is finished: the game is over, or a round of
    `round_hands` hands has had them all.

    >>> finished(2, False, 2), finished(1, False, 2), finished(1, True, 2), finished(5, False, None)
    (True, False, True, False)
    """
    return over or (round_hands is not None and hands >= round_hands)


@dataclass(frozen=True)
class Game:
    """One table's game in one round, as it stands: each pair's points, the hands played, and
    what it counts as if it was stopped unfinished."""

    round: int
    table: int
    ns: int
    ew: int
    ns_points: int
    ew_points: int
    hands: int = 1
    counting: Counting | None = None
    """The director's choice for a game stopped unfinished; None: a game as played."""

    @property
    def counts(self) -> bool:
        """Whether the game counts: a hand was played, and it was not counted as not played."""
        return self.hands > 0 and self.counting is not Counting.NOT_PLAYED


@dataclass(frozen=True)
class Score:
    """What one pair made in one round: its points, its opponent's, and half-wins (2 a win,
    1 a draw, 0 a loss)."""

    points: int
    against: int
    half_wins: int


@dataclass(frozen=True)
class Standing:
    """One pair's place (shared with the pairs level with it: 1, 1, 3…), its sums over the
    games that counted, and `score`, what it is ranked by: its wins (or points) with its average
    for each round `credited`."""

    pair: int
    place: int
    points: int
    difference: int
    half_wins: int
    by_round: Mapping[int, Score] = field(default_factory=dict)
    credited: tuple[int, ...] = ()
    """The rounds it was there without a game that counts, each credited its average."""
    score: Fraction = Fraction(0)

    @property
    def wins(self) -> float:
        return self.half_wins / 2

    @property
    def games(self) -> int:
        """The games that counted."""
        return len(self.by_round)


def _score(points: int, against: int) -> Score:
    half = 2 if points > against else 1 if points == against else 0
    return Score(points, against, half)


def _scaled(total: int, games: int, credited: int) -> Fraction:
    """A sum over `games` games with its average for each of `credited` rounds more."""
    return Fraction(total * (games + credited), games) if games else Fraction(0)


def standings(
    pairs: Iterable[int],
    games: Iterable[Game],
    ranking: Ranking = DEFAULT_RANKING,
    rounds: Iterable[Round] = (),
    in_play: int | None = None,
) -> list[Standing]:
    """Every pair's sums over the games that count (the module says which), placed by
    `ranking`: by wins then point difference, or by points, each with the pair's average for
    every round of `rounds` (as played: `record.as_played`) it was there without a game that
    counts, but the round `in_play`. The higher total wins a game; equal totals are a draw.

    >>> games = [Game(1, 1, 1, 2, 900, 1500), Game(1, 2, 3, 4, 3000, 100)]
    >>> [(s.place, s.pair, s.points) for s in standings([1, 2, 3, 4], games, Ranking.POINTS)]
    [(1, 3, 3000), (2, 2, 1500), (3, 1, 900), (4, 4, 100)]
    >>> [(s.place, s.pair, s.wins, s.difference) for s in standings([1, 2, 3, 4], games)]
    [(1, 3, 1.0, 2900), (2, 2, 1.0, 600), (3, 1, 0.0, -600), (4, 4, 0.0, -2900)]

    In round 2 pair 3 sat out and is credited its average for it (one win a game), and pair 4
    had left, which counts nothing:

    >>> from scorekeeper.nights import Seat
    >>> played = [
    ...     Round(1, (Seat(1, 1, 2), Seat(2, 3, 4))),
    ...     Round(2, (Seat(1, 1, 2),), sitting_out=(3,), absent=(4,)),
    ... ]
    >>> games = [*games, Game(2, 1, 1, 2, 800, 700)]
    >>> [(s.pair, s.wins, s.credited, str(s.score)) for s in standings([1, 2, 3, 4], games,
    ...     rounds=played)]
    [(3, 1.0, (2,), '2'), (2, 1.0, (), '1'), (1, 1.0, (), '1'), (4, 0.0, (), '0')]
    """
    records = [r for r in rounds if r.number != in_play]
    by_round: dict[int, dict[int, Score]] = {pair: {} for pair in pairs}
    for game in games:
        if game.counts:
            by_round.setdefault(game.ns, {})[game.round] = _score(game.ns_points, game.ew_points)
            by_round.setdefault(game.ew, {})[game.round] = _score(game.ew_points, game.ns_points)
    placed = []
    for pair, scores in by_round.items():
        credited = tuple(
            played.number
            for played in records
            if played.number not in scores
            and presence(played, pair) in (Presence.PLAYED, Presence.SAT_OUT)
        )
        points = sum(s.points for s in scores.values())
        difference = sum(s.points - s.against for s in scores.values())
        half_wins = sum(s.half_wins for s in scores.values())
        wins = _scaled(half_wins, len(scores), len(credited)) / 2
        score = _scaled(points, len(scores), len(credited)) if ranking is Ranking.POINTS else wins
        standing = Standing(pair, 0, points, difference, half_wins, dict(scores), credited, score)
        placed.append(standing)

    def key(standing: Standing) -> tuple[Fraction, ...]:
        if ranking is Ranking.POINTS:
            return (standing.score,)
        scaled = _scaled(standing.difference, standing.games, len(standing.credited))
        return (standing.score, scaled)

    placed.sort(key=lambda standing: (tuple(-k for k in key(standing)), standing.pair))
    for index, standing in enumerate(placed):
        level = index > 0 and key(placed[index - 1]) == key(standing)
        place = placed[index - 1].place if level else index + 1
        placed[index] = replace(standing, place=place)
    return placed
