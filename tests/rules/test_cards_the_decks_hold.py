"""`too-many-sets`, the two bounds of the cards themselves (docs/violations.md, *too-many-sets*):
every samba holds one 8, 9 and 10 of its suit (a black samba at least two of them), and one card
of each rank pair 4/J, 5/Q, 6/K, 7/A; so sambas leave fewer cards for natural canastas."""

from __future__ import annotations

import pytest

from scorekeeper.rules.checks import canastas_beside_sambas
from scorekeeper.rules.systems import Deck
from tests.rules.helpers import check, codes, stock

THREE_DECKS = Deck(3, 6)
SIX_DECKS = Deck(6, 12)


@pytest.mark.parametrize(
    ("deck", "sambas", "room"),
    [
        (THREE_DECKS, 0, 11),
        (THREE_DECKS, 1, 11),  # eleven 8s, 9s and 10s still make a canasta each
        (THREE_DECKS, 5, 11),
        (THREE_DECKS, 6, 8),  # six 8s, 9s and 10s make none; four pairs of ranks, two each
        (THREE_DECKS, 7, 8),
        (THREE_DECKS, 11, 4),
        (THREE_DECKS, 12, 4),
        (SIX_DECKS, 0, 33),
        (SIX_DECKS, 4, 30),
        (SIX_DECKS, 8, 26),
    ],
)
def test_sambas_leave_room_for_so_many_natural_canastas(deck, sambas, room):
    assert canastas_beside_sambas(deck, sambas) == room


@pytest.mark.parametrize(
    ("variant", "ours", "theirs", "too_many"),
    [
        ("classic", {"samba": 6}, {"samba": 6, "natural_canasta": 4}, False),
        ("classic", {"samba": 6}, {"samba": 6, "natural_canasta": 5}, True),
        ("denexa", {"samba": 12, "natural_canasta": 5}, {}, True),
        ("fournier", {"samba": 11, "natural_canasta": 4}, {}, False),
        ("fournier", {"samba": 11}, {"natural_canasta": 5}, True),
        ("classic", {"samba": 6}, {"natural_canasta": 8}, False),
        ("classic", {"samba": 6}, {"natural_canasta": 9}, True),
        ("super-samba", {"samba": 4}, {"natural_canasta": 30}, False),
        ("super-samba", {"samba": 4}, {"natural_canasta": 31}, True),
        (
            "super-samba",
            {"samba": 3, "super_samba": 1},
            {"sevens_canasta": 3, "natural_canasta": 28},
            True,
        ),
    ],
)
def test_three_decks_hold_no_more_natural_canastas_than_the_sambas_leave(
    variant, ours, theirs, too_many
):
    result = check(variant, stock({"sets": ours}, {"sets": theirs}), players=2)
    assert (("too-many-sets", None) in codes(result)) is too_many


@pytest.mark.parametrize(
    ("ours", "theirs", "too_many"),
    [
        ({"samba": 12}, {}, False),
        ({"samba": 12}, {"black_samba": 1}, True),
        ({"samba": 10}, {"black_samba": 3}, False),
        ({"samba": 10}, {"black_samba": 4}, True),
        ({}, {"black_samba": 18}, False),
    ],
)
def test_black_samba_every_samba_holds_an_8_9_and_10_of_its_suit(ours, theirs, too_many):
    result = check("black-samba", stock({"sets": ours}, {"sets": theirs}), players=2)
    assert (("too-many-sets", None) in codes(result)) is too_many


def test_the_message_says_how_many_canastas_the_sambas_leave_room_for():
    result = check("denexa", stock({"sets": {"samba": 12, "natural_canasta": 5}}, {}), players=2)
    messages = [v["message"] for v in result["hands"][0]["violations"]]
    assert "5 natural canastas recorded beside 12 sambas; 3 decks leave room for at most 4" in (
        messages
    )
