"""A round as it was played: the tables whose two pairs were there, the pairs that sat out and
those that had left, kept by each round when it starts. A pair of the night in none of them had
not arrived yet. So a pair that leaves or arrives changes the rounds to come, never the rounds
played: each keeps its own record."""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum

from .movements import Round


class Presence(Enum):
    """Where a pair was in a round as played."""

    PLAYED = "played"
    """At a table, with its game."""
    SAT_OUT = "sat-out"
    """There, without a game: it met the ghost, its opponent had left, or the seating left it
    no table."""
    LEFT = "left"
    """It had left the night."""
    NOT_ARRIVED = "not-arrived"
    """It had not arrived yet."""


def as_played(planned: Round, pairs: Collection[int], present: Collection[int]) -> Round:
    """A round as the night's `pairs` (the ghost is none) play it, those `present` being there:
    the tables whose two pairs are here, every other pair here sitting out, and the pairs that
    left.

    >>> from scorekeeper.nights import Seat
    >>> planned = Round(2, (Seat(1, 1, 4), Seat(2, 2, 3), Seat(3, 5, 6)))
    >>> played = as_played(planned, pairs=[1, 2, 3, 4, 5], present=[1, 2, 3, 5])
    >>> [(s.table, s.ns, s.ew) for s in played.seats], played.sitting_out, played.absent
    ([(2, 2, 3)], (1, 5), (4,))
    """
    here = set(present) & set(pairs)
    seats = tuple(seat for seat in planned.seats if seat.ns in here and seat.ew in here)
    seated = {pair for seat in seats for pair in (seat.ns, seat.ew)}
    return Round(
        planned.number, seats, tuple(sorted(here - seated)), tuple(sorted(set(pairs) - here))
    )


def presence(played: Round, pair: int) -> Presence:
    """Where `pair` was in a round as played (`as_played`).

    >>> from scorekeeper.nights import Seat
    >>> played = Round(1, (Seat(1, 1, 2),), sitting_out=(3,), absent=(4,))
    >>> [presence(played, pair).value for pair in (2, 3, 4, 5)]
    ['played', 'sat-out', 'left', 'not-arrived']
    """
    if pair in played.sitting_out:
        return Presence.SAT_OUT
    if pair in played.absent:
        return Presence.LEFT
    if any(pair in (seat.ns, seat.ew) for seat in played.seats):
        return Presence.PLAYED
    return Presence.NOT_ARRIVED


def recorded_before(planned: Round, played_tables: Collection[int], pairs: int) -> Round:
    """The record of a round started before rounds kept one (a database upgraded, a backup of
    version 1), as near as what was kept tells: the tables that got a game were played; a
    pair of the night at a table without one sat out (whether it had left then, nobody noted);
    a pair seated nowhere had not arrived.

    >>> from scorekeeper.nights import Seat
    >>> planned = Round(1, (Seat(1, 1, 2), Seat(2, 3, 6), Seat(3, 4, 5)))
    >>> played = recorded_before(planned, played_tables=[1, 3], pairs=5)
    >>> [s.table for s in played.seats], played.sitting_out, played.absent
    ([1, 3], (3,), ())
    """
    seats = tuple(seat for seat in planned.seats if seat.table in played_tables)
    out = {
        pair
        for seat in planned.seats
        if seat.table not in played_tables
        for pair in (seat.ns, seat.ew)
        if pair <= pairs
    }
    return Round(planned.number, seats, tuple(sorted(out)))
