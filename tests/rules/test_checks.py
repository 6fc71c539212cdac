"""docs/violations.md, *The codes*: numbers, sets and red threes that cannot be right."""

import pytest

from tests.rules.helpers import check, codes, hand, score, stock

INVALID_NUMBERS = [
    ("classic", "melded_points", -5),
    ("classic", "melded_points", 12.5),
    ("classic", "hand_points", 7.5),
    ("classic", "red_threes", -1),
    ("classic", "players_holding_red_threes", -1),
    ("classic", "opening_meld", -50),
    ("denexa", "red_threes_in_hand", 0.5),
]


@pytest.mark.parametrize(("variant", "field", "value"), INVALID_NUMBERS)
def test_a_negative_or_fractional_number_is_reported_for_its_side(variant, field, value):
    result = check(variant, stock({}, {field: value}))
    assert ("invalid-number", 1) in codes(result)
    assert ("invalid-number", 0) not in codes(result)


@pytest.mark.parametrize(
    ("variant", "entry"),
    [
        ("classic", {"sets": {"natural_canasta": -1}, "melded_points": 100}),
        ("classic", {"sets": {"mixed_canasta": 1.5}, "melded_points": 100}),
        ("fournier", {"penalties": {"drew_out_of_turn": -1}}),
        ("denexa", {"penalties": {"took_unusable_upcard": 0.5}}),
    ],
)
def test_a_negative_or_fractional_count_of_sets_or_penalties_is_reported(variant, entry):
    result = check(variant, stock(entry, {}))
    assert ("invalid-number", 0) in codes(result)


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"melded_points": -50, "hand_points": 10}, -10),
        ({"melded_points": 12.5, "hand_points": 10}, -10),
        ({"melded_points": 30, "hand_points": -40}, 30),
        ({"melded_points": 30, "red_threes": -2}, 30),
        ({"melded_points": 30, "red_threes_in_hand": -1}, 30),
        ({"sets": {"natural_canasta": -1}, "melded_points": 100}, 100),
    ],
)
def test_an_invalid_number_counts_as_zero_in_the_score(entry, expected):
    result = check("classic", stock(entry, {}))
    assert score(result) == expected


def test_zero_is_a_valid_number():
    entry = {"melded_points": 0, "hand_points": 0, "red_threes": 0, "opening_meld": 0}
    result = check("classic", stock(entry, {}))
    assert ("invalid-number", 0) not in codes(result)


@pytest.mark.parametrize(
    ("entry", "reported"),
    [
        ({"melded_points": 203}, True),
        ({"melded_points": 205}, False),
        ({"hand_points": 12}, True),
        ({"hand_points": 15}, False),
        ({"opening_meld": 52, "melded_points": 100}, True),
        ({"opening_meld": 55, "melded_points": 100}, False),
    ],
)
def test_points_that_are_not_a_multiple_of_5_are_reported(entry, reported):
    result = check("denexa", stock(entry, {}))
    assert (("not-multiple-of-5", 0) in codes(result)) is reported
    assert codes(result) <= {("not-multiple-of-5", 0)}


def test_points_not_a_multiple_of_5_are_still_scored():
    result = check("denexa", stock({"melded_points": 203, "hand_points": 12}, {}))
    assert score(result) == 203 - 12


FOREIGN_SETS = [
    ("classic", "black_samba"),
    ("classic", "super_samba"),
    ("denexa", "wild_canasta"),
    ("black-samba", "sevens_canasta"),
    ("super-samba", "black_samba"),
    ("fournier", "black_samba"),
    ("fournier", "red_three_canasta"),
]


@pytest.mark.parametrize(("variant", "kind"), FOREIGN_SETS)
def test_a_set_the_system_does_not_have_is_reported(variant, kind):
    result = check(variant, stock({}, {"sets": {kind: 1}, "melded_points": 500}))
    assert ("set-not-in-variant", 1) in codes(result)


def test_black_samba_has_black_sambas():
    result = check("black-samba", stock({"sets": {"black_samba": 1}, "melded_points": 60}, {}))
    assert codes(result) == set()


