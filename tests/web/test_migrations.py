"""A database made by an earlier version upgrades without losing games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import IntegrityError

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services.engine import engine_game
from scorekeeper.web.services.figures import games_differing_from_replay, refresh_stale
from scorekeeper.web.services.game_files import import_game
from scorekeeper.web.services.games import delete_game
from scorekeeper.web.services.loading import game_with_sides
from scorekeeper.web.services.players import merge_players
from scorekeeper.web.store.models import TOKEN_LENGTH, Game, Hand, Player, PlayerMerge, Side

# Earlier versions' databases are SQLite files, as a family's laptop keeps them; the migrations
# from empty run on PostgreSQL whenever a run makes its template database (tests/web/conftest.py).
pytestmark = pytest.mark.sqlite

FIRST_REVISION = "04ba37d62669"
GAME = {
    "variant": "classic",
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["  Ana   María", "Bob"]},
        {"name": "Them", "players": 2},
    ],
    "hands": [
        {
            "entries": [
                {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 300},
                {"melded_points": 60, "hand_points": 20},
            ]
        }
    ],
}


def test_an_upgrade_from_the_first_schema_keeps_every_game_and_fills_the_new_columns(
    tmp_path: Path,
) -> None:
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        game_id = import_game(GAME)
        downgrade(revision=FIRST_REVISION)
        upgrade()
        assert db.session.scalar(select(Side.total).where(Side.game_id == game_id)) is None
        assert refresh_stale() == 1
        totals = db.session.scalars(
            select(Side.total).where(Side.game_id == game_id).order_by(Side.position)
        ).all()
        assert totals == [300 + 1000 + 200, 60 - 20]
        keys = db.session.scalars(select(Player.key).order_by(Player.id)).all()
        assert keys[:2] == ["ana maría", "bob"]
        assert refresh_stale() == 0


def test_the_upgrade_renumbers_hands_doubled_by_old_races_and_replays_their_totals(
    tmp_path: Path,
) -> None:
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'raced.sqlite3'}"}
    )
    stock = {"ended_by": "stock_exhausted", "entries": [{"melded_points": 60}, {}]}
    with app.app_context():
        upgrade()
        game_id = import_game({**GAME, "hands": [*GAME["hands"], stock, stock]})
        downgrade(revision="3730b7de11fd")
        # Two phones once saved hand 2 at the same moment; the stored totals left one out.
        db.session.execute(
            text("UPDATE hand SET position = 2 WHERE game_id = :game AND position = 3"),
            {"game": game_id},
        )
        db.session.execute(text("UPDATE side SET total = 1560 WHERE position = 0"))
        # The hand form once took a token of any length.
        db.session.execute(
            text("UPDATE hand SET token = :token WHERE position = 1"), {"token": "t" * 41}
        )
        db.session.commit()
        upgrade()
        tokens = db.session.scalars(select(Hand.token).where(Hand.game_id == game_id)).all()
        assert all(0 < len(token) <= TOKEN_LENGTH for token in tokens)
        positions = db.session.scalars(
            select(Hand.position).where(Hand.game_id == game_id).order_by(Hand.id)
        ).all()
        assert positions == [1, 2, 3]
        assert refresh_stale() == 1
        assert games_differing_from_replay() == []
        totals = db.session.scalars(
            select(Side.total).where(Side.game_id == game_id).order_by(Side.position)
        ).all()
        assert totals == [1500 + 60 + 60, 40]


def test_the_migrated_database_is_the_one_the_models_describe(tmp_path: Path) -> None:
    """A column added to or dropped from a model comes with its migration."""
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_a_game_keeps_no_copy_of_its_totals_or_winner_beside_its_sides(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        game_id = import_game(GAME)
        columns = {column["name"] for column in inspect(db.engine).get_columns("game")}
        assert not {"totals", "winner"} & columns
        totals = db.session.scalars(
            select(Side.total).where(Side.game_id == game_id).order_by(Side.position)
        ).all()
        assert totals == [300 + 1000 + 200, 60 - 20]


def test_games_from_before_names_and_dealers_upgrade_as_they_were_played_and_downgrade(
    tmp_path: Path,
) -> None:
    """The revision that gave games a name, archiving, a one-time token and a first dealer."""
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'dealt.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        game_id = import_game(GAME)
        downgrade(revision="b7d3e1f5a2c8")
        columns = {c["name"] for c in inspect(db.engine).get_columns("game")}
        assert not columns & {"name", "archived_at", "token", "first_dealer"}
        upgrade()
        row = db.session.execute(
            select(Game.name, Game.archived_at, Game.token, Game.first_dealer)
        ).one()
        assert tuple(row) == (None, None, None, 0)  # named by its players, on the home page,
        assert engine_game(game_with_sides(game_id)).first_dealer == 0  # dealt as the app did
        with app.test_client() as client:
            assert client.get("/").text.count(f"/games/{game_id}") == 1
            page = client.get(f"/games/{game_id}").text
            assert "Next to deal: player 1 of Them" in page  # hand 2: seat 1, as before
        db.session.execute(
            text("UPDATE game SET name = 'Los jueves', first_dealer = 3, token = 'abc'")
        )
        db.session.commit()
        downgrade(revision="b7d3e1f5a2c8")  # a downgrade with the new columns in use
        assert db.session.scalar(select(func.count()).select_from(Side)) == 2


def test_games_and_players_from_before_undo_upgrade_as_they_were_and_downgrade(
    tmp_path: Path,
) -> None:
    """The revision that keeps deleted games a while and records merges of players."""
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'undo.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        kept = import_game(GAME)
        gone = import_game(GAME)
        downgrade(revision="d5a8c3f1e7b2")
        assert "deleted_at" not in {c["name"] for c in inspect(db.engine).get_columns("game")}
        assert "player_merge" not in inspect(db.engine).get_table_names()
        upgrade()
        assert db.session.scalars(select(Game.deleted_at)).all() == [None, None]
        assert db.session.scalar(select(func.count()).select_from(PlayerMerge)) == 0
        with app.test_client() as client:
            assert client.get("/").text.count(f"/games/{kept}") == 1
        assert delete_game(gone)
        merge_players("bob", "ana maría")
        assert db.session.scalar(select(func.count()).select_from(PlayerMerge)) == 1
        db.session.rollback()  # the read's snapshot ends before the downgrade writes
        downgrade(revision="d5a8c3f1e7b2")  # a deleted game was gone for good before
        assert db.session.scalars(select(Game.id)).all() == [kept]
        assert db.session.scalar(select(func.count()).select_from(Side)) == 2
        assert db.session.scalar(select(func.count()).select_from(Hand)) == 1
        db.session.rollback()
        upgrade()
        assert db.session.scalars(select(Game.deleted_at)).all() == [None]


def test_seasons_and_ratings_upgrade_onto_the_nights_and_downgrade(tmp_path: Path) -> None:
    """The revision that gave a club seasons (a night naming its own) and kept ratings."""
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'season.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        kept = import_game(GAME)
        downgrade(revision="f2b8d4e6a1c3")
        tables = inspect(db.engine).get_table_names()
        assert {"season", "rating", "rated_game"}.isdisjoint(tables)
        assert "season_id" not in {c["name"] for c in inspect(db.engine).get_columns("night")}
        upgrade()
        assert {"season", "rating", "rated_game"} <= set(inspect(db.engine).get_table_names())
        assert db.session.scalars(select(Game.id)).all() == [kept]


def test_rated_games_get_their_order_and_totals_and_rating_steps_a_table(tmp_path: Path) -> None:
    """The revision that keeps each rated game's place, totals as rated and steps."""
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'steps.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        first, second = import_game(GAME), import_game(GAME)
        totals = db.session.scalars(
            select(Side.total).where(Side.game_id == first).order_by(Side.position)
        ).all()
        db.session.rollback()
        downgrade(revision="69b386fcde31")
        assert "rating_step" not in inspect(db.engine).get_table_names()
        with db.engine.begin() as connection:  # rated in this order, before the revision
            for game_id, at in ((second, "2026-01-01 10:00:00"), (first, "2026-01-01 11:00:00")):
                connection.execute(
                    text("INSERT INTO rated_game (game_id, rated_at) VALUES (:id, :at)"),
                    {"id": game_id, "at": at},
                )
        upgrade()
        rows = db.session.execute(
            text("SELECT game_id, sequence, totals FROM rated_game ORDER BY sequence")
        ).all()
        assert [(row[0], row[1]) for row in rows] == [(second, 1), (first, 2)]
        assert json.loads(rows[1][2]) == list(totals) and totals[0] != totals[1]
        assert "rating_step" in inspect(db.engine).get_table_names()


