"""A club's season (scorekeeper/nights/seasons.py): each rule and each reading, night by night."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.nights import (
    Game,
    Measure,
    Round,
    Rule,
    SeasonError,
    Seat,
    night_figures,
    outcomes,
    rank,
    standings,
)
from scorekeeper.nights.ratings import Rating
from scorekeeper.nights.seasons import Night

FOUR = {1: ("ana", "beto"), 2: ("carla", "dani"), 3: ("eva", "fede"), 4: ("gus", "hugo")}
SWAPPED = {**FOUR, 1: ("ana", "carla"), 2: ("beto", "dani")}
"""The four pairs, Ana and Beto having changed partners."""


def night(id: str, pairs, games, rounds=(), finished=True) -> Night:
    """A night as the season reads it, ranked by the night's own rule from its games."""
    return Night(id, pairs, outcomes(standings(pairs, games, rounds=rounds)), finished)


def one_round(id: str, winners: tuple[int, int], losers: tuple[int, int], pairs=FOUR) -> Night:
    """A night of one round: `winners[i]` beats `losers[i]`, the first table by more."""
    games = [
        Game(1, 1, winners[0], losers[0], 3000, 500),
        Game(1, 2, winners[1], losers[1], 2000, 1500),
    ]
    return night(id, pairs, games)


def figures(season_rows):
    return {row.who: (row.place, str(row.figure), row.nights) for row in season_rows}


def test_points_by_place_give_n_to_the_first_of_n_pairs_down_to_1():
    played = one_round("n1", (1, 3), (2, 4))
    assert night_figures(played.outcomes, Measure.PLACES) == {1: 4, 3: 3, 4: 2, 2: 1}


def test_pairs_level_in_a_night_share_their_places_points():
    games = [Game(1, 1, 1, 2, 2000, 1000), Game(1, 2, 3, 4, 2000, 1000)]
    played = night("n1", FOUR, games)
    assert night_figures(played.outcomes, Measure.PLACES) == {
        1: Fraction(7, 2),
        3: Fraction(7, 2),
        2: Fraction(3, 2),
        4: Fraction(3, 2),
    }


def test_a_player_is_ranked_across_nights_with_whichever_partner():
    first = one_round("n1", (1, 3), (2, 4))
    second = one_round("n2", (1, 2), (3, 4), SWAPPED)
    season = rank([first, second], Rule(Measure.PLACES))
    assert figures(season.players)[("ana",)] == (1, "8", 2)
    assert figures(season.players)[("beto",)][1:] == ("7", 2)  # 4 + 3
    assert figures(season.players)[("carla",)][1:] == ("5", 2)  # 1 + 4


def test_a_pair_counts_only_the_nights_it_played_together():
    first = one_round("n1", (1, 3), (2, 4))
    second = one_round("n2", (1, 2), (3, 4), SWAPPED)
    third = one_round("n3", (2, 1), (4, 3), SWAPPED)
    pairs = figures(rank([first, second, third], Rule()).pairs)
    assert pairs[("ana", "carla")][1:] == ("7", 2)  # 4 + 3: the nights they played together
    assert pairs[("eva", "fede")][1:] == ("6", 3)  # 3 + 1 + 2
    assert ("ana", "beto") not in pairs  # one night together: in the players' standings only
    assert ("carla", "ana") not in pairs  # one pair, in either seat


def test_wins_count_a_draw_half_and_credit_a_round_sat_out_its_average():
    pairs = {**FOUR, 5: ("ivan", "juan")}
    rounds = [
        Round(1, (Seat(1, 1, 2), Seat(2, 3, 4)), sitting_out=(5,)),
        Round(2, (Seat(1, 1, 5), Seat(2, 2, 3)), sitting_out=(4,)),
    ]
    games = [
        Game(1, 1, 1, 2, 2000, 1000),
        Game(1, 2, 3, 4, 1500, 1500),
        Game(2, 1, 1, 5, 900, 1000),
        Game(2, 2, 2, 3, 2500, 100),
    ]
    played = night("n1", pairs, games, rounds)
    wins = night_figures(played.outcomes, Measure.WINS)
    assert wins == {1: 1, 2: 1, 3: Fraction(1, 2), 4: 1, 5: 2}  # 4: ½ + ½; 5: 1 + 1


