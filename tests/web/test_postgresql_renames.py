"""A player renamed (or merged) while the director changes or deletes one of the player's
nights, on PostgreSQL: the rename gives the nights a new revision and carries their kept
outcomes to it, the director's write locks the night and writes its outcomes again. Both take
the night before its outcome rows; the other way round, each would hold what the other waits
for, and PostgreSQL would end one of them as a deadlock. And both lock the games in order of
id before anything else (`nights._lock_games`): an update that locked them in the order it
found them would hold one game a night's delete waits for while it waits for another the
delete holds.

The order is fixed without sleeps: the rename holds on, inside its write, until the database
shows the director's write waiting for a lock (or it is through: nothing held it back).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import select, text, update

from scorekeeper.web.extensions import db
from scorekeeper.web.services import nights, players
from scorekeeper.web.store.models import Game, Night, Player, Side, player_key
from scorekeeper.web.store.seasons import NightOutcome

from .nights import play_round, set_up
from .races import at_once, held_after, wait_for_a_write_waiting_for_a_lock

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


def test_a_player_renamed_while_their_night_is_deleted_leaves_both_done(
    postgresql: Flask,
) -> None:
    """The rename and the delete both wait for a game of the night held by a third writer
    (`holder`): the rename first, then the delete, so that each has locked what comes before
    that game in its own order when the holder lets go. The rename's games are laid out so
    that an update finds the game of the larger id first (the other one rewritten, it lies
    after it): held first, an update would lock it and then wait for the other, which the
    delete, in order of id, holds while it waits for the first."""
    client = postgresql.test_client()
    night_id = set_up(client)
    play_round(client, night_id, 1)
    play_round(client, night_id, 2)
    key = player_key("Ana1")
    with postgresql.app_context():
        played = select(Side.game_id).join(Player).where(Player.key == key)
        low, high = sorted(db.session.scalars(played))[:2]
        # Rewritten: its row now lies after the other's, where a scan finds it second.
        db.session.execute(update(Game).where(Game.id == low).values(name=Game.name))
        db.session.commit()
        engine = db.engine
    holder = engine.connect()
    answers: dict[str, object] = {}

    def run(name: str, write: Callable[[], object]) -> None:
        try:
            with postgresql.app_context():
                answers[name] = write()
        except Exception as error:  # the deadlock: said by the assert below
            answers[name] = error

    renaming = threading.Thread(
        target=run, args=("rename", lambda: players.rename_player(key, "Anna Uno")[0])
    )
    deleting = threading.Thread(target=run, args=("delete", lambda: nights.delete_night(night_id)))
    try:
        holder.execute(text("SELECT id FROM game WHERE id = :id FOR UPDATE"), {"id": high})
        renaming.start()
        try:
            assert wait_for_a_write_waiting_for_a_lock(postgresql)  # the rename, for `high`
            deleting.start()
            assert wait_for_a_write_waiting_for_a_lock(postgresql, writes=2)
        finally:
            holder.rollback()  # let go: both go on
            for thread in (renaming, deleting):
                if thread.ident is not None:
                    thread.join()
    finally:
        holder.close()
    assert answers == {"rename": player_key("Anna Uno"), "delete": True}
