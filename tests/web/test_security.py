"""Every answer tells the browser to load nothing from another site, never to be framed, never to
guess a type and never to tell another site where it was; cookies stay on this app's own pages;
backups and exports are never stored; the server does not name its software."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.web.http.security import HEADERS
from tests.reliability.live import served

from .apps import TEST_CONFIG, built_app
from .helpers import Actions

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.fixture
def failing_app() -> Iterator[Flask]:
    """The app with a page that fails, answered as a real server answers it (not re-raised)."""
    app = built_app({**TEST_CONFIG, "PROPAGATE_EXCEPTIONS": False})

    @app.get("/fails")
    def fails() -> str:
        raise RuntimeError("a bug")

    yield app


def read(response: TestResponse) -> TestResponse:
    """The answer read whole and closed (a static file is sent from an open file)."""
    response.get_data()
    response.close()
    return response


def a_page(client: FlaskClient) -> TestResponse:
    return client.get("/")


def not_modified(client: FlaskClient) -> TestResponse:
    path = f"/games/{Actions(client).new_game()}"
    tag = client.get(path).headers["ETag"]
    response = client.get(path, headers={"If-None-Match": tag})
    assert response.status_code == 304
    return response


def not_found(client: FlaskClient) -> TestResponse:
    response = client.get("/games/no-such-game")
    assert response.status_code == 404
    return response


def server_error(client: FlaskClient) -> TestResponse:
    response = client.get("/fails")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    return response


def refused_form(client: FlaskClient) -> TestResponse:
    response = client.post("/restore", data={})
    assert response.status_code == 422
    return response


def a_static_file(client: FlaskClient) -> TestResponse:
    return read(client.get("/static/js/page.js"))


def json_answer(client: FlaskClient) -> TestResponse:
    response = client.get(f"/games/{Actions(client).new_game()}/result.json")
    assert response.is_json
    return response


def json_error(client: FlaskClient) -> TestResponse:
    response = client.post("/games/import", json=[])
    assert response.status_code == 400
    assert response.is_json
    return response


def a_redirect(client: FlaskClient) -> TestResponse:
    response = client.post("/language", data={"lang": "es", "next": "/"})
    assert response.status_code == 302
    return response


EVERY_KIND: dict[str, Callable[[FlaskClient], TestResponse]] = {
    "page": a_page,
    "304": not_modified,
    "404": not_found,
    "500": server_error,
    "422": refused_form,
    "static": a_static_file,
    "JSON": json_answer,
    "JSON error": json_error,
    "redirect": a_redirect,
}


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_every_kind_of_answer_carries_the_security_headers(failing_app: Flask, kind: str) -> None:
    response = EVERY_KIND[kind](failing_app.test_client())
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "Server" not in response.headers


def test_a_foreign_host_is_refused_with_the_headers_too() -> None:
    app = built_app({**TEST_CONFIG, "TRUSTED_HOSTS": ["scores.example.org"]})
    response = app.test_client().get("/", headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert response.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]


def test_no_template_has_inline_script_or_style() -> None:
    """What `default-src 'self'` would block: a script or style written into the page."""
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        for inline in ("<script>", "<style", " style=", "javascript:"):
            assert inline not in text, (template.name, inline)
        assert not any(f" on{event}=" in text for event in ("click", "load", "submit", "change"))
        for script in text.split("<script")[1:]:
            assert script.lstrip().removeprefix('type="module" ').startswith("src="), template.name


def set_cookies(response: TestResponse, name: str) -> list[str]:
    return [c for c in response.headers.getlist("Set-Cookie") if c.startswith(f"{name}=")]


def test_the_session_cookie_is_same_site_and_out_of_scripts_reach(client: FlaskClient) -> None:
    (cookie,) = set_cookies(client.get("/"), "session")
    assert "SameSite=Lax" in cookie
    assert "HttpOnly" in cookie


def test_the_language_cookie_is_same_site_and_out_of_scripts_reach(client: FlaskClient) -> None:
    (cookie,) = set_cookies(client.post("/language", data={"lang": "es"}), "lang")
    assert "SameSite=Lax" in cookie
    assert "HttpOnly" in cookie


def not_kept_addresses(client: FlaskClient) -> list[str]:
    game_id = Actions(client).new_game()
    return [
        "/backup.json",
        f"/games/{game_id}/export.json",
        f"/games/{game_id}/export.csv",
        f"/games/{game_id}/result.json",
    ]


def test_backups_and_exports_are_never_stored(client: FlaskClient) -> None:
    for path in not_kept_addresses(client):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.cache_control.no_store, path


def test_an_export_answered_not_modified_is_not_stored_either(client: FlaskClient) -> None:
    for path in not_kept_addresses(client)[1:]:
        tag = client.get(path).headers["ETag"]
        again = client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304, path
        assert again.cache_control.no_store, path


def test_pages_of_a_game_are_stored_to_be_checked_again(client: FlaskClient) -> None:
    response = client.get(f"/games/{Actions(client).new_game()}")
    assert response.cache_control.no_cache
    assert not response.cache_control.no_store


def test_the_server_names_no_software(app: Flask) -> None:
    with served(app) as base_url, urllib.request.urlopen(base_url + "/") as response:
        assert response.status == 200
        assert response.headers["Server"] is None
        assert response.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