def test_a_pair_that_left_early_is_placed_as_its_night_left_it_and_played_that_night():
    rounds = [
        Round(1, (Seat(1, 1, 2), Seat(2, 3, 4))),
        Round(2, (Seat(1, 1, 3),), sitting_out=(2,), absent=(4,)),
    ]
    games = [
        Game(1, 1, 1, 2, 2000, 1000),
        Game(1, 2, 4, 3, 2500, 1000),  # pair 4 won round 1, then left
        Game(2, 1, 1, 3, 2000, 1000),
    ]
    played = night("n1", FOUR, games, rounds)
    figures_by_place = night_figures(played.outcomes, Measure.PLACES)
    wins = night_figures(played.outcomes, Measure.WINS)
    assert wins[4] == 1  # its one win, no average for the round after it left
    assert wins[2] == 0  # sat out round 2: its average (0) for it
    assert set(figures_by_place) == {1, 2, 3, 4}
    season = rank([played], Rule(Measure.WINS))
    assert figures(season.players)[("gus",)] == (3, "1", 1)  # after ana and beto


def test_a_pair_without_a_game_that_counted_did_not_play_the_night():
    games = [Game(1, 1, 1, 2, 2000, 1000), Game(1, 2, 3, 4, 0, 0, hands=0)]  # not played
    played = night("n1", FOUR, games)
    assert night_figures(played.outcomes, Measure.PLACES) == {1: 2, 2: 1}
    season = rank([played], Rule())
    assert ("eva",) not in figures(season.players)


def test_a_night_not_finished_counts_as_it_stands_and_is_said_in_play():
    first = one_round("n1", (1, 3), (2, 4))
    live = night("n2", FOUR, [Game(1, 1, 2, 1, 1000, 100, hands=1)], finished=False)
    season = rank([first, live], Rule())
    assert season.in_play == ("n2",)
    assert figures(season.players)[("carla",)] == (3, "3", 2)  # 1 + 2 (first of 2 so far)
    assert figures(season.players)[("ana",)] == (1, "5", 2)  # 4 + 1


@pytest.mark.parametrize(
    ("orders", "figure", "counted"),
    [
        ([((1, 3), (2, 4)), ((2, 3), (1, 4)), ((3, 1), (2, 4))], 7, {"n1", "n3"}),  # 4, 1, 3
        # Ana 4, 3, 4, 4: of nights level at the edge of the best N, the earlier count.
        ([((1, 3), (2, 4)), ((3, 1), (2, 4)), ((1, 3), (2, 4)), ((1, 3), (2, 4))], 8, {"n1", "n3"}),
    ],
    ids=["best", "level"],
)
def test_best_n_of_m_adds_up_each_ones_best_nights(orders, figure, counted):
    nights = [one_round(f"n{number}", *order) for number, order in enumerate(orders, 1)]
    season = rank(nights, Rule(Measure.PLACES, best=2))
    ana = next(row for row in season.players if row.who == ("ana",))
    assert (ana.figure, ana.nights, set(ana.counted)) == (figure, len(orders), counted)


def test_fewer_nights_than_the_minimum_are_listed_unplaced_after_the_ranked():
    pairs = {**FOUR, 4: ("gus", "zoe")}
    nights = [one_round("n1", (4, 3), (2, 1), pairs), one_round("n2", (1, 3), (2, 4))]
    season = rank(nights, Rule(Measure.PLACES, minimum=2))
    unplaced = [(row.who, str(row.figure)) for row in season.players if row.place is None]
    assert unplaced == [(("zoe",), "4"), (("hugo",), "2")]
    assert season.players[-2:] == [row for row in season.players if row.place is None]


def test_equal_figures_share_a_place_in_the_season():
    season = rank([one_round("n1", (1, 3), (2, 4))], Rule(Measure.WINS))
    assert [row.place for row in season.players] == [1, 1, 1, 1, 5, 5, 5, 5]