LEAST_WORTH = [
    ("classic", {"natural_canasta": 1}, 35),
    ("classic", {"mixed_canasta": 1}, 50),
    ("classic", {"samba": 1}, 50),
    ("classic", {"natural_canasta": 2, "samba": 1}, 35 + 35 + 50),
    ("denexa", {"samba": 2}, 50 + 50),
    ("black-samba", {"black_samba": 1}, 60),
    ("black-samba", {"black_samba": 1, "mixed_canasta": 1}, 60 + 50),
    ("super-samba", {"super_samba": 1}, 100),
    ("super-samba", {"wild_canasta": 1}, 140),
    ("super-samba", {"sevens_canasta": 1}, 35),
    ("super-samba", {"wild_canasta": 1, "sevens_canasta": 1, "super_samba": 1}, 140 + 35 + 100),
    ("fournier", {"mixed_canasta": 3}, 3 * 50),
]


@pytest.mark.parametrize(("variant", "sets", "least"), LEAST_WORTH)
def test_sets_worth_exactly_their_least_card_points_pass(variant, sets, least):
    result = check(variant, stock({"sets": sets, "melded_points": least}, {}))
    assert codes(result) == set()


@pytest.mark.parametrize(("variant", "sets", "least"), LEAST_WORTH)
def test_sets_with_fewer_melded_points_than_they_are_worth_are_reported(variant, sets, least):
    result = check(variant, stock({}, {"sets": sets, "melded_points": least - 5}))
    assert codes(result) == {("sets-need-more-points", 1)}


def test_a_red_three_canasta_needs_no_melded_points():
    result = check("super-samba", stock({"sets": {"red_three_canasta": 1}, "red_threes": 7}, {}))
    assert codes(result) == set()


SAMBA_LIMITS = [
    ({"samba": 4}, False),
    ({"samba": 3, "super_samba": 1}, False),
    ({"samba": 5}, True),
    ({"super_samba": 2}, True),
    ({"samba": 4, "super_samba": 1}, True),
    ({"samba": 2, "super_samba": 2}, True),
]


@pytest.mark.parametrize(("sets", "over"), SAMBA_LIMITS)
def test_super_samba_allows_a_side_four_sambas_one_of_them_super(sets, over):
    result = check("super-samba", stock({}, {"sets": sets, "melded_points": 1000}))
    assert (("samba-limit", 1) in codes(result)) is over
    assert codes(result) <= {("samba-limit", 1)}


def test_only_super_samba_limits_a_sides_sambas():
    result = check("classic", stock({"sets": {"samba": 5}, "melded_points": 500}, {}))
    assert ("samba-limit", 0) not in codes(result)


RED_THREE_COUNTS = [
    ("classic", 2, 2, [{"red_threes": 4}, {"red_threes": 2}], False),
    ("classic", 2, 2, [{"red_threes": 4}, {"red_threes": 3}], True),
    ("classic", 2, 2, [{"red_threes": 4}, {"red_threes": 2, "red_threes_in_hand": 1}], True),
    ("denexa", 2, 2, [{"red_threes": 3}, {"red_threes": 4}], True),
    ("black-samba", 2, 3, [{"red_threes": 6}, {"red_threes_in_hand": 1}], True),
    ("fournier", 3, 2, [{"red_threes": 2}, {"red_threes": 2}, {"red_threes": 3}], True),
    ("super-samba", 2, 2, [{"red_threes": 6}, {"red_threes": 6}], False),
    ("super-samba", 2, 2, [{"red_threes": 6}, {"red_threes": 6, "red_threes_in_hand": 1}], True),
    ("super-samba", 2, 1, [{"red_threes": 12}, {"red_threes": 1}], True),
    ("super-samba", 3, 1, [{"red_threes": 4}, {"red_threes": 4}, {"red_threes": 5}], True),
    ("super-samba", 2, 3, [{"red_threes": 7}, {"red_threes": 7}], False),
    ("super-samba", 2, 3, [{"red_threes": 7}, {"red_threes": 7, "red_threes_in_hand": 1}], True),
]


@pytest.mark.parametrize(("variant", "sides", "players", "entries", "too_many"), RED_THREE_COUNTS)
def test_more_red_threes_than_the_deck_holds_are_reported(
    variant, sides, players, entries, too_many
):
    result = check(variant, stock(*entries), sides=sides, players=players)
    assert (("too-many-red-threes", None) in codes(result)) is too_many
    assert codes(result) <= {("too-many-red-threes", None)}


