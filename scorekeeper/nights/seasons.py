"""A club's season: its players and the pairs that stayed together, ranked across its nights
by the club's rule. Pure, like the nights it adds up.

The reading of each rule (docs/seasons.md says the same for people; the season's page says it
in a line):

- **What a night gives.** Each night is ranked by its own ranking, from its games as played
  (`rankings.standings`: a game with no hand counts for nobody, a pair there without a game
  that counts is credited its average for the round). A player (or a pair) *played* a night
  when its pair of that night had at least one game that counted; a night it was not at, or
  only sat out, is not one of its nights: it gives nothing, not a zero.
- **Points by place** (`Measure.PLACES`): among the pairs that played the night, the first
  of n pairs scores n, the second n - 1, …, the last 1. Pairs level in the night share their
  places' points equally (two pairs level in first of 6: (6 + 5) / 2 = 5½ each).
- **Wins** (`Measure.WINS`): the night's wins of the pair (a draw ½), with its average for each
  round it was there without a game that counts, as the night counts them.
- **By rating** (`Measure.RATING`): players by their rating less its ± (`Rating.ordinal`,
  mu - 3 sigma: the skill we are nearly sure of), pairs by their rating as a pair, as the
  ratings stand now (every rated game of theirs in the club's pool, in the season or not; one
  not rated yet has a new player's, whose ordinal is 0). The nights still say who is in the
  season and how many nights each played (the minimum attendance counts them), and each
  night's column shows its points by place; a best N is refused: a rating is not a sum of
  nights.
- **A pair that left a night early** is placed by that night as it left it (its rounds after
  it left count nothing, `rankings`): it played the night, its place counts.
- **A night not finished** counts as it stands, marked in play (`Season.in_play`): the season
  is live while a night is played; rounds not yet played count nothing.
- **Best N of M**: each one's N best nights of the season's M add up; with fewer nights
  played, all of them; of nights level at the edge, the earlier ones count. M is the nights
  the season is to have (the director's, or as many as it has); `Rule.check` refuses an N or
  a minimum larger than M.
- **Minimum attendance**: one who played fewer nights than the minimum is listed, with its
  figures, but not placed.
- **Individually and as pairs**: a player's nights are the nights they played, with whichever
  partner; a pair's (two players, in either seat) are only the nights they played together,
  and a pair is listed once it *stayed together*: two nights or more (two players who met for
  one night are in the players' standings; a club of five years has thousands of those).
- **Ties** in the season: equal figures share a place (1, 1, 3), as in a night.
- **Refused**: a rule whose best N or minimum is larger than the season's nights
  (`Rule.check`, when the director sets it), and a player in two pairs of one night.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import lcm
from operator import itemgetter
from typing import NamedTuple

from .rankings import Standing
from .ratings import Rating


class SeasonError(ValueError):
    """A season that cannot be ranked as given: the message says what and where, `where` which
    part of the rule (or "nights") it is about."""

    def __init__(self, message: str, where: str = "nights") -> None:
        super().__init__(message)
        self.where = where


class Measure(Enum):
    """What each night gives a player (or pair) in a season's rule."""

    PLACES = "places"
    """Points by place: n for the first of n pairs, down to 1 for the last."""
    WINS = "wins"
    """The night's wins (a draw ½), with its averages for the rounds without a game."""
    RATING = "rating"
    """Not from the nights: each one's rating less its ± (the nights say who is placed)."""


