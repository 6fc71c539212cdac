"""Fournier, "first meld": a side that goes out by laying its whole hand down at once (going out
concealed) needs no minimum first meld; every other side, a box ticked or not, still does."""

import pytest

from tests.rules.helpers import check, codes, hand, stock

LOW = {"opening_meld": 40, "melded_points": 40}
"""A first meld under every minimum (fournier asks 50 from 0)."""
OUT = {"went_out": True, "sets": {"natural_canasta": 1}}
"""What fournier asks of a side that goes out: one set."""
PARTNER_OUT = {**OUT, "melded_points": 200}
"""The other side, going out with no first meld recorded (so none of its own is checked)."""

EXEMPTIONS = [
    ("went-out-concealed", hand({**LOW, **OUT, "concealed": True}, {}), set()),
    ("went-out-in-the-open", hand({**LOW, **OUT}, {}), {("opening-meld-too-low", 0)}),
    (
        "ticked-concealed-but-the-other-side-went-out",
        hand({**LOW, "concealed": True}, PARTNER_OUT),
        {("opening-meld-too-low", 0)},
    ),
    (
        "ticked-concealed-but-the-stock-ran-out",
        stock({**LOW, "concealed": True}, {}),
        {("opening-meld-too-low", 0)},
    ),
]


@pytest.mark.parametrize(
    ("played", "expected"),
    [(played, expected) for _name, played, expected in EXEMPTIONS],
    ids=[name for name, _played, _expected in EXEMPTIONS],
)
def test_fournier_exempts_from_the_first_meld_minimum_only_a_side_that_went_out_concealed(
    played, expected
):
    assert codes(check("fournier", played)) == expected