def _sets(**counts):
    return {"sets": counts, "melded_points": 5000}


SET_COUNTS = [
    ("classic 18 mixed", "classic", 2, {}, [_sets(mixed_canasta=9), _sets(mixed_canasta=9)], False),
    ("classic 19 mixed", "classic", 2, {}, [_sets(mixed_canasta=9), _sets(mixed_canasta=10)], True),
    ("classic 12 sambas", "classic", 2, {}, [_sets(samba=6), _sets(samba=6)], False),
    ("classic 13 sambas", "classic", 2, {}, [_sets(samba=6), _sets(samba=7)], True),
    (
        "classic 11 naturals",
        "classic",
        2,
        {},
        [_sets(natural_canasta=6), _sets(natural_canasta=5)],
        False,
    ),
    (
        "classic 12 naturals",
        "classic",
        2,
        {},
        [_sets(natural_canasta=6), _sets(natural_canasta=6)],
        True,
    ),
    (
        "classic 23 sets",
        "classic",
        2,
        {},
        [_sets(natural_canasta=3, mixed_canasta=9), _sets(natural_canasta=2, mixed_canasta=9)],
        False,
    ),
    (
        "classic 24 sets",
        "classic",
        2,
        {},
        [_sets(natural_canasta=6, samba=6), _sets(natural_canasta=5, samba=6, mixed_canasta=1)],
        True,
    ),
    (
        "fournier 12 naturals",
        "fournier",
        2,
        {},
        [_sets(natural_canasta=12), {}],
        True,
    ),
    (
        "black-samba 18 wild",
        "black-samba",
        2,
        {},
        [_sets(mixed_canasta=9), _sets(black_samba=9)],
        False,
    ),
    (
        "black-samba 19 wild",
        "black-samba",
        2,
        {},
        [_sets(mixed_canasta=9), _sets(black_samba=10)],
        True,
    ),
    (
        "black-samba nine jokers 21 wild",
        "black-samba",
        2,
        {"nine_jokers": True},
        [_sets(mixed_canasta=10), _sets(black_samba=11)],
        False,
    ),
    (
        "black-samba nine jokers 22 wild",
        "black-samba",
        2,
        {"nine_jokers": True},
        [_sets(mixed_canasta=10), _sets(black_samba=12)],
        True,
    ),
    (
        "super-samba 6 decks 36 wild",
        "super-samba",
        2,
        {},
        [_sets(wild_canasta=1, mixed_canasta=15), _sets(mixed_canasta=14)],
        False,
    ),
    (
        "super-samba 6 decks 37 wild",
        "super-samba",
        2,
        {},
        [_sets(wild_canasta=1, mixed_canasta=15), _sets(mixed_canasta=15)],
        True,
    ),
    (
        "super-samba 6 decks 33 naturals",
        "super-samba",
        2,
        {},
        [_sets(natural_canasta=15, sevens_canasta=2), _sets(natural_canasta=15, sevens_canasta=1)],
        False,
    ),
    (
        "super-samba 6 decks 34 naturals",
        "super-samba",
        2,
        {},
        [_sets(natural_canasta=15, sevens_canasta=2), _sets(natural_canasta=16, sevens_canasta=1)],
        True,
    ),
    (
        "super-samba 6 decks 3 sevens",
        "super-samba",
        2,
        {},
        [_sets(sevens_canasta=2), _sets(sevens_canasta=1)],
        False,
    ),
    (
        "super-samba 6 decks 4 sevens",
        "super-samba",
        2,
        {},
        [_sets(sevens_canasta=2), _sets(sevens_canasta=2)],
        True,
    ),
    (
        "super-samba 6 decks 46 sets",
        "super-samba",
        2,
        {},
        [
            _sets(natural_canasta=5, samba=4, mixed_canasta=15),
            _sets(natural_canasta=4, samba=4, mixed_canasta=14),
        ],
        False,
    ),
    (
        "super-samba 6 decks 47 sets",
        "super-samba",
        2,
        {},
        [
            _sets(natural_canasta=17, samba=4, mixed_canasta=3),
            _sets(natural_canasta=16, samba=4, mixed_canasta=3),
        ],
        True,
    ),
    (
        "super-samba 7 decks 42 wild",
        "super-samba",
        3,
        {},
        [_sets(wild_canasta=2, mixed_canasta=14), _sets(mixed_canasta=14)],
        False,
    ),
    (
        "super-samba 7 decks 43 wild",
        "super-samba",
        3,
        {},
        [_sets(wild_canasta=2, mixed_canasta=14), _sets(mixed_canasta=15)],
        True,
    ),
    (
        "super-samba 7 decks 44 naturals",
        "super-samba",
        3,
        {},
        [_sets(natural_canasta=20, sevens_canasta=2), _sets(natural_canasta=20, sevens_canasta=2)],
        False,
    ),
    (
        "super-samba 7 decks 45 naturals",
        "super-samba",
        3,
        {},
        [_sets(natural_canasta=20, sevens_canasta=2), _sets(natural_canasta=21, sevens_canasta=2)],
        True,
    ),
    (
        "super-samba 7 decks 5 sevens",
        "super-samba",
        3,
        {},
        [_sets(sevens_canasta=2), _sets(sevens_canasta=3)],
        True,
    ),
    (
        "super-samba 7 decks 54 sets",
        "super-samba",
        3,
        {},
        [
            _sets(natural_canasta=22, mixed_canasta=5),
            _sets(natural_canasta=22, mixed_canasta=5),
        ],
        False,
    ),
    (
        "super-samba 7 decks 55 sets",
        "super-samba",
        3,
        {},
        [
            _sets(natural_canasta=22, mixed_canasta=5),
            _sets(natural_canasta=22, mixed_canasta=6),
        ],
        True,
    ),
]


