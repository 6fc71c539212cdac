"""A game's pages ask the database the same few things whether it has 5 hands or 60.

Counts of SQL statements, not times, so that a slow machine cannot fail them; the times are
`benchmarks/pages.py`'s.
"""

from __future__ import annotations

import pytest
from babel.numbers import format_decimal
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.wording import number

from .apps import statements
from .helpers import game_of

MOST_STATEMENTS = 5


PAGES = [
    pytest.param("/games/{game}", id="scoreboard"),
    pytest.param("/games/{game}/hands/new", id="hand form"),
    pytest.param("/games/{game}/hands/{hand}", id="a hand's breakdown"),
    pytest.param("/games/{game}/hands/{hand}/edit", id="a hand's correction form"),
]


def hand_of(client: FlaskClient, game_id: str) -> int:
    """The id of the game's first hand, as the scoreboard links it."""
    page = client.get(f"/games/{game_id}").text
    return int(page.split('<tr id="hand-', 1)[1].split('"', 1)[0])


@pytest.mark.parametrize("page", PAGES)
def test_a_game_page_runs_a_few_statements_whatever_the_number_of_hands(
    app: Flask, client: FlaskClient, page: str
) -> None:
    counts = {}
    for hands in (5, 60):
        game_id = game_of(client, hands)
        url = page.format(game=game_id, hand=hand_of(client, game_id))
        with statements(app) as seen:
            response = client.get(url)
        assert response.status_code == 200
        counts[hands] = len(seen)
    assert counts[5] <= MOST_STATEMENTS, counts
    assert counts[5] == counts[60], counts


def test_a_correction_shown_on_the_scoreboard_costs_no_statement_per_hand(
    app: Flask, client: FlaskClient
) -> None:
    counts = {}
    for hands in (5, 60):
        game_id = game_of(client, hands)
        hand_id = hand_of(client, game_id)
        form = client.get(f"/games/{game_id}/hands/{hand_id}/edit").text
        version = form.split('name="version" type="hidden" value="', 1)[1].split('"', 1)[0]
        data = {
            "ending": "out-0",
            "version": version,
            "sides-0-set_samba": "1",
            "sides-0-set_natural_canasta": "1",
            "sides-0-melded_points": "300",
            "sides-1-set_mixed_canasta": "1",
            "sides-1-melded_points": "150",
            "sides-1-hand_points": "2900",
        }
        saved = client.post(f"/games/{game_id}/hands/{hand_id}/edit", data=data)
        assert saved.status_code == 302, saved.text
        with statements(app) as seen:
            page = client.get(f"/games/{game_id}").text
        assert "Card points melded: 260 → 300" in page
        counts[hands] = len(seen)
    assert counts[5] <= MOST_STATEMENTS, counts
    assert counts[5] == counts[60], counts


def test_saving_a_hand_runs_as_many_statements_in_a_long_game_as_in_a_short_one(
    app: Flask, client: FlaskClient
) -> None:
    counts = {}
    for hands in (6, 60):
        game_id = game_of(client, hands)
        data = {
            "ending": "out-0",
            "sides-0-set_samba": "1",
            "sides-0-set_natural_canasta": "1",
            "sides-0-melded_points": "260",
            "sides-1-set_mixed_canasta": "1",
            "sides-1-melded_points": "150",
            "sides-1-hand_points": "2900",
        }
        client.get(f"/games/{game_id}/hands/new")  # the form, as the phone opens it first
        with statements(app) as seen:
            saved = client.post(f"/games/{game_id}/hands/new", data=data)
        assert saved.status_code == 302, saved.text
        assert f"saved={hands + 1}" in saved.headers["Location"]
        counts[hands] = len(seen)
        # The hands before it are not read again: the replay is the one the form was drawn from.
        hands_read = [s for s in seen if "FROM hand" in s and "JOIN entry" in s]
        assert not hands_read and not [s for s in seen if "FROM correction" in s], seen
    assert counts[6] == counts[60] <= 13, counts


@pytest.mark.parametrize("language", ["en", "es"])
def test_numbers_are_written_as_babel_writes_them(app: Flask, language: str) -> None:
    """As Babel writes them, but with the minus sign the engine writes (Babel gives a hyphen)."""
    values = [0, 5, -5, 999, 1000, -1000, 9999, 10_000, -12_345, 1_234_567, -(10**18), 10**18]
    with app.test_request_context(headers={"Accept-Language": language}):
        for value in values:
            babel = format_decimal(value, format="#,##0", locale=language)
            assert number(value) == babel.replace("-", "\N{MINUS SIGN}")


def test_a_renamed_player_shows_on_the_kept_scoreboard(client: FlaskClient) -> None:
    """A scoreboard is kept under the game's revision: renaming a player gives a new one."""
    game_id = game_of(client, 5)
    assert "Ana" in client.get(f"/games/{game_id}").text
    renamed = client.post("/players/ana/rename", data={"rename-name": "Anabel"})
    assert renamed.status_code == 302
    page = client.get(f"/games/{game_id}").text
    assert "Anabel" in page
