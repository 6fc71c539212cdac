"""What each process keeps of a game (services/kept.py) is never stale: a process that keeps a
game reads a hand recorded elsewhere alone, and reads the game whole again after any other
change made in another process; its pages are then those of a process that kept nothing.

Two apps on one database are two server processes (on PostgreSQL, when the run is on it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .apps import TEST_CONFIG, built_app, database_url, statements
from .helpers import GOES_OUT, STAYS_IN, Actions, game_of, hidden, without_tokens

PAGES = ("", "/follow", "/display", "/hands/new", "/state.json")
"""The pages of a game that follow it, drawn from the game kept."""


def shared(tmp_path: Path) -> tuple[Flask, Flask]:
    """Two apps (two processes) on one database."""
    url = database_url(tmp_path, "kept.sqlite3")
    here = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    return here, built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})


def pages(client: FlaskClient, game_id: str) -> dict[str, str]:
    return {page: without_tokens(client.get(f"/games/{game_id}{page}").text) for page in PAGES}


def first_hand(client: FlaskClient, game_id: str) -> int:
    page = client.get(f"/games/{game_id}").text
    return int(page.split('<tr id="hand-', 1)[1].split('"', 1)[0])


def record(client: FlaskClient, game_id: str) -> None:
    Actions(client).record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")


def correct(client: FlaskClient, game_id: str) -> None:
    hand_id = first_hand(client, game_id)
    form = client.get(f"/games/{game_id}/hands/{hand_id}/edit").text
    data = {
        "ending": "out-0",
        "version": hidden(form, "version"),
        "sides-0-set_samba": "1",
        "sides-0-set_natural_canasta": "1",
        "sides-0-melded_points": "300",
        "sides-1-set_mixed_canasta": "1",
        "sides-1-melded_points": "150",
        "sides-1-hand_points": "2900",
    }
    assert client.post(f"/games/{game_id}/hands/{hand_id}/edit", data=data).status_code == 302


def delete(client: FlaskClient, game_id: str) -> None:
    hand_id = first_hand(client, game_id)
    version = hidden(client.get(f"/games/{game_id}/hands/{hand_id}/delete").text, "version")
    answer = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": version})
    assert answer.status_code == 302


def bring_back(client: FlaskClient, game_id: str) -> None:
    hand_id = first_hand(client, game_id)
    delete(client, game_id)
    assert client.post(f"/games/{game_id}/hands/{hand_id}/restore").status_code == 302


def rename_game(client: FlaskClient, game_id: str) -> None:
    answer = client.post(f"/games/{game_id}/rename", data={"game-name": "Friday"})
    assert answer.status_code == 302


def rename_player(client: FlaskClient, game_id: str) -> None:
    answer = client.post("/players/ana/rename", data={"rename-name": "Ana María"})
    assert answer.status_code == 302


def record_and_correct(client: FlaskClient, game_id: str) -> None:
    """A hand recorded, then an earlier one corrected: the hand alone does not make the game."""
    record(client, game_id)
    correct(client, game_id)


def correct_and_record(client: FlaskClient, game_id: str) -> None:
    correct(client, game_id)
    record(client, game_id)


CHANGES = [
    record,
    correct,
    delete,
    bring_back,
    rename_game,
    rename_player,
    record_and_correct,
    correct_and_record,
]


@pytest.mark.parametrize("change", CHANGES, ids=[change.__name__ for change in CHANGES])
def test_a_change_made_in_another_process_shows_on_the_pages_of_one_that_kept_the_game(
    tmp_path: Path, change: Callable[[FlaskClient, str], None]
) -> None:
    here, there = shared(tmp_path)
    game_id = game_of(here.test_client(), 6)
    before = pages(here.test_client(), game_id)  # kept here, at this revision
    change(there.test_client(), game_id)
    after = pages(here.test_client(), game_id)
    fresh = built_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": here.config["SQLALCHEMY_DATABASE_URI"]}
    )
    assert after == pages(fresh.test_client(), game_id)  # as a process that kept nothing
    assert after != before


def test_a_hand_recorded_in_another_process_is_read_alone_whatever_the_game_s_length(
    tmp_path: Path,
) -> None:
    here, there = shared(tmp_path)
    counts = {}
    for hands in (3, 40):
        game_id = game_of(here.test_client(), hands)
        here.test_client().get(f"/games/{game_id}")  # kept here
        record(there.test_client(), game_id)
        with statements(here) as seen:
            page = here.test_client().get(f"/games/{game_id}")
        assert f"Hand {hands + 2}" in page.text  # the next hand, after the one recorded there
        counts[hands] = [s.split()[0] for s in seen]
    # The door's peek, and the hand recorded since (on SQLite its BEGIN too).
    assert counts[3] == counts[40] and len(counts[3]) <= 3, counts


def test_the_process_that_saves_a_hand_reads_none_to_draw_the_game_again(app: Flask) -> None:
    client = app.test_client()
    counts = {}
    for hands in (3, 40):
        game_id = game_of(client, hands)
        client.get(f"/games/{game_id}")  # kept here
        record(client, game_id)
        with statements(app) as seen:
            page = client.get(f"/games/{game_id}")
        assert f"Hand {hands + 2}" in page.text
        counts[hands] = len(seen)
    assert counts == {3: 1, 40: 1}  # the door's peek alone
