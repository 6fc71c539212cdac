"""A club night's movements and rankings (scorekeeper/nights.py), table by table."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.nights import (
    Counting,
    Direction,
    Game,
    Movement,
    MovementError,
    Presence,
    Ranking,
    Round,
    Seat,
    as_played,
    countings,
    default_counting,
    meetings,
    mitchell,
    most_rounds,
    movement,
    presence,
    recorded_before,
    round_robin,
    seating_problems,
    standings,
    tables_for,
    with_arrival,
)

SIZES = [(pairs, kind) for pairs in range(2, 41) for kind in Movement]


@pytest.mark.parametrize(("pairs", "kind"), SIZES)
def test_every_pair_plays_or_sits_out_once_a_round(pairs, kind):
    for played in movement(kind, pairs, most_rounds(kind, pairs)):
        placed = played.pairs() + list(played.sitting_out)
        assert sorted(placed) == list(range(1, pairs + 1))
        assert len(played.sitting_out) == pairs % 2
        assert seating_problems([played], range(1, pairs + 1)) == []


@pytest.mark.parametrize(("pairs", "kind"), SIZES)
def test_no_two_pairs_meet_twice(pairs, kind):
    met = meetings(movement(kind, pairs, most_rounds(kind, pairs)))
    assert all(len(rounds) == 1 for rounds in met.values())


@pytest.mark.parametrize("pairs", range(2, 41))
def test_a_round_robin_has_every_pair_meet_every_other(pairs):
    met = meetings(round_robin(pairs, most_rounds(Movement.ROUND_ROBIN, pairs)))
    assert set(met) == {frozenset(two) for two in combinations(range(1, pairs + 1), 2)}


@pytest.mark.parametrize("pairs", range(2, 41, 2))
def test_a_mitchell_keeps_north_south_at_their_table_and_moves_east_west_up_one(pairs):
    tables = tables_for(pairs)
    rounds = mitchell(pairs, tables)
    for before, after in pairwise(rounds):
        for seat in after.seats:
            assert seat.ns == seat.table
            was = next(s for s in before.seats if s.ew == seat.ew)
            assert seat.table == was.table % tables + 1


ARRIVALS = [
    (pairs, kind, played)
    for pairs in range(2, 21, 2)
    for kind in Movement
    for played in range(most_rounds(kind, pairs))
]
"""An even night of every size and movement, a pair arriving after each of its rounds."""


@pytest.mark.parametrize(("pairs", "kind", "played"), ARRIVALS)
def test_a_pair_arriving_in_an_even_night_plays_every_round_left_and_one_other_pair_sits_out(
    pairs, kind, played
):
    rounds = movement(kind, pairs, most_rounds(kind, pairs))
    new, ghost = pairs + 1, pairs + 2
    left = with_arrival(rounds[played:], pairs)
    assert [r.number for r in left] == [r.number for r in rounds[played:]]
    for seated in left:
        assert sorted(seated.pairs()) == list(range(1, ghost + 1))
        assert {s.table for s in seated.seats} == set(range(1, tables_for(pairs) + 2))
        ghost_table = next(s for s in seated.seats if ghost in (s.ns, s.ew))
        assert ghost_table.table == tables_for(pairs) + 1 and new not in (
            ghost_table.ns,
            ghost_table.ew,
        )
    met = meetings([*rounds[:played], *left])
    real = {two: at for two, at in met.items() if ghost not in two}
    assert all(len(at) == 1 for at in real.values())
    sat_out = [
        p
        for r in left
        for s in r.seats
        if ghost in (s.ns, s.ew)
        for p in (s.ns, s.ew)
        if p != ghost
    ]
    assert len(set(sat_out)) == len(sat_out)


def test_a_pair_that_left_gives_its_place_to_a_pair_that_arrives():
    rounds = mitchell(8, 3)[1:]
    seated = with_arrival(rounds, 8, absent={6})
    # Pair 6 left: the new pair meets the pair 6 would have met, and pair 6 meets the ghost.
    for before, after in zip(rounds, seated, strict=True):
        opponent = next(s.ns for s in before.seats if s.ew == 6)
        assert any(s.ns == opponent and s.ew == 9 for s in after.seats)
        assert any({s.ns, s.ew} == {6, 10} for s in after.seats)


def test_a_pair_cannot_arrive_where_a_ghost_sits_with_with_arrival():
    with pytest.raises(MovementError, match="takes the ghost's place"):
        with_arrival(mitchell(6, 2), 5)


@pytest.mark.parametrize(("pairs", "tables"), [(2, 1), (3, 2), (8, 4), (9, 5), (60, 30)])
def test_tables_a_night_needs(pairs, tables):
    assert tables_for(pairs) == tables


@pytest.mark.parametrize(
    ("kind", "pairs", "rounds", "message"),
    [
        (Movement.MITCHELL, 8, 5, "mitchell movement of 8 pairs has at most 4 rounds"),
        (Movement.ROUND_ROBIN, 4, 4, "round-robin movement of 4 pairs has at most 3 rounds"),
        (Movement.MITCHELL, 1, 1, "at least 2 pairs, not 1"),
        (Movement.ROUND_ROBIN, 4, 0, "at least 1 round, not 0"),
    ],
)
def test_a_movement_that_cannot_be_made_says_why(kind, pairs, rounds, message):
    with pytest.raises(MovementError, match=message):
        movement(kind, pairs, rounds)


NS, EW = Direction.NORTH_SOUTH, Direction.EAST_WEST


@pytest.mark.parametrize(
    ("seats", "code", "table", "pair", "place"),
    [
        ((Seat(1, 1, 2), Seat(2, 1, 3)), "twice", 2, 1, NS),
        ((Seat(1, 1, 2), Seat(2, 3, 2)), "twice", 2, 2, EW),
        ((Seat(1, 1, 1),), "itself", 1, 1, EW),
        ((Seat(1, 1, 9),), "unknown", 1, 9, EW),
        ((Seat(1, 0, 2),), "unknown", 1, 0, NS),
        ((), "no-tables", None, None, None),
    ],
)
def test_a_changed_seating_is_checked_at_the_place_that_is_wrong(seats, code, table, pair, place):
    problems = seating_problems([Round(1, seats)], [1, 2, 3, 4])
    assert [(p.code, p.table, p.pair, p.place) for p in problems] == [(code, table, pair, place)]


EIGHT = [
    Game(1, 1, 1, 5, 3000, 1000),
    Game(1, 2, 2, 6, 2000, 2000),
    Game(1, 3, 3, 7, 500, 4500),
    Game(1, 4, 4, 8, 1500, 1400),
    Game(2, 1, 1, 8, 1000, 2500),
    Game(2, 2, 2, 5, 2600, 2400),
]


@pytest.mark.parametrize(
    ("ranking", "order"),
    [
        (Ranking.POINTS, [2, 7, 1, 8, 5, 6, 4, 3]),
        (Ranking.WINS, [2, 7, 8, 1, 4, 6, 5, 3]),
    ],
)
def test_standings_add_up_the_rounds(ranking, order):
    placed = standings(range(1, 9), EIGHT, ranking)
    assert [s.pair for s in placed] == order
    assert [s.place for s in placed] == list(range(1, 9))
    # pair: (points, wins, difference), the same whatever the ranking
    sums = {s.pair: (s.points, s.wins, s.difference) for s in placed}
    assert sums == {
        1: (4000, 1.0, 500),
        2: (4600, 1.5, 200),
        3: (500, 0.0, -4000),
        4: (1500, 1.0, 100),
        5: (3400, 0.0, -2200),
        6: (2000, 0.5, 0),
        7: (4500, 1.0, 4000),
        8: (3900, 1.0, 1400),
    }


def test_level_pairs_share_a_place():
    placed = standings([1, 2, 3], [Game(1, 1, 1, 2, 100, 100)], Ranking.POINTS)
    assert [(s.place, s.pair) for s in placed] == [(1, 1), (1, 2), (3, 3)]


def test_a_pair_sitting_out_scores_nothing_that_round():
    placed = standings([1, 2, 3], [Game(1, 1, 1, 2, 900, 100)], Ranking.WINS)
    three = next(s for s in placed if s.pair == 3)
    assert (three.points, three.half_wins, dict(three.by_round)) == (0, 0, {})


def test_the_default_ranking_is_wins_then_difference():
    placed = standings([1, 2, 3, 4], [Game(1, 1, 1, 2, 5000, 4000), Game(1, 2, 3, 4, 800, 100)])
    assert [s.pair for s in placed] == [1, 3, 4, 2]


# --- a round as played ---------------------------------------------------------------------------

FOUR_TABLES = Round(2, (Seat(1, 1, 5), Seat(2, 2, 6), Seat(3, 3, 7), Seat(4, 4, 8)))


@pytest.mark.parametrize(
    ("pairs", "present", "tables", "sat_out", "gone"),
    [
        # everyone here: the movement as it is
        (range(1, 9), range(1, 9), [1, 2, 3, 4], (), ()),
        # pair 5 left: pair 1, its opponent, sits out
        (range(1, 9), [1, 2, 3, 4, 6, 7, 8], [2, 3, 4], (1,), (5,)),
        # seven pairs: the ghost (8) leaves pair 4 sitting out
        (range(1, 8), range(1, 8), [1, 2, 3], (4,), ()),
        # both pairs of a table left: nobody sits out for it
        (range(1, 9), [1, 2, 3, 5, 6, 7], [1, 2, 3], (), (4, 8)),
        # six pairs of the night: 7 and 8 are no pairs yet (not arrived), their tables' pairs
        # here sit out
        (range(1, 7), range(1, 7), [1, 2], (3, 4), ()),
    ],
)
def test_a_round_as_played_keeps_the_tables_whose_two_pairs_are_here(
    pairs, present, tables, sat_out, gone
):
    played = as_played(FOUR_TABLES, pairs, present)
    assert [s.table for s in played.seats] == tables
    assert (played.sitting_out, played.absent) == (sat_out, gone)


@pytest.mark.parametrize(
    ("pair", "where"),
    [
        (2, Presence.PLAYED),
        (6, Presence.PLAYED),
        (1, Presence.SAT_OUT),
        (5, Presence.LEFT),
        (9, Presence.NOT_ARRIVED),
    ],
)
def test_where_a_pair_was_in_a_round_as_played(pair, where):
    played = as_played(FOUR_TABLES, range(1, 9), [1, 2, 3, 4, 6, 7, 8])
    assert presence(played, pair) is where


@pytest.mark.parametrize(
    ("tables", "pairs", "sat_out"),
    [
        ([1, 2, 3, 4], 8, ()),
        ([2, 3, 4], 8, (1, 5)),  # a table without a game: its pairs sat out, as near as told
        ([1, 2, 3], 7, (4,)),  # the ghost (8) is no pair of the night
    ],
)
def test_a_round_started_before_rounds_kept_a_record_gets_what_its_games_tell(
    tables, pairs, sat_out
):
    played = recorded_before(FOUR_TABLES, tables, pairs)
    assert [s.table for s in played.seats] == tables
    assert (played.sitting_out, played.absent) == (sat_out, ())


@settings(deadline=None)  # no clock in a test (a loaded machine is slow)
@given(
    st.integers(2, 24).flatmap(
        lambda pairs: st.tuples(
            st.just(pairs),
            st.sets(st.integers(1, pairs)),
            st.integers(1, pairs),
            st.sampled_from(Movement),
        )
    )
)
def test_a_round_as_played_puts_each_pair_of_the_night_in_one_place(drawn):
    """Whoever left and however many pairs have come (the rest of the movement's numbers not
    arrived yet), each pair of the night is at one table, sitting out, or gone; and only the
    movement's tables are played."""
    slots, left, arrived, kind = drawn
    planned = movement(kind, slots + slots % 2, 1)[0]
    pairs = range(1, arrived + 1)
    played = as_played(planned, pairs, [p for p in pairs if p not in left])
    seated = played.pairs()
    places = sorted([*seated, *played.sitting_out, *played.absent])
    assert places == list(pairs)
    assert set(played.seats) <= set(planned.seats)
    assert set(played.absent) == set(pairs) & left
    assert all(presence(played, p) is Presence.NOT_ARRIVED for p in range(arrived + 1, slots + 1))


