"""A hand that breaks a rule is refused: the message sits by its field, the input stays."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers import Actions, errors_of, hand_fields, input_value

# system, table, ending, sides' input, the field the message sits by (None: above the form),
# the message, and a field whose typed value must still be there.
REFUSED: list[tuple[str, str, str, list[dict[str, Any]], str | None, str, str]] = [
    (
        "classic",
        "2x2",
        "stock",
        [{"melded_points": "263"}, {}],
        "sides-0-melded_points",
        "Us: 263 points cannot be, every card is worth a multiple of 5",
        "sides-0-melded_points",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [{"set_natural_canasta": "1", "melded_points": "20"}, {}],
        "sides-0-melded_points",
        "Us: the sets recorded hold at least 35 card points, but melded points are 20",
        "sides-0-set_natural_canasta",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [{}, {"opening_meld": "45", "melded_points": "100"}],
        "sides-1-opening_meld",
        "Them: a first meld of 45 is too low; Them needed 50",
        "sides-1-opening_meld",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [{"opening_meld": "100", "melded_points": "60"}, {}],
        "sides-0-opening_meld",
        "Us: the first meld (100) is worth more than all that was melded (60)",
        "sides-0-melded_points",
    ),
    (
        "classic",
        "2x2",
        "out-0",
        [{"set_natural_canasta": "1", "melded_points": "100"}, {}],
        "ending",
        "Us went out with 1 set,",
        "sides-0-melded_points",
    ),
    (
        "classic",
        "2x1",
        "out-0",
        [{"set_samba": "2", "melded_points": "200", "hand_points": "10"}, {}],
        "sides-0-hand_points",
        "Us went out, so Us can hold no cards",
        "sides-0-hand_points",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [{"red_threes": "4"}, {"red_threes": "3"}],
        None,
        "7 red threes recorded, but the deck holds only 6",
        "sides-1-red_threes",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [{"set_samba": "13", "melded_points": "650"}, {}],
        None,
        "13 sambas recorded; 3 decks allow at most 12",
        "sides-0-set_samba",
    ),
    (
        "super-samba",
        "2x2",
        "stock",
        [{"set_samba": "5", "melded_points": "250"}, {}],
        "sides-0-set_samba",
        "Us: a side may have at most 4 sambas, at most 1 of them super",
        "sides-0-set_samba",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [
            {"set_natural_canasta": "11", "melded_points": "3000"},
            {"set_mixed_canasta": "12", "melded_points": "3000"},
        ],
        None,
        "These sets need at least 137 natural cards (4 up to ace); 3 decks hold 132",
        "sides-1-set_mixed_canasta",
    ),
    (
        "super-samba",
        "2x2",
        "stock",
        [
            {
                "set_wild_canasta": "1",
                "set_sevens_canasta": "1",
                "set_natural_canasta": "5",
                "set_mixed_canasta": "1",
                "set_samba": "1",
                "melded_points": "2000",
            },
            {},
        ],
        "ending",
        "Us has its whole book, and a hand ends with the stock exhausted only while no side",
        "sides-0-set_natural_canasta",
    ),
    (
        "classic",
        "2x2",
        "stock",
        [{"melded_points": "abc"}, {}],
        "sides-0-melded_points",
        "Not a valid integer value.",
        "sides-0-melded_points",
    ),
]


def problems_box(page: str) -> str:
    found = re.search(r'<div id="problems" data-preview>(.*?)\n</div>\n', page, re.S)
    assert found, "no problems box"
    return found.group(1)


@pytest.mark.parametrize(
    ("system", "table", "ending", "sides", "field", "message", "kept"),
    REFUSED,
    ids=[
        "not-multiple-of-5",
        "sets-need-more-points",
        "opening-meld-too-low",
        "opening-meld-exceeds-melded",
        "went-out-without-sets",
        "went-out-holding-cards",
        "too-many-red-threes",
        "too-many-sets",
        "samba-limit",
        "impossible-natural-cards",
        "stock-ended-with-book-complete",
        "not-a-number",
    ],
)
def test_a_refused_hand_says_why_by_the_field_and_keeps_what_was_typed(
    client: FlaskClient,
    actions: Actions,
    system: str,
    table: str,
    ending: str,
    sides: list[dict[str, Any]],
    field: str | None,
    message: str,
    kept: str,
) -> None:
    game_id = actions.new_game(system, table)
    data = hand_fields(sides, ending)
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 422
    page = html.unescape(response.text)
    assert "This hand was not saved." in page
    if field is None:
        assert message in problems_box(page)
    else:
        assert message in errors_of(page, field)
    assert input_value(response.text, kept) == data[kept]
    if ending == "out-0":
        assert re.search(r'<input checked[^>]*value="out-0"', response.text)
    assert actions.result(game_id)["hands"] == []
    assert "Hands" not in actions.scoreboard(game_id).split("Record hand 1")[1]


def test_a_hand_without_an_ending_is_refused(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    data = hand_fields([{"melded_points": "100"}, {}], ending="")
    del data["ending"]
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 422
    assert "Choose who went out, or that nobody did." in errors_of(response.text, "ending")
    assert input_value(response.text, "sides-0-melded_points") == "100"
    assert actions.result(game_id)["hands"] == []
