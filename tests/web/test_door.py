"""One door per game: every route with a game in its address comes in through `door.enter`."""

from __future__ import annotations

import inspect
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import create_app

from .apps import TEST_CONFIG, statements
from .helpers import Actions

GAME_IN_ADDRESS = re.compile(r"^/games/<(?:[a-z]+:)?(\w+)>")
NOT_A_GAME = {"/games/new", "/games/import", "/games/archived"}


def bypassing_the_door(app: Flask) -> list[str]:
    """The routes whose address names a game that would not come in through the door: a game
    under another name than `game_id` (the door would not see it), or a view still taking
    `game_id` itself (it would read the game on its own)."""
    found = []
    for rule in app.url_map.iter_rules():
        named = GAME_IN_ADDRESS.match(rule.rule)
        if rule.rule in NOT_A_GAME or (named is None and "game_id" not in rule.arguments):
            continue
        reads_it_itself = (
            "game_id" in inspect.signature(app.view_functions[rule.endpoint]).parameters
        )
        if named is None or named.group(1) != "game_id" or reads_it_itself:
            found.append(rule.endpoint)
    return found


def test_every_route_of_a_game_comes_in_through_the_door(app: Flask) -> None:
    game_routes = [r for r in app.url_map.iter_rules() if "game_id" in r.arguments]
    assert len(game_routes) >= 16  # the scoreboard, its hands, files, rules and management
    assert bypassing_the_door(app) == []


def test_a_route_that_reads_the_game_on_its_own_is_found() -> None:
    app = create_app(dict(TEST_CONFIG))

    @app.get("/games/<game_id>/sideways")
    def sideways(game_id: str) -> str:
        return game_id

    @app.get("/games/<gid>/renamed")
    def renamed(gid: str) -> str:
        return gid

    assert bypassing_the_door(app) == ["sideways", "renamed"]


def sample_url(rule_text: str, game_id: str, hand_id: int) -> str:
    return re.sub(r"<(?:\w+:)?hand_id>", str(hand_id), rule_text.replace("<game_id>", game_id))


def test_every_route_of_a_game_that_is_not_there_answers_404(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    for rule in app.url_map.iter_rules():
        if "game_id" not in rule.arguments:
            continue
        url = sample_url(rule.rule, "no-such-game", 1)
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            response = client.open(url, method=method)
            if rule.endpoint == "games.delete" and method == "POST":
                assert response.status_code == 302  # pressed again after it deleted the game
            else:
                assert response.status_code == 404, (method, url, response.status_code)
    assert client.get(f"/games/{game_id}").status_code == 200


@pytest.mark.parametrize(
    "page",
    ["/games/{game}", "/games/{game}/hands/new", "/games/{game}/rules", "/games/{game}/manage"],
)
def test_a_game_page_reads_the_game_once(
    app: Flask, client: FlaskClient, actions: Actions, page: str
) -> None:
    game_id = actions.new_game()
    with statements(app) as seen:
        assert client.get(page.format(game=game_id)).status_code == 200
    games_read = [s for s in seen if re.search(r"\bFROM game\b", s)]
    # The door's peek at the revision outside a transaction, then again in the snapshot of the
    # page drawn, and the game with its sides: never again.
    assert len(games_read) <= 2 + 1, games_read