@pytest.mark.parametrize(
    ("variant", "players", "options", "entries", "too_many"),
    [row[1:] for row in SET_COUNTS],
    ids=[row[0] for row in SET_COUNTS],
)
def test_more_sets_than_the_cards_allow_are_reported(variant, players, options, entries, too_many):
    result = check(variant, stock(*entries), players=players, options=options)
    assert (("too-many-sets", None) in codes(result)) is too_many
    # Heaps of sets like these often need more natural cards too: a check of its own.
    assert codes(result) <= {("too-many-sets", None), ("impossible-natural-cards", None)}


@pytest.mark.parametrize(("red_threes", "too_many"), [(7, False), (8, False), (6, True)])
def test_super_samba_needs_seven_red_threes_for_each_red_three_canasta(red_threes, too_many):
    entry = {"sets": {"red_three_canasta": 1}, "red_threes": red_threes}
    result = check("super-samba", stock({}, entry))
    assert (("too-many-sets", None) in codes(result)) is too_many
    assert codes(result) <= {("too-many-sets", None)}


def test_super_samba_counts_red_three_canastas_against_each_sides_own_red_threes():
    result = check(
        "super-samba",
        stock({"sets": {"red_three_canasta": 1}, "red_threes": 3}, {"red_threes": 7}),
    )
    assert codes(result) == {("too-many-sets", None)}


UNREADABLE_ONLY = [
    ("melded points checked as 0", "classic", {}, {"melded_points": 200.0, "opening_meld": 60}),
    (
        "melded points below the sets' least",
        "classic",
        {},
        {"melded_points": -50, "opening_meld": 60, "sets": {"natural_canasta": 1}},
    ),
    ("a fraction of 5", "classic", {}, {"melded_points": 12.5}),
    ("a negative not of 5", "classic", {}, {"melded_points": -3}),
    ("a first meld below the minimum", "classic", {}, {"opening_meld": 45.5, "melded_points": 100}),
    ("a negative first meld", "classic", {}, {"opening_meld": -40, "melded_points": 10}),
    (
        "a set count that would be short for going out",
        "classic",
        {},
        {"went_out": True, "sets": {"natural_canasta": 1.0, "samba": 1}, "melded_points": 500},
    ),
    ("a set the system lacks", "classic", {}, {"sets": {"black_samba": 1.5}}),
    ("a penalty the system lacks", "denexa", {}, {"penalties": {"three_wilds_in_canasta": -1}}),
    (
        "red threes for a canasta of them",
        "super-samba",
        {},
        {"sets": {"red_three_canasta": 1}, "red_threes": 7.0},
    ),
    (
        "red threes in hand for the players caught",
        "classic",
        {},
        {"players_holding_red_threes": 1, "red_threes_in_hand": -1},
    ),
    (
        "points in hand of a player who went out",
        "classic",
        {"players": 1},
        {"went_out": True, "sets": {"samba": 2}, "melded_points": 500, "hand_points": -10},
    ),
]


