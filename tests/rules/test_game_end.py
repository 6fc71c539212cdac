"""The end of the game: each system's `target`, and super-samba's `hands_in_game`
(scorekeeper/rules/systems.py); a tie at the target is a reading (docs/readings.md)."""

import pytest

from tests.rules.helpers import check, codes, stock

TARGET_SYSTEMS = ["classic", "denexa", "black-samba", "fournier"]


@pytest.mark.parametrize("variant", TARGET_SYSTEMS)
def test_a_side_reaching_exactly_10000_wins(variant):
    result = check(variant, stock({"melded_points": 1000}, {}), start=[9000, 0])
    assert result["totals"] == [10000, 0]
    assert result["game_over"] is True
    assert result["winner"] == 0


@pytest.mark.parametrize("variant", TARGET_SYSTEMS)
def test_a_side_at_9995_plays_on(variant):
    result = check(variant, stock({"melded_points": 995}, {}), start=[9000, 0])
    assert result["totals"] == [9995, 0]
    assert result["game_over"] is False
    assert result["winner"] is None


def test_the_second_side_can_be_the_winner():
    result = check("classic", stock({}, {"melded_points": 2500}), start=[9000, 8000])
    assert result["game_over"] is True
    assert result["winner"] == 1


def test_when_two_sides_pass_the_target_the_higher_total_wins():
    result = check(
        "classic", stock({"melded_points": 1000}, {"melded_points": 300}), start=[9500, 9800]
    )
    assert result["totals"] == [10500, 10100]
    assert result["game_over"] is True
    assert result["winner"] == 0


def test_when_the_highest_totals_tie_past_the_target_play_goes_on():
    result = check(
        "classic", stock({"melded_points": 700}, {"melded_points": 400}), start=[9500, 9800]
    )
    assert result["totals"] == [10200, 10200]
    assert result["game_over"] is False
    assert result["winner"] is None


def test_a_tie_past_the_target_is_settled_by_the_next_hand():
    result = check(
        "classic",
        stock({"melded_points": 700}, {"melded_points": 400}),
        stock({}, {"melded_points": 100}),
        start=[9500, 9800],
    )
    assert result["totals"] == [10200, 10300]
    assert result["game_over"] is True
    assert result["winner"] == 1
    assert codes(result) == set()


def test_a_tie_below_the_top_does_not_stop_the_highest_side_winning():
    result = check(
        "fournier",
        stock({"melded_points": 700}, {"melded_points": 700}, {"melded_points": 1500}),
        sides=3,
        players=1,
        start=[9500, 9500, 9000],
    )
    assert result["totals"] == [10200, 10200, 10500]
    assert result["game_over"] is True
    assert result["winner"] == 2


def test_start_scores_alone_never_end_the_game():
    result = check("classic", start=[10000, 0])
    assert result["game_over"] is False
    assert result["winner"] is None


def test_a_side_that_started_past_the_target_wins_after_the_next_hand():
    result = check("classic", stock({}, {}), start=[10000, 0])
    assert result["game_over"] is True
    assert result["winner"] == 0


def test_a_hand_after_the_game_was_won_is_reported():
    result = check(
        "denexa",
        stock({"melded_points": 1000}, {}),
        stock({}, {"melded_points": 60}),
        start=[9000, 0],
    )
    assert codes(result, hand=0) == set()
    assert codes(result, hand=1) == {("hand-after-game-over", None)}


def test_once_the_game_is_won_the_winner_stays():
    result = check(
        "classic",
        stock({"melded_points": 1000}, {}),
        stock({}, {"melded_points": 5000}),
        start=[9000, 8000],
    )
    assert result["game_over"] is True
    assert result["winner"] == 0


def test_super_samba_ends_after_four_hands_and_the_highest_total_wins():
    hands = [stock({"melded_points": 50}, {"melded_points": 100}) for _ in range(4)]
    result = check("super-samba", *hands)
    assert result["totals"] == [200, 400]
    assert result["game_over"] is True
    assert result["winner"] == 1
    assert codes(result) == set()


@pytest.mark.parametrize("hands", [1, 2, 3])
def test_super_samba_plays_four_hands_whatever_the_score(hands):
    played = [stock({"melded_points": 12000}, {}) for _ in range(hands)]
    result = check("super-samba", *played)
    assert result["game_over"] is False
    assert result["winner"] is None


def test_super_samba_tied_after_four_hands_is_a_tie():
    hands = [stock({"melded_points": 100}, {"melded_points": 100}) for _ in range(4)]
    result = check("super-samba", *hands)
    assert result["totals"] == [400, 400]
    assert result["game_over"] is True
    assert result["winner"] is None


def test_super_samba_reports_a_fifth_hand():
    hands = [stock({"melded_points": 100}, {}) for _ in range(5)]
    result = check("super-samba", *hands)
    assert codes(result, hand=3) == set()
    assert codes(result, hand=4) == {("hand-after-game-over", None)}
    assert result["winner"] == 0
