"""Each side keeps a copy of its game's system, whether it is over and when it began
(`Side.system_id`, `Side.over`, `Side.created_at`), so that statistics add up the sides alone,
read in order from one index, without joining the games; the copy is the game's after every
write that makes sides or ends a game, and the migration fills it in for games recorded before
it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy import select, update

from scorekeeper import rules
from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services import backup, restore
from scorekeeper.web.services.game_files import import_game
from scorekeeper.web.services.games import NewSide, create_game
from scorekeeper.web.services.hands import delete_hand, record_hand
from scorekeeper.web.store.models import Side

from .apps import another_app, statements
from .helpers import BIG_HAND, FIRST_HAND, game_file, stats

BEFORE_COPIES = "c3e8f1a6b9d2"

Copies = dict[int, tuple[str | None, bool | None, datetime | None]]


def kept(app: Flask) -> Copies:
    """Each side's copy of its game's system, end and start."""
    with app.app_context():
        sides = db.session.scalars(select(Side))
        return {side.id: (side.system_id, side.over, side.created_at) for side in sides}


def from_games(app: Flask) -> Copies:
    """The same, read from each side's game."""
    with app.app_context():
        sides = db.session.scalars(select(Side))
        return {
            side.id: (side.game.system_id, side.game.over, side.game.created_at) for side in sides
        }


def test_sides_keep_their_games_system_end_and_start_when_a_hand_ends_it_or_its_delete_does_not(
    app: Flask,
) -> None:
    with app.app_context():
        game_id = import_game(game_file(hands=(BIG_HAND,)))
        import_game(game_file(system="denexa", hands=()))
        create_game("classic", [], [NewSide("Us", ["Ana", "Bo"]), NewSide("Them", ["Cy", "Di"])])
    assert kept(app) == from_games(app)
    assert not any(over for _system, over, _began in kept(app).values())
    with app.app_context():
        hand = rules.read_game(game_file(hands=(BIG_HAND,))).hands[0]
        recorded = record_hand(game_id, hand, "the hand that ends it")
    assert kept(app) == from_games(app)
    assert sum(bool(over) for _system, over, _began in kept(app).values()) == 2  # its two sides
    with app.app_context():
        delete_hand(game_id, recorded.hand_id, 1)
    assert kept(app) == from_games(app)
    assert not any(over for _system, over, _began in kept(app).values())
    assert {system for system, _over, _began in kept(app).values()} == {"classic", "denexa"}


def test_a_restore_gives_sides_their_games_copies_back(app: Flask, tmp_path: Path) -> None:
    with app.app_context():
        import_game(game_file(hands=(BIG_HAND, BIG_HAND)))
        import_game(game_file(system="denexa", hands=(FIRST_HAND,)))
        data = backup.backup()
    copied = ("system_id", "over", "created_at")
    assert not any(set(copied) & set(side) for game in data["games"] for side in game["sides"])
    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        restore.restore(data)
    assert kept(restored) == from_games(restored)
    assert sorted(kept(restored).values()) == sorted(kept(app).values())


def test_the_upgrade_fills_the_copies_of_games_recorded_before_it(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        import_game(game_file(hands=(BIG_HAND, BIG_HAND)))
        import_game(game_file(system="denexa", hands=(FIRST_HAND,)))
        downgrade(revision=BEFORE_COPIES)
        upgrade()
    assert kept(app) == from_games(app)
    assert {over for _system, over, _began in kept(app).values()} == {True, False}


def test_statistics_join_no_game_to_its_sides(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        import_game(game_file(hands=(BIG_HAND,)))
    client.get("/stats")
    with statements(app) as seen:
        assert client.get("/stats").status_code == 200
    assert seen
    assert [s for s in seen if "join" in s.lower()] == []


def test_a_stale_copy_shows_in_statistics_so_every_write_must_keep_it(
    app: Flask, client: FlaskClient
) -> None:
    """What the tests above guard: statistics believe the side's copy, not its game."""
    with app.app_context():
        import_game(game_file(hands=(BIG_HAND, BIG_HAND)))  # Us wins
    assert stats(client)["Ana"]["Finished"] == "1"
    with app.app_context():
        db.session.execute(update(Side).values(over=False))
        db.session.commit()
    assert stats(client)["Ana"]["Finished"] == "0"
