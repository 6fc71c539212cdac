"""The guards of a table with a PIN, tried as phones try them: a renewed link, a phone that signs
out, a join link that would lock the table out, and how long a phone is remembered.

Everything goes through the test client, as sharing.py's steps do."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient

from .sharing import PIN, a_game, links, opened, with_a_pin


def test_a_renewed_follow_link_no_longer_watches(app: Flask, client: FlaskClient) -> None:
    table = with_a_pin(client)
    game_id = a_game(table)
    old = links(table, game_id)
    watching = opened(app, "follow", old["follow"])
    assert watching.get(f"/games/{game_id}/follow").status_code == 200

    assert table.post(f"/games/{game_id}/share/renew").status_code == 302

    assert watching.get(f"/games/{game_id}/follow").status_code == 403
    assert watching.get(f"/games/{game_id}/state.json").status_code == 403
    assert app.test_client().get(f"/follow/{old['follow']}").status_code == 404
    new = links(table, game_id)
    assert new["follow"] != old["follow"]
    renewed = opened(app, "follow", new["follow"])
    assert renewed.get(f"/games/{game_id}/follow").status_code == 200


def test_a_phone_that_signs_out_loses_its_share_links_too(app: Flask, client: FlaskClient) -> None:
    table = with_a_pin(client)
    joined, followed = a_game(table), a_game(table)
    phone = opened(app, "join", links(table, joined)["join"])
    opened(app, "follow", links(table, followed)["follow"], phone)
    assert phone.get(f"/games/{joined}/hands/new").status_code == 200
    assert phone.get(f"/games/{followed}/follow").status_code == 200

    assert phone.post("/pin/forget").status_code == 302

    assert phone.get(f"/games/{joined}/hands/new").status_code == 403
    assert phone.get(f"/games/{joined}/follow").status_code == 403
    assert phone.get(f"/games/{followed}/follow").status_code == 403


def test_a_phone_with_a_join_link_may_not_renew_the_links(app: Flask, client: FlaskClient) -> None:
    table = with_a_pin(client)
    game_id = a_game(table)
    before = links(table, game_id)
    phone = opened(app, "join", before["join"])

    assert phone.post(f"/games/{game_id}/share/renew").status_code == 403
    assert phone.get(f"/games/{game_id}/share").status_code == 403

    assert links(table, game_id) == before
    assert phone.get(f"/games/{game_id}/hands/new").status_code == 200  # still at the table


def test_a_phone_that_enters_the_pin_is_remembered_for_a_year(
    app: Flask, client: FlaskClient
) -> None:
    with_a_pin(client)
    phone = app.test_client()
    assert phone.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    cookie = phone.get_cookie("session")
    assert cookie is not None and cookie.expires is not None
    remembered = cookie.expires - datetime.now(UTC)
    assert timedelta(days=363) < remembered < timedelta(days=367), remembered
    assert phone.get("/stats").status_code == 200


def test_a_read_answered_after_a_write_leaves_the_write_s_session_as_it_was(
    app: Flask, client: FlaskClient
) -> None:
    """A phone's page loads its scripts, polls, follows: a read it sent with the session it held
    then may be answered after a write it sent next (a button's notice, a sign-in). Such a read
    sends no session back, so the browser keeps the write's, and its notice is shown (a
    remembered session sent back by every answer once undid the end of a club night's round:
    its notices never shown)."""
    table = with_a_pin(client)
    game_id = a_game(table)
    held = session_cookie(table)
    archived = table.post(f"/games/{game_id}/archive")  # its notice waits in the session
    assert archived.status_code == 302
    for late in ("/static/style.css", f"/games/{game_id}", f"/games/{game_id}/state.json", "/"):
        latest = session_cookie(table)
        table.set_cookie("session", held)  # sent before the write, answered after it
        answer = table.get(late)
        assert answer.status_code == 200, late
        assert "Set-Cookie" not in answer.headers, late
        table.set_cookie("session", latest)  # what the browser holds: the write's
    assert "Archived" in table.get(archived.headers["Location"]).text


def session_cookie(phone: FlaskClient) -> str:
    cookie = phone.get_cookie("session")
    assert cookie is not None
    return cookie.value
