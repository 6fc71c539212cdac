"""A player renamed (or merged) while the director changes one of the player's nights, on
PostgreSQL: the rename gives the nights a new revision and carries their kept outcomes to it,
the director's write locks the night and writes its outcomes again. Both take the night before
its outcome rows; the other way round, each would hold what the other waits for, and
PostgreSQL would end one of them as a deadlock.

The order is fixed without sleeps: the rename holds on, inside its write, until the database
shows the director's write waiting for a lock (or it is through: nothing held it back).
"""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.web.extensions import db
from scorekeeper.web.services import nights, players
from scorekeeper.web.store.models import Night, player_key
from scorekeeper.web.store.seasons import NightOutcome

from .nights import play_round, set_up
from .races import at_once, held_after

pytestmark = pytest.mark.once


def test_a_player_renamed_while_the_director_changes_their_night_leaves_both_done(
    postgresql: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = postgresql.test_client()
    night_id = set_up(client)
    play_round(client, night_id, 1)
    holding, done = threading.Event(), threading.Event()
    # The rename holds on once it has carried the night's outcomes to its new revision.
    monkeypatch.setattr(players, "carry", held_after(postgresql, players.carry, holding, done))

    def rename() -> str:
        with postgresql.app_context():
            return players.rename_player(player_key("Ana1"), "Anna Uno")[0]

    def a_pair_leaves() -> None:
        try:
            with postgresql.app_context():
                nights.set_present(night_id, 8, False)
        finally:
            done.set()

    answers = at_once(rename, a_pair_leaves, holding)
    assert answers == {"first": player_key("Anna Uno"), "second": None}
    with postgresql.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None and not night.pairs[7].present
        kept = db.session.scalars(
            select(NightOutcome.first).where(
                NightOutcome.night_id == night_id, NightOutcome.revision == night.revision
            )
        ).all()
    assert player_key("Anna Uno") in kept  # outcomes at the night's revision, the new name