def test_rated_games_that_shared_a_place_get_one_each_in_the_replays_order(
    tmp_path: Path,
) -> None:
    """The revision that makes each rated game's place its own: two games that shared one
    (rated at once before the order was locked) are numbered again in the order a replay read
    them (place, then id), and no two games can share a place after."""
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'places.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        games = sorted(import_game(GAME) for _ in range(3))
        db.session.rollback()
        downgrade(revision="d017f94c815f")
        with db.engine.begin() as connection:
            connection.execute(text("DELETE FROM rating_step"))
            connection.execute(text("DELETE FROM rated_game"))
            for game_id, place in zip(games, (2, 1, 1), strict=True):  # the last two shared 1
                connection.execute(
                    text(
                        "INSERT INTO rated_game (game_id, rated_at, sequence) VALUES (:id, :at, :n)"
                    ),
                    {"id": game_id, "at": "2026-01-01 10:00:00", "n": place},
                )
        upgrade()
        rows = db.session.execute(
            text("SELECT game_id, sequence FROM rated_game ORDER BY sequence")
        )
        assert [tuple(row) for row in rows] == [(games[1], 1), (games[2], 2), (games[0], 3)]
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(
                text("UPDATE rated_game SET sequence = 1 WHERE game_id = :id"), {"id": games[0]}
            )
