"""A backup restored into PostgreSQL takes new games and hands.

Runs on a new, empty database of the run's throw-away PostgreSQL (tests/postgres.py); without
one it is skipped, and under CI fails.
"""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.web.extensions import db
from scorekeeper.web.services.backup import backup
from scorekeeper.web.services.restore import restore
from scorekeeper.web.store.models import Hand, Side

from .helpers import GOES_OUT, STAYS_IN, Actions

pytestmark = pytest.mark.once


def test_a_backup_restored_into_postgresql_takes_new_games_and_hands(
    app: Flask, actions: Actions, postgresql: Flask
) -> None:
    played = [actions.new_game(names=(f"Table {n}", "Them")) for n in range(3)]
    for game_id in played:
        actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
        actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    with app.app_context():
        data = backup()
    with postgresql.app_context():
        assert restore(data) == 3
    at_the_table = Actions(postgresql.test_client())
    # The restored rows came with their ids: the next side and hand take ids after them.
    at_the_table.record_hand(played[0], [GOES_OUT, STAYS_IN])
    started = at_the_table.new_game(names=("After", "Restore"))
    at_the_table.record_hand(started, [GOES_OUT, STAYS_IN])
    assert len(at_the_table.hand_ids(played[0])) == 3
    assert len(at_the_table.hand_ids(started)) == 1
    with postgresql.app_context():
        assert db.session.scalar(select(func.count()).select_from(Hand)) == 3 * 2 + 2
        assert db.session.scalar(select(func.count()).select_from(Side)) == 4 * 2
