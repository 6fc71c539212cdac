"""A club night's record as played (issue 34, point 1): every round keeps who sat where, who
sat out and who had left or not arrived; a pair leaving or arriving changes the rounds to come,
never those played, on the seating, the results, the CSV, the text, the standings and a backup.

The night of the issue: eight pairs in a Mitchell movement (round 1: pair 1 meets pair 5 at
table 1), pair 5 leaving after round 2 and pair 9 arriving for round 3."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy import select

from scorekeeper import nights
from scorekeeper.web.extensions import db
from scorekeeper.web.services import nights as service
from scorekeeper.web.services.restore import restore
from scorekeeper.web.store.models import Game, Night, NightRound, Side

from .apps import TEST_CONFIG, backup_of, built_app, database_url
from .helpers import Actions, without_tokens
from .nights import PAIRS, play_round, set_up, standings_link, start


def the_issues_night(client: FlaskClient) -> str:
    """Pair 5 plays rounds 1 and 2 and leaves; pair 9 arrives for round 3, which is played."""
    night_id = set_up(client, round_hands="1")
    play_round(client, night_id, 1)
    play_round(client, night_id, 2)
    assert (
        client.post(f"/nights/{night_id}/leaves", data={"pair": "5", "confirm": "yes"}).status_code
        == 302
    )
    arrived = client.post(
        f"/nights/{night_id}/arrives",
        data={"arriving-first": "Quique", "arriving-second": "Rosa"},
    )
    assert arrived.status_code == 302
    play_round(client, night_id, 3)
    return night_id


@pytest.fixture
def played() -> tuple[Flask, str]:
    # One per test: on PostgreSQL a test's database copy is taken back when the test ends.
    app = built_app(TEST_CONFIG)
    return app, the_issues_night(app.test_client())


def rounds_shown(page: str) -> dict[int, dict[str, Any]]:
    """Each round of a seating (the seating page, the results' "Every round"): its tables and
    who sat out, had left or had not arrived, by pair number."""
    shown: dict[int, dict[str, Any]] = {}
    for section in re.findall(r'<section class="night-round".*?</section>', page, re.S):
        number = int(re.search(r'id="round-(\d+)"', section).group(1))  # type: ignore[union-attr]
        tables = re.findall(r'data-table="(\d+)" data-ns="(\d+)" data-ew="(\d+)"', section)
        shown[number] = {"tables": [tuple(map(int, t)) for t in tables]}
        for name in ("sitting-out", "absent", "not-arrived"):
            line = re.search(rf"<p data-{name}>(.*?)</p>", section, re.S)
            found = re.findall(r"(\d+)\. ", line.group(1)) if line else []
            shown[number][name] = [int(n) for n in found]
    return shown


MITCHELL = {r.number: [(s.table, s.ns, s.ew) for s in r.seats] for r in nights.mitchell(8, 3)}


def test_every_round_shows_who_sat_where_as_it_was_played_after_a_pair_left_and_one_came(
    played: tuple[Flask, str],
) -> None:
    app, night_id = played
    client = app.test_client()
    link = standings_link(client, night_id)
    for page in (f"/nights/{night_id}/seating", f"{link}/results"):
        shown = rounds_shown(client.get(page).text)
        for number in (1, 2):  # played by the eight pairs there: pair 5 at its table
            assert shown[number] == {
                "tables": MITCHELL[number],
                "sitting-out": [],
                "absent": [],
                "not-arrived": [9],
            }, (page, number)
        third = shown[3]
        assert third["absent"] == [5] and third["not-arrived"] == [], page
        seated = sorted(p for _t, ns, ew in third["tables"] for p in (ns, ew))
        # Nine pairs there, one of them left: eight at four tables, none sitting out but
        # whoever met pair 5 or the ghost.
        assert sorted([*seated, *third["sitting-out"]]) == [1, 2, 3, 4, 6, 7, 8, 9], page
        assert 9 in seated and 5 not in seated, page


def test_the_standings_csv_and_text_say_where_each_pair_was_in_each_round(
    played: tuple[Flask, str],
) -> None:
    app, night_id = played
    client = app.test_client()
    link = standings_link(client, night_id)
    page = client.get(link).text
    cells = {
        int(pair): re.findall(r'data-outcome="([a-z-]*)"', row)
        for pair, row in re.findall(r'<tr data-pair="(\d+)"(.*?)</tr>', page, re.S)
    }
    assert cells[1] == ["win", "win", "win"]  # north-south went out at every table
    assert cells[5] == ["loss", "loss", "left"]
    assert cells[9][:2] == ["not-arrived", "not-arrived"]
    rows = list(csv.reader(io.StringIO(client.get(f"{link}/results.csv").text)))
    by_pair = {row[1]: row[-3:] for row in rows[1:]}
    assert by_pair["5"][2] == "had left" and by_pair["9"][:2] == ["had not arrived"] * 2
    assert all(cell.lstrip("-").isdigit() for cell in by_pair["1"])
    text = client.get(f"{link}/results.txt").text
    round_1 = text.split("Round 1", 1)[1].split("Round 2", 1)[0]
    assert "Table 1: 1. Ana1 & Bea1 — 5. Ana5 & Bea5" in round_1
    assert "Had not arrived yet: 9. Quique & Rosa" in round_1
    assert "Sat out" not in round_1
    assert "Had left: 5. Ana5 & Bea5" in text.split("Round 3", 1)[1]


def test_the_standings_are_the_sums_of_the_games_as_played(played: tuple[Flask, str]) -> None:
    app, night_id = played
    client = app.test_client()
    totals: dict[int, int] = {}
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        for played_round in night.rounds:
            for seat in played_round.seats:
                if seat.game_id is None:
                    continue
                sides = db.session.scalars(
                    select(Side.total).where(Side.game_id == seat.game_id).order_by(Side.position)
                ).all()
                totals[seat.ns] = totals.get(seat.ns, 0) + (sides[0] or 0)
                totals[seat.ew] = totals.get(seat.ew, 0) + (sides[1] or 0)
    page = client.get(standings_link(client, night_id)).text
    rows = re.findall(r'data-pair="(\d+)" data-points="(-?\d+)"', page)
    shown = {int(pair): int(points) for pair, points in rows}
    assert shown == {pair: totals.get(pair, 0) for pair in range(1, 10)}


def test_a_backup_keeps_every_round_as_played(played: tuple[Flask, str]) -> None:
    app, night_id = played
    data = json.loads(json.dumps(backup_of(app)))
    rounds = data["nights"][0]["rounds"]
    assert [(r["sitting_out"], r["absent"]) for r in rounds[:2]] == [([], []), ([], [])]
    assert rounds[2]["absent"] == [5]
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(data)
    client, again = app.test_client(), restored.test_client()
    link = standings_link(client, night_id)
    for page in (f"/nights/{night_id}/seating", f"{link}/results", link, f"{link}/results.txt"):
        assert strip_tokens(again.get(page).text) == strip_tokens(client.get(page).text), page


def strip_tokens(page: str) -> str:
    return re.sub(r'(name="csrf_token" value|data-revision)="[^"]*"', "", page)


def test_a_backup_of_version_1_restores_its_rounds_as_near_as_it_tells() -> None:
    """Version 1 kept no record: a pair at a table without a game sat out; none had left."""
    app = built_app(TEST_CONFIG)
    client = app.test_client()
    night_id = set_up(client, PAIRS[:7], round_hands="1")  # a ghost: one pair sits out
    play_round(client, night_id, 1)
    data = json.loads(json.dumps(backup_of(app)))
    data["version"] = 1
    for r in data["nights"][0]["rounds"]:
        del r["sitting_out"], r["absent"]
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(data)
    page = f"/nights/{night_id}/seating"
    assert rounds_shown(restored.test_client().get(page).text) == rounds_shown(
        client.get(page).text
    )
    with restored.app_context():
        first = db.session.scalars(select(NightRound).where(NightRound.number == 1)).one()
        assert (first.sitting_out, first.absent) == ([nights.mitchell(7, 1)[0].sitting_out[0]], [])


def test_an_upgraded_database_keeps_what_its_started_rounds_tell(tmp_path: Any) -> None:
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "up.db")})
    client = app.test_client()
    night_id = set_up(client, PAIRS[:7], round_hands="1")
    start(client, night_id, 1)
    page = f"/nights/{night_id}/seating"
    before = rounds_shown(client.get(page).text)
    assert before[1]["sitting-out"] == list(nights.mitchell(7, 1)[0].sitting_out)
    with app.app_context():
        downgrade(revision="d1e5a9c3b7f2")
        upgrade()
        assert service.night_of(night_id).rounds[1].sitting_out is None  # not started
    assert rounds_shown(app.test_client().get(page).text) == before


def test_a_game_of_a_night_is_not_deleted_on_its_own(client: FlaskClient, app: Flask) -> None:
    """Its night's standings count it: deleting it alone would change a night's record behind
    its director's back (the standings kept their old figures); the night is deleted whole."""
    night_id = set_up(client, round_hands="1")
    play_round(client, night_id, 1)
    link = standings_link(client, night_id)
    standings = client.get(link).text
    with app.app_context():
        game_id = db.session.scalars(select(Game.id).where(Game.night_id == night_id)).first()
    asked = client.get(f"/games/{game_id}/delete")
    assert asked.status_code == 200
    assert "is deleted only with the whole night" in asked.text
    assert 'class="danger big"' not in asked.text  # no button to press
    refused = client.post(f"/games/{game_id}/delete")
    assert refused.status_code == 409
    assert "is deleted only with the whole night" in refused.text
    assert client.get(f"/games/{game_id}").status_code == 200
    # The same page, but for its CSRF token, signed anew each second.
    assert without_tokens(client.get(link).text) == without_tokens(standings)
    other = Actions(client).new_game()  # any other game still goes
    assert client.post(f"/games/{other}/delete").status_code == 302
    assert client.get(f"/games/{other}").status_code == 404
