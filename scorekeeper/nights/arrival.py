"""A pair that arrives in a night of an even number of pairs: the rounds still to play seated
again, so that it plays every round left and one other pair sits out each round at its place."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .movements import Direction, MovementError, Round, Seat, tables_for

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

    >>> from scorekeeper.nights import round_robin
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
