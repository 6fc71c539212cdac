"""Pages, styles and scripts travel gzipped to browsers that accept it."""

from __future__ import annotations

import gzip
import re

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.web.presenters import parts

from .helpers import game_of, without_tokens

pytestmark = pytest.mark.once  # gzip is the same whatever the database


def fetch(client: FlaskClient, path: str, headers: dict[str, str] | None = None) -> TestResponse:
    """A response read whole and closed, so that no static file is left open."""
    with client.get(path, headers=headers or {}) as response:
        response.get_data()
    return response


def without_csrf_tokens(body: bytes) -> bytes:
    """The page with its CSRF tokens blanked: a token carries the second it was signed, so two
    requests either side of a second's turn write two tokens."""
    return re.sub(rb'(name="csrf_token"[^>]*value=")[^"]*', rb"\1", body)


@pytest.mark.parametrize("path", ["/games/new", "/rules/classic", "/static/style.css"])
def test_a_page_or_file_is_gzipped_for_a_browser_that_accepts_it(
    client: FlaskClient, path: str
) -> None:
    with client.get(path) as plain, client.get(path, headers={"Accept-Encoding": "gzip"}) as zipped:
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in zipped.headers["Vary"]
        assert without_csrf_tokens(gzip.decompress(zipped.data)) == without_csrf_tokens(plain.data)
        assert len(zipped.data) < len(plain.data)


def test_nothing_is_gzipped_for_a_client_that_does_not_ask(client: FlaskClient) -> None:
    response = client.get("/games/new")
    assert "Content-Encoding" not in response.headers
    assert b"<html" in response.data


@pytest.mark.parametrize(
    "accept",
    ["*", "GZIP", "gzip;q=0.5", "br, gzip;q=0.8", "gzip, identity;q=0.5", "gzip, identity;q=0"],
)
def test_gzip_goes_to_every_client_whose_accept_encoding_takes_it(
    client: FlaskClient, accept: str
) -> None:
    response = fetch(client, "/games/new", headers={"Accept-Encoding": accept})
    assert response.headers["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(response.data)


@pytest.mark.parametrize(
    "accept",
    [
        "gzip;q=0",
        "gzip;q=0.0, deflate",
        "*;q=0",
        "gzip;q=0, *",
        "gzip;q=0.5, identity",
        "deflate, br",
    ],
)
def test_no_gzip_for_a_client_that_refuses_it_or_prefers_the_plain_body(
    client: FlaskClient, accept: str
) -> None:
    response = fetch(client, "/games/new", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in response.headers
    assert b"<html" in response.data


def test_a_range_is_the_uncompressed_bytes_it_counts(client: FlaskClient) -> None:
    whole = fetch(client, "/static/style.css").data
    part = fetch(
        client, "/static/style.css", headers={"Accept-Encoding": "gzip", "Range": "bytes=0-1999"}
    )
    assert part.status_code == 206
    assert "Content-Encoding" not in part.headers
    assert part.headers["Content-Range"] == f"bytes 0-1999/{len(whole)}"
    assert part.data == whole[:2000]


def test_a_range_request_answered_whole_is_not_gzipped_either(client: FlaskClient) -> None:
    """Pages do not serve ranges: the whole page comes back, as it is (a documented choice)."""
    response = fetch(
        client, "/games/new", headers={"Accept-Encoding": "gzip", "Range": "bytes=0-9"}
    )
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert b"<html" in response.data


def test_a_gzipped_file_does_not_offer_ranges_of_its_gzipped_bytes(client: FlaskClient) -> None:
    plain = fetch(client, "/static/style.css")
    zipped = fetch(client, "/static/style.css", headers={"Accept-Encoding": "gzip"})
    assert plain.headers["Accept-Ranges"] == "bytes"
    assert "Accept-Ranges" not in zipped.headers


@pytest.mark.parametrize("headers", [{}, {"Accept-Encoding": "gzip"}, {"Accept-Encoding": "br"}])
def test_a_page_says_its_body_depends_on_accept_encoding_whichever_was_sent(
    client: FlaskClient, headers: dict[str, str]
) -> None:
    response = fetch(client, "/games/new", headers=headers)
    assert "Accept-Encoding" in response.headers["Vary"]


def test_each_encoding_of_a_file_has_its_own_etag(client: FlaskClient) -> None:
    plain = fetch(client, "/static/style.css")
    zipped = fetch(client, "/static/style.css", headers={"Accept-Encoding": "gzip"})
    assert plain.headers["ETag"] != zipped.headers["ETag"]
    assert zipped.get_etag() == (f"{plain.get_etag()[0]}-gzip", False)


def test_a_browser_revalidating_its_gzipped_copy_is_told_it_has_not_changed(
    client: FlaskClient,
) -> None:
    etag = fetch(client, "/static/style.css", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    again = fetch(
        client, "/static/style.css", headers={"Accept-Encoding": "gzip", "If-None-Match": etag}
    )
    assert again.status_code == 304
    assert again.headers["ETag"] == etag
    assert again.data == b""


def test_a_gzipped_etag_does_not_validate_the_plain_file(client: FlaskClient) -> None:
    etag = fetch(client, "/static/style.css", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    plain = fetch(client, "/static/style.css", headers={"If-None-Match": etag})
    assert plain.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert plain.data == fetch(client, "/static/style.css").data


@pytest.mark.parametrize("hands", [3, 60])
@pytest.mark.parametrize("page", ["", "/follow", "/hands/new"])
def test_a_kept_page_gzipped_is_the_page_sent_plain(
    client: FlaskClient, hands: int, page: str
) -> None:
    """A long kept page is compressed in three parts, its long middle once for every answer
    (presenters/parts.py): unpacked, each answer is the page as sent uncompressed."""
    game_id = game_of(client, hands)
    url = f"/games/{game_id}{page}?saved={hands}" if not page else f"/games/{game_id}{page}"
    plain = fetch(client, url)
    packed = fetch(client, url, {"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    unpacked = gzip.decompress(packed.data)
    assert without_tokens(unpacked.decode()) == without_tokens(plain.text)
    assert len(packed.data) < len(unpacked) / 2


def test_a_kept_part_gzipped_is_its_text_whatever_fills_its_holes() -> None:
    rows = (b"<tr><td>%d</td><td>1,250</td><td>-300</td></tr>\n" % n for n in range(900))
    long_run = b"".join(rows)
    kept = parts.Kept(
        [parts.Piece(b"<head>"), "csrf", parts.Piece(b"</head>"), "notice"]
        + [parts.Piece(long_run[n : n + 5000]) for n in range(0, len(long_run), 5000)]
        + ["token", parts.Piece(long_run[-3000:] + b"</html>")]
    )
    assert kept.run is not None  # its long middle is compressed once
    for values in [
        {"csrf": "", "notice": "", "token": ""},
        {"csrf": "a" * 90, "notice": "<p>Hand 7 saved.</p>", "token": "1,250</td>" * 20},
    ]:
        assert gzip.decompress(kept.gzipped(values)) == kept.text(values)
