"""Who played on each side is kept on the side (`Side.team`), so that statistics add up sides
without reading every player of every game; it is who its players are after every write that
changes them, and the migration fills it in for games recorded before it."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy import select, update

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services import backup, restore
from scorekeeper.web.services.figures import team_of
from scorekeeper.web.services.game_files import import_game
from scorekeeper.web.store.models import Side
from scorekeeper.web.store.tallies import _players_of

from .apps import another_app, statements
from .helpers import BIG_HAND, game_file

BEFORE_TEAMS = "f6a7b8c9d0e1"


def kept(app: Flask) -> dict[int, frozenset[tuple[str, str]] | None]:
    """Each side's kept team, read as the statistics read it: a set of (key, name)."""
    with app.app_context():
        return {
            side.id: None if side.team is None else _players_of(side.team)
            for side in db.session.scalars(select(Side))
        }


def from_players(app: Flask) -> dict[int, frozenset[tuple[str, str]] | None]:
    """The same, from the sides' players as they are now."""
    with app.app_context():
        return {
            side.id: frozenset((p.key, p.name) for p in side.players if p.key) or None
            for side in db.session.scalars(select(Side))
        }


def test_a_team_spells_its_named_players_so_that_no_name_breaks_it_apart() -> None:
    team = team_of([("1:x,2", "1:X,2"), ("", ""), ("ana", "Ana\x00")])
    assert team is not None
    assert _players_of(team) == {("1:x,2", "1:X,2"), ("ana", "Ana\x00")}
    assert team_of([("", ""), ("", "")]) is None


def test_sides_keep_who_played_after_import_rename_merge_and_undo(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        import_game(game_file((("Ana", "Bo"), ("Cy", "")), (BIG_HAND,)))
        import_game(game_file((("Anna", "Di"), ("Ana", "Cy")), (BIG_HAND,)))
    assert kept(app) == from_players(app)
    assert {("cy", "Cy")} in kept(app).values()  # a side with one named player
    client.post("/players/anna/merge", data={"merge-into": "ana"})
    assert kept(app) == from_players(app)
    client.post("/players/ana/rename", data={"rename-name": "Ana María"})
    assert kept(app) == from_players(app)
    assert {("ana maría", "Ana María"), ("bo", "Bo")} in kept(app).values()
    client.post("/merges/1/undo")
    assert kept(app) == from_players(app)


def test_a_restore_gives_sides_their_teams_back(app: Flask, tmp_path: Path) -> None:
    with app.app_context():
        import_game(game_file((("Ana", "Bo"), ("Cy", "Di")), (BIG_HAND,)))
        data = backup.backup()
    assert all("team" not in side for game in data["games"] for side in game["sides"])
    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        restore.restore(data)
    assert kept(restored) == from_players(restored)
    assert set(kept(restored).values()) == {
        frozenset({("ana", "Ana"), ("bo", "Bo")}),
        frozenset({("cy", "Cy"), ("di", "Di")}),
    }


def test_the_upgrade_fills_the_teams_of_games_recorded_before_it(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite3'}"}
    )
    with app.app_context():
        upgrade()
        import_game(game_file((("Ana", "1:x,2"), ("", "")), (BIG_HAND,)))
        downgrade(revision=BEFORE_TEAMS)
        upgrade()
    assert kept(app) == from_players(app)
    assert None in kept(app).values()  # the side of no named player keeps none


def test_statistics_read_the_sides_not_their_players(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        for n in range(3):
            import_game(game_file((("Ana", f"Partner {n}"), ("Cy", "Di")), (BIG_HAND,)))
    client.get("/stats")
    with statements(app) as seen:
        assert client.get("/stats").status_code == 200
    assert [s for s in seen if "player" in s.lower()] == []


def test_a_stale_team_shows_in_statistics_so_every_write_must_keep_it(
    app: Flask, client: FlaskClient
) -> None:
    """What the tests above guard: statistics believe the kept team, not the players."""
    with app.app_context():
        import_game(game_file((("Ana", "Bo"), ("Cy", "Di")), (BIG_HAND,)))
        db.session.execute(update(Side).values(team=team_of([("zoe", "Zoe")])))
        db.session.commit()
    page = client.get("/stats").text
    assert "Zoe" in page and "Ana" not in page
