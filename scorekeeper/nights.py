"""A club night's movements and rankings: pure Python, typed, no Flask or database.

Pairs are numbered from 1. A movement says, round by round, which pair sits north-south and
which east-west at each numbered table; a pair not seated in a round sits out.

- **Mitchell** (many tables): the north-south pairs 1…T stay at tables 1…T; the east-west pairs
  T+1…2T move up one table each round (from the last table to the first). No two north-south
  pairs ever meet, and an east-west pair meets each north-south pair at most once as long as
  there are no more rounds than tables.
- **Round robin** (a few tables): every pair meets every other once in n-1 rounds (the circle
  method: pair 1 stays, the others turn one place each round).

An odd number of pairs gets a ghost pair (one more number than there are pairs): whoever meets
the ghost sits out that round. The rankings add up the games of the rounds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum


class Movement(Enum):
    MITCHELL = "mitchell"
    ROUND_ROBIN = "round-robin"


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


class MovementError(ValueError):
    """A movement that cannot be made: too few pairs, or more rounds than it has."""


@dataclass(frozen=True)
class Seat:
    """One table in one round: its number, the north-south pair and the east-west pair."""

    table: int
    ns: int
    ew: int


@dataclass(frozen=True)
class Round:
    """One round's tables, in table order, and the pairs sitting out."""

    number: int
    seats: tuple[Seat, ...]
    sitting_out: tuple[int, ...] = ()

    def pairs(self) -> list[int]:
        """The pairs seated, in table order (north-south first)."""
        return [pair for seat in self.seats for pair in (seat.ns, seat.ew)]


def tables_for(pairs: int) -> int:
    """Tables a night of `pairs` pairs needs (a ghost makes an odd number even).

    >>> tables_for(8), tables_for(7), tables_for(2)
    (4, 4, 1)
    """
    return (pairs + 1) // 2


def most_rounds(movement: Movement, pairs: int) -> int:
    """The most rounds `movement` has for `pairs` pairs before two pairs meet again.

    >>> most_rounds(Movement.MITCHELL, 8), most_rounds(Movement.ROUND_ROBIN, 8)
    (4, 7)
    >>> most_rounds(Movement.ROUND_ROBIN, 5)
    5
    """
    slots = pairs + pairs % 2
    return slots // 2 if movement is Movement.MITCHELL else slots - 1


def _seated(number: int, games: Iterable[tuple[int, int, int]], ghost: int | None) -> Round:
    """A round from its games (table, north-south, east-west): the ghost's table stays empty
    and its opponent sits out."""
    seats: list[Seat] = []
    out: list[int] = []
    for table, ns, ew in games:
        if ghost in (ns, ew):
            out.append(ew if ns == ghost else ns)
        else:
            seats.append(Seat(table, ns, ew))
    return Round(number, tuple(seats), tuple(out))


def mitchell(pairs: int, rounds: int) -> tuple[Round, ...]:
    """North-south pairs stay, east-west pairs move up one table each round.

    >>> first, second = mitchell(4, 2)
    >>> [(s.table, s.ns, s.ew) for s in first.seats]
    [(1, 1, 3), (2, 2, 4)]
    >>> [(s.table, s.ns, s.ew) for s in second.seats]
    [(1, 1, 4), (2, 2, 3)]
    >>> mitchell(5, 1)[0].sitting_out
    (3,)
    """
    _check(Movement.MITCHELL, pairs, rounds)
    tables = tables_for(pairs)
    ghost = pairs + 1 if pairs % 2 else None
    made = []
    for r in range(rounds):
        # East-west pair T+1+k sits at table (k + r) mod T: one table up each round.
        at = {(k + r) % tables: tables + 1 + k for k in range(tables)}
        made.append(_seated(r + 1, ((t + 1, t + 1, at[t]) for t in range(tables)), ghost))
    return tuple(made)


