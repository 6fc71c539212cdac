"""A club night's movements: who sits where, round by round.

Pairs are numbered from 1. A movement says, round by round, which pair sits north-south and
which east-west at each numbered table; a pair not seated in a round sits out.

- **Mitchell** (many tables): the north-south pairs 1…T stay at tables 1…T; the east-west pairs
  T+1…2T move up one table each round (from the last table to the first). No two north-south
  pairs ever meet, and an east-west pair meets each north-south pair at most once as long as
  there are no more rounds than tables.
- **Round robin** (a few tables): every pair meets every other once in n-1 rounds (the circle
  method: pair 1 stays, the others turn one place each round).

An odd number of pairs gets a ghost pair (one more number than there are pairs): whoever meets
the ghost sits out that round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum


class Movement(Enum):
    MITCHELL = "mitchell"
    ROUND_ROBIN = "round-robin"


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
    """One round's tables, in table order, and the pairs sitting out; as played (`record`),
    also the pairs of the night that had left."""

    number: int
    seats: tuple[Seat, ...]
    sitting_out: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()

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