# --- what counts: no phantom results, and pairs with fewer games ---------------------------------

NO_HAND = Game(1, 1, 1, 2, 0, 0, hands=0)


@pytest.mark.parametrize(
    ("game", "wins_1", "wins_2", "counted"),
    [
        (NO_HAND, 0.0, 0.0, False),  # no hand: not played, no draw
        (Game(1, 1, 1, 2, 0, 0, hands=3), 0.5, 0.5, True),  # equal totals: a draw
        (Game(1, 1, 1, 2, 900, 900, hands=1), 0.5, 0.5, True),
        (Game(1, 1, 1, 2, 900, 100, hands=1), 1.0, 0.0, True),
        (Game(1, 1, 1, 2, 900, 100, 1, Counting.AS_IT_STANDS), 1.0, 0.0, True),
        (Game(1, 1, 1, 2, 900, 100, 1, Counting.NOT_PLAYED), 0.0, 0.0, False),
        (Game(1, 1, 1, 2, 0, 0, 0, Counting.NOT_PLAYED), 0.0, 0.0, False),
    ],
)
def test_a_game_counts_once_a_hand_was_played_unless_counted_as_not_played(
    game, wins_1, wins_2, counted
):
    placed = {s.pair: s for s in standings([1, 2], [game])}
    assert (placed[1].wins, placed[2].wins) == (wins_1, wins_2)
    assert (placed[1].games, placed[2].games) == ((1, 1) if counted else (0, 0))
    assert placed[1].points == (game.ns_points if counted else 0)