def round_robin(pairs: int, rounds: int) -> tuple[Round, ...]:
    """Every pair meets every other once (the circle method).

    >>> [[(s.ns, s.ew) for s in r.seats] for r in round_robin(4, 3)]
    [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    """
    _check(Movement.ROUND_ROBIN, pairs, rounds)
    slots = pairs + pairs % 2
    ghost = slots if pairs % 2 else None
    circle = list(range(2, slots + 1))
    made = []
    for r in range(rounds):
        order = [1, *circle]
        games = [(order[i], order[slots - 1 - i]) for i in range(slots // 2)]
        # The ghost's game goes last, so that the same tables play every round.
        games.sort(key=lambda game: ghost in game)
        made.append(_seated(r + 1, ((t + 1, ns, ew) for t, (ns, ew) in enumerate(games)), ghost))
        circle = [circle[-1], *circle[:-1]]
    return tuple(made)


def _check(movement: Movement, pairs: int, rounds: int) -> None:
    if pairs < 2:
        raise MovementError(f"a night needs at least 2 pairs, not {pairs}")
    if rounds < 1:
        raise MovementError(f"a night has at least 1 round, not {rounds}")
    most = most_rounds(movement, pairs)
    if rounds > most:
        raise MovementError(
            f"a {movement.value} movement of {pairs} pairs has at most {most} rounds"
            " before two pairs meet again"
        )


def movement(kind: Movement, pairs: int, rounds: int) -> tuple[Round, ...]:
    """The rounds of a movement; MovementError when it cannot be made."""
    make = mitchell if kind is Movement.MITCHELL else round_robin
    return make(pairs, rounds)


# --- checking a seating (the director may change it) ---------------------------------------------


class Direction(Enum):
    """Where a pair sits at its table."""

    NORTH_SOUTH = "ns"
    EAST_WEST = "ew"


@dataclass(frozen=True)
class SeatingProblem:
    """What is wrong with one round's seating: the round, the table (None: the round's), why,
    and the place at the table that is wrong (None: the round's)."""

    round: int
    table: int | None
    code: str
    pair: int | None = None
    place: Direction | None = None


def seating_problems(rounds: Sequence[Round], pairs: Iterable[int]) -> list[SeatingProblem]:
    """Every problem of a seating at once: a round without tables, a pair in two places or
    facing itself, a pair that is not in the night; each at the place where it was written (a
    pair seated twice: its second place).

    >>> bad = Round(1, (Seat(1, 1, 2), Seat(2, 2, 3)))
    >>> [
    ...     (p.code, p.table, p.pair, p.place and p.place.value)
    ...     for p in seating_problems([bad, Round(2, ())], [1, 2, 3])
    ... ]
    [('twice', 2, 2, 'ns'), ('no-tables', None, None, None)]
    """
    known = set(pairs)
    problems = []
    for played in rounds:
        if not played.seats:
            problems.append(SeatingProblem(played.number, None, "no-tables"))
        seen: set[int] = set(played.sitting_out)
        for seat in played.seats:
            if seat.ns == seat.ew:
                problems.append(
                    SeatingProblem(
                        played.number, seat.table, "itself", seat.ns, Direction.EAST_WEST
                    )
                )
                continue
            for pair, place in ((seat.ns, Direction.NORTH_SOUTH), (seat.ew, Direction.EAST_WEST)):
                code = "unknown" if pair not in known else "twice" if pair in seen else None
                if code is not None:
                    problems.append(SeatingProblem(played.number, seat.table, code, pair, place))
                seen.add(pair)
    return problems


def meetings(rounds: Iterable[Round]) -> dict[frozenset[int], list[int]]:
    """Which pairs meet, and in which rounds.

    >>> meetings(round_robin(4, 3))[frozenset({1, 4})]
    [1]
    """
    met: dict[frozenset[int], list[int]] = {}
    for played in rounds:
        for seat in played.seats:
            met.setdefault(frozenset((seat.ns, seat.ew)), []).append(played.number)
    return met


def sitting_out(seats: Iterable[Seat], pairs: Iterable[int]) -> tuple[int, ...]:
    """The pairs of `pairs` seated at none of `seats`, in order."""
    seated = {pair for seat in seats for pair in (seat.ns, seat.ew)}
    return tuple(sorted(set(pairs) - seated))


# --- a pair that arrives in a night of an even number of pairs ------------------------------------


ARRIVAL_SEARCH = 20_000
"""Places tried, at most, in search of a seating where the new pair meets no pair twice and no
pair sits out twice: found well within it for every movement of up to 16 rounds left (200
pairs and fewer); past it (a round robin of twenty-odd rounds), each round's best place in
turn, where a pair may sit out twice."""


def with_arrival(
    rounds: Sequence[Round], pairs: int, absent: Collection[int] = ()
) -> tuple[Round, ...]:
    """The rounds still to play of a night of an even number of `pairs`, seated again for pair
    `pairs + 1`, which arrives. The night is odd now: it gets a ghost (`pairs + 2`) and one
    table more, the ghost's, where whoever meets the ghost sits out; the rounds come back as a
    night keeps them, every number seated, the ghost's too.

    Each round the new pair takes the place of one pair at one table, and that pair meets the
    ghost; every other table stays as it was, so the only new meetings are the new pair's. The
    places are chosen so that the new pair meets no pair twice and no pair sits out twice (a
    pair that left, `absent`, giving its place up first: its opponent would sit out anyway),
    and among equals another table each round.

    >>> second, third = round_robin(4, 3)[1:]
    >>> [[(s.table, s.ns, s.ew) for s in r.seats] for r in with_arrival([second, third], 4)]
    [[(1, 1, 5), (2, 4, 2), (3, 3, 6)], [(1, 1, 2), (2, 3, 5), (3, 4, 6)]]
    """
    if pairs % 2:
        raise MovementError(f"a pair arriving among {pairs} pairs takes the ghost's place")
    new, ghost = pairs + 1, pairs + 2
    tables = tables_for(pairs)
    chosen = _arrival_places(rounds, tables, absent)
    made = []
    for played, place in zip(rounds, chosen, strict=True):
        if place is None:  # a round the director left without tables: the new pair sits out
            made.append(Round(played.number, (Seat(tables + 1, new, ghost),)))
            continue
        seat, side = place
        leaving, _staying = _at(seat, side)
        if side is Direction.NORTH_SOUTH:
            taken = Seat(seat.table, new, seat.ew)
        else:
            taken = Seat(seat.table, seat.ns, new)
        seats = [taken if s is seat else s for s in played.seats]
        made.append(Round(played.number, (*seats, Seat(tables + 1, leaving, ghost))))
    return tuple(made)


Place = tuple[Seat, Direction]


def _arrival_places(
    rounds: Sequence[Round], tables: int, absent: Collection[int]
) -> list[Place | None]:
    """Each round's place for the new pair: a search for places where it meets no pair twice
    and no pair sits out twice, or, past ARRIVAL_SEARCH, each round's best in turn."""
    options: list[list[Place]] = []
    for index, played in enumerate(rounds):

        def preference(place: Place, index: int = index) -> tuple[int, ...]:
            seat, side = place
            leaving, staying = _at(seat, side)
            rotation = (seat.table - 1 - index) % tables
            return (staying in absent, leaving not in absent, rotation, side.value == "ns")

        places = [(seat, side) for seat in played.seats for side in Direction]
        options.append(sorted(places, key=preference))
    met: set[int] = set()
    sat_out: set[int] = set()
    chosen: list[Place | None] = []
    tried = 0

    def fits(place: Place) -> bool:
        leaving, staying = _at(*place)
        return (
            staying not in absent
            and staying not in met
            and (leaving in absent or leaving not in sat_out)
        )

    def search(index: int) -> bool:
        nonlocal tried
        if index == len(options):
            return True
        if not options[index]:
            chosen.append(None)
            if search(index + 1):
                return True
            chosen.pop()
            return False
        for place in options[index]:
            tried += 1
            if tried > ARRIVAL_SEARCH:
                return False
            if not fits(place):
                continue
            leaving, staying = _at(*place)
            met.add(staying)
            sat_out.add(leaving)
            chosen.append(place)
            if search(index + 1):
                return True
            chosen.pop()
            met.discard(staying)
            sat_out.discard(leaving)
        return False

    if search(0):
        return chosen
    return _best_in_turn(options, absent)


def _best_in_turn(
    options: Sequence[Sequence[Place]], absent: Collection[int]
) -> list[Place | None]:
    """Each round's place in turn: one where the new pair meets a pair it has not met, given up
    by a pair that sat out least."""
    met: set[int] = set()
    sat_out: dict[int, int] = {}
    chosen: list[Place | None] = []
    for places in options:
        if not places:
            chosen.append(None)
            continue

        def cost(place: Place) -> tuple[int, ...]:
            leaving, staying = _at(*place)
            return (staying in absent, staying in met, sat_out.get(leaving, 0))

        place = min(places, key=cost)  # the first of the cheapest: the round's preference
        leaving, staying = _at(*place)
        met.add(staying)
        sat_out[leaving] = sat_out.get(leaving, 0) + 1
        chosen.append(place)
    return chosen


def _at(seat: Seat, side: Direction) -> tuple[int, int]:
    """The pair at `side` of a table, and its opponent."""
    return (seat.ns, seat.ew) if side is Direction.NORTH_SOUTH else (seat.ew, seat.ns)


# --- rankings ------------------------------------------------------------------------------------


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
