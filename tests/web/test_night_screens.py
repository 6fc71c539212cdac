"""A club night's screens through the test client: the director's page, its confirmations, the
table cards and the standings' words (issue 34; in a browser: tests/browser/test_room.py)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields
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


def test_a_correction_at_a_table_tells_its_phone_what_changed(client: FlaskClient) -> None:
    night_id = set_up(client, [("Ana", "Bea"), ("Cy", "Di")], round_count="1", round_hands="2")
    start(client, night_id, 1)
    game_id = table_game(client, cards(client, night_id)[1])
    assert game_id is not None
    actions = Actions(client)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    saved = client.get(f"/games/{game_id}?saved=2").text
    assert "Hand 2 saved." in saved and "was corrected" not in saved
    end(client, night_id, 1)
    first = actions.hand_ids(game_id)[0]
    corrected = client.post(
        f"/games/{game_id}/hands/{first}/edit",
        data=hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version="1"),
    )
    assert corrected.status_code == 302, corrected.text
    # The table's phone, which saved hand 2, is told of the correction instead.
    page = client.get(f"/games/{game_id}?saved=2").text
    assert "Hand 2 saved." not in page
    told = re.search(r"<p class=\"announce\" data-announce[^>]*>(.*?)</p>", page, re.S)
    assert told, page
    words = " ".join(told.group(1).split())
    assert words.startswith("Hand 1 was corrected: 1. Ana &amp; Bea · ")
    assert "260 → 300" in words and "Totals: 1. Ana &amp; Bea " in words
    assert "Hand 1 was corrected" in client.get(f"/games/{game_id}/follow").text


def test_a_hand_saved_after_a_correction_is_the_news_again(client: FlaskClient) -> None:
    actions = Actions(client)
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    first = actions.hand_ids(game_id)[0]
    corrected = client.post(
        f"/games/{game_id}/hands/{first}/edit",
        data=hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version="1"),
    )
    assert corrected.status_code == 302, corrected.text
    assert "Hand 1 was corrected" in actions.scoreboard(game_id)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = client.get(f"/games/{game_id}?saved=2").text
    assert "Hand 2 saved." in page and "was corrected" not in page
