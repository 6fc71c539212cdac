"""Pages kept whole (presenters/parts.py): drawn once for every visitor, with holes for what
differs per visitor, and sent gzipped from blocks compressed once."""

from __future__ import annotations

import gzip
import re

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf

from scorekeeper.web.presenters import parts

from .helpers import GOES_OUT, STAYS_IN, Actions, game_of

KEPT_PAGES = ["", "?saved=7", "?saved=2", "/follow", "/display", "/hands/new"]


def tokens(page: str) -> list[str]:
    return re.findall(r'name="(?:csrf_token|token)"[^>]*value="([^"]*)"', page)


@pytest.mark.parametrize("page", KEPT_PAGES)
def test_a_kept_page_sent_gzipped_is_the_page_sent_whole(csrf_app: Flask, page: str) -> None:
    client = csrf_app.test_client()
    game_id = game_of(client, 7)
    whole = client.get(f"/games/{game_id}{page}")
    zipped = client.get(f"/games/{game_id}{page}", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "gzip" not in whole.headers.get(
        "Content-Encoding", ""
    )
    assert (
        "Accept-Encoding" in zipped.headers["Vary"] and "Accept-Encoding" in whole.headers["Vary"]
    )
    assert zipped.headers["ETag"] == whole.headers["ETag"]
    text = gzip.decompress(zipped.data).decode()
    assert tokens(text) and all(tokens(text)) and len(tokens(text)) == len(tokens(whole.text))
    for mine, theirs in zip(tokens(text), tokens(whole.text), strict=True):
        text = text.replace(mine, theirs, 1)
    assert text == whole.text


def test_a_kept_page_with_a_long_hole_is_gzipped_whole(app: Flask) -> None:
    """A hole's stored blocks hold at most 65,535 bytes each."""
    with app.test_request_context():
        page = parts.draw(lambda: f"<p>{parts.hole('long')}</p>")
    filled = {"long": "é" * 70_000}
    assert (
        gzip.decompress(page.gzipped(filled))
        == page.text(filled)
        == f"<p>{'é' * 70_000}</p>".encode()
    )


def test_a_visitors_csrf_token_never_goes_into_a_kept_part(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawn into what every visitor gets, a token would let them all post as its visitor: the
    drawing refuses it (were the template's `csrf_token()` Flask-WTF's rather than the hole)."""
    game_id = game_of(client, 1)
    monkeypatch.setattr("scorekeeper.web.templating.csrf_token", generate_csrf)
    with pytest.raises(ValueError, match="CSRF token drawn into a kept part"):
        client.get(f"/games/{game_id}")


def test_a_hand_saved_draws_the_last_block_of_the_table_of_hands_alone(
    app: Flask, client: FlaskClient
) -> None:
    """The saving phone's scoreboard and its followers' share every block of rows: the new hand
    draws its own block, whatever the length of the game (blocks of 20 rows)."""
    game_id = game_of(client, 45)
    client.get(f"/games/{game_id}")
    drawn: list[str] = []

    def seen(_sender: Flask, template: object, **_extra: object) -> None:
        drawn.append(str(getattr(template, "name", template)))

    saved = Actions(client).post_hand(game_id, [STAYS_IN, GOES_OUT], "out-1")
    template_rendered.connect(seen, app)
    try:
        assert client.get(saved.headers["Location"]).status_code == 200
        for follower in (app.test_client(), app.test_client()):
            assert "Hand 47" in follower.get(f"/games/{game_id}").text
    finally:
        template_rendered.disconnect(seen, app)
    assert drawn.count("games/_hand_rows.html") == 1
    assert drawn.count("games/_scoreboard.html") == 2  # the saver's notice, the followers' none