@pytest.mark.parametrize(
    ("variant", "table", "entry"),
    [row[1:] for row in UNREADABLE_ONLY],
    ids=[row[0] for row in UNREADABLE_ONLY],
)
def test_an_unreadable_number_is_reported_once_and_no_other_check_reads_it(variant, table, entry):
    ending = hand if entry.get("went_out") else stock
    result = check(variant, ending(entry, {}), **table)
    assert codes(result) == {("invalid-number", 0)}


def test_the_other_numbers_of_a_side_with_an_unreadable_one_are_still_checked():
    result = check("classic", stock({"melded_points": 12.5, "hand_points": 12}, {}))
    assert codes(result) == {("invalid-number", 0), ("not-multiple-of-5", 0)}


def test_red_threes_of_the_other_sides_are_counted_beside_an_unreadable_count():
    result = check(
        "classic", stock({"red_threes": 2.5}, {"red_threes": 4, "red_threes_in_hand": 3})
    )
    assert codes(result) == {("invalid-number", 0), ("too-many-red-threes", None)}


NATURAL_CARDS = [
    # Three decks hold 132 natural cards: eleven ranks from 4 up to ace, four suits, three decks.
    ("classic 132", "classic", 2, [_sets(natural_canasta=11), _sets(mixed_canasta=11)], False),
    ("classic 137", "classic", 2, [_sets(natural_canasta=11), _sets(mixed_canasta=12)], True),
    (
        "classic 137 on one side",
        "classic",
        2,
        [_sets(natural_canasta=11, mixed_canasta=12), {}],
        True,
    ),
    (
        "black-samba 131",
        "black-samba",
        2,
        [_sets(natural_canasta=11), _sets(black_samba=9)],
        False,
    ),
    (
        "black-samba 136",
        "black-samba",
        2,
        [_sets(natural_canasta=11), _sets(black_samba=9, mixed_canasta=1)],
        True,
    ),
    (
        "denexa 137",
        "denexa",
        2,
        [_sets(samba=12), _sets(natural_canasta=4, mixed_canasta=5)],
        True,
    ),
    # Six decks hold 264; a super samba needs eleven, a canasta of wild cards none.
    (
        "super-samba 264",
        "super-samba",
        2,
        [
            _sets(super_samba=1, samba=3, natural_canasta=18, wild_canasta=1),
            _sets(natural_canasta=8, mixed_canasta=10),
        ],
        False,
    ),
    (
        "super-samba 269",
        "super-samba",
        2,
        [
            _sets(super_samba=1, samba=3, natural_canasta=18, wild_canasta=1),
            _sets(natural_canasta=8, mixed_canasta=11),
        ],
        True,
    ),
    # Seven decks (six players) hold 308.
    (
        "super-samba 7 decks 308",
        "super-samba",
        3,
        [
            _sets(samba=4, natural_canasta=13, mixed_canasta=7),
            _sets(samba=4, natural_canasta=13, mixed_canasta=7),
        ],
        False,
    ),
    (
        "super-samba 7 decks 313",
        "super-samba",
        3,
        [
            _sets(samba=4, natural_canasta=13, mixed_canasta=7),
            _sets(samba=4, natural_canasta=13, mixed_canasta=8),
        ],
        True,
    ),
]


@pytest.mark.parametrize(
    ("variant", "players", "entries", "impossible"),
    [row[1:] for row in NATURAL_CARDS],
    ids=[row[0] for row in NATURAL_CARDS],
)
def test_sets_needing_more_natural_cards_than_the_decks_hold_are_reported(
    variant, players, entries, impossible
):
    result = check(variant, stock(*entries), players=players)
    assert (("impossible-natural-cards", None) in codes(result)) is impossible
    assert codes(result) <= {("impossible-natural-cards", None)}


def test_impossible_natural_cards_says_how_many_the_sets_need_and_the_decks_hold():
    result = check("classic", stock(_sets(natural_canasta=11), _sets(mixed_canasta=12)))
    [violation] = result["hands"][0]["violations"]
    assert "137" in violation["message"]
    assert "132" in violation["message"]