@dataclass(frozen=True)
class Rule:
    """The club's rule for ranking a season: what each night gives, how many of the best
    nights count (None: all), and how many nights one must play to be placed."""

    measure: Measure = Measure.PLACES
    best: int | None = None
    minimum: int = 1

    def check(self, nights: int) -> None:
        """Raise `SeasonError` when the rule cannot rank a season of `nights` nights.

        >>> try:
        ...     Rule(best=5).check(4)
        ... except SeasonError as refusal:
        ...     print(refusal)
        The best 5 nights cannot count in a season of 4 nights.
        """
        if self.measure is Measure.RATING and self.best is not None:
            raise SeasonError("A season ranked by rating counts no best nights.", "best")
        if self.best is not None and self.best < 1:
            raise SeasonError("The best nights that count must be at least 1.", "best")
        if self.best is not None and self.best > nights:
            raise SeasonError(
                f"The best {self.best} nights cannot count in a season of {nights} nights.",
                "best",
            )
        if self.minimum < 1:
            raise SeasonError(
                "The nights one must play to be ranked must be at least 1.", "minimum"
            )
        if self.minimum > nights:
            raise SeasonError(
                f"Nobody can play {self.minimum} nights in a season of {nights} nights.",
                "minimum",
            )


class Outcome(NamedTuple):
    """What a night gave one of its pairs, all a season reads of it (`outcomes` works it out
    from the night's standings; the app keeps it on a row once the night's rounds are over):
    its place among the `pairs` pairs that played the night, shared by `level` of them (all
    three 0 for a pair that did not play), the games of it that counted, the `rounds` it is
    counted for (those games and the rounds credited its average), its half-wins and points.
    A named tuple: a season's first drawing reads 3,000 of them, which as a frozen dataclass
    took longer to make than the rows took to read."""

    pair: int
    place: int
    pairs: int
    level: int
    games: int
    rounds: int
    half_wins: int
    points: int

    @property
    def played(self) -> bool:
        """Whether the pair played its night: at least one of its games counted."""
        return self.games > 0

    @property
    def wins(self) -> float:
        return self.half_wins / 2

    def figure(self, measure: Measure) -> Fraction:
        """What the night gives the pair (that played it) by `measure`: by place, the points
        of the places it shares with the pairs level with it; by wins, its wins with its
        average for each round credited."""
        if measure is Measure.WINS:
            return _fraction(self.half_wins * self.rounds, 2 * self.games)
        top = self.pairs - self.place + 1
        return _fraction(sum(range(top - self.level + 1, top + 1)), self.level)


@lru_cache(maxsize=4096)
def _fraction(numerator: int, denominator: int) -> Fraction:
    """A night's figure, made once: a season's nights give the same few hundred figures again
    and again (a fraction is reduced as it is made, which takes long by the thousand)."""
    return Fraction(numerator, denominator)


def outcomes(standings: Sequence[Standing]) -> list[Outcome]:
    """What the night whose `standings` these are gave each of its pairs (by pair number).

    >>> from scorekeeper.nights import Score
    >>> won = {1: Score(10, 0, 2)}
    >>> night = [Standing(1, 2, 0, 0, 0), Standing(2, 1, 10, 10, 2, won),
    ...          Standing(3, 1, 10, 10, 2, won)]
    >>> [(o.pair, o.place, o.pairs, o.level, o.games) for o in outcomes(night)]
    [(1, 0, 0, 0, 0), (2, 1, 2, 2, 1), (3, 1, 2, 2, 1)]
    """
    places = sorted(standing.place for standing in standings if played(standing))
    level = Counter(places)
    return [
        Outcome(
            standing.pair,
            1 + bisect_left(places, standing.place) if played(standing) else 0,
            len(places) if played(standing) else 0,
            level[standing.place] if played(standing) else 0,
            standing.games,
            standing.games + len(standing.credited),
            standing.half_wins,
            standing.points,
        )
        for standing in standings
    ]


@dataclass(frozen=True)
class Night:
    """One night of a season as the season reads it: its pairs' players (by player key, a
    merged player under the key it was merged into), what it gave each pair (`outcomes` of its
    standings as played), and whether it is over."""

    id: str
    pairs: Mapping[int, tuple[str, str]]
    outcomes: Sequence[Outcome]
    finished: bool = True

    def entries(self, measure: Measure) -> list[Entry]:
        """What the night gives each pair that played it by `measure`, as `rank` adds it up:
        worked out and checked once per measure (a night kept by the app is ranked again in
        every drawing of its season)."""
        kept: dict[Measure, list[Entry]] = self.__dict__.setdefault("_entries", {})
        if measure not in kept:
            who = _who(self)
            found = []
            for number, figure in night_figures(self.outcomes, measure).items():
                if number not in who:
                    raise SeasonError(f"Pair {number} of night {self.id} has no players.")
                first, second = who[number]
                pair = (first, second) if first <= second else (second, first)
                found.append(Entry(figure, figure.numerator, figure.denominator, pair))
            kept[measure] = found
        return kept[measure]