def test_before_any_hand_every_pair_is_level_on_nothing():
    games = [Game(1, t, t, t + 4, 0, 0, hands=0) for t in range(1, 5)]
    placed = standings(range(1, 10), games, rounds=[Round(1, (), sitting_out=(9,))], in_play=1)
    assert {(s.place, s.wins, s.score) for s in placed} == {(1, 0.0, 0)}


@pytest.mark.parametrize(
    ("hands", "default", "choices"),
    [
        (0, Counting.NOT_PLAYED, (Counting.NOT_PLAYED,)),
        (1, Counting.AS_IT_STANDS, (Counting.AS_IT_STANDS, Counting.NOT_PLAYED)),
        (7, Counting.AS_IT_STANDS, (Counting.AS_IT_STANDS, Counting.NOT_PLAYED)),
    ],
)
def test_an_unfinished_game_counts_as_it_stands_once_a_hand_was_played(hands, default, choices):
    assert (default_counting(hands), countings(hands)) == (default, choices)


TWO_ROUNDS = [
    Round(1, (Seat(1, 1, 2), Seat(2, 3, 4)), sitting_out=(5,)),
    Round(2, (Seat(1, 1, 5), Seat(2, 2, 3)), sitting_out=(4,)),
]


@pytest.mark.parametrize(
    ("games", "in_play", "score", "credited"),
    [
        # Round 1: 1 beats 2, 3 beats 4 (5 sits out); round 2: 5 beats 1, 2 and 3 draw (4 out).
        (
            [
                Game(1, 1, 1, 2, 900, 100),
                Game(1, 2, 3, 4, 800, 200),
                Game(2, 1, 1, 5, 100, 500),
                Game(2, 2, 2, 3, 300, 300),
            ],
            None,
            {1: 1, 2: Fraction(1, 2), 3: Fraction(3, 2), 4: 0, 5: 2},
            {4: (2,), 5: (1,)},
        ),
        # The same while round 2 is played: nothing credited for it yet.
        (
            [
                Game(1, 1, 1, 2, 900, 100),
                Game(1, 2, 3, 4, 800, 200),
                Game(2, 1, 1, 5, 100, 500),
                Game(2, 2, 2, 3, 300, 300),
            ],
            2,
            {1: 1, 2: Fraction(1, 2), 3: Fraction(3, 2), 4: 0, 5: 2},
            {5: (1,)},
        ),
        # Round 2's table 2 not played: pairs 2 and 3 are credited their average for it.
        (
            [
                Game(1, 1, 1, 2, 900, 100),
                Game(1, 2, 3, 4, 800, 200),
                Game(2, 1, 1, 5, 100, 500),
                Game(2, 2, 2, 3, 300, 300, hands=0),
            ],
            None,
            {1: 1, 2: 0, 3: 2, 4: 0, 5: 2},
            {2: (2,), 3: (2,), 4: (2,), 5: (1,)},
        ),
    ],
)
def test_a_pair_there_without_a_game_that_counts_is_credited_its_average(
    games, in_play, score, credited
):
    placed = standings(range(1, 6), games, rounds=TWO_ROUNDS, in_play=in_play)
    assert {s.pair: s.score for s in placed} == score
    assert {s.pair: s.credited for s in placed if s.credited} == credited


