"""What a table with a PIN does through its pages, for the tests of its guards: set the PIN,
import a game, read the share links off the share page, and open one on a phone."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

PIN = "2468"
GOES_OUT = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
STAYS_IN = {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30}


def with_a_pin(table: FlaskClient) -> FlaskClient:
    """The table sets its PIN on the settings page (the phone that set it knows it), and reads
    the notice that says so (a page with a notice still to show is never answered 304)."""
    answer = table.post("/settings/pin", data={"new": PIN, "again": PIN})
    assert answer.status_code == 302, answer.text
    assert "The PIN is set" in table.get(answer.headers["Location"]).text
    return table


def a_game(table: FlaskClient, hands: int = 0) -> str:
    """A classic game of `hands` hands, imported by the table as a game file; its id."""
    data: dict[str, Any] = {
        "variant": "classic",
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        "hands": [{"entries": [GOES_OUT, STAYS_IN]} for _ in range(hands)],
    }
    answer = table.post("/games/import", json=data)
    assert answer.status_code == 201, answer.text
    game_id: str = answer.get_json()["id"]
    return game_id


def first_hand(table: FlaskClient, game_id: str) -> int:
    """The id of the game's first hand, as its scoreboard links it."""
    found = re.search(r'<tr id="hand-(\d+)">', table.get(f"/games/{game_id}").text)
    assert found, "no hand on the scoreboard"
    return int(found.group(1))


def links(table: FlaskClient, game_id: str) -> dict[str, str]:
    """The game's share links as the share page shows them: kind (follow, join) → token."""
    page = table.get(f"/games/{game_id}/share").text
    found = dict(re.findall(r'data-share="(follow|join)" href="http://localhost/\1/([^"]+)"', page))
    assert found.keys() == {"follow", "join"}, page
    return found


def opened(app: Flask, kind: str, token: str, phone: FlaskClient | None = None) -> FlaskClient:
    """A phone (a new one unless given) that opened a share link."""
    phone = phone or app.test_client()
    assert phone.get(f"/{kind}/{token}").status_code == 302
    return phone
