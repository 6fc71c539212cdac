"""Every phone at the table follows the game: the follow page, the table display and the
hand form's poll of the game's state, each answered 304 while nothing changed."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .helpers import GOES_OUT, STAYS_IN, Actions, a_game_with_a_hand
from .sharing import links

POLLED = [
    "/games/{game}",
    "/games/{game}/follow",
    "/games/{game}/display",
    "/games/{game}/state.json",
    "/games/{game}/hands/{hand}",
]


# That an unchanged game answers a poll 304 without drawing anything is
# test_http_caching.py's, for every page polled among the others.


@pytest.mark.parametrize("page", POLLED)
def test_a_poll_after_a_hand_recorded_elsewhere_gets_the_new_page(
    client: FlaskClient, actions: Actions, page: str
) -> None:
    game_id, hand_id = a_game_with_a_hand(client, actions)
    url = page.format(game=game_id, hand=hand_id)
    etag = client.get(url).headers["ETag"]
    actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    after = client.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag


@pytest.mark.parametrize("page", POLLED)
def test_a_poll_after_the_game_was_deleted_answers_404(
    client: FlaskClient, actions: Actions, page: str
) -> None:
    game_id, hand_id = a_game_with_a_hand(client, actions)
    url = page.format(game=game_id, hand=hand_id)
    etag = client.get(url).headers["ETag"]
    assert client.post(f"/games/{game_id}/delete").status_code == 302
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 404


def test_the_state_tells_the_hands_played_and_where_the_last_one_is(
    client: FlaskClient, actions: Actions
) -> None:
    game_id, hand_id = a_game_with_a_hand(client, actions)
    before = client.get(f"/games/{game_id}/state.json").json
    assert before == {
        "revision": before["revision"] if before else None,
        "hands": 1,
        "last": 1,
        "over": False,
        "see": f"/games/{game_id}/hands/{hand_id}",
        "next": None,  # until the table plays again
    }
    actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    after = client.get(f"/games/{game_id}/state.json").json
    assert after is not None and before is not None
    assert after["revision"] != before["revision"]
    assert (after["hands"], after["last"]) == (2, 2)


def test_a_deleted_hand_leaves_the_last_place_as_it_was(
    client: FlaskClient, actions: Actions
) -> None:
    """Only a hand recorded meanwhile makes a Save answer 409, so only that moves `last`, which
    the hand form compares with its own `after`."""
    game_id, hand_id = a_game_with_a_hand(client, actions)
    page = client.get(f"/games/{game_id}/hands/{hand_id}/delete").text
    version = page.split('name="version" value="', 1)[1].split('"', 1)[0]
    deleted = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": version})
    assert deleted.status_code == 302
    state = client.get(f"/games/{game_id}/state.json").json
    assert state is not None and (state["hands"], state["last"], state["see"]) == (0, 1, None)


def test_the_follow_page_has_no_form_and_nothing_that_changes_the_game(
    client: FlaskClient, actions: Actions
) -> None:
    game_id, hand_id = a_game_with_a_hand(client, actions)
    page = client.get(f"/games/{game_id}/follow").text
    assert "<form" not in page.split("<main>", 1)[1]
    for address in ("/hands/new", "/manage", "/again", "/export.json", "/export.csv"):
        assert f"/games/{game_id}{address}" not in page
    assert f"/games/{game_id}/hands/{hand_id}" in page  # its breakdown can be read
    assert "Us" in page and "Them" in page


def test_the_follow_page_offers_a_refresh_link_and_the_table_display(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    page = client.get(f"/games/{game_id}/follow").text
    assert f'href="/games/{game_id}/follow">Refresh</a>' in page
    assert f'href="/games/{game_id}/display"' in page
    assert f'href="/games/{game_id}/display"' in client.get(f"/games/{game_id}").text


def test_the_table_display_shows_totals_dealer_minimums_and_the_last_hand(
    client: FlaskClient, actions: Actions
) -> None:
    game_id, _hand = a_game_with_a_hand(client, actions)
    page = client.get(f"/games/{game_id}/display").text
    board = client.get(f"/games/{game_id}").text
    assert "Next to deal:" in page and "Hand 2" in page
    assert page.count('class="table-minimum"') == 2
    assert page.count('class="table-last"') == 2 and "Hand 1:" in page
    totals = [t.split("<", 1)[0] for t in page.split('class="table-total">')[1:]]
    assert len(totals) == 2 and all(f">{total}<" in board for total in totals)


def test_the_displays_old_address_leads_to_the_new_one_with_its_query(
    client: FlaskClient, actions: Actions
) -> None:
    """The display was at /games/<id>/table before: a tablet's bookmark still finds it."""
    game_id = actions.new_game()
    moved = client.get(f"/games/{game_id}/table?lang=es&x=1")
    assert moved.status_code == 308
    assert moved.headers["Location"] == f"/games/{game_id}/display?lang=es&x=1"
    assert "ETag" not in moved.headers
    assert client.get(f"/games/{game_id}/table").headers["Location"] == f"/games/{game_id}/display"
    assert client.get("/games/no-such-game/table").status_code == 404


def test_a_share_link_made_for_the_display_before_it_moved_still_opens_it(
    client: FlaskClient, actions: Actions
) -> None:
    """A link made by "play again" before the display was /display says `?to=table`."""
    game_id = actions.new_game()
    follow = links(client, game_id)["follow"]
    for to in ("table", "display"):
        landed = client.get(f"/follow/{follow}?to={to}")
        assert landed.headers["Location"] == f"/games/{game_id}/display"


def test_the_table_display_in_spanish(client: FlaskClient, actions: Actions) -> None:
    game_id, _hand = a_game_with_a_hand(client, actions)
    page = client.get(f"/games/{game_id}/display", headers={"Accept-Language": "es"}).text
    assert "Mano 2" in page and "Reparte:" in page and "Primera salida" in page
    assert "El marcador completo" in page and "Esta partida se borró" in page


def test_the_hand_form_carries_where_to_ask_for_the_state_and_what_to_say(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    page = client.get(f"/games/{game_id}/hands/new").text
    assert f'data-state="/games/{game_id}/state.json"' in page
    assert 'id="elsewhere"' in page and 'role="status"' in page
    assert "{number}" in page and "{next}" in page


@pytest.mark.parametrize("page", ["/games/{game}", "/games/{game}/follow", "/games/{game}/display"])
def test_a_page_that_follows_the_game_marks_what_is_swapped_and_can_say_it_is_gone(
    client: FlaskClient, actions: Actions, page: str
) -> None:
    game_id = actions.new_game()
    text = client.get(page.format(game=game_id)).text
    assert text.count("data-follow") == 1
    assert '<p id="gone" class="errors" role="alert" hidden>' in text


def test_the_hand_form_is_never_swapped_under_the_thumb(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    assert "data-follow" not in client.get(f"/games/{game_id}/hands/new").text


def test_only_a_new_hands_form_with_nothing_typed_is_marked_blank(
    client: FlaskClient, actions: Actions
) -> None:
    """What static/js/hand-form.js reads before taking the hand form's phone to the game played
    next: a form sent back with what was typed (and what is wrong with it) is never blank."""
    game_id = actions.new_game()
    assert "data-blank" in client.get(f"/games/{game_id}/hands/new").text
    refused = client.post(f"/games/{game_id}/hands/new", data={"sides-0-melded_points": "400"})
    assert refused.status_code == 422 and 'value="400"' in refused.text
    assert "data-blank" not in refused.text
