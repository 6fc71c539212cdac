"""A club night through the test client, as its director and its tables use it: set up, rounds
started and ended, table cards and the games they lead to."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Night

from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields

PAIRS = [(f"Ana{n}", f"Bea{n}") for n in range(1, 9)]
PIN = "2468"


def night_form(pairs: list[tuple[str, str]], **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Tuesday",
        "system": "classic",
        "movement": "mitchell",
        "ranking": "wins",
        "round_count": "3",
        "round_hands": "2",
    }
    for i, (first, second) in enumerate(pairs):
        data[f"pairs-{i}-first"] = first
        data[f"pairs-{i}-second"] = second
    data.update(fields)
    return data


def set_up(client: FlaskClient, pairs: list[tuple[str, str]] = PAIRS, **fields: Any) -> str:
    response = client.post(f"/nights/new?pairs={len(pairs)}", data=night_form(pairs, **fields))
    assert response.status_code == 302, response.text
    return response.headers["Location"].split("/")[2]


def start(client: FlaskClient, night_id: str, number: int) -> None:
    response = client.post(f"/nights/{night_id}/start", data={"round": str(number)})
    assert response.status_code == 302


def end(
    client: FlaskClient, night_id: str, number: int, counts: dict[int, str] | None = None
) -> None:
    """Round `number` ended as its director ends it: asked what each unfinished table counts
    as, answered as `counts` says (table: "as-it-stands" or "not-played"), else the default."""
    asked = client.get(f"/nights/{night_id}/end-round", query_string={"round": str(number)})
    assert asked.status_code == 200, asked.text
    answers = {**asked_for(asked.text), **{f"table_{t}": c for t, c in (counts or {}).items()}}
    response = client.post(f"/nights/{night_id}/end-round", data={"round": str(number), **answers})
    assert response.status_code == 302, response.text


def end_night(client: FlaskClient, night_id: str, counts: dict[int, str] | None = None) -> str:
    """The night ended as its director ends it (asked, during a round, what each unfinished
    table counts as: answered as `end` does); where it leads, its results."""
    response = client.post(f"/nights/{night_id}/end")
    if response.status_code == 422:
        answers = {
            **asked_for(response.text),
            **{f"table_{t}": c for t, c in (counts or {}).items()},
        }
        response = client.post(f"/nights/{night_id}/end", data=answers)
    assert response.status_code == 302, response.text
    return response.headers["Location"]


def asked_for(page: str) -> dict[str, str]:
    """What the end of a round sends as its page has it: the radio buttons checked (each
    unfinished table's default) and the hidden fields (the hands each table had played)."""
    found = {}
    for tag in re.findall(r"<input [^>]*>", page):
        attributes = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag))
        kind = attributes.get("type")
        if kind == "hidden" and attributes.get("name", "").startswith("hands_"):
            found[attributes["name"]] = attributes["value"]
        if kind == "radio" and re.search(r"\schecked[\s>]", tag):
            found[attributes["name"]] = attributes["value"]
    return found


def play_round(
    client: FlaskClient,
    night_id: str,
    number: int,
    tables: dict[int, str] | None = None,
    hands: Callable[[int], int] = lambda table: 1,
    *,
    ends: bool = True,
) -> None:
    """Round `number` started, `hands(table)` hands saved at each of `tables` (the table cards'
    paths; every card unless given) that has a game in it (north-south go out), and ended
    unless `ends` is false."""
    start(client, night_id, number)
    for table, url in (cards(client, night_id) if tables is None else tables).items():
        game_id = table_game(client, url)
        for _ in range(hands(table) if game_id is not None else 0):
            saved = client.post(
                f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN])
            )
            assert saved.status_code == 302, saved.text
    if ends:
        end(client, night_id, number)


def cards(client: FlaskClient, night_id: str) -> dict[int, str]:
    page = client.get(f"/nights/{night_id}/cards").text
    return {
        int(n): url for n, url in re.findall(r'data-card="(\d+)" href="http://[^/]+([^"]+)"', page)
    }


def standings_link(client: FlaskClient, night_id: str) -> str:
    page = client.get(f"/nights/{night_id}/cards").text
    found = re.search(r'id="standings-link" href="http://[^/]+([^"]+)"', page)
    assert found
    return found.group(1)


def table_game(client: FlaskClient, card: str) -> str | None:
    response = client.get(card)
    if response.status_code != 302:
        return None
    return response.headers["Location"].split("/")[2]


def seats(app: Flask, night_id: str, number: int) -> list[tuple[int, int, int]]:
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        played = next(r for r in night.rounds if r.number == number)
        return [(s.table, s.ns, s.ew) for s in played.seats]


def night_state(app: Flask, night_id: str) -> tuple[object, ...]:
    """What a refused form must leave as it was: the night's revision, its round, each round's
    start, end and seats, and who is here."""
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        return (
            night.revision,
            night.current_round,
            [
                (r.started_at, r.ended_at, [(s.table, s.ns, s.ew) for s in r.seats])
                for r in night.rounds
            ],
            [p.present for p in night.pairs],
        )


FIRST = [("Ana", "Beto"), ("Carla", "Dani"), ("Eva", "Fede"), ("Gus", "Hugo")]
SECOND = [("Ana", "Carla"), ("Beto", "Dani"), ("Eva", "Fede"), ("Gus", "Hugo")]
"""Ana and Beto change partners for the second night; Eva and Fede stay together."""


def play_night(client: FlaskClient, pairs: list[tuple[str, str]], name: str) -> str:
    """A night of one round of one hand at each of its two tables, north-south going out at
    table 1 and east-west at table 2, ended."""
    night_id = set_up(client, pairs, name=name, round_count="1", round_hands="1")
    start(client, night_id, 1)
    games = {
        table: table_game(client, card) or "" for table, card in cards(client, night_id).items()
    }
    Actions(client).record_hand(games[1], [GOES_OUT, STAYS_IN])
    Actions(client).record_hand(games[2], [STAYS_IN, GOES_OUT], ending="out-1")
    end(client, night_id, 1)
    end_night(client, night_id)
    return night_id


def seated(app: Flask, night_id: str) -> dict[int, tuple[int, int]]:
    """Each table's (north-south, east-west) pair numbers in round 1."""
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        return {seat.table: (seat.ns, seat.ew) for seat in night.rounds[0].seats}
