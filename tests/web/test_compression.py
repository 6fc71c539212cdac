"""Pages, styles and scripts travel gzipped to browsers that accept it."""

from __future__ import annotations

import gzip

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize("path", ["/games/new", "/rules/classic", "/static/style.css"])
def test_a_page_or_file_is_gzipped_for_a_browser_that_accepts_it(
    client: FlaskClient, path: str
) -> None:
    with client.get(path) as plain, client.get(path, headers={"Accept-Encoding": "gzip"}) as zipped:
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in zipped.headers["Vary"]
        assert gzip.decompress(zipped.data) == plain.data
        assert len(zipped.data) < len(plain.data)


def test_nothing_is_gzipped_for_a_client_that_does_not_ask(client: FlaskClient) -> None:
    response = client.get("/games/new")
    assert "Content-Encoding" not in response.headers
    assert b"<html" in response.data
