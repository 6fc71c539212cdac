"""The checks are found by their code, as systems are by their id: one function per violation
code, registered once, run in the order they are registered (docs/violations.md)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.checks import (
    CHECKS,
    ENTRY_CHECKS,
    HAND_CHECKS,
    TABLE_CHECKS,
    check_hand,
    entry_check,
)
from scorekeeper.rules.hands import EndedBy, Entry, Game, Hand, Side
from scorekeeper.rules.systems import Penalty, SetKind, get_system


def test_every_check_is_registered_once_under_its_code() -> None:
    registered = [*TABLE_CHECKS, *ENTRY_CHECKS, *HAND_CHECKS]
    assert sorted(check.code for check in registered) == sorted(CHECKS)
    assert all(CHECKS[check.code] is check for check in registered)


def test_a_second_check_for_a_code_is_refused() -> None:
    before = dict(CHECKS)
    with pytest.raises(ValueError, match="two checks report 'samba-limit'"):
        entry_check("samba-limit", "sets")(lambda seen: ())
    assert before == CHECKS
    assert [check.code for check in ENTRY_CHECKS].count("samba-limit") == 1


def test_a_hand_is_checked_side_by_side_in_the_order_the_checks_are_registered() -> None:
    game = Game(get_system("classic"), (Side("Us", 2), Side("Them", 2)))
    broken = Entry(
        went_out=True,
        opening_meld=5,
        sets={SetKind.BLACK_SAMBA: 1},
        melded_points=3,
        penalties={Penalty.DREW_OUT_OF_TURN: 1},
        red_threes=7,
    )
    hand = Hand((broken, broken), EndedBy.STOCK_EXHAUSTED)
    found = [(v.code, v.side) for v in check_hand(game, hand, [50, 50], game_over=True)]
    per_side = [
        "not-multiple-of-5",
        "set-not-in-variant",
        "penalty-not-in-variant",
        "sets-need-more-points",
        "opening-meld-too-low",
        "opening-meld-exceeds-melded",
        "went-out-without-sets",
    ]
    across = ["several-went-out", "went-out-but-stock-ended", "too-many-red-threes"]
    assert found == [
        *((code, 0) for code in per_side),
        *((code, 1) for code in per_side),
        *((code, None) for code in [*across, "hand-after-game-over"]),
    ]
    order = [check.code for check in [*ENTRY_CHECKS, *HAND_CHECKS]]
    assert [order.index(code) for code in per_side + across] == sorted(
        order.index(code) for code in per_side + across
    )