def test_a_round_before_a_pair_came_or_after_it_left_counts_nothing():
    rounds = [Round(1, (Seat(1, 1, 2),), absent=(3,)), Round(2, (Seat(1, 1, 3),), absent=(2,))]
    games = [Game(1, 1, 1, 2, 500, 100), Game(2, 1, 1, 3, 100, 500)]
    placed = {s.pair: s for s in standings([1, 2, 3], games, rounds=rounds)}
    assert [(placed[p].score, placed[p].credited) for p in (1, 2, 3)] == [(1, ()), (0, ()), (1, ())]


def test_by_points_a_pair_that_sat_out_is_credited_its_average_points():
    rounds = [Round(1, (Seat(1, 1, 2),), sitting_out=(3,)), Round(2, (Seat(1, 1, 3),), (2,))]
    games = [Game(1, 1, 1, 2, 500, 100), Game(2, 1, 1, 3, 100, 700)]
    placed = standings([1, 2, 3], games, Ranking.POINTS, rounds)
    assert [(s.pair, s.points, s.score) for s in placed] == [
        (3, 700, 1400),
        (1, 600, 600),
        (2, 100, 200),
    ]


@settings(deadline=None)  # no clock in a test: a loaded machine took 323 ms over one example
@given(
    st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 2000)), min_size=1, max_size=6),
    st.integers(0, 5),
)
def test_sitting_out_neither_helps_nor_hurts(results, sat_out):
    """A pair's score is its average a game over the rounds it was there for: the same
    results a game, with rounds sat out in place of games, give the same score a round."""
    games = [Game(r + 1, 1, 1, 2, mine, theirs) for r, (mine, theirs) in enumerate(results)]
    played = [Round(r + 1, (Seat(1, 1, 2),)) for r in range(len(results))]
    rounds = [*played, *(Round(len(results) + k + 1, (), (1, 2)) for k in range(sat_out))]
    for ranking in Ranking:
        placed = {s.pair: s for s in standings([1, 2], games, ranking, rounds)}
        alone = {s.pair: s for s in standings([1, 2], games, ranking, played)}
        there = len(rounds)
        for pair in (1, 2):
            assert placed[pair].score / there == alone[pair].score / len(played)
