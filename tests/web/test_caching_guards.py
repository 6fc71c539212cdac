"""A page's ETag is good for the visitor it was drawn for only, and never stops a write.

A 304 tells a browser to show the page it kept: the ETag must change with anything the page
shows differently to another visitor (their CSRF token, what they may do at the game), and a
write that happens to carry the page's ETag is still written."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from .sharing import GOES_OUT, PIN, a_game, first_hand, links, opened, with_a_pin

CORRECT = "Correct this hand"
"""What a hand's page shows only to a phone that may record the game's hands."""


def test_visitors_with_csrf_tokens_of_their_own_get_etags_of_their_own(csrf_app: Flask) -> None:
    first, second = csrf_app.test_client(), csrf_app.test_client()
    page = f"/games/{a_game(first)}/hands/new"  # a form: each visitor's session gets a token
    tags = [visitor.get(page).headers["ETag"] for visitor in (first, second)]
    assert tags[0] != tags[1]
    assert first.get(page, headers={"If-None-Match": tags[0]}).status_code == 304


def test_a_visitor_sending_anothers_etag_gets_the_page_drawn_for_them(csrf_app: Flask) -> None:
    first, second = csrf_app.test_client(), csrf_app.test_client()
    page = f"/games/{a_game(first)}/hands/new"
    etag = first.get(page).headers["ETag"]
    assert first.get(page, headers={"If-None-Match": etag}).status_code == 304
    second.get(page)  # the second visitor's session has its own token now
    answer = second.get(page, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.headers["ETag"] != etag
    assert 'name="csrf_token"' in answer.text


def test_the_etag_changes_with_what_the_phone_may_do_at_the_game(
    app: Flask, client: FlaskClient
) -> None:
    table = with_a_pin(client)
    game_id = a_game(table, hands=1)
    page = f"/games/{game_id}/hands/{first_hand(table, game_id)}"
    shared = links(table, game_id)
    phone = opened(app, "follow", shared["follow"])
    watching = phone.get(page)
    assert watching.status_code == 200 and CORRECT not in watching.text
    etag = watching.headers["ETag"]
    assert phone.get(page, headers={"If-None-Match": etag}).status_code == 304

    opened(app, "join", shared["join"], phone)
    joined = phone.get(page, headers={"If-None-Match": etag})
    assert joined.status_code == 200 and CORRECT in joined.text
    assert joined.headers["ETag"] != etag
    etag = joined.headers["ETag"]
    assert phone.get(page, headers={"If-None-Match": etag}).status_code == 304

    assert phone.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    at_the_table = phone.get(page, headers={"If-None-Match": etag})
    assert at_the_table.status_code == 200 and at_the_table.headers["ETag"] != etag


def test_a_follow_phone_sending_the_tables_etag_gets_the_page_drawn_for_it(
    app: Flask, client: FlaskClient
) -> None:
    table = with_a_pin(client)
    game_id = a_game(table, hands=1)
    page = f"/games/{game_id}/hands/{first_hand(table, game_id)}"
    drawn = table.get(page)
    assert CORRECT in drawn.text
    phone = opened(app, "follow", links(table, game_id)["follow"])
    answer = phone.get(page, headers={"If-None-Match": drawn.headers["ETag"]})
    assert answer.status_code == 200 and CORRECT not in answer.text


def test_a_hand_sent_with_the_pages_etag_in_if_none_match_is_saved(
    client: FlaskClient,
) -> None:
    game_id = a_game(client)
    etag = client.get(f"/games/{game_id}").headers["ETag"]
    hand = {
        "ending": "out-0",
        "sides-0-set_samba": "1",
        "sides-0-set_natural_canasta": "1",
        "sides-0-melded_points": str(GOES_OUT["melded_points"]),
        "sides-1-melded_points": "50",
    }
    saved = client.post(f"/games/{game_id}/hands/new", data=hand, headers={"If-None-Match": etag})
    assert saved.status_code == 302, saved.text
    assert len(client.get(f"/games/{game_id}/result.json").get_json()["hands"]) == 1


def test_a_rename_sent_with_the_pages_etag_in_if_none_match_is_written(
    client: FlaskClient,
) -> None:
    game_id = a_game(client)
    etag = client.get(f"/games/{game_id}/manage").headers["ETag"]
    renamed = client.post(
        f"/games/{game_id}/rename", data={"game-name": "Friday"}, headers={"If-None-Match": etag}
    )
    assert renamed.status_code == 302
    assert "Friday" in client.get(f"/games/{game_id}").text
