"""Ratings as the club keeps them: a merge of players (or a rename that merges, or a merge
undone) leaves each rating what the games give, as if the player had always had one name; each
rated game keeps what it did to each rating, which the player's chart draws."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.web.extensions import db
from scorekeeper.web.services.players import merge_players, rename_player, undo_merge
from scorekeeper.web.store.models import PlayerMerge
from scorekeeper.web.store.seasons import RatedGame, Rating, RatingStep

from .apps import TEST_CONFIG, built_app
from .nights import FIRST, SECOND, play_night

Kept = dict[tuple[str, str, str], tuple[float, float, int]]


def ratings_kept(app: Flask) -> Kept:
    with app.app_context():
        return {
            (r.pool, r.first, r.second): (r.mu, r.sigma, r.games)
            for r in db.session.scalars(select(Rating))
        }


def steps_kept(app: Flask) -> list[tuple[str, str, str, float, float, int]]:
    """Each rated game's steps, games in the order they were rated (not by their ids)."""
    with app.app_context():
        rows = db.session.execute(
            select(RatingStep)
            .join(RatedGame)
            .order_by(RatedGame.sequence, RatingStep.pool, RatingStep.first, RatingStep.second)
        ).scalars()
        return [(s.pool, s.first, s.second, s.mu_before, s.mu, s.games) for s in rows]


def renamed(pairs: list[tuple[str, str]], old: str, new: str) -> list[tuple[str, str]]:
    return [tuple(new if name == old else name for name in pair) for pair in pairs]  # type: ignore[misc]


def two_nights_as(pairs: tuple[list[tuple[str, str]], list[tuple[str, str]]]) -> Flask:
    app = built_app(TEST_CONFIG)
    client = app.test_client()
    play_night(client, pairs[0], "First")
    play_night(client, pairs[1], "Second")
    return app


def test_a_merged_player_is_rated_as_if_they_had_always_been_one(
    app: Flask, client: FlaskClient
) -> None:
    # Beto was written "Roberto" the second night: two players, two ratings.
    play_night(client, FIRST, "First")
    play_night(client, renamed(SECOND, "Beto", "Roberto"), "Second")
    apart = ratings_kept(app)
    assert ("all", "roberto", "") in apart
    with app.app_context():
        merge_players("roberto", "beto")
    one = two_nights_as((FIRST, SECOND))  # the same nights, Beto always Beto
    assert ratings_kept(app) == ratings_kept(one)
    assert not any("roberto" in (first, second) for _, first, second in ratings_kept(app))
    assert steps_kept(app) == steps_kept(one)
    assert ratings_kept(app)["all", "beto", ""][2] == 2  # both nights' games
    with app.app_context():
        merge_id = db.session.scalar(select(PlayerMerge.id))
        assert merge_id is not None
        undo_merge(merge_id)
    assert ratings_kept(app) == apart  # apart again, as they were


def test_a_rename_moves_the_ratings_and_a_rename_that_merges_merges_them(
    app: Flask, client: FlaskClient
) -> None:
    play_night(client, FIRST, "First")
    play_night(client, renamed(SECOND, "Beto", "Roberto"), "Second")
    with app.app_context():
        rename_player("roberto", "Rob")
    assert ("all", "rob", "") in ratings_kept(app)
    assert not any("roberto" in key for key in ratings_kept(app))
    with app.app_context():
        rename_player("rob", "Beto")
    assert ratings_kept(app) == ratings_kept(two_nights_as((FIRST, SECOND)))
