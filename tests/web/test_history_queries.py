"""The history pages ask the database the same few things whether there are 21 games or 51, page
through them with `db.paginate`, and tell players apart whatever their names hold.

Counts of SQL statements, not times (the times are `benchmarks/history.py`'s).
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.store import queries

from .apps import statements
from .helpers import (
    BIG_HAND,
    FIRST_HAND,
    SECOND_HAND,
    cards,
    game_file,
    games_page,
    import_game,
    listed,
)

PAGES = ["/games", "/games?player=ana&page=2", "/games?page=9", "/stats", "/players/ana"]


def some_games(client: FlaskClient, count: int) -> None:
    """`count` games of Ana with someone new each time, and hands of every kind."""
    for n in range(count):
        players = (("Ana", f"Partner {n}"), (f"Rival {n}", f"Other {n % 3}"))
        hands = (FIRST_HAND, SECOND_HAND) if n % 2 else (BIG_HAND, BIG_HAND)
        import_game(client, game_file(players, hands))


@pytest.mark.parametrize("page", PAGES)
def test_a_history_page_asks_as_much_for_51_games_as_for_21(
    app: Flask, client: FlaskClient, page: str
) -> None:
    some_games(client, queries.PAGE_SIZE + 1)  # a second page, of one game
    client.get(page)  # once before counting: what is kept in memory for every page is kept now
    with statements(app) as few:
        assert client.get(page).status_code == 200
    some_games(client, 30)
    with statements(app) as many:
        assert client.get(page).status_code == 200
    # A player's page also reads the merges into the player, to offer to undo them, the club's
    # choice of ratings' pool, their rating with their partnerships' (one read), their rating's
    # steps for its chart, and the club nights they played (none here).
    assert len(many) == len(few) <= (11 if page.startswith("/players/") else 6), many


def test_statistics_are_one_statement(app: Flask, client: FlaskClient) -> None:
    some_games(client, 5)
    client.get("/stats")
    with statements(app) as seen:
        client.get("/stats")
    assert len([s for s in seen if s.lstrip().upper().startswith("SELECT")]) == 1


def test_paging_edges(app: Flask, client: FlaskClient) -> None:
    with app.test_request_context():
        empty = queries.game_page()
        assert (empty.rows, empty.page, empty.newer, empty.older) == ([], 1, None, None)
    ids = [import_game(client, game_file()) for _ in range(queries.PAGE_SIZE * 2)]
    with app.test_request_context():
        first, second, third = (queries.game_page(page=n) for n in (1, 2, 3))
        far = queries.game_page(page=queries.LAST_PAGE + 5)
    assert [row.id for row in first.rows] == ids[::-1][: queries.PAGE_SIZE]
    assert (first.newer, first.older) == (None, 2)
    assert [row.id for row in second.rows] == ids[::-1][queries.PAGE_SIZE :]
    assert (second.newer, second.older) == (1, None)  # exactly two full pages: no third
    assert (third.rows, third.newer, third.older) == ([], 2, None)
    assert (far.rows, far.page, far.newer, far.older) == ([], queries.LAST_PAGE + 5, 2, None)
    assert listed(games_page(client, "?page=3")) == []


def test_names_holding_separators_or_control_characters_are_told_apart(
    client: FlaskClient,
) -> None:
    awkward = ("3:ab", "Ana\nBo", "1:x2:yz,\x01A")  # a NUL no database keeps: test_schema
    import_game(client, game_file(((awkward[0], awkward[1]), (awkward[2], "Di")), (BIG_HAND,)))
    import_game(client, game_file(((awkward[1], awkward[0]), ("Cy", "Di")), (BIG_HAND,)))
    found = cards(client.get("/stats").text)
    assert found["3:ab"]["Games"] == "2"
    assert found["Ana Bo"]["Games"] == "2"  # the name as shown, its spacing tidied
    assert found["1:x2:yz,\x01A"]["Games"] == "1"
    assert found["3:ab & Ana Bo"]["Games"] == "2"  # one partnership, whichever way round
