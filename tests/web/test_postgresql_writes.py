"""Writes on PostgreSQL: a write that waited for the game's lock reads what the write before it
left, and scores past 32 bits are kept.

Runs on a new database of the run's throw-away PostgreSQL (tests/postgres.py); without one it
is skipped, and under CI fails.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scorekeeper.web.extensions import db
from scorekeeper.web.services import access, push
from scorekeeper.web.services import hands as hand_services

from .apps import assert_figures_are_the_replays
from .helpers import GOES_OUT, STAYS_IN, Actions
from .races import WAITING_AT_MOST, at_once, held_after, wait_for_a_write_waiting_for_a_lock

pytestmark = pytest.mark.once


def test_a_hand_saved_while_another_phone_deletes_one_is_added_to_the_totals_the_delete_left(
    postgresql: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The order of the two phones is fixed, without sleeps: the delete holds the lock until
    the database shows the save waiting for it."""
    actions = Actions(postgresql.test_client())
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    first = actions.hand_ids(game_id)[0]
    deleting = threading.Event()
    store_figures = hand_services.store_figures

    def store_once_the_save_waits(game: Any, result: Any, last: Any = None) -> None:
        if last is None:  # the delete's, not the save's (which stores its new hand's alone)
            deleting.set()
            # A save that never waited wrote beside the delete, unlocked: its answer is a 500.
            wait_for_a_write_waiting_for_a_lock(postgresql)
        store_figures(game, result, last)

    monkeypatch.setattr(hand_services, "store_figures", store_once_the_save_waits)

    def delete() -> int:
        client = postgresql.test_client()
        return client.post(
            f"/games/{game_id}/hands/{first}/delete", data={"version": "1"}
        ).status_code

    def save() -> int:
        assert deleting.wait(WAITING_AT_MOST)
        # The same hand again: the sides as they were before the delete have the totals and
        # the count of hands that the save gives them after it.
        return (
            Actions(postgresql.test_client()).post_hand(game_id, [GOES_OUT, STAYS_IN]).status_code
        )

    statuses: dict[str, int] = {}

    def run(name: str, send: Callable[[], int]) -> None:
        statuses[name] = send()

    threads = [
        threading.Thread(target=run, args=pair) for pair in [("delete", delete), ("save", save)]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert statuses == {"delete": 302, "save": 302}
    assert len(actions.hand_ids(game_id)) == 1
    assert_figures_are_the_replays(postgresql)


LARGEST_START = 100_000
"""The largest start score the app takes, above or below zero (docs/game-file.md)."""
HOLDING = 10**9
"""The most card points a game file's entry may hold (in hand or melded)."""
CAUGHT_HOLDING = {"ended_by": "stock_exhausted", "entries": [{"hand_points": HOLDING}] * 2}
SAMBAS = {"samba": 10**9}
"""A house rule: a samba is worth as much as a game file's largest number."""
TWO_SAMBAS = {
    "ended_by": "stock_exhausted",
    "entries": [{"sets": {"samba": 2}, "melded_points": HOLDING}, {}],
}


def game_file(starts: tuple[int, int], hands: list[Any], **more: Any) -> dict[str, Any]:
    sides = [
        {"name": name, "players": 2, "start_score": start, "player_names": players}
        for name, start, players in zip(
            ("Us", "Them"), starts, (["Ana", "Bea"], ["Cai", "Dan"]), strict=True
        )
    ]
    return {"variant": "classic", "sides": sides, "hands": hands, **more}


@pytest.mark.parametrize(
    ("data", "totals"),
    [
        pytest.param(
            game_file((LARGEST_START, -LARGEST_START), [CAUGHT_HOLDING] * 3),
            [LARGEST_START - 3 * HOLDING, -LARGEST_START - 3 * HOLDING],
            id="three hands holding 10^9 in hand",
        ),
        pytest.param(
            game_file((LARGEST_START, 0), [TWO_SAMBAS], house_rules={"set_bonuses": SAMBAS}),
            [LARGEST_START + 3 * HOLDING, 0],
            id="a hand of two sambas worth 10^9 each",
        ),
    ],
)
def test_a_game_file_with_totals_past_32_bits_is_imported_and_shown(
    postgresql: Flask, data: dict[str, Any], totals: list[int]
) -> None:
    client = postgresql.test_client()
    imported = client.post("/games/import", json=data)
    assert imported.status_code == 201, imported.text
    game_id = imported.get_json()["id"]
    assert Actions(client).result(game_id)["totals"] == totals
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get("/stats").status_code == 200
    assert client.get("/players/ana").status_code == 200
    assert_figures_are_the_replays(postgresql)


def test_two_phones_signed_out_at_once_are_both_signed_out(
    postgresql: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Who may follow changes twice at once on a database with no access stamp yet (a new
    one): the first change writes the stamp and holds on until the second waits for it; the
    second then writes its own, and neither fails on the stamp's key (services/push.py)."""
    with postgresql.app_context():
        phones = [access.sign_in(None) for _ in range(2)]
    holding, done = threading.Event(), threading.Event()
    changed_access = push.changed_access

    def stamped() -> None:
        changed_access()
        db.session.flush()  # the stamp written, its transaction still open

    monkeypatch.setattr(push, "changed_access", held_after(postgresql, stamped, holding, done))

    def signing_out(phone: str) -> Callable[[], str]:
        def sign_out() -> str:
            with postgresql.app_context():
                try:
                    access.sign_out(phone)
                    return "signed out"
                except Exception as error:  # what a phone would get as a 500
                    return repr(error)
                finally:
                    done.set()

        return sign_out

    answers = at_once(signing_out(phones[0]), signing_out(phones[1]), holding)
    assert answers == {"first": "signed out", "second": "signed out"}
    with postgresql.app_context():
        assert access.signed_in(phones[0]) is None
        assert access.signed_in(phones[1]) is None
