"""The first meld's minimum by total (super-samba: by hand), each system's `opening_minimums`
(scorekeeper/rules/systems.py), and its checks (docs/violations.md, *The codes*)."""

import pytest

from tests.rules.helpers import BOOK, check, codes, hand, minimum, stock

TOTALS = [-5, 0, 1495, 1500, 2995, 3000, 6995, 7000]
MINIMUMS = {
    "classic": [50, 50, 50, 90, 90, 120, 120, 150],
    "denexa": [15, 50, 50, 90, 90, 120, 120, 160],
    "black-samba": [15, 50, 50, 90, 90, 120, 120, 150],
    "fournier": [15, 50, 50, 90, 90, 120, 120, 120],
}
THRESHOLDS = [
    (variant, start, needed)
    for variant, needs in MINIMUMS.items()
    for start, needed in zip(TOTALS, needs, strict=True)
]


@pytest.mark.parametrize(
    ("variant", "start", "needed"),
    THRESHOLDS,
    ids=[f"{variant}-from-{start}-needs-{needed}" for variant, start, needed in THRESHOLDS],
)
def test_the_minimum_first_meld_follows_the_total_before_the_hand(variant, start, needed):
    result = check(variant, stock({}, {}), start=[start, 0])
    assert minimum(result, side=0) == needed
    assert minimum(result, side=1) == 50


def test_classic_needs_50_below_zero():
    result = check("classic", stock({}, {}), start=[-2000, 0])
    assert minimum(result) == 50


def test_denexa_needs_160_from_7000():
    result = check("denexa", stock({}, {}), start=[9995, 0])
    assert minimum(result) == 160


def test_fournier_needs_no_more_than_120():
    result = check("fournier", stock({}, {}), start=[9995, 0])
    assert minimum(result) == 120


def test_the_minimum_follows_the_total_after_the_earlier_hands():
    result = check(
        "classic",
        stock({"melded_points": 1500}, {"melded_points": 1495}),
        stock({"melded_points": 1500}, {"hand_points": 1500}),
        stock({}, {}),
    )
    assert [minimum(result, hand=n, side=0) for n in range(3)] == [50, 90, 120]
    assert [minimum(result, hand=n, side=1) for n in range(3)] == [50, 50, 50]


def test_a_negative_total_after_a_hand_lowers_the_denexa_minimum_to_15():
    result = check("denexa", stock({}, {"hand_points": 100}), stock({}, {}))
    assert minimum(result, hand=1, side=1) == 15
    assert minimum(result, hand=1, side=0) == 50


def test_super_samba_minimum_first_meld_follows_the_hand_number():
    result = check("super-samba", *[stock({}, {}) for _ in range(4)])
    assert [minimum(result, hand=n, side=0) for n in range(4)] == [50, 90, 120, 150]
    assert [minimum(result, hand=n, side=1) for n in range(4)] == [50, 90, 120, 150]


def test_super_samba_minimum_ignores_the_total():
    result = check("super-samba", stock({"melded_points": 8000}, {}), stock({}, {}), start=[0, 0])
    assert minimum(result, hand=1, side=0) == 90
    assert minimum(result, hand=1, side=1) == 90


def test_the_minimum_is_reported_for_every_side_of_every_hand():
    result = check(
        "classic",
        stock({"melded_points": 60}, {}, {}),
        stock({}, {"melded_points": 1500}, {}),
        stock({}, {}, {"hand_points": 10}),
        sides=3,
        players=1,
    )
    assert [[s["min_opening_meld"] for s in h["sides"]] for h in result["hands"]] == [
        [50, 50, 50],
        [50, 50, 50],
        [50, 90, 50],
    ]


OPENING_MELDS = [
    ("classic", -5, 45, True),
    ("classic", 0, 50, False),
    ("classic", 0, 45, True),
    ("classic", 7000, 145, True),
    ("denexa", -5, 15, False),
    ("denexa", -5, 10, True),
    ("denexa", 7000, 160, False),
    ("denexa", 7000, 155, True),
    ("black-samba", 3000, 120, False),
    ("black-samba", 3000, 115, True),
    ("fournier", 7000, 120, False),
    ("fournier", 7000, 115, True),
]


@pytest.mark.parametrize(("variant", "start", "opening", "too_low"), OPENING_MELDS)
def test_a_first_meld_below_the_minimum_is_reported(variant, start, opening, too_low):
    entry = {"opening_meld": opening, "melded_points": opening}
    result = check(variant, stock({}, entry), start=[0, start])
    assert (("opening-meld-too-low", 1) in codes(result)) is too_low
    assert codes(result) <= {("opening-meld-too-low", 1)}


@pytest.mark.parametrize(("opening", "too_low"), [(90, False), (85, True)])
def test_super_samba_checks_the_first_meld_against_the_hands_minimum(opening, too_low):
    entry = {"opening_meld": opening, "melded_points": opening}
    result = check("super-samba", stock({}, {}), stock(entry, {}))
    assert (("opening-meld-too-low", 0) in codes(result, hand=1)) is too_low
    assert codes(result) <= {("opening-meld-too-low", 0)}


def test_an_unrecorded_first_meld_is_not_checked():
    result = check("classic", stock({"melded_points": 10}, {}), start=[7000, 0])
    assert codes(result) == set()


def test_fournier_exempts_a_side_going_out_concealed_from_the_minimum():
    out = {
        "went_out": True,
        "concealed": True,
        "opening_meld": 40,
        "sets": {"natural_canasta": 1},
        "melded_points": 40,
    }
    result = check("fournier", hand(out, {}))
    assert codes(result) == set()


def test_fournier_checks_the_minimum_when_the_side_did_not_go_out_concealed():
    out = {
        "went_out": True,
        "opening_meld": 40,
        "sets": {"natural_canasta": 1},
        "melded_points": 40,
    }
    result = check("fournier", hand(out, {}))
    assert codes(result) == {("opening-meld-too-low", 0)}


def test_classic_gives_no_exemption_for_going_out_concealed():
    out = {
        "went_out": True,
        "concealed": True,
        "opening_meld": 40,
        "sets": {"natural_canasta": 2},
        "melded_points": 70,
    }
    result = check("classic", hand(out, {}))
    assert codes(result) == {("opening-meld-too-low", 0)}


def test_super_samba_gives_no_exemption_for_going_out_concealed():
    out = {
        "went_out": True,
        "concealed": True,
        "opening_meld": 85,
        "sets": BOOK,
        "melded_points": 1000,
    }
    result = check("super-samba", stock({}, {}), hand(out, {}))
    assert codes(result) == {("opening-meld-too-low", 0)}


@pytest.mark.parametrize(
    ("opening", "melded", "exceeds"), [(60, 55, True), (60, 60, False), (60, 200, False)]
)
def test_a_first_meld_worth_more_than_all_the_side_melded_is_reported(opening, melded, exceeds):
    result = check("classic", stock({"opening_meld": opening, "melded_points": melded}, {}))
    assert (("opening-meld-exceeds-melded", 0) in codes(result)) is exceeds
    assert codes(result) <= {("opening-meld-exceeds-melded", 0)}
