"""No phantom results (issue 34, point 2): a game with no hand counts for nobody; ending a round
with tables unfinished says which and asks what each counts as, with a stated default; the
standings say how unplayed and unfinished games count and how pairs with fewer games are
compared, and show it."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.nights import Counting
from scorekeeper.web.extensions import db
from scorekeeper.web.services import nights as service
from scorekeeper.web.services.nights import NightRefused
from scorekeeper.web.services.restore import restore
from scorekeeper.web.store.models import Night

from .apps import TEST_CONFIG, backup_of, built_app
from .helpers import GOES_OUT, STAYS_IN, Actions
from .nights import (
    PAIRS,
    asked_for,
    cards,
    end,
    play_round,
    set_up,
    standings_link,
    start,
    table_game,
)


def standing_rows(page: str) -> dict[int, dict[str, str]]:
    """Each pair's row of the standings: its data attributes and its rounds' outcomes."""
    rows = {}
    for attributes, body in re.findall(r"<tr (data-pair=[^>]*)>(.*?)</tr>", page, re.S):
        row = dict(re.findall(r'data-([a-z]+)="([^"]*)"', attributes))
        row["rounds"] = " ".join(re.findall(r'data-outcome="([a-z-]*)"', body)).strip()
        rows[int(row["pair"])] = row
    return rows


def test_before_any_hand_no_pair_has_won_anything(client: FlaskClient) -> None:
    night_id = set_up(client, PAIRS[:7])  # three tables, pair 4 sits out
    start(client, night_id, 1)
    rows = standing_rows(client.get(standings_link(client, night_id)).text)
    assert {(row["wins"], row["score"], row["place"]) for row in rows.values()} == {
        ("0.0", "0", "1")
    }


@pytest.fixture
def round_with_tables_unfinished(client: FlaskClient) -> tuple[str, dict[int, str]]:
    """Eight pairs, rounds of three hands: at table 1 two hands played, at table 2 none, at
    table 3 one, at table 4 all three (north-south going out each time)."""
    night_id = set_up(client, round_hands="3")
    start(client, night_id, 1)
    games = {t: table_game(client, url) or "" for t, url in cards(client, night_id).items()}
    for table, hands in {1: 2, 2: 0, 3: 1, 4: 3}.items():
        for _ in range(hands):
            Actions(client).record_hand(games[table], [GOES_OUT, STAYS_IN])
    return night_id, games


def test_ending_a_round_says_which_tables_are_unfinished_and_asks_what_each_counts_as(
    client: FlaskClient, app: Flask, round_with_tables_unfinished: tuple[str, dict[int, str]]
) -> None:
    night_id, _games = round_with_tables_unfinished
    asked = client.get(f"/nights/{night_id}/end-round?round=1")
    assert asked.status_code == 200
    assert re.findall(r'data-unfinished="(\d+)"', asked.text) == ["1", "2", "3"]
    assert "Unless you choose, a game counts as it stands once a hand was played" in asked.text
    answers = asked_for(asked.text)
    assert answers == {
        "table_1": "as-it-stands",
        "hands_1": "2",
        "table_2": "not-played",
        "hands_2": "0",
        "table_3": "as-it-stands",
        "hands_3": "1",
    }
    # A table without a hand cannot count as it stands: no such choice, refused if sent.
    table_2 = asked.text.split('data-unfinished="2"')[1].split("</fieldset>")[0]
    assert 'value="as-it-stands"' not in table_2
    refused = client.post(
        f"/nights/{night_id}/end-round",
        data={"round": "1", **answers, "table_2": "as-it-stands"},
    )
    assert refused.status_code == 422 and 'data-unfinished="2"' in refused.text
    # Sent without answers (the director's page's button), it is asked, not ended.
    bare = client.post(f"/nights/{night_id}/end-round", data={"round": "1"})
    assert bare.status_code == 422 and "Say what this table" in bare.text
    assert round_ended(app, night_id) is False

    ended = client.post(
        f"/nights/{night_id}/end-round", data={"round": "1", **answers, "table_3": "not-played"}
    )
    assert ended.status_code == 302
    said = client.get(ended.headers["Location"]).text
    assert "Table 1 stopped unfinished: its game counts as it stood." in said
    assert "Table 2 stopped unfinished: its game counts as not played." in said
    assert "Table 3 stopped unfinished: its game counts as not played." in said
    assert round_ended(app, night_id) is True


def round_ended(app: Flask, night_id: str) -> bool:
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        return night.rounds[0].ended_at is not None


def test_the_standings_count_each_game_as_played_or_as_the_director_chose(
    client: FlaskClient, round_with_tables_unfinished: tuple[str, dict[int, str]]
) -> None:
    night_id, games = round_with_tables_unfinished
    end(client, night_id, 1, {3: "not-played"})
    link = standings_link(client, night_id)
    rows = standing_rows(client.get(link).text)
    totals = {t: game_totals(client, game) for t, game in games.items()}
    # Tables 1 (as it stood) and 4 (finished) count; 2 (no hand) and 3 (the director's
    # choice) count for nobody: their pairs get their average, of no game here.
    for table, ns, ew in ((1, 1, 5), (4, 4, 8)):
        ns_points, ew_points = totals[table]
        assert (rows[ns]["points"], rows[ew]["points"]) == (str(ns_points), str(ew_points))
        assert (rows[ns]["wins"], rows[ew]["wins"], rows[ns]["rounds"]) == ("1.0", "0.0", "win")
    for ns, ew in ((2, 6), (3, 7)):
        for pair in (ns, ew):
            assert (rows[pair]["points"], rows[pair]["wins"], rows[pair]["games"]) == (
                "0",
                "0.0",
                "0",
            )
            assert rows[pair]["rounds"] == "not-played"
    page = client.get(link).text
    assert "A game with no hand counts for nobody; one stopped unfinished counts as" in page
    table = list(csv.reader(io.StringIO(client.get(f"{link}/results.csv").text)))
    assert table[0][3] == "Score" and {row[1]: row[-3] for row in table[1:]}["3"] == "not played"


def game_totals(client: FlaskClient, game_id: str) -> tuple[int, int]:
    ns, ew = client.get(f"/games/{game_id}/result.json").get_json()["totals"]
    return ns, ew


def test_a_table_that_plays_on_while_the_director_answers_is_asked_about_again(
    client: FlaskClient, app: Flask, round_with_tables_unfinished: tuple[str, dict[int, str]]
) -> None:
    night_id, games = round_with_tables_unfinished
    answers = asked_for(client.get(f"/nights/{night_id}/end-round?round=1").text)
    Actions(client).record_hand(games[2], [GOES_OUT, STAYS_IN])  # table 2's first hand
    again = client.post(f"/nights/{night_id}/end-round", data={"round": "1", **answers})
    assert again.status_code == 422
    assert "Table 2 has played on since this page was drawn" in again.text
    assert asked_for(again.text)["hands_2"] == "1"
    assert round_ended(app, night_id) is False


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "A round a pair sat out, or whose game was not played, scores its average"),
        ("es", "Una ronda en que una pareja descansó, o cuya partida no se jugó, suma su media"),
    ],
)
def test_the_standings_and_the_text_say_how_pairs_with_fewer_games_are_compared(
    client: FlaskClient, language: str, line: str
) -> None:
    night_id = set_up(client, PAIRS[:5], round_hands="1")
    link = standings_link(client, night_id)
    client.set_cookie("lang", language)
    assert line in client.get(link).text
    assert line in client.get(f"{link}/results.txt").text


def test_the_text_says_one_win_and_two_wins(client: FlaskClient) -> None:
    # A round robin: pairs 1 and 2, then 1 and 4, sit north-south and win.
    night_id = set_up(client, PAIRS[:4], movement="round-robin", round_count="2", round_hands="1")
    for number in (1, 2):
        start(client, night_id, number)
        for url in cards(client, night_id).values():
            Actions(client).record_hand(table_game(client, url) or "", [GOES_OUT, STAYS_IN])
        end(client, night_id, number)
    text = client.get(f"{standings_link(client, night_id)}/results.txt").text
    wins = re.findall(r"(\d+(?:\.\d+)?) wins?\b", text)
    assert sorted(wins) == ["0", "1", "1", "2"]
    assert "1 win," in text and "2 wins," in text and "0 wins," in text
    client.set_cookie("lang", "es")
    spanish = client.get(f"{standings_link(client, night_id)}/results.txt").text
    assert "1 victoria," in spanish and "2 victorias," in spanish


def test_a_score_with_an_average_shows_its_fraction(client: FlaskClient) -> None:
    """Five pairs, a round robin of five rounds: each sits out once and is credited its average."""
    night_id = set_up(client, PAIRS[:5], movement="round-robin", round_count="2", round_hands="1")
    for number in (1, 2):
        play_round(client, night_id, number)
    rows = standing_rows(client.get(standings_link(client, night_id)).text)
    for row in rows.values():
        games, wins = int(row["games"]), Fraction(row["wins"])
        there = 2  # nobody left or came: two rounds each, played or sat out
        assert Fraction(row["score"]) == (wins * there / games if games else 0)
    sat_out = [row for row in rows.values() if "sat-out" in row["rounds"]]
    assert sat_out and all(row["games"] == "1" for row in sat_out)


def test_the_service_refuses_to_count_a_game_without_a_hand_as_it_stands(
    app: Flask, round_with_tables_unfinished: tuple[str, dict[int, str]]
) -> None:
    night_id, _games = round_with_tables_unfinished
    with app.app_context():
        with pytest.raises(NightRefused) as refused:
            service.end_round(night_id, 1, {2: Counting.AS_IT_STANDS})
        assert (refused.value.code, refused.value.values) == ("nothing-to-count", {"table": 2})
    assert round_ended(app, night_id) is False
    with app.app_context():
        stopped = service.end_round(night_id, 1)  # every table as the default has it
    assert [(s.table, s.hands, s.counting) for s in stopped] == [
        (1, 2, Counting.AS_IT_STANDS),
        (2, 0, Counting.NOT_PLAYED),
        (3, 1, Counting.AS_IT_STANDS),
    ]


def test_a_backup_keeps_what_each_unfinished_game_counts_as(
    client: FlaskClient, app: Flask, round_with_tables_unfinished: tuple[str, dict[int, str]]
) -> None:
    night_id, _games = round_with_tables_unfinished
    end(client, night_id, 1, {3: "not-played"})
    data = json.loads(json.dumps(backup_of(app)))
    seats = data["nights"][0]["rounds"][0]["seats"]
    assert [seat["counting"] for seat in seats] == [
        "as-it-stands",
        "not-played",
        "not-played",
        None,
    ]
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(data)
    link = standings_link(client, night_id)
    assert standing_rows(restored.test_client().get(link).text) == standing_rows(
        client.get(link).text
    )


HOSTILE = ["", "-1", "1.5", "²", "\x00", "x" * 1000, str(10**30), "9" * 5000, "as-it-stands"]


def test_every_field_of_the_end_of_a_round_takes_any_value_and_ends_nothing_wrongly(
    client: FlaskClient, app: Flask, round_with_tables_unfinished: tuple[str, dict[int, str]]
) -> None:
    night_id, _games = round_with_tables_unfinished
    answers = {"round": "1", **asked_for(client.get(f"/nights/{night_id}/end-round?round=1").text)}
    for name in answers:
        for value in HOSTILE:
            if name.startswith("table_1") or (name, value) == ("table_3", "as-it-stands"):
                continue  # table 1 and 3 may count as they stand: a right answer
            sent = {**answers, name: value}
            answer = client.post(f"/nights/{night_id}/end-round", data=sent)
            assert answer.status_code in (302, 422), (name, value)
            assert round_ended(app, night_id) is False, (name, value)
    for page in ("/end-round?round=²", "/end-round?round=2", "/end-round"):
        assert client.get(f"/nights/{night_id}{page}").status_code == 302
    assert round_ended(app, night_id) is False
