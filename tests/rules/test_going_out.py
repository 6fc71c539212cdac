"""Going out: what a side needs first (each system's `sets_to_go_out` or `book`,
scorekeeper/rules/systems.py), the bonus for it (docs/scoring.md), and who may go out
(docs/violations.md, *The codes*)."""

import pytest

from tests.rules.helpers import BOOK, check, codes, hand, score, stock

GOING_OUT = [
    ("classic", {"natural_canasta": 2}, 200, 200 + 500 + 500, 200),
    ("denexa", {"natural_canasta": 1, "samba": 1}, 200, 200 + 500 + 500, 200),
    ("black-samba", {"natural_canasta": 1, "mixed_canasta": 1}, 200, 200 + 500 + 300, 200),
    ("fournier", {"mixed_canasta": 1}, 200, 200 + 300, 200),
    ("super-samba", BOOK, 1000, 1000 + 2000 + 2000 + 5 * 500 + 300 + 2000, 2000),
]
GOING_OUT_IDS = [row[0] for row in GOING_OUT]


@pytest.mark.parametrize(
    ("variant", "sets", "melded", "before_bonus", "bonus"), GOING_OUT, ids=GOING_OUT_IDS
)
def test_going_out_earns_the_systems_bonus(variant, sets, melded, before_bonus, bonus):
    result = check(variant, hand({"went_out": True, "sets": sets, "melded_points": melded}, {}))
    assert score(result) == before_bonus + bonus
    assert codes(result) == set()


@pytest.mark.parametrize(
    ("variant", "sets", "melded", "before_bonus", "bonus"), GOING_OUT, ids=GOING_OUT_IDS
)
def test_nobody_earns_the_going_out_bonus_when_the_stock_runs_out(
    variant, sets, melded, before_bonus, bonus
):
    result = check(variant, stock({"sets": sets, "melded_points": melded}, {}))
    assert score(result) == before_bonus
    assert codes(result) == book_was_complete(variant)


@pytest.mark.parametrize(
    ("variant", "sets", "melded", "before_bonus", "bonus"), GOING_OUT, ids=GOING_OUT_IDS
)
def test_a_side_marked_out_when_the_stock_ran_out_gets_no_going_out_bonus(
    variant, sets, melded, before_bonus, bonus
):
    result = check(variant, stock({"went_out": True, "sets": sets, "melded_points": melded}, {}))
    assert score(result) == before_bonus
    assert codes(result) == {("went-out-but-stock-ended", None)} | book_was_complete(variant)


def book_was_complete(variant):
    """What a hand ended by the stock reports when side 0 holds what going out needs: only
    super-samba's text keeps such a hand going (docs/violations.md, *The codes*)."""
    return {("stock-ended-with-book-complete", 0)} if variant == "super-samba" else set()


GOING_OUT_NEEDS = [
    ("classic", {}, {"natural_canasta": 1}, False),
    ("classic", {}, {}, False),
    ("classic", {}, {"natural_canasta": 1, "samba": 1}, True),
    ("classic", {}, {"samba": 2}, True),
    ("denexa", {}, {"samba": 1}, False),
    ("denexa", {}, {"mixed_canasta": 1, "samba": 1}, True),
    ("black-samba", {}, {"black_samba": 1}, False),
    ("black-samba", {}, {"black_samba": 1, "mixed_canasta": 1}, True),
    ("black-samba", {}, {"black_samba": 2}, True),
    ("black-samba", {"one_red_set_to_go_out": True}, {"black_samba": 1, "mixed_canasta": 1}, False),
    ("black-samba", {"one_red_set_to_go_out": True}, {"mixed_canasta": 2}, False),
    ("black-samba", {"one_red_set_to_go_out": True}, {"natural_canasta": 1}, False),
    (
        "black-samba",
        {"one_red_set_to_go_out": True},
        {"natural_canasta": 1, "mixed_canasta": 1},
        True,
    ),
    ("black-samba", {"one_red_set_to_go_out": True}, {"samba": 1, "black_samba": 1}, True),
    ("black-samba", {"one_red_set_to_go_out": False}, {"black_samba": 1, "mixed_canasta": 1}, True),
    ("fournier", {}, {}, False),
    ("fournier", {}, {"mixed_canasta": 1}, True),
    ("fournier", {}, {"samba": 1}, True),
]


@pytest.mark.parametrize(("variant", "options", "sets", "allowed"), GOING_OUT_NEEDS)
def test_a_side_goes_out_only_with_the_sets_its_system_requires(variant, options, sets, allowed):
    result = check(
        variant,
        hand({}, {"went_out": True, "sets": sets, "melded_points": 300}),
        options=options,
    )
    assert (("went-out-without-sets", 1) not in codes(result)) is allowed
    assert codes(result) <= {("went-out-without-sets", 1)}


SUPER_SAMBA_BOOKS = [
    (BOOK, True),
    ({**BOOK, "samba": 0, "super_samba": 1}, True),
    ({**BOOK, "wild_canasta": 0}, False),
    ({**BOOK, "sevens_canasta": 0}, False),
    ({**BOOK, "natural_canasta": 4}, False),
    ({**BOOK, "mixed_canasta": 0}, False),
    ({**BOOK, "samba": 0}, False),
    ({**BOOK, "natural_canasta": 4, "sevens_canasta": 2}, False),
    ({"natural_canasta": 6, "samba": 2}, False),
]


@pytest.mark.parametrize(("sets", "allowed"), SUPER_SAMBA_BOOKS)
def test_super_samba_goes_out_only_with_the_book(sets, allowed):
    result = check("super-samba", hand({"went_out": True, "sets": sets, "melded_points": 2000}, {}))
    assert (("went-out-without-sets", 0) not in codes(result)) is allowed
    assert codes(result) <= {("went-out-without-sets", 0)}


