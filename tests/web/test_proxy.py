"""Behind a reverse proxy (`SCOREKEEPER_PROXY_FIX`): the phone's address and https come from the
proxy's headers; without the setting, those headers are anyone's and are ignored."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import PinAttempt

from .apps import TEST_CONFIG, built_app
from .helpers import game_of

PIN = "2468"
FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}


def behind(proxies: int) -> Flask:
    return built_app({**TEST_CONFIG, "PIN": PIN, "PROXY_FIX": proxies})


def guessed_from(app: Flask, headers: dict[str, str]) -> list[str]:
    """The addresses the app counted a wrong PIN against."""
    app.test_client().post("/pin", data={"pin": "0000", "next": "/"}, headers=headers)
    with app.app_context():
        return sorted(attempt.address for attempt in db.session.query(PinAttempt))


def share_links(app: Flask, headers: dict[str, str]) -> str:
    """The share page of a new game, as a phone at the table opens it through the proxy."""
    table: FlaskClient = app.test_client()
    assert table.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    game_id = game_of(table, 1)
    page = table.get(f"/games/{game_id}/share", headers=headers)
    assert page.status_code == 200
    return page.text


def test_behind_a_proxy_wrong_pins_are_counted_against_the_phones_address() -> None:
    assert guessed_from(behind(1), FORWARDED) == ["203.0.113.7"]


def test_behind_a_proxy_only_the_address_the_proxy_added_is_believed() -> None:
    """A phone can send its own X-Forwarded-For; the proxy adds the address it saw last."""
    headers = {"X-Forwarded-For": "198.51.100.1, 203.0.113.7"}
    assert guessed_from(behind(1), headers) == ["203.0.113.7"]


def test_without_a_proxy_a_forwarded_address_is_ignored() -> None:
    assert guessed_from(behind(0), FORWARDED) == ["127.0.0.1"]


def test_behind_a_proxy_that_speaks_https_the_share_links_are_https() -> None:
    page = share_links(behind(1), FORWARDED)
    assert "https://localhost/join/" in page
    assert "http://localhost/join/" not in page


def test_without_a_proxy_a_forwarded_https_is_ignored() -> None:
    page = share_links(behind(0), FORWARDED)
    assert "http://localhost/join/" in page
    assert "https://localhost/join/" not in page


def test_behind_a_proxy_a_forwarded_host_cannot_get_past_the_trusted_hosts() -> None:
    app = built_app({**TEST_CONFIG, "PROXY_FIX": 1, "TRUSTED_HOSTS": ["scores.example.org"]})
    client = app.test_client()
    trusted = {"Host": "scores.example.org"}
    assert client.get("/rules", headers=trusted).status_code == 200
    forged = {"Host": "evil.example", "X-Forwarded-Host": "scores.example.org"}
    assert client.get("/rules", headers=forged).status_code == 400
