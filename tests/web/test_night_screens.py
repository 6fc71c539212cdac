"""A club night's screens through the test client: the director's page, its confirmations, the
table cards and the standings' words (issue 34; in a browser: tests/browser/test_room.py)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from .helpers import GOES_OUT, STAYS_IN, Actions
from .nights import cards, end, set_up, standings_link, start, table_game


def play_round(client: FlaskClient, night_id: str, number: int, tables: dict[int, str]) -> None:
    """Round `number` started, one hand at each of `tables` (north-south go out), ended."""
    start(client, night_id, number)
    for url in tables.values():
        game_id = table_game(client, url)
        assert game_id is not None
        Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    end(client, night_id, number)


def test_the_results_say_one_win_and_two_wins_in_each_language(client: FlaskClient) -> None:
    night_id = set_up(client, [("Ana", "Bea"), ("Cy", "Di")], round_count="1", round_hands="1")
    play_round(client, night_id, 1, cards(client, night_id))
    link = standings_link(client, night_id)
    english = client.get(f"{link}/results.txt", headers={"Accept-Language": "en"}).text
    assert "1 win," in english and "1 wins" not in english
    assert "0 wins," in english
    spanish = client.get(f"{link}/results.txt", headers={"Accept-Language": "es"}).text
    assert "1 victoria," in spanish and "1 victorias" not in spanish
    assert "0 victorias," in spanish
    points = re.search(r"1\. Ana & Bea: ([\d,]+) points", english)
    assert points, english