def test_a_side_refused_going_out_is_still_scored_with_its_bonus():
    result = check(
        "classic", hand({"went_out": True, "sets": {"samba": 1}, "melded_points": 150}, {})
    )
    assert codes(result) == {("went-out-without-sets", 0)}
    assert score(result) == 150 + 1500 + 200


def test_fournier_lets_a_side_go_out_with_one_set():
    result = check(
        "fournier",
        hand({"went_out": True, "sets": {"natural_canasta": 1}, "melded_points": 100}, {}),
    )
    assert score(result) == 100 + 500 + 200
    assert codes(result) == set()


def test_fournier_going_out_with_one_set_still_loses_500_for_each_red_three():
    result = check(
        "fournier",
        hand(
            {
                "went_out": True,
                "sets": {"natural_canasta": 1},
                "melded_points": 100,
                "red_threes": 2,
            },
            {},
        ),
    )
    assert score(result) == 100 + 500 + 200 - 500 - 500
    assert codes(result) == set()


NOTHING_HELD = {"hand_points": 0}
A_RED_THREE_HELD = {"red_threes_in_hand": 1}


@pytest.mark.parametrize(
    ("variant", "sides", "players", "held", "holding"),
    [
        ("classic", 2, 1, {"hand_points": 10}, True),
        ("classic", 2, 1, NOTHING_HELD, False),
        ("classic", 2, 1, A_RED_THREE_HELD, True),  # a red three is a card held too
        ("fournier", 3, 1, {"hand_points": 25}, True),
        ("fournier", 3, 1, A_RED_THREE_HELD, True),
        ("classic", 2, 2, {"hand_points": 30}, False),
        ("classic", 2, 2, A_RED_THREE_HELD, False),  # the partner's
        ("black-samba", 2, 3, {"hand_points": 40}, False),
    ],
)
def test_only_an_individual_player_who_went_out_must_hold_no_cards(
    variant, sides, players, held, holding
):
    out = {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 200, **held}
    entries = [{}] * (sides - 1) + [out]
    result = check(variant, hand(*entries), sides=sides, players=players)
    assert (("went-out-holding-cards", sides - 1) in codes(result)) is holding
    assert codes(result) <= {("went-out-holding-cards", sides - 1)}


def test_the_partners_cards_are_deducted_from_the_side_that_went_out():
    out = {
        "went_out": True,
        "sets": {"natural_canasta": 2},
        "melded_points": 200,
        "hand_points": 30,
    }
    result = check("classic", hand(out, {}), players=2)
    assert score(result) == 200 - 30 + 500 + 500 + 200


def test_two_sides_going_out_is_reported_and_each_gets_the_bonus():
    out = {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 200}
    result = check("classic", hand(out, out))
    assert codes(result) == {("several-went-out", None)}
    assert score(result, side=0) == 200 + 1000 + 200
    assert score(result, side=1) == 200 + 1000 + 200


def test_three_sides_going_out_is_reported_once():
    out = {"went_out": True, "sets": {"mixed_canasta": 1}, "melded_points": 100}
    result = check("fournier", hand(out, out, out), sides=3, players=1)
    assert codes(result) == {("several-went-out", None)}


def test_a_hand_ended_by_going_out_needs_a_side_that_went_out():
    result = check("classic", hand({"melded_points": 100}, {"melded_points": 60}))
    assert codes(result) == {("nobody-went-out", None)}


def test_a_hand_ends_by_going_out_unless_it_says_otherwise():
    result = check("classic", {"entries": [{"melded_points": 100}, {"melded_points": 60}]})
    assert codes(result) == {("nobody-went-out", None)}


def test_a_hand_ended_by_the_stock_needs_nobody_to_go_out():
    result = check("classic", stock({"melded_points": 100}, {"melded_points": 60}))
    assert codes(result) == set()


def test_a_side_cannot_go_out_when_the_stock_ran_out():
    out = {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 200}
    result = check("denexa", stock({}, out))
    assert codes(result) == {("went-out-but-stock-ended", None)}


@pytest.mark.parametrize(
    ("sets", "complete"),
    [
        (BOOK, True),
        ({**BOOK, "samba": 0, "super_samba": 1}, True),
        ({**BOOK, "natural_canasta": 7, "samba": 3}, True),
        ({**BOOK, "wild_canasta": 0}, False),
        ({**BOOK, "natural_canasta": 4}, False),
        ({"natural_canasta": 6, "samba": 2}, False),
    ],
)
def test_super_samba_stock_does_not_end_a_hand_while_a_side_has_its_book(sets, complete):
    result = check("super-samba", stock({}, {"sets": sets, "melded_points": 2000}))
    assert (("stock-ended-with-book-complete", 1) in codes(result)) is complete
    assert codes(result) <= {("stock-ended-with-book-complete", 1)}


def test_every_side_with_its_book_when_the_stock_ran_out_is_reported():
    both = {"sets": BOOK, "melded_points": 2000}
    result = check("super-samba", stock(both, both))
    assert codes(result) == {
        ("stock-ended-with-book-complete", 0),
        ("stock-ended-with-book-complete", 1),
    }


def test_a_super_samba_side_with_its_book_may_go_out():
    result = check("super-samba", hand({"went_out": True, "sets": BOOK, "melded_points": 2000}, {}))
    assert codes(result) == set()


@pytest.mark.parametrize("variant", ["classic", "denexa", "black-samba", "fournier"])
def test_the_stock_may_end_a_hand_whatever_sets_a_side_has_outside_super_samba(variant):
    sets = {"natural_canasta": 3, "mixed_canasta": 2}
    result = check(variant, stock({"sets": sets, "melded_points": 2000}, {}))
    assert codes(result) == set()
