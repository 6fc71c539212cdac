"""A club night's screens through the test client: the director's page, its confirmations, the
table cards and the standings' words (issue 34; in a browser: tests/browser/test_room.py)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.nights import mitchell

from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields
from .nights import (
    PAIRS,
    asked_for,
    cards,
    end,
    end_night,
    play_round,
    set_up,
    standings_link,
    start,
    table_game,
)


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
    points = re.search(r"1\. Ana & Bea: score 1 — ([\d,]+) points", english)
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
    told = re.search(r"<p class=\"last-hand\" data-announce[^>]*>(.*?)</p>", page, re.S)
    assert told, page
    words = " ".join(told.group(1).split())
    assert words.startswith("Hand 1 was corrected: 1. Ana &amp; Bea · ")
    assert words.endswith("260 → 300.")
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


def standings_state(client: FlaskClient, night_id: str) -> tuple[int, bool]:
    """The night's round and whether it ended, as its standings' state says."""
    state = client.get(f"{standings_link(client, night_id)}/state.json").get_json()
    return state["round"], state["ended"]


def round_in_play(client: FlaskClient, night_id: str) -> bool:
    return "is being played." in client.get(f"/nights/{night_id}").text


def test_end_round_pressed_once_asks_and_ends_nothing(client: FlaskClient) -> None:
    night_id = set_up(client, round_hands="2")
    start(client, night_id, 1)
    game_id = table_game(client, cards(client, night_id)[2])
    assert game_id is not None
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    director = client.get(f"/nights/{night_id}").text
    button = re.search(r'<a class="button primary big" href="([^"]+)">End round 1</a>', director)
    assert button, director
    # The button only asks; so does a post that answers nothing (a tap through, a stale form).
    for asked in (
        client.get(button.group(1)),
        client.post(button.group(1).split("?")[0], data={"round": "1"}),
    ):
        assert asked.status_code in (200, 422)
        assert "End round 1?" in asked.text
        assert "4 tables have not finished. Say what each game counts as." in asked.text
        assert asked.text.count('<fieldset class="side" data-unfinished=') == 4
    assert round_in_play(client, night_id)
    end(client, night_id, 1)
    assert not round_in_play(client, night_id)


def test_a_double_tap_on_the_confirmation_ends_one_round_only(client: FlaskClient) -> None:
    night_id = set_up(client, round_hands="1")
    start(client, night_id, 1)
    asked = client.get(f"/nights/{night_id}/end-round?round=1").text
    confirm = {"round": "1", **asked_for(asked)}
    first = client.post(f"/nights/{night_id}/end-round", data=confirm)
    assert first.status_code == 302
    start(client, night_id, 2)
    again = client.post(f"/nights/{night_id}/end-round", data=confirm, follow_redirects=True)
    assert "Round 1 is not being played" in again.text
    # Nor is an ended round's end asked again, from a page left open on it.
    stale = client.get(f"/nights/{night_id}/end-round?round=1", follow_redirects=True)
    assert "Round 1 is not being played" in stale.text and "End round 1?" not in stale.text
    assert standings_state(client, night_id) == (2, False) and round_in_play(client, night_id)


def test_end_the_night_pressed_once_asks_and_ends_nothing(client: FlaskClient) -> None:
    night_id = set_up(client)
    start(client, night_id, 1)
    director = client.get(f"/nights/{night_id}").text
    # "End the night" stands at the foot of the page, after everything about the round.
    assert director.index("End the night") > director.index("Rank so")
    assert director.index("End round 1") < director.index("table by table")
    assert f'href="/nights/{night_id}/end"' in director  # a link to the page that asks
    for asked in (client.get(f"/nights/{night_id}/end"), client.post(f"/nights/{night_id}/end")):
        assert asked.status_code in (200, 422) and "End the night?" in asked.text
        assert "4 tables have not finished. Say what each game counts as." in asked.text
        assert "Round 1 of 3: the rounds after it are not played." in asked.text
    assert standings_state(client, night_id) == (1, False)
    assert "/results" in end_night(client, night_id)
    assert standings_state(client, night_id) == (1, True)


def test_a_pair_leaving_is_asked_once(client: FlaskClient) -> None:
    night_id = set_up(client, round_hands="1")
    play_round(client, night_id, 1, {})
    asked = client.get(f"/nights/{night_id}/leaves?pair=3")
    assert asked.status_code == 200 and "Does pair 3 leave?" in asked.text
    assert "Ana3 &amp; Bea3" in asked.text
    client.post(f"/nights/{night_id}/leaves", data={"pair": "3"})
    assert "Ana3 &amp; Bea3 (left)" not in client.get(f"/nights/{night_id}").text
    client.post(f"/nights/{night_id}/leaves", data={"pair": "3", "confirm": "yes"})
    assert "Ana3 &amp; Bea3 (left)" in client.get(f"/nights/{night_id}").text
    again = client.get(f"/nights/{night_id}/leaves?pair=3", follow_redirects=True)
    assert "Pair 3 has left already." in again.text


def test_the_directors_page_shows_each_tables_score_and_hand_and_follows_them(
    client: FlaskClient,
) -> None:
    night_id = set_up(client, round_hands="2")
    start(client, night_id, 1)
    tables = cards(client, night_id)
    game_id = table_game(client, tables[1])
    assert game_id is not None
    actions = Actions(client)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    totals = actions.result(game_id)["totals"]
    page = client.get(f"/nights/{night_id}")
    followed = page.text.split("<div data-follow>", 1)[1]
    first = re.search(r'<li class="playing" data-table="1".*?</li>', followed, re.S)
    assert first, followed
    shown = " ".join(first.group(0).split())
    assert (
        f'<b class="pair-total">{totals[0]:,}</b>' in shown
        and f'<b class="pair-total">{totals[1]:,}</b>' in shown
    )
    assert "hand 2 of 2" in shown
    # The counts follow the night: they are in what the page swaps in.
    assert "4 tables have not finished" in followed
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    again = client.get(f"/nights/{night_id}", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 200 and "3 tables have not finished" in again.text
    second = table_game(client, tables[2])
    assert second is not None
    actions.record_hand(second, [GOES_OUT, STAYS_IN])
    end(client, night_id, 1)
    stopped = client.get(f"/nights/{night_id}").text
    assert "hand 1 of 2" not in stopped and "hand 2 of 2" not in stopped
    # Each says what the director counted it as (the defaults, here).
    assert "stopped after 1 hand · counts as it stood<" in stopped
    assert "stopped before its first hand · counts as not played<" in stopped
    assert stopped.count('class="finished"') == 1 and stopped.count('class="stopped"') == 3


def test_each_table_card_says_who_plays_at_it_round_after_round(client: FlaskClient) -> None:
    night_id = set_up(client)  # 8 pairs, a Mitchell movement of 3 rounds at 4 tables
    page = client.get(f"/nights/{night_id}/cards").text
    third = page.split('id="card-3"', 1)[1].split("</section>", 1)[0]
    for number, seat in (
        (r.number, next(s for s in r.seats if s.table == 3)) for r in mitchell(8, 3)
    ):
        row = re.search(rf'<tr data-round="{number}">(.*?)</tr>', third, re.S)
        assert row, third
        cells = " ".join(row.group(1).split())
        assert f"<td>{seat.ns}. Ana{seat.ns} &amp; Bea{seat.ns}</td>" in cells
        assert f"<td>{seat.ew}. Ana{seat.ew} &amp; Bea{seat.ew}</td>" in cells
    # The standings link has a QR code of its own, for the room.
    standings = page.split('id="standings-title"', 1)[1].split("</section>", 1)[0]
    assert "<svg" in standings and 'id="standings-link"' in standings


def test_a_table_card_between_rounds_shows_who_comes_to_it_next(client: FlaskClient) -> None:
    night_id = set_up(client, round_hands="1")
    card = cards(client, night_id)[2]
    before = client.get(card).text
    assert '<tr data-round="1" class="next">' in before
    play_round(client, night_id, 1, {})
    waiting = client.get(card).text
    assert '<tr data-round="2" class="next">' in waiting and 'data-round="1" class' not in waiting
    seat = next(s for s in mitchell(8, 3)[1].seats if s.table == 2)
    assert f"{seat.ns}. Ana{seat.ns} &amp; Bea{seat.ns}" in waiting
    # Only this table's rounds: not every table's.
    assert waiting.count("<tr data-round=") == 3


def test_a_tables_phone_waits_at_its_card_while_its_table_sits_out(client: FlaskClient) -> None:
    night_id = set_up(client, PAIRS[:7], round_hands="1")  # the ghost, pair 8, makes a sit-out
    resting = next(s.table for s in mitchell(8, 3)[1].seats if 8 in (s.ns, s.ew))
    card = cards(client, night_id)[resting]
    start(client, night_id, 1)
    first = table_game(client, card)
    assert first is not None
    end(client, night_id, 1)
    start(client, night_id, 2)
    # From round 1's game the phone goes on to its card, not to the standings: there it waits
    # for round 3 with its table.
    going = client.get(f"/games/{first}/next")
    assert going.status_code == 302 and going.headers["Location"] == card
    assert "its pair sits out" in client.get(card).text
    end(client, night_id, 2)
    start(client, night_id, 3)
    assert table_game(client, card) is not None
