"""Ratings (scorekeeper/nights/ratings.py): which way a game moves each one's rating."""

from __future__ import annotations

import pytest

from scorekeeper.nights.ratings import Rating, rate

NEW = Rating()
STRONG = Rating(mu=32.0, sigma=3.0, games=40)


def test_a_win_raises_the_winners_and_lowers_the_losers_and_narrows_every_spread():
    (ana, beto), (carla, dani) = rate([[NEW, NEW], [NEW, NEW]], [2500, 900])
    assert ana.mu == beto.mu > NEW.mu > carla.mu == dani.mu
    assert all(one.sigma < NEW.sigma and one.games == 1 for one in (ana, beto, carla, dani))


def test_a_draw_between_equals_moves_no_middle():
    (ana,), (beto,) = rate([[NEW], [NEW]], [1500, 1500])
    assert ana.mu == pytest.approx(NEW.mu) == beto.mu
    assert ana.sigma < NEW.sigma


def test_an_upset_moves_more_than_the_expected_result():
    (_, newcomer_lost), _ = rate([[STRONG, NEW], [NEW, NEW]], [3000, 100])
    (strong_won, _), _ = rate([[STRONG, NEW], [NEW, NEW]], [3000, 100])
    _, (strong_lost, _) = rate([[NEW, NEW], [STRONG, NEW]], [3000, 100])
    assert STRONG.mu - strong_lost.mu > strong_won.mu - STRONG.mu > 0
    assert newcomer_lost.mu > NEW.mu


def test_the_rating_that_ranks_is_three_spreads_under_the_middle():
    assert STRONG.ordinal == 32.0 - 9.0
    assert NEW.ordinal < STRONG.ordinal


@pytest.mark.parametrize(
    ("sides", "totals"), [([[NEW]], [10]), ([[NEW], []], [1, 2]), ([[NEW], [NEW]], [1])]
)
def test_a_game_that_cannot_be_rated_is_refused(sides, totals):
    with pytest.raises(ValueError, match="two sides or more"):
        rate(sides, totals)
