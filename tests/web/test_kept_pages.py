"""Pages kept whole (presenters/parts.py): drawn once for every visitor, with holes for what
differs per visitor, and sent gzipped as the page sent whole."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf

from scorekeeper.web.presenters import parts

from .apps import TEST_CONFIG, built_app, database_url
from .helpers import GOES_OUT, STAYS_IN, Actions, game_of, without_tokens

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
    draws its own row alone, whatever the length of the game (blocks of 20 rows)."""
    game_id = game_of(client, 45)
    client.get(f"/games/{game_id}")
    drawn: list[str] = []
    rows_drawn: list[int] = []

    def seen(_sender: Flask, template: object, context: dict[str, object], **_: object) -> None:
        drawn.append(str(getattr(template, "name", template)))
        if drawn[-1] == "games/_hand_rows.html":
            rows_drawn.append(len(context["rows"]))  # type: ignore[arg-type]

    saved = Actions(client).post_hand(game_id, [STAYS_IN, GOES_OUT], "out-1")
    template_rendered.connect(seen, app)
    try:
        assert client.get(saved.headers["Location"]).status_code == 200
        for follower in (app.test_client(), app.test_client()):
            assert "Hand 47" in follower.get(f"/games/{game_id}").text
    finally:
        template_rendered.disconnect(seen, app)
    assert drawn.count("games/_hand_rows.html") == 1
    assert rows_drawn == [1]  # the new hand's row, on its block as it was kept a hand ago
    assert drawn.count("games/_scoreboard.html") == 1  # the saver's notice is a hole in it
    assert "games/scoreboard.html" not in drawn  # the page around it is kept across revisions


def test_a_block_of_rows_drawn_a_row_at_a_time_is_the_block_drawn_whole(tmp_path: Path) -> None:
    """The scoreboard of a table that saved hand after hand (each block of rows the block kept
    a hand ago and the new row) is the one another process draws whole from the same game."""
    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "rows.db")}
    playing, fresh = built_app(config), built_app(config)
    client = playing.test_client()
    game_id = game_of(client, 38)
    board = f"/games/{game_id}"
    client.get(board)
    for n in range(4):  # hands 39 to 42: the second block filled, the third begun
        sides = [STAYS_IN, GOES_OUT] if n % 2 == 0 else [GOES_OUT, STAYS_IN]
        Actions(client).record_hand(game_id, sides, f"out-{1 - n % 2}")
        assert client.get(board).status_code == 200
    played = without_tokens(client.get(board).text)
    assert 'id="hand-' in played and "Hand 43" in played
    assert played == without_tokens(fresh.test_client().get(board).text)


@pytest.mark.parametrize("page", ["", "/follow", "/display"])
def test_a_following_pages_frame_kept_across_revisions_shows_the_game_renamed(
    client: FlaskClient, page: str
) -> None:
    """The frame around a following page's body is kept while the body changes with each
    hand: under the game's title, so a rename (its tab's title) draws it again."""
    game_id = game_of(client, 2)
    address = f"/games/{game_id}{page}"
    assert "Los jueves" not in client.get(address).text  # its frame kept
    client.post(f"/games/{game_id}/rename", data={"game-name": "Los jueves"})
    assert "<title>Los jueves — Samba Scorekeeper</title>" in client.get(address).text


def test_a_hand_saved_compresses_the_saving_phones_page_alone(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scoreboard's body is taken into its page and its streams' news, never sent alone:
    its long text is compressed for the page it is in, not for itself too."""
    game_id = game_of(client, 45)
    gzipped = {"Accept-Encoding": "gzip"}
    client.get(f"/games/{game_id}", headers=gzipped)
    compressed: list[int] = []
    real = parts._longest_run

    def counted(pieces: parts.Pieces) -> object:
        compressed.append(len(pieces))
        return real(pieces)

    monkeypatch.setattr(parts, "_longest_run", counted)
    saved = Actions(client).post_hand(game_id, [STAYS_IN, GOES_OUT], "out-1")
    page = client.get(saved.headers["Location"], headers=gzipped)
    assert "Hand 46 saved." in gzip.decompress(page.data).decode()
    assert len(compressed) == 1


def test_a_hand_saved_compresses_what_it_drew_anew(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The blocks of rows a hand leaves as they were are compressed once, not at every hand:
    the saving phone's page compresses its new block and the text around the rows, and is
    still the page sent whole."""
    game_id = game_of(client, 80)
    gzipped = {"Accept-Encoding": "gzip"}
    client.get(f"/games/{game_id}", headers=gzipped)
    compressed: list[int] = []
    real = parts._deflated

    def counted(text: bytes, before: bytes) -> bytes:
        compressed.append(len(text))
        return real(text, before)

    monkeypatch.setattr(parts, "_deflated", counted)
    saved = Actions(client).post_hand(game_id, [STAYS_IN, GOES_OUT], "out-1")
    page = gzip.decompress(client.get(saved.headers["Location"], headers=gzipped).data)
    assert without_tokens(page.decode()) == without_tokens(
        client.get(saved.headers["Location"]).text
    )
    rows = page[page.index(b'<table class="hands">') : page.index(b"</table>")]
    assert 0 < sum(compressed) < len(page) - len(rows) / 2


NOTICE = '<p class="notice" role="status">'
LIT = 'class="total changed"'


def test_only_the_phone_that_saved_the_hand_sees_its_notice_in_the_one_drawing(
    app: Flask, client: FlaskClient
) -> None:
    """The saver's scoreboard and its followers' are one drawing: the notice and the scores lit
    up are holes, filled for the address that names the last hand alone, whoever asked first."""
    game_id = game_of(client, 3)
    board = f"/games/{game_id}"
    first, later = app.test_client(), app.test_client()
    saved = Actions(client).post_hand(game_id, [STAYS_IN, GOES_OUT], "out-1")
    assert saved.headers["Location"] == f"{board}?saved=4"
    before = first.get(board).text  # a follower asks before the saver
    page = client.get(saved.headers["Location"]).text
    after = later.get(board).text
    assert page.count(NOTICE) == 1 and "Hand 4 saved." in page and LIT in page
    for other in (before, after, client.get(f"{board}?saved=3").text):
        assert NOTICE not in other and "saved." not in other and LIT not in other
    # The language switch brings each back where it was, query and all.
    assert f'name="next" value="{board}?saved=4"' in page
    assert f'name="next" value="{board}?"' in after
    unsaved = page.replace(" changed", "").replace(f"{NOTICE}Hand 4 saved.</p>", "")
    assert without_tokens(unsaved.replace("?saved=4", "?")) == without_tokens(after)


def test_kept_parts_are_kept_apart_by_language(tmp_path: Path) -> None:
    """A page drawn in one language after the other shows none of the other's words or
    numbers: as a process that drew only that language draws it."""
    url = database_url(tmp_path, "languages.sqlite3")
    here = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    game_id = game_of(here.test_client(), 25)  # totals in the thousands: separators differ
    asked = {}
    there = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    for app, languages in ((here, ("en", "es")), (there, ("es", "en"))):
        for language in languages:  # each drawn first in one app, second in the other
            phone = app.test_client()
            phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
            for page in ("", "?saved=25", "/follow", "/display", "/hands/new"):
                text = without_tokens(phone.get(f"/games/{game_id}{page}").text)
                asked.setdefault((language, page), set()).add(text)
    assert all(len(texts) == 1 for texts in asked.values()), [
        key for key, texts in asked.items() if len(texts) > 1
    ]
    assert asked["es", ""] != asked["en", ""]
