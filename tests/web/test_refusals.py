"""A refused Save says at the top of the form what is wrong: each problem in words, with its
side and the rule's name, and a link to its field."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from .helpers import Actions

# Us goes out with a first meld of 45 in hand 1 (classic needs 50) and a samba missing.
TOO_LOW = [{"opening_meld": "45", "melded_points": "100"}, {}]


def listed(page: str) -> list[str]:
    """The items of the refusal's list at the top of the form, as HTML."""
    found = re.search(r'<ul class="refusals">(.*?)</ul>', page, re.S)
    assert found, "no list of problems at the top"
    return re.findall(r"<li>(.*?)</li>", found.group(1), re.S)


@pytest.mark.parametrize(
    ("language", "words", "not_saved"),
    [
        ("en", "Us: a first meld of 45 is too low; Us needed 50", "Tap a problem"),
        ("es", "Us: una primera salida de 45 es demasiado baja", "Toca un problema"),
    ],
)
def test_a_refused_save_lists_each_broken_rule_at_the_top_with_a_link_to_its_field(
    client: FlaskClient, actions: Actions, language: str, words: str, not_saved: str
) -> None:
    game_id = actions.new_game("classic", "2x2", names=["Us", "Them"])
    client.set_cookie("lang", language)
    response = actions.post_hand(game_id, TOO_LOW, "out-0")
    assert response.status_code == 422
    assert not_saved in response.text
    items = listed(response.text)
    low = next(item for item in items if "opening_meld" in item)
    assert '<a href="#cell-sides-0-opening_meld">' in low
    assert words in low
    assert "Samba Rules (classic)" in low  # the rule's name, cited
    assert 'id="cell-sides-0-opening_meld"' in response.text
    assert actions.hand_ids(game_id) == []


def test_every_problem_of_a_refused_save_is_listed_in_the_order_of_the_form(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("classic", "2x2", names=["Us", "Them"])
    response = actions.post_hand(game_id, TOO_LOW, "out-0")
    places = [re.search(r'href="#([^"]+)"', item) for item in listed(response.text)]
    linked = [place.group(1) for place in places if place]
    assert linked[0] == "cell-ending"  # going out without the sets comes first
    assert "cell-sides-0-opening_meld" in linked
    assert f'href="#{linked[0]}"' in response.text.split('class="bar"')[1]  # "N problems"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Them, Card points melded: "),
        ("es", "Them, Puntos de las cartas bajadas: "),
    ],
)
def test_a_number_out_of_bounds_is_listed_with_its_side_and_field(
    client: FlaskClient, actions: Actions, language: str, words: str
) -> None:
    game_id = actions.new_game("classic", "2x2", names=["Us", "Them"])
    client.set_cookie("lang", language)
    response = actions.post_hand(
        game_id, [{"melded_points": "0"}, {"melded_points": "999999"}], "stock"
    )
    assert response.status_code == 422
    [item] = listed(response.text)
    assert '<a href="#cell-sides-1-melded_points">' in item
    assert words in item


def test_a_preview_keeps_its_problems_next_to_their_fields_without_a_list_at_the_top(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("classic", "2x2", names=["Us", "Them"])
    response = actions.post_hand(game_id, TOO_LOW, "out-0", action="preview")
    assert response.status_code == 200
    assert 'class="refusals"' not in response.text
    assert "too low" in response.text