class Entry(NamedTuple):
    """What a night gives one pair (`figure`, with its numerator and denominator) and its
    players' keys, sorted."""

    figure: Fraction
    numerator: int
    denominator: int
    pair: tuple[str, str]


@dataclass(frozen=True)
class SeasonStanding:
    """One player (`who` has one key) or one pair (two, sorted) in the season: its place (None
    when it played fewer nights than the minimum), the nights it played, each night's figure,
    the nights among them that count (the best N), and `figure`, their sum, what it is ranked
    by."""

    who: tuple[str, ...]
    place: int | None
    figure: Fraction
    by_night: Mapping[str, Fraction] = field(default_factory=dict)
    counted: tuple[str, ...] = ()

    @property
    def nights(self) -> int:
        return len(self.by_night)


@dataclass(frozen=True)
class Season:
    """A season ranked: its players, its pairs, and the nights counted as they stand."""

    players: list[SeasonStanding]
    pairs: list[SeasonStanding]
    in_play: tuple[str, ...] = ()


def played(standing: Standing) -> bool:
    """Whether a pair played its night: at least one of its games counted."""
    return standing.games > 0


def night_figures(given: Sequence[Outcome], measure: Measure) -> dict[int, Fraction]:
    """What a night gives each pair that played it (pairs that did not are left out), from
    what it gave them (`outcomes`).

    Six pairs, pairs 1 and 2 level in first place: they share 6 and 5.

    >>> from scorekeeper.nights import Score
    >>> won = {1: Score(10, 0, 2)}
    >>> night = [Standing(p, place, 0, 0, 0, won) for p, place in
    ...          [(1, 1), (2, 1), (3, 3), (4, 4), (5, 5), (6, 6)]]
    >>> figures = night_figures(outcomes(night), Measure.PLACES)
    >>> {pair: str(points) for pair, points in figures.items()}
    {1: '11/2', 2: '11/2', 3: '4', 4: '3', 5: '2', 6: '1'}
    """
    return {outcome.pair: outcome.figure(measure) for outcome in given if outcome.played}


def _who(night: Night) -> dict[int, tuple[str, str]]:
    """The night's pairs, checked: no player twice in one night."""
    seen: dict[str, int] = {}
    for number, players in sorted(night.pairs.items()):
        for key in players:
            if key in seen:
                raise SeasonError(
                    f"{key} plays in pair {seen[key]} and pair {number} of night {night.id}."
                )
            seen[key] = number
    return dict(night.pairs)


