"""The rated games' order on PostgreSQL (`services.ratings.ORDER_LOCK`): a merge of players,
which replays the rated games of its pools, and a game that ends among new players at the same
moment; two games that end at once. Without the lock the first loses the game's steps and the
second gives two games one place in the order.

The order of the two writes is fixed without sleeps: the first holds on, inside its write,
until the database shows the second waiting for a lock (or the second is through: no lock held
it back, and the test fails).
"""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.web.extensions import db
from scorekeeper.web.services import ratings
from scorekeeper.web.services.players import merge_players
from scorekeeper.web.store.seasons import RatedGame, RatingStep

from .helpers import GOES_OUT, STAYS_IN, Actions
from .races import at_once, held_after

pytestmark = pytest.mark.once

STEPS_OF_A_GAME_OF_PAIRS = 12
"""Four players and two pairs, each in the pool of every system and in the game's own."""


def near_its_end(actions: Actions, *players: str) -> str:
    """A game of two pairs one hand from its end (north-south go out)."""
    named = {f"side_list-{i // 2}-players-{i % 2}": name for i, name in enumerate(players)}
    return actions.new_game(start_scores=(9900, 0), players=named)


def end(actions: Actions, game_id: str) -> int:
    return actions.post_hand(game_id, [GOES_OUT, STAYS_IN]).status_code


def steps_by_game(app: Flask) -> dict[str, int]:
    with app.app_context():
        rows = db.session.execute(
            select(RatedGame.game_id, func.count(RatingStep.game_id))
            .outerjoin(RatingStep, RatingStep.game_id == RatedGame.game_id)
            .group_by(RatedGame.game_id)
        )
        return {game_id: count for game_id, count in rows}


def places(app: Flask) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(select(RatedGame.sequence).order_by(RatedGame.sequence)))


def test_a_merge_replaying_the_ratings_keeps_a_game_that_ends_meanwhile_among_new_players(
    postgresql: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    actions = Actions(postgresql.test_client())
    for partner in ("Beto", "Roberto"):  # one player written two ways, rated as two
        assert end(actions, near_its_end(actions, "Ana", partner, "Cy", "Di")) == 302
    ending = near_its_end(actions, "Ed", "Flo", "Gus", "Hal")  # no rating row yet
    holding, done = threading.Event(), threading.Event()
    # The merge holds on once it has read the rated games and started replaying them.
    monkeypatch.setattr(ratings, "_play", held_after(postgresql, ratings._play, holding, done))

    def merge() -> None:
        with postgresql.app_context():
            merge_players("roberto", "beto")

    def end_the_game() -> int:
        try:
            return end(actions, ending)
        finally:
            done.set()

    answers = at_once(merge, end_the_game, holding)
    assert answers["second"] == 302
    steps = steps_by_game(postgresql)
    assert steps[ending] == STEPS_OF_A_GAME_OF_PAIRS  # none deleted by the merge's replay
    assert set(steps.values()) == {STEPS_OF_A_GAME_OF_PAIRS} and places(postgresql) == [1, 2, 3]


def test_two_games_that_end_at_once_take_two_places_in_the_order(
    postgresql: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    actions = Actions(postgresql.test_client())
    left = near_its_end(actions, "Ana", "Bo", "Cy", "Di")
    right = near_its_end(actions, "Ed", "Flo", "Gus", "Hal")  # no player in common
    holding, done = threading.Event(), threading.Event()
    # The first game holds on once it has its place in the order.
    monkeypatch.setattr(
        ratings, "_next_place", held_after(postgresql, ratings._next_place, holding, done)
    )

    def end_right() -> int:
        try:
            return end(Actions(postgresql.test_client()), right)
        finally:
            done.set()

    answers = at_once(lambda: end(actions, left), end_right, holding)
    assert (answers["first"], answers["second"]) == (302, 302)
    assert places(postgresql) == [1, 2]
    assert set(steps_by_game(postgresql).values()) == {STEPS_OF_A_GAME_OF_PAIRS}