@pytest.mark.parametrize(
    ("rule", "nights", "message"),
    [
        (Rule(best=3), 2, "The best 3 nights cannot count in a season of 2 nights."),
        (Rule(best=0), 2, "The best nights that count must be at least 1."),
        (Rule(minimum=3), 2, "Nobody can play 3 nights in a season of 2 nights."),
        (Rule(minimum=0), 2, "The nights one must play to be ranked must be at least 1."),
        (Rule(Measure.RATING, best=1), 2, "A season ranked by rating counts no best nights."),
    ],
)
def test_a_rule_the_season_cannot_hold_is_refused_with_why(rule, nights, message):
    with pytest.raises(SeasonError, match=message):
        rule.check(nights)
    Rule(rule.measure, None, 1).check(nights)  # the same season with the rule's defaults


def test_a_season_that_lost_a_night_counts_those_left():
    season = rank([one_round("n1", (1, 3), (2, 4))], Rule(best=3, minimum=2))
    assert {row.place for row in season.players} == {None}
    assert figures(season.players)[("ana",)] == (None, "4", 1)


def test_a_player_in_two_pairs_of_one_night_is_refused_naming_both():
    pairs = {**FOUR, 4: ("ana", "hugo")}
    with pytest.raises(SeasonError, match="ana plays in pair 1 and pair 4 of night n1"):
        rank([one_round("n1", (1, 3), (2, 4), pairs)], Rule())


@given(st.lists(st.permutations([1, 2, 3, 4]), min_size=1, max_size=6), st.integers(1, 6))
def test_a_players_figure_is_the_sum_of_its_best_nights(orders, best):
    best = min(best, len(orders))
    nights = [one_round(f"n{i}", (o[0], o[1]), (o[2], o[3])) for i, o in enumerate(orders)]
    season = rank(nights, Rule(Measure.PLACES, best=best))
    for row in season.players:
        assert row.figure == sum(sorted(row.by_night.values(), reverse=True)[:best])
        assert row.nights == len(orders)
    places = [row.place for row in season.players]
    assert places == sorted(places)
    together = next((row for row in season.pairs if row.who == ("ana", "beto")), None)
    assert (together is None) is (len(orders) == 1)  # listed once it stayed together
    if together is not None and best == len(orders):
        assert together.figure == sum(night_figures(n.outcomes, Measure.PLACES)[1] for n in nights)


def test_by_rating_players_rank_by_their_rating_less_its_spread_pairs_by_their_pairs():
    # Ana's middle is highest but least sure: Beto, surer, is ahead; no rating is a new one's.
    ratings = {
        ("ana",): Rating(32, 4, 3),  # 32 - 12 = 20
        ("beto",): Rating(28, 2, 9),  # 28 - 6 = 22
        ("carla",): Rating(20, 6, 1),  # 20 - 18 = 2
        ("ana", "beto"): Rating(30, 1, 5),  # 27
        ("gus", "hugo"): Rating(35, 2, 5),  # 29
    }
    nights = [one_round("n1", (4, 3), (2, 1)), one_round("n2", (1, 3), (2, 4), SWAPPED)]
    season = rank(nights, Rule(Measure.RATING, minimum=2), ratings)
    rows = figures(season.players)
    assert rows[("beto",)] == (1, "22", 2) and rows[("ana",)] == (2, "20", 2)
    assert rows[("carla",)] == (3, "2", 2)
    assert rows[("eva",)] == (4, "0", 2)  # never rated: 25 - 3 × 25/3
    pairs = figures(season.pairs)
    assert pairs[("gus", "hugo")] == (1, "29", 2)
    assert ("ana", "beto") not in pairs  # one night together: not listed, rated or not
    # Each night's column still says what the night gave: its points by place.
    beto = next(row for row in season.players if row.who == ("beto",))
    assert beto.by_night == night_figures_of(nights, "beto")


def night_figures_of(nights, key):
    found = {}
    for played in nights:
        number = next(n for n, keys in played.pairs.items() if key in keys)
        found[played.id] = night_figures(played.outcomes, Measure.PLACES)[number]
    return found


def test_docs_seasons_md_describes_every_rule():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "seasons.md").read_text()
    assert {f"`{measure.value}`" for measure in Measure} <= set(doc.split())