def rank(
    nights: Iterable[Night], rule: Rule, ratings: Mapping[tuple[str, ...], Rating] | None = None
) -> Season:
    """The season's players and pairs, placed by `rule` over `nights` (the module says how);
    by rating, `ratings` are each player's (by `(key,)`) and pair's (two keys, sorted) as
    they stand: one left out has a new player's. The rule is checked when it is set
    (`Rule.check`): a season that has since lost a night counts the best N of those left, or
    all of them when fewer.

    Two nights of four pairs: Ana plays with Beto, then with Carla.

    >>> from scorekeeper.nights import Score
    >>> def night(id, order, pairs):
    ...     won = {1: Score(1, 0, 2)}
    ...     standings = [Standing(pair, place, 0, 0, 0, won) for place, pair in
    ...                  enumerate(order, 1)]
    ...     return Night(id, pairs, outcomes(standings))
    >>> first = night("n1", [1, 2, 3, 4], {1: ("ana", "beto"), 2: ("carla", "dani"),
    ...     3: ("eva", "fede"), 4: ("gus", "hugo")})
    >>> second = night("n2", [2, 1, 3, 4], {1: ("beto", "dani"), 2: ("ana", "carla"),
    ...     3: ("eva", "fede"), 4: ("gus", "hugo")})
    >>> season = rank([first, second], Rule(Measure.PLACES))
    >>> [(s.place, s.who, str(s.figure)) for s in season.players[:4]]
    [(1, ('ana',), '8'), (2, ('beto',), '7'), (2, ('carla',), '7'), (4, ('dani',), '6')]
    >>> [(s.place, s.who, str(s.figure), s.nights) for s in season.pairs]
    [(1, ('eva', 'fede'), '4', 2), (2, ('gus', 'hugo'), '2', 2)]
    """
    nights = list(nights)
    measure = Measure.PLACES if rule.measure is Measure.RATING else rule.measure
    given = [(night.id, night.entries(measure)) for night in nights]
    # Added up exactly in whole numbers, each figure scaled once by one common denominator: a
    # season of a real club adds up tens of thousands of figures, which as fractions take long.
    scale = lcm(1, *{entry.denominator for _, entries in given for entry in entries})
    # Each one's nights as plain tuples in lists, a player by key: a year's season has 3,000
    # entries, and thousands of pairs of one night that are never listed.
    players: defaultdict[str, list[Played]] = defaultdict(list)
    pairs: defaultdict[tuple[str, str], list[Played]] = defaultdict(list)
    for night_id, entries in given:
        for figure, numerator, denominator, pair in entries:
            played = (night_id, figure, numerator * (scale // denominator))
            players[pair[0]].append(played)
            players[pair[1]].append(played)
            pairs[pair].append(played)
    in_play = tuple(night.id for night in nights if not night.finished)
    rated = (ratings or {}) if rule.measure is Measure.RATING else None
    everyone = [((key,), theirs) for key, theirs in players.items()]
    together = [(who, theirs) for who, theirs in pairs.items() if len(theirs) > 1]
    return Season(
        _placed(everyone, scale, rule, rated), _placed(together, scale, rule, rated), in_play
    )


Played = tuple[str, Fraction, int]
"""A night one played: the night's id, its figure, and the figure scaled to a whole number."""


def _placed(
    figures: Sequence[tuple[tuple[str, ...], list[Played]]],
    scale: int,
    rule: Rule,
    ratings: Mapping[tuple[str, ...], Rating] | None,
) -> list[SeasonStanding]:
    """Each one's best nights summed (or, by rating, its rating less its ±), placed (those
    under the minimum last, unplaced): each night's figure given with its value scaled by
    `scale`, so that the sums are of whole numbers."""
    rows: list[tuple[int | Fraction, tuple[str, ...], list[Played], list[Played]]] = []
    for who, theirs in figures:
        # The best N, the highest first (of those level, the earlier night); all when fewer.
        best = theirs
        if rule.best is not None and len(theirs) > rule.best:
            best = sorted(theirs, key=itemgetter(2), reverse=True)[: rule.best]
        total: int | Fraction = sum(map(itemgetter(2), best))
        if ratings is not None:
            total = Fraction(ratings.get(who, Rating()).ordinal)
        rows.append((total, who, best, theirs))
    rows.sort(key=lambda row: (-row[0], row[1]))
    placed: list[SeasonStanding] = []
    unranked: list[SeasonStanding] = []
    level: tuple[int | Fraction, int] | None = None  # the last total placed, and its place
    for total, who, best, theirs in rows:
        place = None
        if len(theirs) >= rule.minimum:
            if level is None or level[0] != total:
                level = (total, len(placed) + 1)
            place = level[1]
        standing = SeasonStanding(
            who,
            place,
            Fraction(total, scale) if ratings is None else Fraction(total),
            {night: figure for night, figure, _scaled in theirs},
            tuple(night for night, _figure, _scaled in best),
        )
        (unranked if place is None else placed).append(standing)
    return [*placed, *unranked]
