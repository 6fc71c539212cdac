"""Host headers no browser sends: a 400 with a plain page, whatever the address asked for."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from .apps import TEST_CONFIG, built_app
from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields

pytestmark = pytest.mark.once  # a Host header is refused before the database is asked

NOT_HOST_NAMES = [
    "a" * 64 + ".example",  # a label over the 63 characters a host name's label may have
    "a" * 64 + ".example:5000",
    "a..b",  # an empty label
    ".",
]


def addresses(client: FlaskClient) -> list[tuple[str, str]]:
    """A read and a write of every kind: the home page, a scoreboard, a hand's form and its
    Save, a game file's import, a game's result as JSON and the stylesheet."""
    game_id = Actions(client).new_game()
    return [
        ("GET", "/"),
        ("GET", f"/games/{game_id}"),
        ("GET", f"/games/{game_id}/hands/new"),
        ("POST", f"/games/{game_id}/hands/new"),
        ("POST", "/games/import"),
        ("GET", f"/games/{game_id}/result.json"),
        ("GET", "/static/style.css"),
    ]


def sent(client: FlaskClient, method: str, path: str, host: str) -> TestResponse:
    """The answer to a request with this Host, read whole and closed (a static file is open)."""
    data = hand_fields([GOES_OUT, STAYS_IN]) if method == "POST" else None
    with client.open(path, method=method, data=data, headers={"Host": host}) as response:
        response.get_data()
    return response


@pytest.mark.parametrize("host", NOT_HOST_NAMES)
def test_a_host_that_is_no_host_name_is_a_bad_request_with_a_plain_page(
    client: FlaskClient, host: str
) -> None:
    for method, path in addresses(client):
        response = sent(client, method, path, host)
        assert response.status_code == 400, (method, path)
        assert "Something went wrong" in response.text, (method, path)
        assert "Traceback" not in response.text


@pytest.mark.parametrize("host", NOT_HOST_NAMES)
def test_a_form_sent_to_a_host_that_is_no_host_name_is_a_bad_request_with_csrf_on(
    csrf_client: FlaskClient, host: str
) -> None:
    game = {"variant": "classic", "sides": [{"name": "Us"}, {"name": "Them"}], "hands": []}
    game_id = csrf_client.post("/games/import", json=game).get_json()["id"]
    response = sent(csrf_client, "POST", f"/games/{game_id}/hands/new", host)
    assert response.status_code == 400
    assert "Something went wrong" in response.text


@pytest.mark.parametrize("host", ["localhost:5000", "[::1]:5000", "192.168.1.20", "a" * 63 + ".b"])
def test_a_host_name_is_served(client: FlaskClient, host: str) -> None:
    assert sent(client, "GET", "/", host).status_code == 200


@pytest.mark.parametrize("host", ["exämple.com", "ä" * 64 + ".example", "a b", "a/b", ""])
def test_a_host_of_other_characters_is_never_a_server_error(client: FlaskClient, host: str) -> None:
    # Werkzeug reads a Host of characters no host name has as no Host at all.
    for method, path in addresses(client):
        response = sent(client, method, path, host)
        assert response.status_code < 500, (method, path)
        assert "Traceback" not in response.text


# --- trusted hosts: what `scorekeeper serve` and SCOREKEEPER_TRUSTED_HOSTS set ---------------

TRUSTED = ["scores.example.org", "192.168.1.20", "localhost", "127.0.0.1"]


@pytest.fixture
def trusting_client() -> FlaskClient:
    """A client of the app as served: answering the hosts in TRUSTED only (the test client's
    own host is localhost)."""
    return built_app({**TEST_CONFIG, "TRUSTED_HOSTS": TRUSTED}).test_client()


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:5000",
        "scores.example.org.evil.example",
        "192.168.1.21:5000",
        "10.0.0.1",
        "localhost.evil.example",
        *NOT_HOST_NAMES,
        "exämple.com",
        "a b",
        "a/b",
        "",
    ],
)
def test_a_host_not_trusted_is_a_bad_request_with_a_plain_page(
    trusting_client: FlaskClient, host: str
) -> None:
    for method, path in addresses(trusting_client):
        response = sent(trusting_client, method, path, host)
        assert response.status_code == 400, (method, path)
        assert "Traceback" not in response.text
        if path.endswith(".json"):
            assert response.get_json()["error"] == "Something went wrong"
        else:
            assert "Something went wrong" in response.text, (method, path)
            assert "<a " not in response.text  # no address of this app for another host


@pytest.mark.parametrize(
    "host", ["scores.example.org", "scores.example.org:5000", "192.168.1.20:5000", "localhost:5000"]
)
def test_a_trusted_host_is_served_on_any_port(trusting_client: FlaskClient, host: str) -> None:
    for method, path in addresses(trusting_client):
        response = sent(trusting_client, method, path, host)
        # The import is sent a hand's fields, not a game file: 415, as on any host.
        assert response.status_code in (200, 302, 415), (method, path, response.text)


def test_a_foreign_host_writes_nothing(trusting_client: FlaskClient) -> None:
    game_id = Actions(trusting_client).new_game()
    sent(trusting_client, "POST", f"/games/{game_id}/hands/new", "evil.example")
    result = trusting_client.get(f"/games/{game_id}/result.json", headers={"Host": TRUSTED[0]})
    assert result.get_json()["hands"] == []
