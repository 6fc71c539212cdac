"""`opening-meld-too-low` applies only to a side that laid cards down this hand
(docs/violations.md, *The codes*)."""

from __future__ import annotations

import pytest

from tests.rules.helpers import check, codes, stock

TOO_LOW = "opening-meld-too-low"
SYSTEMS = ["classic", "denexa", "black-samba", "super-samba", "fournier"]

# (entry, refused as too low)
ENTRIES = [
    ({"opening_meld": 0}, False),  # laid nothing down: no first meld to check
    ({"opening_meld": 0, "hand_points": 85, "red_threes": 1}, False),
    ({"opening_meld": 0, "melded_points": 60}, True),  # melded, yet a first meld of 0
    ({"opening_meld": 0, "sets": {"mixed_canasta": 1}, "melded_points": 0}, True),
    ({"opening_meld": 30}, True),  # a first meld above 0 is a meld
    ({"opening_meld": 45, "melded_points": 60}, True),
    ({"opening_meld": 50, "melded_points": 60}, False),
    ({"melded_points": 60}, False),  # not noted, not checked
]


@pytest.mark.parametrize("variant", SYSTEMS)
@pytest.mark.parametrize(("entry", "too_low"), ENTRIES)
def test_only_a_side_that_melded_is_held_to_the_minimum(
    variant: str, entry: dict[str, object], too_low: bool
) -> None:
    players = 2 if variant != "classic" else 1
    result = check(variant, stock(entry, {}), players=players)
    assert ((TOO_LOW, 0) in codes(result)) is too_low


@pytest.mark.parametrize("variant", SYSTEMS)
def test_a_side_that_laid_nothing_down_is_not_refused_for_a_first_meld_of_0(variant: str) -> None:
    result = check(variant, stock({"opening_meld": 0, "hand_points": 120}, {}))
    assert codes(result) == set()
